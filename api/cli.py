"""`postplay`: run everything at once, or one piece at a time for a multi-host deployment.

postplay run        embedded Redis (unless REDIS_URL is set) + two workers + the web server
postplay redis      the embedded Redis alone (data under var/redis), printing its URL
postplay worker     one RQ worker with its scheduler, against REDIS_URL
postplay serve      gunicorn on HOST:PORT against REDIS_URL
postplay gc         delete what the retention rules let go (the workers do it every 10 min)
postplay openapi    write the OpenAPI document to openapi/openapi.json (or --check it)
postplay playtest   a batch of bot-vs-bot games and its report (see `postplay playtest -h`)
postplay seed-ratings   ladder games between every game's bot levels, rating their accounts
postplay sweep      one playtest per rule variant, compared (see `postplay sweep -h`)
postplay puzzles mine --playtests N   puzzles mined from fresh bot-vs-bot games
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# what `run`, `redis` and `serve` keep on this machine: the embedded Redis (its data, password and
# log) and the metrics' files, readable by this user alone (POSTPLAY_VAR, by default var/)
VAR = Path(os.environ.get("POSTPLAY_VAR") or ROOT / "var")
DEFAULT_REDIS_PORT = 6390
OPENAPI_PATH = ROOT / "openapi" / "openapi.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="postplay", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "serve"):
        p = sub.add_parser(name)
        p.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        p.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        p.add_argument(
            "--web-workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY", "2"))
        )
        if name == "run":
            p.add_argument(
                "--workers",
                type=int,
                default=int(os.environ.get("POSTPLAY_WORKERS", "2")),
                help="RQ workers (bots think on one while another keeps the clocks)",
            )
            p.add_argument(
                "--redis-port",
                type=int,
                default=DEFAULT_REDIS_PORT,
                help="the embedded Redis' port (when REDIS_URL is not set)",
            )
    redis_parser = sub.add_parser("redis")
    redis_parser.add_argument("--port", type=int, default=DEFAULT_REDIS_PORT)
    redis_parser.add_argument("--data", default=str(VAR / "redis"))
    sub.add_parser(
        "gc",
        help="delete now what the retention rules let go (workers also do it every 10 minutes)",
    )
    worker_parser = sub.add_parser("worker")
    worker_parser.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        help="serve this worker's metrics (job durations, due-check lateness) on this port; "
        "under `postplay run` the web's /metrics has them already",
    )
    worker_parser.add_argument(
        "--role",
        choices=("all", "players"),
        default="all",
        help="all: every queue (players', then bot games', then playtests'); players: only the "
        "players' queue, so a bot's reply to a person never waits behind a batch",
    )
    openapi = sub.add_parser("openapi")
    openapi.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when the committed document differs from the code's",
    )
    seeding = sub.add_parser(
        "seed-ratings",
        help="rate the bot levels' accounts from ladder games between them, "
        "played here (against REDIS_URL)",
    )
    seeding.add_argument("--kinds", default="", help="comma-separated games (default: all)")
    seeding.add_argument(
        "--games",
        type=int,
        default=20,
        help="rounds per game: each plays every pair of its levels once",
    )
    seeding.add_argument(
        "--budget-s", type=float, default=0.05, help="each bot's think time per move, seconds"
    )
    seeding.add_argument("--seed", type=int, default=0)
    from api.learn import cli as puzzles_cli
    from api.playtests import cli as playtest_cli, sweep_cli

    playtest_cli.add_parser(sub)
    sweep_cli.add_parser(sub)
    puzzles_cli.add_parser(sub)
    args = parser.parse_args(argv)
    return {
        "run": run,
        "serve": serve,
        "redis": redis_alone,
        "worker": worker,
        "gc": gc,
        "openapi": write_openapi,
        "playtest": playtest_cli.run,
        "seed-ratings": seed_ratings,
        "sweep": sweep_cli.run,
        "puzzles": puzzles_cli.run,
    }[args.command](args)


def redis_alone(args) -> int:
    """The embedded Redis alone, supervised like `run`'s."""
    from api.store.embedded import PASSWORD_FILE, redacted, redis_argv
    from api.supervisor import Child, supervise

    _private_files()
    argv, url = redis_argv(args.data, port=args.port)
    os.environ["REDIS_URL"] = url
    password = Path(args.data) / PASSWORD_FILE
    return supervise(
        [Child("redis", argv, log=Path(args.data) / "redis.log")],
        f"Redis at {redacted(url)} (data in {args.data}), its password in "
        f"{password}: export REDIS_URL=redis://:$(cat {password})@"
        f"{redacted(url).removeprefix('redis://')} for the other pieces. "
        f"Ctrl-C stops it.",
        ready=_wait_for_redis,
    )


