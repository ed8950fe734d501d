"""Flag-fall lateness with no client polling: 50 games whose clocks run out (one every
SPACING_S), ended by real workers with RQ's scheduler, two of them as `make run` starts.
Baseline, measured in the same run just before: how late RQ's scheduler runs a plain scheduled
empty job on the same workers. Targets: lateness median <= 1 s, max <= 2 s, never early."""
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

from api.followups import CLOCK_QUEUE, RQFollowups
from api.play import service
from api.play.record import Seat, Status
from api.store.embedded import start_redis
from api.store.games import GameStore

GAMES = int(os.environ.get("BENCH_CLOCK_GAMES", "50"))
SPACING_S = 0.3
WORKERS = 2


def _summary(name: str, values: list[float]) -> str:
    return (f"{name:34s} median {statistics.median(values):6.3f} s  "
            f"max {max(values):6.3f} s  min {min(values):6.3f} s")


def main() -> None:
    redis_proc, url = start_redis(tempfile.mkdtemp(prefix="postplay-bench-"), appendonly=False)
    client = redis.Redis.from_url(url)
    workers = [subprocess.Popen([sys.executable, "-m", "api.cli", "worker"],
                                env={**os.environ, "REDIS_URL": url},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for _ in range(WORKERS)]
    try:
        baseline = scheduled_empty_jobs(Queue(CLOCK_QUEUE, connection=client))
        lateness = flag_falls(GameStore(client), RQFollowups(client))
        print(f"games ended on time: {len(lateness)} of {GAMES}")
        print(_summary("RQ scheduled empty job (baseline)", baseline))
        print(_summary("flag fall after the deadline", lateness))
        ratio = statistics.median(lateness) / max(1e-3, statistics.median(baseline))
        print(f"median ratio to baseline {ratio:.2f}; early endings: "
              f"{sum(1 for x in lateness if x < 0)} (must be 0); "
              f"targets: median <= 1 s, max <= 2 s")
    finally:
        for worker in workers:
            worker.terminate()
            worker.wait(timeout=10)
        redis_proc.terminate()


def scheduled_empty_jobs(queue: Queue) -> list[float]:
    """How late each of GAMES empty jobs ends after its scheduled time."""
    start = time.time() + 2
    jobs = [(queue.enqueue_at(datetime.fromtimestamp(start + i * SPACING_S, timezone.utc),
                              "worker.jobs.ping"), start + i * SPACING_S)
            for i in range(GAMES)]
    time.sleep(max(0.0, start + GAMES * SPACING_S + 3 - time.time()))
    late = []
    for job, at in jobs:
        job.refresh()
        if job.ended_at:
            late.append(job.ended_at.replace(tzinfo=timezone.utc).timestamp() - at)
    return late


def flag_falls(store: GameStore, followups: RQFollowups) -> list[float]:
    """How late each of GAMES games ends after its deadline, nobody polling it: seat 1 gets
    2 + i * SPACING_S seconds on its clock and never moves."""
    deadlines = {}
    for i in range(GAMES):
        record, _ = service.create_game(
            store, followups, "factor-multiple", {}, [Seat.human("A"), Seat.human("B")],
            first=0, time_control={"type": "fischer", "initial_s": 2 + i * SPACING_S,
                                   "increment_s": 0})
        record = service.play_move(store, followups, record.id, 0,
                                   {"type": "say", "number": 4}, 0)
        deadlines[record.id] = record.deadline()
    end = time.time() + GAMES * SPACING_S + 30
    while time.time() < end and any(store.load(g).status is not Status.FINISHED
                                    for g in deadlines):
        time.sleep(0.2)
    return [record.updated_ts - d for g, d in deadlines.items()
            if (record := store.load(g)).status is Status.FINISHED]


if __name__ == "__main__":
    main()
