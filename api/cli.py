"""`postplay`: run everything at once, or one piece at a time for a multi-host deployment.

    postplay run        embedded Redis (unless REDIS_URL is set) + two workers + the web server
    postplay redis      the embedded Redis alone (data under var/redis), printing its URL
    postplay worker     one RQ worker with its scheduler, against REDIS_URL
    postplay serve      gunicorn on HOST:PORT against REDIS_URL
    postplay openapi    write the OpenAPI document to openapi/openapi.json (or --check it)
    postplay playtest   a batch of bot-vs-bot games and its report (see `postplay playtest -h`)
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_REDIS_PORT = 6390
OPENAPI_PATH = ROOT / "openapi" / "openapi.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="postplay", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "serve"):
        p = sub.add_parser(name)
        p.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        p.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        p.add_argument("--web-workers", type=int,
                       default=int(os.environ.get("WEB_CONCURRENCY", "2")))
        if name == "run":
            p.add_argument("--workers", type=int,
                           default=int(os.environ.get("POSTPLAY_WORKERS", "2")),
                           help="RQ workers (bots think on one while another keeps the clocks)")
    redis_parser = sub.add_parser("redis")
    redis_parser.add_argument("--port", type=int, default=DEFAULT_REDIS_PORT)
    redis_parser.add_argument("--data", default=str(ROOT / "var" / "redis"))
    sub.add_parser("worker")
    openapi = sub.add_parser("openapi")
    openapi.add_argument("--check", action="store_true",
                         help="exit 1 when the committed document differs from the code's")
    from api import playtest_cli

    playtest_cli.add_parser(sub)
    args = parser.parse_args(argv)
    return {"run": run, "serve": serve, "redis": redis_alone, "worker": worker,
            "openapi": write_openapi, "playtest": playtest_cli.run}[args.command](args)


def redis_alone(args) -> int:
    from api.store.embedded import start_redis

    proc, url = start_redis(args.data, port=args.port)
    print(f"Redis at {url} (data in {args.data}); Ctrl-C stops it.", flush=True)
    return _wait([proc])


def worker(args=None) -> int:
    import redis
    from rq import Queue, Worker

    from api.followups import QUEUES

    client = redis.Redis.from_url(_redis_url())
    queues = [Queue(name, connection=client) for name in QUEUES]
    Worker(queues, connection=client).work(with_scheduler=True)
    return 0


def serve(args) -> int:
    os.execvp(sys.executable, _gunicorn_argv(args))


def run(args) -> int:
    procs: list[subprocess.Popen] = []
    if not os.environ.get("REDIS_URL"):
        from api.store.embedded import start_redis

        data = ROOT / "var" / "redis"
        proc, os.environ["REDIS_URL"] = start_redis(data, port=DEFAULT_REDIS_PORT)
        procs.append(proc)
        print(f"Embedded Redis at {os.environ['REDIS_URL']} (data in {data})", flush=True)
    # own sessions: Ctrl-C reaches only this process, which stops them in order
    for _ in range(args.workers):
        procs.append(subprocess.Popen([sys.executable, "-m", "api.cli", "worker"],
                                      start_new_session=True))
    procs.append(subprocess.Popen(_gunicorn_argv(args), start_new_session=True))
    print(f"Postplay is running at http://{args.host}:{args.port}/  (API docs at "
          f"http://{args.host}:{args.port}/docs); Ctrl-C stops it.", flush=True)
    return _wait(procs)


def write_openapi(args) -> int:
    from api.web import create_app

    app = create_app({"RATELIMIT_ENABLED": False})
    with app.test_client() as client:
        spec = client.get("/api/v1/openapi.json").get_json()
    text = json.dumps(spec, indent=2, sort_keys=True) + "\n"
    if args.check:
        same = OPENAPI_PATH.is_file() and OPENAPI_PATH.read_text() == text
        print("openapi/openapi.json is up to date" if same else
              "openapi/openapi.json differs from the code: run `make openapi`")
        return 0 if same else 1
    OPENAPI_PATH.parent.mkdir(exist_ok=True)
    OPENAPI_PATH.write_text(text)
    print(f"wrote {OPENAPI_PATH.relative_to(ROOT)}")
    return 0


def _redis_url() -> str:
    url = os.environ.get("REDIS_URL")
    if not url:
        sys.exit("REDIS_URL is not set: start `postplay redis` and export the URL it prints.")
    return url


def _gunicorn_argv(args) -> list[str]:
    _redis_url()
    return [sys.executable, "-m", "gunicorn", *gunicorn_options(),
            "--bind", f"{args.host}:{args.port}", "--workers", str(args.web_workers),
            "--threads", "4", "--access-logfile", "-", "api.web.wsgi:app"]


def gunicorn_options() -> list[str]:
    """The worker (gthread, answering gunicorn's own errors as JSON) and its request limits."""
    from api.web import gunicorn_worker as w

    return ["--worker-class", "api.web.gunicorn_worker.JsonErrorsWorker",
            "--limit-request-line", str(w.LIMIT_REQUEST_LINE),
            "--limit-request-fields", str(w.LIMIT_REQUEST_FIELDS),
            "--limit-request-field_size", str(w.LIMIT_REQUEST_FIELD_SIZE)]


def _wait(procs: list[subprocess.Popen]) -> int:
    """Wait until Ctrl-C or until one process dies, then stop them all (last started first)."""
    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping and all(p.poll() is None for p in procs):
        time.sleep(0.2)
    for proc in reversed(procs):
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    print("Postplay stopped.", flush=True)
    return 0 if stopping else 1


if __name__ == "__main__":
    sys.exit(main())
