"""What the delivery benchmarks (bench_webhooks, bench_push) share: one real worker on an
embedded Redis, RQ's empty-job round trip as their baseline, and the loop that times each move
to its delivery at a loopback receiver (tests/webhook_receiver.py's LoopbackServer)."""

from __future__ import annotations

import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator

import redis
from rq import Queue

from api.followups import RQFollowups
from api.notify.events import GAME_EVENTS
from api.play import service
from api.record import Seat, Status
from api.store.embedded import start_redis
from api.store.games import GameStore
from api.store.workers import live_workers

TIMEOUT_S = 10.0


def summary(name: str, values: list[float]) -> str:
    return (
        f"{name:34s} median {statistics.median(values) * 1000:7.1f} ms  "
        f"max {max(values) * 1000:7.1f} ms"
    )


@contextlib.contextmanager
def one_worker() -> Iterator[redis.Redis]:
    """A client of a fresh embedded Redis that one `postplay worker` serves, stopped after."""
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
        yield client
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:  # (it may not answer SIGTERM: killed, as -9 would)
            worker.kill()
            worker.wait()
        redis_proc.terminate()


def empty_jobs(queue: Queue, count: int) -> list[float]:
    """The baseline: seconds from enqueueing an empty job to seeing it finished (polled every
    2 ms), `count` times."""
    times = []
    for _ in range(count):
        start = time.time()
        job = queue.enqueue("worker.jobs.ping")
        end = time.monotonic() + TIMEOUT_S
        while job.get_status(refresh=True) != "finished":
            if time.monotonic() > end:
                raise RuntimeError("the worker did not answer in time")
            time.sleep(0.002)
        times.append(time.time() - start)
    return times


def moves_to_deliveries(
    client: redis.Redis, seats: list[Seat], receiver, count: int
) -> list[float]:
    """Seconds from each move's call to the next mover's `turn` arriving at `receiver`, for
    `count` moves between `seats` (new games started as games end; each game's first turn is
    told too, and not timed). A delivery the receiver could not verify is an error."""
    store, followups = GameStore(client, GAME_EVENTS), RQFollowups(client)
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
        if len(got) <= told or getattr(got[told], "error", None):
            raise RuntimeError(f"a delivery never arrived whole: {got[-1:]}")
        told += 1
        latencies.append(got[told - 1].at - started)
    return latencies
