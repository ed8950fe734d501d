"""Flag-fall lateness with no client polling: 50 games whose clocks run out, ended by a real
worker with RQ's scheduler. Baseline, measured in the same run: how late RQ's scheduler runs a
plain scheduled empty job. Targets: lateness median <= 1 s, max <= 2 s, never early."""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone

import redis
from rq import Queue

from api import play
from api.jobs import CLOCK_QUEUE, RQFollowups
from api.store.embedded import start_redis
from api.store.games import GameStore

GAMES = int(os.environ.get("BENCH_CLOCK_GAMES", "50"))


def _ts(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def _summary(name: str, values: list[float]) -> str:
    return (f"{name:34s} median {statistics.median(values):6.3f} s  "
            f"max {max(values):6.3f} s  min {min(values):6.3f} s")


def main() -> None:
    redis_proc, url = start_redis(tempfile.mkdtemp(prefix="postplay-bench-"), appendonly=False)
    client = redis.Redis.from_url(url)
    worker = subprocess.Popen([sys.executable, "-m", "api.cli", "worker"],
                              env={**os.environ, "REDIS_URL": url},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        store, followups = GameStore(client), RQFollowups(client)
        queue = Queue(CLOCK_QUEUE, connection=client)
        baseline_jobs, deadlines = [], {}
        for i in range(GAMES):
            at = time.time() + 2 + (i % 10) * 0.3
            job = queue.enqueue_at(datetime.fromtimestamp(at, timezone.utc),
                                   "tests.benchmarks.bare_app.empty_job")
            baseline_jobs.append((job, at))
            doc, tokens = play.create_game(
                store, followups, "factor-multiple", {}, [{"human": {"name": "A"}},
                                                          {"human": {"name": "B"}}],
                first=0, time_control={"type": "fischer", "initial_s": 2 + (i % 10) * 0.3,
                                       "increment_s": 0})
            doc = play.play_move(store, followups, doc["id"], 0, play.parse_move(
                doc, {"type": "say", "number": 4}), 0)
            deadlines[doc["id"]] = _ts(play.public(doc)["deadline"])
        end = time.time() + 30
        while time.time() < end and any(store.load(g)["status"] != "finished" for g in deadlines):
            time.sleep(0.2)
        lateness = [_ts(store.load(g)["updated_at"]) - d for g, d in deadlines.items()
                    if store.load(g)["status"] == "finished"]
        baseline = []
        for job, at in baseline_jobs:
            job.refresh()
            if job.ended_at:
                baseline.append(job.ended_at.replace(tzinfo=timezone.utc).timestamp() - at)
        print(f"games ended on time: {len(lateness)} of {GAMES}")
        print(_summary("RQ scheduled empty job (baseline)", baseline))
        print(_summary("flag fall after the deadline", lateness))
        print(f"median ratio to baseline {statistics.median(lateness) / max(1e-3, statistics.median(baseline)):.2f}; "
              f"early endings: {sum(1 for x in lateness if x < 0)} (must be 0); "
              f"targets: median <= 1 s, max <= 2 s")
    finally:
        worker.terminate()
        worker.wait(timeout=10)
        redis_proc.terminate()


if __name__ == "__main__":
    main()
