"""Reading a finished sweep: the largest one (24 variants of GAMES games) stored as the workers
store it, read by `SweepStore.view` once (every variant's records parsed, 24 reports and the
comparison computed, then kept) and then from the kept view. Prints the kept read's time as a
ratio of the computed one, both measured in this run; no target, a figure to watch."""

from __future__ import annotations

import random
import statistics
import tempfile
import time

import redis

from api import playtests
from api.playtests import sweeps
from api.playtests.storage import REPORTS
from api.store.embedded import start_redis
from api.store.keys import sweep_key
from api.store.playtests import ChunkStatus
from api.store.sweeps import SweepStore

GAMES = 500
ROUNDS = 5


def finished_sweep(store: SweepStore, rng: random.Random) -> str:
    """A 24-variant Prime Drop sweep whose every game is recorded and every chunk finished, as
    if the workers had played it (outcomes drawn at random: reading does not care)."""
    spec = sweeps.check_request(
        "prime-drop",
        ["beginner", "beginner"],
        GAMES,
        {
            "size": [9, 11, 13],
            "tiles": [
                {"1": 5},
                {"2": 5},
                {"3": 5},
                {"7": 5},
                {"9": 5},
                {"1": 9},
                {"3": 9},
                {"7": 9},
            ],
        },
        seed=1,
        chunk_games=100,
    )
    doc = store.start(spec)
    for variant in doc["variants"]:
        pid = variant["playtest_id"]
        for index in range(GAMES):
            levels, first = playtests.seating(spec["bots"], index)
            store.playtests.add_game(
                pid,
                {
                    "index": index,
                    "levels": list(levels),
                    "first": first,
                    "winner": rng.choice([0, 1, None]),
                    "reason": "score",
                    "scores": [rng.randint(0, 30), rng.randint(0, 30)],
                    "plies": rng.randint(20, 120),
                    "game_id": None,
                },
            )
        for chunk in range(len(spec["variants"][0]["spec"]["chunks"])):
            store.playtests.end_chunk(pid, chunk, ChunkStatus.FINISHED)
    return doc["id"]


def timed(read) -> float:
    start = time.perf_counter()
    read()
    return time.perf_counter() - start


def main() -> None:
    redis_proc, url = start_redis(tempfile.mkdtemp(prefix="postplay-bench-"), appendonly=False)
    client = redis.Redis.from_url(url)
    store = SweepStore(client, REPORTS)
    try:
        sweep_id = finished_sweep(store, random.Random(7))
        computed, kept = [], []
        for _ in range(ROUNDS):
            client.delete(sweep_key(sweep_id, "view"))
            computed.append(timed(lambda: store.view(sweep_id)))
            kept.append(timed(lambda: store.view(sweep_id)))
        c, k = statistics.median(computed), statistics.median(kept)
        print(f"finished sweep, 24 variants x {GAMES} games (median of {ROUNDS}):")
        print(f"  computed (baseline)  {c * 1000:8.1f} ms")
        print(f"  kept view            {k * 1000:8.1f} ms   ratio {k / c:.3f} of computed")
    finally:
        redis_proc.terminate()


if __name__ == "__main__":
    main()
