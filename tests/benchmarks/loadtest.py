"""`make loadtest`: how many correspondence players this machine holds with p99 <= 250 ms and no
error (goal: 10,000), and the request mix they make.

The player count steps through LOADTEST_STEPS, then on by LOADTEST_STEP_PAST players a step
until a step fails (p99 over 250 ms, or an error), so that it reports the real limit: the last
count held and the first that was not. LOADTEST_MAX_PLAYERS bounds it (every player is seeded
before the first step); a run that holds even that says the limit lies beyond it. Locust holds
a connection a player in one process, so the steps also end where the open files a process may
have run out (20,000 on the machines this project runs on): past that a step would measure the
load generator. A quick look
that the machinery works, in about two minutes: `LOADTEST_STEPS=50,100 LOADTEST_STEP_PAST=50
LOADTEST_MAX_PLAYERS=150 LOADTEST_SETTLE_S=5 LOADTEST_MEASURE_S=10 make loadtest`.

It starts an embedded Redis of its own (free port, no persistence), seeds the players (accounts
with about ten games each), starts the service as `postplay serve` does (2 web processes,
rate limits on, one trusted proxy so that each player is its own client) and one
`postplay worker` for the bots, then runs locust headless (tests/benchmarks/locustfile.py),
stepping the player count up, each step bounded in time. Everything it started is stopped at
the end, and the Redis' data deleted.

Seeding goes through the stores, not HTTP: signing 15,000 accounts up over HTTP would spend
an hour of argon2 (a quarter second each, by design), so every account gets the one password
hash made once (`AccountStore.create`), a sign-in token (`AccountStore.add_token`, as sign-in
issues one), and its games are made by `GameStore.create` as the play service makes them.
"""

from __future__ import annotations

import json
import os
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import redis
import requests

from api.followups import RQFollowups
from api.games import get_game
from api.notify.events import GAME_EVENTS
from api.record import GameRecord, Seat
from api.players.accounts import SCOPES, TOKEN_PREFIX
from api.players.passwords import hash_password
from api.store.accounts import AccountStore
from api.store.embedded import free_port, start_redis
from api.store.games import GameStore

HERE = Path(__file__).resolve().parent
STEPS = os.environ.get("LOADTEST_STEPS", "1000,2000,5000,10000,15000")
STEP_PAST = int(os.environ.get("LOADTEST_STEP_PAST", "2500"))
MAX_PLAYERS = int(os.environ.get("LOADTEST_MAX_PLAYERS", "50000"))
PARTNERS = 4  # each account starts games with the next 4 of its block: 8 games against people
BLOCK = 500  # accounts playing each other (a step adds whole blocks, so opponents come along)
BOT_EVERY = 3  # one account in three also plays two games against a bot
GOAL_PLAYERS = 10_000
P99_GOAL_MS = 250
FILES_SPARE = 1024  # the open files locust needs beside its players' connections


