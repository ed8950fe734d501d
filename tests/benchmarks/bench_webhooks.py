"""Webhook latency: a move stored -> its `turn` webhook received by a local HTTP receiver, over
MOVES moves between two accounts that each registered a webhook, delivered by one real worker
(`postplay worker`, its webhook thread). Baseline, measured in the same run on the same worker:
RQ's round trip for an empty job (enqueued -> seen finished, polled the same way every 2 ms).
Prints the median and the max of each and the ratio of the medians.

Run: `make bench` (all benchmarks) or `.venv/bin/python -m tests.benchmarks.bench_webhooks`.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

import redis
from rq import Queue

from api.followups import QUEUE, RQFollowups
from api.notify import endpoints
from api.notify.events import GAME_EVENTS
from api.store.workers import live_workers
from api.play import service
from api.record import Seat, Status
from api.players import accounts as players
from api.store.accounts import AccountStore
from api.store.embedded import start_redis
from api.store.games import GameStore
from api.store.webhooks import WebhookStore
from tests.webhook_receiver import Receiver

MOVES = int(os.environ.get("BENCH_WEBHOOK_MOVES", "100"))
TIMEOUT_S = 10.0


def _summary(name: str, values: list[float]) -> str:
    return (
        f"{name:34s} median {statistics.median(values) * 1000:7.1f} ms  "
        f"max {max(values) * 1000:7.1f} ms"
    )


def _wait(predicate) -> None:
    end = time.monotonic() + TIMEOUT_S
    while not predicate():
        if time.monotonic() > end:
            raise RuntimeError("the worker did not answer in time")
        time.sleep(0.002)


def main() -> None:
    os.environ["POSTPLAY_WEBHOOK_ALLOW_PRIVATE"] = "1"
    redis_proc, url = start_redis(tempfile.mkdtemp(prefix="postplay-bench-"), appendonly=False)
    client = redis.Redis.from_url(url)
    worker = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "worker"],
        env={**os.environ, "REDIS_URL": url},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        end = time.monotonic() + 60
        while not live_workers(client) and time.monotonic() < end:
            time.sleep(0.2)
        with Receiver() as receiver:
            baseline = empty_jobs(Queue(QUEUE, connection=client), MOVES)
            latency = moves_to_webhooks(client, receiver, MOVES)
        print(f"{MOVES} moves, each told to the next mover by a webhook; one worker")
        print(_summary("RQ empty job round trip (baseline)", baseline))
        print(_summary("move -> webhook received", latency))
        print(
            f"median ratio to baseline "
            f"{statistics.median(latency) / statistics.median(baseline):.2f}"
        )
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        redis_proc.terminate()


def empty_jobs(queue: Queue, count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.time()
        job = queue.enqueue("worker.jobs.ping")
        _wait(lambda: job.get_status(refresh=True) == "finished")
        times.append(time.time() - start)
    return times


def moves_to_webhooks(client: redis.Redis, receiver: Receiver, count: int) -> list[float]:
    """Seconds from each move's call to its webhook's arrival, for `count` moves (new games
    started as games end; each game's first turn is told too, and not timed)."""
    store, followups, accounts = (
        GameStore(client, GAME_EVENTS),
        RQFollowups(client),
        AccountStore(client),
    )
    hooks = WebhookStore(client)
    seats = []
    for name in ("bench_a", "bench_b"):
        account, token, _ = players.sign_up(accounts, name, "correct horse battery")
        endpoints.register(hooks, players.authenticate(accounts, token), receiver.url, ["turn"])
        seats.append(Seat.for_account(account["id"], name))
    latencies: list[float] = []
    record = None
    while len(latencies) < count:
        if record is None or record.status is Status.FINISHED:
            record, _ = service.create_game(
                store, followups, "factor-multiple", {"n": 200}, list(seats), first=0
            )
            told = len(receiver.received) + 1  # the first mover's turn
            receiver.wait_for(told, TIMEOUT_S)
        move = record.state().legal_moves()[0]
        started = time.time()
        record = service.play_move(store, followups, record.id, record.to_move, move, record.ply)
        if record.status is Status.FINISHED:
            continue  # the last move tells of no turn
        got = receiver.wait_for(told + 1, TIMEOUT_S)
        if len(got) <= told:
            raise RuntimeError("a webhook never arrived")
        told += 1
        latencies.append(got[told - 1].at - started)
    return latencies


if __name__ == "__main__":
    main()
