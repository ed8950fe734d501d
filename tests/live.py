"""The real app as `postplay serve` runs it (gunicorn) with a real RQ worker behind it, on
127.0.0.1 against the session's Redis: for the browser tests and for programs that speak to
the server over HTTP (examples/http_bot.py)."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

from api.cli import gunicorn_options
from api.store.embedded import free_port

ROOT = Path(__file__).resolve().parents[1]
# webhooks go to local receivers in the tests
ENV = {
    "POSTPLAY_RATELIMIT": "off",
    "POSTPLAY_BOT_BUDGET_S": "0.05",
    "PYTHONUNBUFFERED": "1",
    "POSTPLAY_MAX_PLAYTESTS_PER_CLIENT": "1000",
    "POSTPLAY_WEBHOOK_ALLOW_PRIVATE": "1",
}


def stop(*procs: subprocess.Popen) -> None:
    """Ask every process to stop at once, then wait (killing any that take over 10 s)."""
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def serve(redis_url: str, log: Path, port: int, *extra: str, env: dict | None = None):
    """gunicorn serving the app on `port` with `postplay serve`'s options, one process unless
    `extra` (after them, overriding) says otherwise; its output goes to `log`."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            *gunicorn_options(),
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            *extra,
            "api.web.wsgi:app",
        ],
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": redis_url, **ENV, **(env or {})},
        stdout=open(log, "wb"),
        stderr=subprocess.STDOUT,
    )


@contextlib.contextmanager
def gunicorn(redis_url: str, log: Path, *extra: str, env: dict | None = None):
    """(host, port) of gunicorn serving the app alone (no worker), once it answers."""
    port = free_port()
    proc = serve(redis_url, log, port, *extra, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                requests.get(f"http://127.0.0.1:{port}/api/v1/kinds", timeout=2)
                break
            except requests.RequestException:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(f"gunicorn did not start; see {log}") from None
                time.sleep(0.2)
        yield "127.0.0.1", port
    finally:
        stop(proc)


def answer(sock: socket.socket) -> tuple[bytes, bytes]:
    """The head and body of what the server sends on `sock` until it closes the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return head, body


@contextlib.contextmanager
def live_app(redis_url: str, logs: Path, web_processes: int = 1):
    """The base URL of the app, served by gunicorn (`web_processes` of it) with a real RQ
    worker behind it; their logs go to `logs`."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, **ENV}
    web = serve(redis_url, logs / "web.log", port, "--workers", str(web_processes))
    worker = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "worker"],
        cwd=ROOT,
        env=env,
        stdout=open(logs / "worker.log", "wb"),
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60  # a loaded machine starts them slowly
        while True:
            try:
                if requests.get(f"{base}/api/v1/health", timeout=2).json()["workers"] > 0:
                    break
            except (requests.RequestException, ValueError):
                pass
            if time.monotonic() > deadline or web.poll() is not None or worker.poll() is not None:
                raise RuntimeError(f"the app or its worker did not start; see {logs}")
            time.sleep(0.2)
        yield base
    finally:
        stop(worker, web)