def seed(client: redis.Redis, players: int) -> list[list[str]]:
    """`players` accounts with their games; [username, token, address] of each."""
    accounts, games = AccountStore(client), GameStore(client, GAME_EVENTS)
    followups = RQFollowups(client)
    password_hash = hash_password("a load-test password")  # once: argon2 is slow on purpose
    now = time.time()
    seeded, ids = [], []
    for i in range(players):
        account = {
            "id": uuid.uuid4().hex[:16],
            "username": f"player{i}",
            "created_ts": now,
            "password_hash": password_hash,
            "settings": {"allow_takebacks": True, "notify": {}, "bot": False},
            "deleted": False,
        }
        accounts.create(account, [secrets.token_hex(6)])  # (a recovery code nobody keeps)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        accounts.add_token(
            token,
            {
                "id": uuid.uuid4().hex[:12],
                "account": account["id"],
                "kind": "session",
                "scopes": list(SCOPES),
                "description": "load test",
                "created_ts": now,
            },
        )
        # an address of its own in 127/8, as the trusted proxy would report it
        seeded.append([account["username"], token, f"127.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}"])
        ids.append(account)
    fm = get_game("factor-multiple")
    options = fm.check_options({})

    def new_game(seats: list[Seat], first: int) -> None:
        seed_ = secrets.randbits(32)
        record = GameRecord.create(
            uuid.uuid4().hex[:12],
            fm.slug,
            options,
            seed_,
            first,
            seats,
            fm.new(options, first, seed_),
            0,
            {"type": "none"},
            None,
            now,
        )
        games.create(record, {})
        followups.after_change(record)

    for i, account in enumerate(ids):
        block = i - i % BLOCK
        me = Seat.for_account(account["id"], account["username"])
        for d in range(1, PARTNERS + 1):
            other = ids[block + (i - block + d) % min(BLOCK, players - block)]
            if other is not account:
                new_game([me, Seat.for_account(other["id"], other["username"])], (i + d) % 2)
        if i % BOT_EVERY == 0:  # the player moves first: the bot answers its moves
            for _ in range(2):
                new_game([me, Seat.for_bot("random")], 0)
    return seeded


def steps() -> list[int]:
    """The player counts stepped through: LOADTEST_STEPS, then on by STEP_PAST to MAX_PLAYERS.

    >>> steps()[:7]
    [1000, 2000, 5000, 10000, 15000, 17500, 20000]
    >>> steps()[-1]
    50000
    """
    given = sorted(int(n) for n in STEPS.split(","))
    past = range(given[-1] + STEP_PAST, MAX_PLAYERS + 1, STEP_PAST) if STEP_PAST > 0 else []
    return [n for n in given if n <= MAX_PLAYERS] + list(past)


def _serve(env: dict, port: int, log: Path, procs: list) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--web-workers", "2"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=open(log, "wb"),
        start_new_session=True,
    )
    procs.append(proc)
    for _ in range(200):
        try:
            if requests.get(f"http://127.0.0.1:{port}/api/v1/health", timeout=5).ok:
                return
        except requests.RequestException:  # not listening yet, or slow to first answer
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the web server did not start; see {log}")