def worker(args) -> int:
    from api.workers import work

    work(_redis_config(), args.role, args.metrics_port)
    return 0


def gc(args) -> int:
    import time

    from api.play.background import collect_garbage

    deleted = collect_garbage(_redis_config().connect(), time.time())
    print(
        f"deleted {deleted['games']} games that ended with no move made, "
        f"{deleted['playtests']} playtests and {deleted['sweeps']} sweeps past their "
        f"retention"
    )
    return 0


def seed_ratings(args) -> int:
    from api.games import GAMES
    from api.players.ratings import seed_ladders
    from api.store.ratings import RatingStore

    kinds = [k for k in args.kinds.split(",") if k] or list(GAMES)
    unknown = sorted(set(kinds) - set(GAMES))
    if unknown:
        sys.exit(f"no game {unknown[0]!r}; the games are {', '.join(GAMES)}")
    store = RatingStore(_redis_config().connect())
    seeded = seed_ladders(store, kinds, args.games, args.budget_s, args.seed)
    for kind, levels in seeded.items():
        print(kind)
        for level, rating in levels.items():
            print(f"  {level:<10} {rating.rating:7.1f}  RD {rating.rd:5.1f}  {rating.games} games")
    return 0


def serve(args) -> int:
    _private_files()
    _count_metrics_in(args)
    os.execvp(sys.executable, _gunicorn_argv(args))


def run(args) -> int:
    """Everything on this machine, supervised: a piece that dies is restarted."""
    from api.supervisor import Child, supervise

    children = []
    _private_files()
    if not os.environ.get("REDIS_URL") and not os.environ.get("REDIS_SENTINELS"):
        from api.store.embedded import redacted, redis_argv

        data = VAR / "redis"
        # every piece started here finds the password in REDIS_URL, in its environment (which
        # only this user can read), never on a command line
        argv, os.environ["REDIS_URL"] = redis_argv(data, port=args.redis_port)
        children.append(Child("redis", argv, log=data / "redis.log"))
        print(f"Embedded Redis at {redacted(os.environ['REDIS_URL'])} (data in {data})", flush=True)
    _count_metrics_in(args)  # the workers' counts too: the web's /metrics shows them all
    for i in range(args.workers):
        # the first of two or more keeps to the players' queue: a bot's reply to a person never
        # waits behind bot-vs-bot games or a playtest
        role = "players" if i == 0 and args.workers > 1 else "all"
        children.append(
            Child(
                f"worker {i + 1} ({role})",
                [sys.executable, "-m", "api.cli", "worker", "--role", role],
            )
        )
    children.append(Child("web", _gunicorn_argv(args)))
    banner = (
        f"Postplay is running at http://{args.host}:{args.port}/  (API docs at "
        f"http://{args.host}:{args.port}/docs); Ctrl-C stops it."
    )
    return supervise(children, banner, ready=_wait_for_redis)


def write_openapi(args) -> int:
    from api.web import create_app

    app = create_app({"RATELIMIT_ENABLED": False})
    with app.test_client() as client:
        spec = client.get("/api/v1/openapi.json").get_json()
    text = json.dumps(spec, indent=2, sort_keys=True) + "\n"
    if args.check:
        same = OPENAPI_PATH.is_file() and OPENAPI_PATH.read_text() == text
        print(
            "openapi/openapi.json is up to date"
            if same
            else "openapi/openapi.json differs from the code: run `make openapi`"
        )
        return 0 if same else 1
    OPENAPI_PATH.parent.mkdir(exist_ok=True)
    OPENAPI_PATH.write_text(text)
    print(f"wrote {OPENAPI_PATH.relative_to(ROOT)}")
    return 0


