"""Deadline lateness with no client polling: DEADLINES games whose clocks run out within WINDOW_S
seconds, ended by the workers `make run` starts (two, each polling the due checks in a thread
of its own, no fork per deadline). Baseline, measured in the same run just before: how late RQ's
own scheduler (two plain `rq worker --with-scheduler`) runs as many scheduled empty jobs over the
same window. Targets: lateness median <= 0.5 s, max <= 2 s, never early."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone

import redis
from rq import Queue

from api.followups import RQFollowups
from api.notify.events import GAME_EVENTS
from api.play import service
from api.record import Seat, Status
from api.store.embedded import start_redis
from api.store.games import GameStore

DEADLINES = int(os.environ.get("BENCH_DEADLINES", "1000"))
WINDOW_S = float(os.environ.get("BENCH_DEADLINE_WINDOW_S", "10"))
SETUP_S = 40.0  # the deadlines start this long after the games are made: time to make them
BASELINE_QUEUE = "bench-scheduled"


def _summary(name: str, values: list[float]) -> str:
    return (
        f"{name:38s} median {statistics.median(values):6.3f} s  "
        f"max {max(values):6.3f} s  min {min(values):6.3f} s"
    )


def _start(argv: list[str], url: str, count: int) -> list[subprocess.Popen]:
    return [
        subprocess.Popen(
            argv,
            env={**os.environ, "REDIS_URL": url},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(count)
    ]


def _stop(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.wait(timeout=30)


def main() -> None:
    redis_proc, url = start_redis(tempfile.mkdtemp(prefix="postplay-bench-"), appendonly=False)
    client = redis.Redis.from_url(url)
    try:
        rq_workers = _start(
            [
                os.path.join(os.path.dirname(sys.executable), "rq"),
                "worker",
                "--url",
                url,
                "--with-scheduler",
                BASELINE_QUEUE,
            ],
            url,
            2,
        )
        baseline = scheduled_empty_jobs(Queue(BASELINE_QUEUE, connection=client))
        _stop(rq_workers)
        ours = _start([sys.executable, "-m", "api.cli", "worker", "--role", "players"], url, 1)
        ours += _start([sys.executable, "-m", "api.cli", "worker", "--role", "all"], url, 1)
        lateness = flag_falls(GameStore(client, GAME_EVENTS), RQFollowups(client))
        _stop(ours)
        print(
            f"{DEADLINES} deadlines within {WINDOW_S:.0f} s; games ended on time: "
            f"{len(lateness)} of {DEADLINES}"
        )
        print(_summary("RQ scheduler, empty jobs (baseline)", baseline))
        print(_summary("flag fall after the deadline", lateness))
        ratio = statistics.median(lateness) / max(1e-3, statistics.median(baseline))
        print(
            f"median ratio to baseline {ratio:.2f}; early endings: "
            f"{sum(1 for x in lateness if x < 0)} (must be 0); "
            f"targets: median <= 0.5 s, max <= 2 s"
        )
    finally:
        redis_proc.terminate()


def scheduled_empty_jobs(queue: Queue) -> list[float]:
    """How late each of DEADLINES empty jobs, scheduled over WINDOW_S, ends after its time."""
    start = time.time() + 3
    times = [start + WINDOW_S * i / DEADLINES for i in range(DEADLINES)]
    jobs = [
        queue.enqueue_at(datetime.fromtimestamp(at, timezone.utc), "worker.jobs.ping")
        for at in times
    ]
    end = start + WINDOW_S + 30
    while time.time() < end and queue.connection.zcard(f"rq:finished:{queue.name}") < DEADLINES:
        time.sleep(0.5)
    late = []
    for job, at in zip(jobs, times):
        job.refresh()
        if job.ended_at:
            late.append(job.ended_at.replace(tzinfo=timezone.utc).timestamp() - at)
    return late


def flag_falls(store: GameStore, followups: RQFollowups) -> list[float]:
    """How late each of DEADLINES games ends after its deadline, nobody polling it: seat 0
    moves at once, and seat 1's clock is set to run out at its place in the window."""
    first_deadline = time.time() + SETUP_S
    deadlines = {}
    for i in range(DEADLINES):
        initial_s = first_deadline + WINDOW_S * i / DEADLINES - time.time()
        record, _ = service.create_game(
            store,
            followups,
            "factor-multiple",
            {},
            [Seat.human("A"), Seat.human("B")],
            first=0,
            time_control={"type": "fischer", "initial_s": initial_s, "increment_s": 0},
        )
        record = service.play_move(store, followups, record.id, 0, {"type": "say", "number": 4}, 0)
        deadlines[record.id] = record.deadline()
    assert time.time() < first_deadline, "making the games took longer than SETUP_S"
    end = first_deadline + WINDOW_S + 30
    while time.time() < end and any(
        r.status is not Status.FINISHED for r in store.load_many(list(deadlines))
    ):
        time.sleep(1.0)
    return [
        r.updated_ts - deadlines[r.id]
        for r in store.load_many(list(deadlines))
        if r.status is Status.FINISHED
    ]


if __name__ == "__main__":
    main()
