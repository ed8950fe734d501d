"""Slow clients at the issue's figures: 500 connections, each sending one header line every 3 s,
held for 60 s against gunicorn as `postplay serve` runs it (2 processes); `GET /api/v1/kinds`
and moves are timed for as long with none and then under the attack, and each p99 under it is
printed as a ratio of the idle run's (goal <= 5). tests/api/test_slow_clients.py makes the same
attack for 12 s in `make test`.

Run: `.venv/bin/python -m tests.benchmarks bench_slow_clients` (BENCH_SLOW_HOLD_S to change the
60 s).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import requests

from api.cli import gunicorn_options
from api.store.embedded import free_port, start_redis
from tests.slow_clients import SlowClients, kinds_times, move_times, p99

SLOW_CLIENTS = 500
EVERY_S = 3.0
HOLD_S = float(os.environ.get("BENCH_SLOW_HOLD_S", "60"))
GOAL = 5.0


def timed_for(address, seconds: float) -> dict[str, list[float]]:
    timed: dict[str, list[float]] = {"kinds": [], "moves": []}
    began = time.monotonic()
    while time.monotonic() - began < seconds:
        timed["kinds"] += kinds_times(address, 50)
        timed["moves"] += move_times(address, 20)
    return timed


def main() -> None:
    tmp = tempfile.mkdtemp(prefix="postplay-bench-")
    redis_proc, url = start_redis(tmp, appendonly=False)
    port = free_port()
    env = {**os.environ, "REDIS_URL": url, "POSTPLAY_RATELIMIT": "off"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    web = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            *gunicorn_options(),
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "api.web.wsgi:app",
        ],
        env=env,
        stderr=subprocess.DEVNULL,
    )
    address = ("127.0.0.1", port)
    try:
        for _ in range(600):
            try:
                requests.get(f"http://127.0.0.1:{port}/api/v1/kinds", timeout=2)
                break
            except requests.RequestException:
                time.sleep(0.1)
        timed_for(address, 2)  # both processes' first answers set aside
        idle = timed_for(address, HOLD_S)
        with SlowClients(address, SLOW_CLIENTS, EVERY_S) as slow:
            loaded = timed_for(address, HOLD_S)
            held, lines = slow.open, slow.lines_sent
        print(
            f"{SLOW_CLIENTS} slow clients (a header line every {EVERY_S:g} s), held "
            f"{HOLD_S:g} s: {held} still open at the end, {lines} lines each; gunicorn "
            f"{gunicorn_options()[1]}, 2 processes"
        )
        for name, label in (("kinds", "GET /api/v1/kinds"), ("moves", "POST a move")):
            before, during = p99(idle[name]) * 1000, p99(loaded[name]) * 1000
            print(
                f"{label:18s} p99 idle {before:7.1f} ms  under the attack {during:7.1f} ms  "
                f"ratio {during / before:5.2f}  (goal <= {GOAL:g})  "
                f"{len(idle[name])} and {len(loaded[name])} requests"
            )
    finally:
        web.terminate()
        web.wait(timeout=30)
        redis_proc.terminate()
        redis_proc.wait(timeout=10)


if __name__ == "__main__":
    main()