def _wait_for_redis(child) -> None:
    """After the embedded Redis starts: wait until it answers, so the others find it."""
    from api.store.embedded import wait_for_redis

    if child.name == "redis" and not wait_for_redis(os.environ["REDIS_URL"], child.proc):
        sys.exit(f"the embedded Redis did not start; see {child.log}")


def _redis_config():
    from api.store.connection import RedisConfig

    if not os.environ.get("REDIS_URL") and not os.environ.get("REDIS_SENTINELS"):
        sys.exit(
            "REDIS_URL is not set: start `postplay redis` and export the URL it prints "
            "(or set REDIS_SENTINELS and REDIS_SERVICE)."
        )
    return RedisConfig.from_env()


def _private_files() -> None:
    """What this process and those it starts write is theirs alone (umask 077: Redis' append-only
    file and its rewrites, the logs, the metrics' files), and VAR is made so, with what an
    earlier run left there."""
    from api.store.embedded import PRIVATE_UMASK, private_dir

    os.umask(PRIVATE_UMASK)
    private_dir(VAR)


def _count_metrics_in(args) -> None:
    """Every process started from here counts its metrics in one directory (gunicorn's
    processes, and `run`'s workers), emptied first: PROMETHEUS_MULTIPROC_DIR if it is set."""
    from api.metrics import clean_multiprocess_dir

    path = os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(VAR / "metrics" / str(args.port)))
    clean_multiprocess_dir(path)


def _gunicorn_argv(args) -> list[str]:
    _redis_config()
    return [
        sys.executable,
        "-m",
        "gunicorn",
        *gunicorn_options(),
        "--bind",
        f"{args.host}:{args.port}",
        "--workers",
        str(args.web_workers),
        "--access-logfile",
        "-",
        "api.web.wsgi:app",
    ]


# gunicorn's request line and header limits, enforced before a request reaches Flask
LIMIT_REQUEST_LINE = 4094
LIMIT_REQUEST_FIELDS = 100
LIMIT_REQUEST_FIELD_SIZE = 8190
# a client's connection is kept between its requests for up to 75 s (nginx's default, and
# longer than a load balancer's usual 60 s idle timeout), where gunicorn keeps it 2 s: a player
# polls every 30 s, so with 2 s every poll opened a connection, and at 10,000 players (`make
# loadtest`) the listen queue overflowed. Each process holds up to WORKER_CONNECTIONS.
# The gevent worker also bounds by it the time from a connection's last answer (or its opening)
# to the end of its next request's headers: a client trickling them is closed then.
KEEPALIVE_S = 75
WORKER_CONNECTIONS = 10_000
# gunicorn's gevent worker, not its gthread: gthread hands a connection to one of its few threads
# as soon as its first bytes arrive, and that thread then waits on the client until the headers
# end, so 8 clients sending a header line every 3 s stopped 2 processes x 4 threads answering
# anyone. Under gevent every connection is a greenlet that waits on its socket through the hub,
# so a slow or idle client holds a greenlet (a few KB), never what answers the others: 500 of
# them leave GET /kinds and moves as fast as with none (tests/api/test_slow_clients.py; the
# issue's 60 s: `python -m tests.benchmarks bench_slow_clients`). gunicorn keeps its request
# limits and processes; the worker monkey-patches its process before the app is imported, so
# redis-py, RQ's enqueueing and the version cache's tracking connection wait cooperatively.
# Chosen over waitress, which buffers whole requests too but runs one process (this machine
# has two cores) with no limit on the number of headers; a body's time is bounded by the app
# (api/web/input_bounds.py), and argon2's CPU goes to a real thread (api/concurrency.py).
WORKER_CLASS = "gevent"


def gunicorn_options() -> list[str]:
    """The worker (gunicorn's gevent), its request limits and how long it keeps a client's
    connection: gunicorn's own settings."""
    return [
        "--worker-class",
        WORKER_CLASS,
        "--limit-request-line",
        str(LIMIT_REQUEST_LINE),
        "--limit-request-fields",
        str(LIMIT_REQUEST_FIELDS),
        "--limit-request-field_size",
        str(LIMIT_REQUEST_FIELD_SIZE),
        "--keep-alive",
        str(KEEPALIVE_S),
        "--worker-connections",
        str(WORKER_CONNECTIONS),
    ]


if __name__ == "__main__":
    sys.exit(main())
