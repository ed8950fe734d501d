"""Redis bytes per finished game of each kind: GAMES bot games per kind (the two weakest bots,
default options), stored as the service stores a game (record, history, seat tokens, indexes),
measured with MEMORY USAGE key by key. Figures, not a target: issue 22 sets one (<= 1.5 KB)."""

from __future__ import annotations

import statistics
import tempfile
import time

import redis

from api.bots import levels
from api.bots.match import PLY_LIMIT, play_game
from api.games import GAMES
from api.notify.events import GAME_EVENTS
from api.record import GameRecord, Seat, history_entry
from api.store import keys
from api.store.embedded import start_redis
from api.store.games import GameStore

GAMES_PER_KIND = 10


def stored_bytes(client: redis.Redis, game_id: str) -> int:
    """The game's own keys plus its entries in the indexes (counted as member + score)."""
    own = [keys.game_key(game_id), keys.moves_key(game_id), keys.seat_hashes_key(game_id)]
    total = sum(client.memory_usage(k) or 0 for k in own)
    return total + len(game_id) * 4 + 8 * 4  # four lobby indexes hold its id and a score


def main() -> None:
    redis_proc, url = start_redis(tempfile.mkdtemp(prefix="postplay-bench-"), appendonly=False)
    client = redis.Redis.from_url(url)
    store = GameStore(client, GAME_EVENTS)
    try:
        print(f"{'kind':16s} {'plies':>6s} {'bytes/game':>11s}  (median of {GAMES_PER_KIND})")
        for slug, game in GAMES.items():
            weakest = list(levels(slug))[:2] if len(levels(slug)) > 1 else list(levels(slug)) * 2
            sizes, plies = [], []
            for seed in range(GAMES_PER_KIND):
                played = play_game(
                    slug,
                    {},
                    tuple(weakest),
                    seed,
                    first=seed % 2,
                    budget_s=0.01,
                    max_plies=PLY_LIMIT,
                )
                now = time.time()
                record = GameRecord.create(
                    f"{slug}-{seed}",
                    slug,
                    game.check_options({}),
                    seed,
                    played.first,
                    [Seat.human("Ada Lovelace"), Seat.for_bot(weakest[1])],
                    played.final,
                    len(played.history),
                    game.default_time_control,
                    None,
                    now,
                )
                record.first_move_ts = now
                record.finish(played.outcome)
                store.create(
                    record,
                    {0: "a-seat-token-of-32-characters-xx"},
                    [
                        history_entry(i, seat, move, now)
                        for i, (seat, move) in enumerate(played.history)
                    ],
                )
                sizes.append(stored_bytes(client, record.id))
                plies.append(len(played.history))
            print(f"{slug:16s} {statistics.median(plies):6.0f} {statistics.median(sizes):11.0f}")
    finally:
        redis_proc.terminate()


if __name__ == "__main__":
    main()