def open_files(players: int) -> int:
    """Raise this process's limit on open files, which locust, the web processes and Redis
    inherit, toward what `players` need (a connection each in locust and in a web process, and
    Redis' clients): the soft limit up to the hard one, and the hard one too where this process
    may (root, with the kernel's leave). The limit in force is returned."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 2 * players + 4096
    if hard != resource.RLIM_INFINITY and need > hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, need))
            hard = need
        except (ValueError, OSError):
            pass  # (not allowed here: the hard limit stands)
    soft = need if hard == resource.RLIM_INFINITY else max(soft, min(need, hard))
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


def main() -> None:
    counts = steps()
    files = open_files(counts[-1])
    # locust holds a connection a player in one process: past its limit on open files a step
    # would measure the load generator, not the server
    most = files - FILES_SPARE
    if counts[-1] > most:
        counts = [n for n in counts if n <= most]
        print(
            f"steps end at {counts[-1]:,} players: a process may open {files:,} files here, "
            f"and locust needs one a player (LOADTEST_STEP_PAST steps more finely)",
            flush=True,
        )
    players = counts[-1]
    work = Path(tempfile.mkdtemp(prefix="postplay-loadtest-"))
    procs: list[subprocess.Popen] = []
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    try:
        redis_proc, url = start_redis(work / "redis", appendonly=False)
        procs.append(redis_proc)
        client = redis.Redis.from_url(url)
        began = time.perf_counter()
        seeded = seed(client, players)
        print(
            f"seeded {players:,} players and {client.zcard('pp:games:*:*'):,} games in "
            f"{time.perf_counter() - began:.0f} s (through the stores: see the docstring)",
            flush=True,
        )
        (work / "accounts.json").write_text(json.dumps(seeded))
        env = {
            **os.environ,
            "REDIS_URL": url,
            "POSTPLAY_TRUSTED_PROXIES": "1",
            "POSTPLAY_BOT_BUDGET_S": "0.02",
            "PROMETHEUS_MULTIPROC_DIR": str(work / "metrics"),
            "LOADTEST_ACCOUNTS": str(work / "accounts.json"),
            "LOADTEST_RESULTS": str(work / "results.json"),
            "LOADTEST_STEPS": ",".join(map(str, counts)),
        }
        port = free_port()
        _serve(env, port, work / "web.log", procs)
        procs.append(
            subprocess.Popen(
                [sys.executable, "-m", "api.cli", "worker"],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=open(work / "worker.log", "wb"),
                start_new_session=True,
            )
        )
        locust = subprocess.run(
            [
                sys.executable,
                "-m",
                "locust",
                "-f",
                str(HERE / "locustfile.py"),
                "--headless",
                "--host",
                f"http://127.0.0.1:{port}",
                "--only-summary",
                "--loglevel",
                "WARNING",
            ],
            env=env,
            stdout=open(work / "locust.log", "wb"),
            stderr=subprocess.STDOUT,
        )
        written = work / "results.json"
        results = json.loads(written.read_text()) if written.exists() else []
        report(results, counts)
        if locust.returncode not in (0, 1):  # 1: some requests failed, which is reported
            print(f"locust exited with {locust.returncode}; see {work / 'locust.log'}")
        elif len(results) < len(counts) and (not results or results[-1]["held"]):
            print(f"locust stopped before its next step ended; see {work / 'locust.log'}")
    finally:
        for proc in reversed(procs):
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                proc.kill()
        shutil.rmtree(work / "redis", ignore_errors=True)


def report(results: list[dict], counts: list[int]) -> None:
    print(
        f"{'players':>8s} {'req/s':>7s} {'p99 ms':>7s} {'errors':>6s} {'locust cpu':>10s} "
        f"{'server p99':>10s}"
    )
    for r in results:
        inside = f"<= {r['server_p99_ms']:.0f} ms" if r.get("server_p99_ms") else "-"
        print(
            f"{r['players']:8,d} {r['rate']:7.0f} {r['p99_ms'] or 0:7.0f} {r['errors']:6d} "
            f"{r['cpu_locust']:9.0f}% {inside:>10s}  {'held' if r['held'] else 'NOT held'}"
            + (f"  {r['failures']}" if r["failures"] else "")
        )
        print(
            f"          locust's full collections: {r['locust_full_collections']}, longest "
            f"{r['locust_longest_collection_ms']:.0f} ms (each a pause in every player's "
            f"requests)"
        )
        print(
            "          p99 by request: "
            + ", ".join(f"{name} {ms:.0f} ms" for name, ms in r["p99_by_request"].items())
        )
    held = [r for r in results if r["held"]]
    best = max(held, key=lambda r: r["players"]) if held else None
    most = best["players"] if best else 0
    print(
        f"largest player count held with p99 <= {P99_GOAL_MS} ms and 0 errors: {most:,}  "
        f"(goal >= {GOAL_PLAYERS:,})"
    )
    failed = next((r for r in results if not r["held"]), None)
    if failed is not None:
        print(f"limit: between {most:,} (held) and {failed['players']:,} (not held)")
    elif results and results[-1]["players"] == counts[-1]:
        print(f"limit: above {counts[-1]:,}, every step held (raise LOADTEST_MAX_PLAYERS)")
    else:
        print("limit: unknown, the run ended before a step failed or the last was measured")
    if best:
        total = sum(best["mix"].values())
        print(
            "request mix at that count: "
            + ", ".join(
                f"{name} {n / total:.0%}"
                for name, n in sorted(best["mix"].items(), key=lambda kv: -kv[1])
            )
        )


if __name__ == "__main__":
    main()
