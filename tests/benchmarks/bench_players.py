"""Players before playtests: a person's bot reply while the workers `make run` starts (one kept
for players, one for everything) are loaded with the heaviest batch the API allows and with
bot-vs-bot games. Baseline, measured in the same run just before: the same reply with the workers
idle. Target: the loaded reply within 1 s plus the bot's think budget."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

import redis

from api import playtests
from api.followups import RQFollowups
from api.notify.events import GAME_EVENTS
from api.play import service
from api.playtests.storage import REPORTS
from api.record import Seat
from api.store.embedded import start_redis
from api.store.games import GameStore
from api.store.playtests import PlaytestStore

ROUNDS = int(os.environ.get("BENCH_REPLY_ROUNDS", "10"))
BOT_GAMES = 60
BUDGET_S = 1.0  # the workers' think budget per bot move, as `make run` has it


def reply_latency(store: GameStore, followups: RQFollowups) -> list[float]:
    """Seconds from a person's move to the greedy Factor/Multiple bot's reply being stored."""
    latencies = []
    for _ in range(ROUNDS):
        record, _ = service.create_game(
            store,
            followups,
            "factor-multiple",
            {},
            [Seat.human("Ada"), Seat.for_bot("greedy")],
            first=0,
        )
        moved = time.time()
        service.play_move(store, followups, record.id, 0, {"type": "say", "number": 4}, 0)
        while store.load(record.id).ply < 2 and time.time() - moved < 120:
            time.sleep(0.01)
        latencies.append(time.time() - moved)
    return latencies


def main() -> None:
    redis_proc, url = start_redis(tempfile.mkdtemp(prefix="postplay-bench-"), appendonly=False)
    client = redis.Redis.from_url(url)
    env = {**os.environ, "REDIS_URL": url, "POSTPLAY_BOT_BUDGET_S": str(BUDGET_S)}
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "api.cli", "worker", "--role", role],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for role in ("players", "all")
    ]
    store, followups = GameStore(client, GAME_EVENTS), RQFollowups(client)
    try:
        time.sleep(2)
        idle = reply_latency(store, followups)
        spec = playtests.check_request(
            "ploid",
            None,
            ["advanced", "advanced"],
            1000,
            budget_s=playtests.MAX_BUDGET_S,
            chunk_games=100,
        )
        batch = PlaytestStore(client, REPORTS).start(spec)
        for _ in range(BOT_GAMES):
            service.create_game(
                store,
                followups,
                "ploid",
                {},
                [Seat.for_bot("advanced"), Seat.for_bot("advanced")],
                first=0,
            )
        time.sleep(3)  # the batch and the bot games now hold the other worker
        loaded = reply_latency(store, followups)
        PlaytestStore(client, REPORTS).cancel(batch["id"])
        for name, values in (
            ("idle workers (baseline)", idle),
            ("a playtest + 60 bot games running", loaded),
        ):
            print(
                f"greedy reply, {name:34s} median {statistics.median(values):6.3f} s  "
                f"max {max(values):6.3f} s"
            )
        print(
            f"median ratio to baseline {statistics.median(loaded) / statistics.median(idle):.2f}"
            f"; target: max <= {1 + BUDGET_S:.1f} s (1 s + the think budget)"
        )
    finally:
        for worker in workers:  # twice: RQ's cold shutdown, not waiting for a chunk to end
            worker.terminate()
            time.sleep(0.5)
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=60)
        redis_proc.terminate()


if __name__ == "__main__":
    main()
