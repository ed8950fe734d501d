"""The slow-client attack, for real, against a server on this machine: many connections that
each send a request line and then one header line every few seconds, never ending their
headers; and the latency of ordinary requests (`GET /api/v1/kinds`, moves) made meanwhile, to
set against the same requests made with no attack on (tests/api/test_slow_clients.py, and its
longer run with the issue's figures, `python -m tests.benchmarks bench_slow_clients`)."""

from __future__ import annotations

import http.client
import json
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAIN = [2**i for i in range(10)]  # 1, 2, 4, ..., 512: each a multiple of the one before
NEW_GAME = {
    "kind": "factor-multiple",
    "options": {"n": 1000, "even_start": False},
    "seats": [{"human": {"name": "A"}}, {"human": {"name": "B"}}],
    "first": 0,
}


class SlowClients:
    """`count` connections to `address`, each sending one more header line every `every_s`
    seconds, while the block runs: from a process of their own, so that their work takes no
    time from the requests the test times. `open` counts those the server has not closed, and
    `lines_sent` the rounds sent, as the process last reported them (each round)."""

    def __init__(self, address: tuple[str, int], count: int, every_s: float = 3.0):
        self.address, self.count, self.every_s = address, count, every_s
        self.open, self.lines_sent = count, 0
        self.proc: subprocess.Popen | None = None
        self.reader = threading.Thread(target=self._read, name="slow-clients", daemon=True)

    def __enter__(self) -> SlowClients:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.slow_clients",
                self.address[0],
                str(self.address[1]),
                str(self.count),
                str(self.every_s),
            ],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        if self.proc.stdout.readline().strip() != "connected":
            raise RuntimeError("the slow clients could not all connect")
        self.reader.start()
        return self

    def __exit__(self, *exc) -> None:
        self.proc.stdin.close()  # its sign to stop, after one last report
        self.proc.wait(timeout=30)
        self.reader.join(timeout=10)

    def _read(self) -> None:
        for line in self.proc.stdout:
            report = json.loads(line)
            self.open, self.lines_sent = report["open"], report["lines"]


def trickle(address: tuple[str, int], count: int, every_s: float) -> None:
    """The slow clients' process: connect them all, say so, then every `every_s` send each
    open one a header line and report; until standard input closes."""
    socks = []
    for _ in range(count):
        sock = socket.create_connection(address, timeout=10)
        sock.sendall(b"GET /api/v1/kinds HTTP/1.1\r\nHost: slow\r\n")
        sock.setblocking(False)
        socks.append(sock)
    print("connected", flush=True)
    closed: set[int] = set()
    lines = 0
    stop = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    while not stop.wait(every_s):
        closed |= _closed(socks, closed)
        for i, sock in enumerate(socks):
            if i not in closed:
                try:
                    sock.send(f"X-Slow-{lines}: 1\r\n".encode())
                except OSError:  # reset by the server
                    closed.add(i)
        lines += 1
        print(json.dumps({"open": count - len(closed), "lines": lines}), flush=True)
    closed |= _closed(socks, closed)
    print(json.dumps({"open": count - len(closed), "lines": lines}), flush=True)
    for sock in socks:
        sock.close()


def _closed(socks: list[socket.socket], known: set[int]) -> set[int]:
    """Those of `socks` the server has closed: readable, and reading gives the end (or an
    answer, which comes only as it closes one)."""
    found = set()
    with selectors.DefaultSelector() as selector:
        for i, sock in enumerate(socks):
            if i not in known:
                selector.register(sock, selectors.EVENT_READ, i)
        if not selector.get_map():
            return found
        for key, _ in selector.select(timeout=0):
            try:
                key.fileobj.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                pass
            found.add(key.data)
    return found


class Client:
    """Ordinary requests over one kept connection, each timed."""

    def __init__(self, address: tuple[str, int]):
        self.conn = http.client.HTTPConnection(*address, timeout=30)

    def request(self, method: str, path: str, body=None, headers=None) -> tuple[int, dict, float]:
        """(status, JSON answer, seconds it took)."""
        started = time.perf_counter()
        self.conn.request(
            method,
            path,
            body=None if body is None else json.dumps(body),
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        response = self.conn.getresponse()
        data = response.read()
        took = time.perf_counter() - started
        return response.status, json.loads(data or b"null"), took

    def close(self) -> None:
        self.conn.close()


def kinds_times(address: tuple[str, int], count: int) -> list[float]:
    """Seconds each of `count` `GET /api/v1/kinds` took, one after another."""
    client = Client(address)
    try:
        times = []
        for _ in range(count):
            status, _, took = client.request("GET", "/api/v1/kinds")
            assert status == 200, status
            times.append(took)
        return times
    finally:
        client.close()


def move_times(address: tuple[str, int], count: int) -> list[float]:
    """Seconds each of `count` moves took (201 each), in games of the chain 1, 2, 4, ... made
    for them first."""
    client = Client(address)
    try:
        games = []
        for _ in range(-(-count // len(CHAIN))):
            status, game, _ = client.request("POST", "/api/v1/games", NEW_GAME)
            assert status == 201, (status, game)
            games.append(game)
        times = []
        for ply, number in enumerate(CHAIN):
            for game in games:
                if len(times) == count:
                    return times
                status, answer, took = client.request(
                    "POST",
                    f"/api/v1/games/{game['id']}/moves",
                    {"move": {"type": "say", "number": number}, "ply": ply},
                    {"Authorization": f"Bearer {game['tokens'][str(ply % 2)]}"},
                )
                assert status == 201, (status, answer)
                times.append(took)
        return times
    finally:
        client.close()


def p99(times: list[float]) -> float:
    return statistics.quantiles(times, n=100, method="inclusive")[98]


if __name__ == "__main__":
    trickle((sys.argv[1], int(sys.argv[2])), int(sys.argv[3]), float(sys.argv[4]))
