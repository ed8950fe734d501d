"""HTTP throughput and bot latency, each as a ratio against a baseline measured in the same run.

- `GET /games/{id}` with a matching ETag (304), without one (full game), `GET /me/games` with a
  matching ETag (an account holding ten games), and `POST` a move, each against a bare Flask
  JSON endpoint (tests/benchmarks/bare_app.py) served by the same gunicorn settings, all loaded
  by `wrk` (tests/benchmarks/wrk.py), so the client is not the bottleneck.
- Bot reply latency (human move posted -> bot move stored, seen from the client) against RQ's
  own round trip for an empty job on the same worker, measured the same way.

Run: `make bench` (all benchmarks) or `.venv/bin/python -m tests.benchmarks bench_api`.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import redis
from rq import Queue

from api.cli import WORKER_CLASS, gunicorn_options
from api.followups import QUEUE, RQFollowups
from api.notify.events import GAME_EVENTS
from api.play import service
from api.record import Seat
from api.players import accounts as players
from api.store.accounts import AccountStore
from api.store.embedded import free_port, start_redis
from api.store.games import GameStore
from tests.benchmarks import wrk

DURATION_S = float(os.environ.get("BENCH_SECONDS", "4"))
ROUNDS = 5  # (a stall of the machine takes a 4 s round to a third of its rate, bare Flask too)
# goals: a ratio against the bare endpoint's rate (issue 39's for the 304, with no stale answer;
# issue 22's for the move; the full GET's and /me/games' are this benchmark's own marks: for
# /me/games the issue asks only that the poll read versions alone)
GOALS = {"304": 0.70, "full": 0.35, "me": 0.50, "moves": 0.35}
# more than a round can make (each move is valid once; a wrk thread that runs out repeats its
# list, and those answers are 409s): no move is faster than the bare endpoint, which has not
# passed 10,000 requests/s on this machine. (12,000 once ran out in the fastest rounds, and
# those were the rounds the best-of-three then set aside for their errors.)
MOVES_PER_ROUND = int(DURATION_S * 10_000)


def _gunicorn(app: str, port: int, env: dict, procs: list) -> None:
    """gunicorn as `postplay serve` runs it (its worker class and limits, 2 processes), without
    the access log, for the app and the bare baseline alike."""
    procs.append(
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                *gunicorn_options(),
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                app,
            ],
            env=env,
            stderr=subprocess.DEVNULL,
        )
    )
    for _ in range(600):  # a minute: a loaded machine starts it slowly
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/v1/health")
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{app} did not start")


def _request(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request(
        method,
        path,
        body=json.dumps(body) if body is not None else None,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    response = conn.getresponse()
    return response.status, dict(response.getheaders()), json.loads(response.read() or b"null")


CHAIN = [2**i for i in range(10)]  # 1, 2, 4, ..., 512: each a multiple of the one before
NEW_GAME = {
    "kind": "factor-multiple",
    "options": {"n": 1000, "even_start": False},
    "seats": [{"human": {"name": "A"}}, {"human": {"name": "B"}}],
    "first": 0,
}


def move_lists(store: GameStore, followups, count: int) -> list[list[list[str]]]:
    """`count` moves for wrk's threads: games of the chain 1, 2, 4, ..., made through the play
    service, their moves interleaved (every game's first move, then every second...) so that
    no game's next move is sent before its last was answered."""
    games = []
    for _ in range(count // len(CHAIN)):
        record, tokens = service.create_game(
            store,
            followups,
            "factor-multiple",
            NEW_GAME["options"],
            [Seat.human("A"), Seat.human("B")],
            0,
        )
        games.append((record.id, tokens))
    lists: list[list[list[str]]] = [[] for _ in range(wrk.THREADS)]
    for ply, number in enumerate(CHAIN):
        for i, (game_id, tokens) in enumerate(games):
            lists[i % wrk.THREADS].append(
                [
                    "POST",
                    f"/api/v1/games/{game_id}/moves",
                    tokens[str(ply % 2)],
                    json.dumps({"move": {"type": "say", "number": number}, "ply": ply}),
                ]
            )
    return lists


def account_with_games(client: redis.Redis, store: GameStore, followups, games: int = 10):
    """A signed-in account holding `games` games against people: its token."""
    accounts = AccountStore(client)
    _, token, _ = players.sign_up(accounts, "bench-player", "a long bench password")
    who = players.authenticate(accounts, token)
    for _ in range(games):
        service.create_game(
            store,
            followups,
            "factor-multiple",
            None,
            [service.Me(), Seat.human("Bo")],
            0,
            account=who,
            accounts=accounts,
        )
    return token


def main() -> None:
    wrk.require()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))  # and stop what it started
    tmp = tempfile.mkdtemp(prefix="postplay-bench-")
    redis_proc, url = start_redis(tmp, appendonly=True)
    env = {
        **os.environ,
        "REDIS_URL": url,
        "POSTPLAY_RATELIMIT": "off",
        "POSTPLAY_BOT_BUDGET_S": "0.05",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    procs = [redis_proc]
    try:
        client = redis.Redis.from_url(url)
        store, followups = GameStore(client, GAME_EVENTS), RQFollowups(client)
        bare_port, app_port = free_port(), free_port()
        _gunicorn("tests.benchmarks.bare_app:app", bare_port, env, procs)
        _gunicorn("api.web.wsgi:app", app_port, env, procs)
        bare, app = f"http://127.0.0.1:{bare_port}", f"http://127.0.0.1:{app_port}"
        _, _, game = _request(
            app_port, "POST", "/api/v1/games", {**NEW_GAME, "kind": "partition", "options": {}}
        )
        path = f"/api/v1/games/{game['id']}"
        _, headers, _ = _request(app_port, "GET", path)
        token = account_with_games(client, store, followups)
        me = {"Authorization": f"Bearer {token}"}
        _, me_headers, _ = _request(app_port, "GET", "/api/v1/me/games", headers=me)
        measures = {
            "bare": lambda: wrk.run(f"{bare}/api/v1/health", DURATION_S),
            "304": lambda: wrk.run(
                f"{app}{path}", DURATION_S, headers={"If-None-Match": headers["ETag"]}
            ),
            "full": lambda: wrk.run(f"{app}{path}", DURATION_S),
            "me": lambda: wrk.run(
                f"{app}/api/v1/me/games",
                DURATION_S,
                headers={**me, "If-None-Match": me_headers["ETag"]},
            ),
            "moves": lambda: wrk.run(
                app, DURATION_S, listed=move_lists(store, followups, MOVES_PER_ROUND)
            ),
        }
        # the measures take turns, ROUNDS times, and each keeps its best round: this machine's
        # speed drifts, and a stall (an fsync, another process) only ever takes rate away
        # (a round with an error answer counts only when every round had one, and says so)
        best: dict[str, wrk.Result] = {}
        for _ in range(ROUNDS):
            for name, measure in measures.items():
                result = measure()
                if name not in best or (result.errors, -result.rate) < (
                    best[name].errors,
                    -best[name].rate,
                ):
                    best[name] = result
        base = best["bare"].rate
        print(
            f"load: wrk, {wrk.THREADS} threads, {wrk.CONNECTIONS} connections, "
            f"{DURATION_S:g} s a round, best of {ROUNDS}; gunicorn {WORKER_CLASS}, 2 processes"
        )
        print(f"bare Flask JSON endpoint            {base:8.0f} req/s  (baseline)")
        for name, label in (
            ("304", "GET game, matching ETag (304)"),
            ("full", "GET game, full"),
            ("me", "GET /me/games, matching ETag"),
            ("moves", "POST a move"),
        ):
            rate = best[name].rate
            print(
                f"{label:35s} {rate:8.0f} req/s  ratio {rate / base:5.2f}  "
                f"(goal >= {GOALS[name]:.2f})  p99 {best[name].p99_ms:6.1f} ms"
                + (f"  {best[name].errors} ERRORS in every round" if best[name].errors else "")
            )
        bot_latency(url, app_port, env, procs)
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(tmp, ignore_errors=True)  # (its append-only file: some 60 MB a run)


def bot_latency(url: str, port: int, env: dict, procs: list, rounds: int = 20) -> None:
    client = redis.Redis.from_url(url)
    procs.append(
        subprocess.Popen(
            [sys.executable, "-m", "api.cli", "worker"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    )
    queue = Queue(QUEUE, connection=client)
    empty, bot = [], []
    # both measured the same way, from the client: request made -> result visible in Redis
    for _ in range(rounds):
        start = time.perf_counter()
        job = queue.enqueue("worker.jobs.ping")
        while job.get_status(refresh=True) != "finished":
            time.sleep(0.002)
        empty.append(time.perf_counter() - start)
    store = GameStore(client, GAME_EVENTS)
    for _ in range(rounds):
        _, _, game = _request(
            port,
            "POST",
            "/api/v1/games",
            {
                "kind": "factor-multiple",
                "seats": [{"human": {"name": "A"}}, {"bot": "random"}],
                "first": 0,
            },
        )
        start = time.perf_counter()
        _request(
            port,
            "POST",
            f"/api/v1/games/{game['id']}/moves",
            {"move": {"type": "say", "number": 4}, "ply": 0},
            {"Authorization": f"Bearer {game['tokens']['0']}"},
        )
        while store.load(game["id"]).ply < 2:
            time.sleep(0.002)
        bot.append(time.perf_counter() - start)
    empty_ms, bot_ms = statistics.median(empty) * 1000, statistics.median(bot) * 1000
    print(f"RQ empty job round trip       median {empty_ms:7.1f} ms  (baseline)")
    print(
        f"move + bot reply (random)     median {bot_ms:7.1f} ms  "
        f"ratio {bot_ms / empty_ms:5.2f}  (target <= 2.00 plus think time)"
    )


if __name__ == "__main__":
    main()
