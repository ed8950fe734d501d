"""Puzzles in Redis: each puzzle a hash (`doc`: its JSON, never changed; `rating`: its Glicko-2
rating as JSON; `plays`), a sorted set per kind by rating, the daily puzzles, and per account
the puzzles seen, the first decided attempts, the puzzle ratings and the lessons passed.

Adding is idempotent (the id is the position's digest): a miner that dies half-way and runs
again adds nothing twice. A first attempt's ratings land in one transaction with the mark that
it was made, so a second attempt, or the same one sent twice at once, changes nothing.
"""

from __future__ import annotations

import json
import random
from typing import Callable

import redis

from api.store import keys
from api.store.replies import data, text

# the rating windows `GET /puzzles/next` looks in, nearest first, before any puzzle at all
WINDOWS = (100, 250, 600)


class PuzzleStore:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def add(self, puzzle: dict, rd: float = 300.0) -> bool:
        """Store a puzzle unless one of its id is there; True when it is new."""
        key = keys.puzzle_key(puzzle["id"])
        doc = {k: v for k, v in puzzle.items() if k != "rating"}
        new = bool(self.redis.hsetnx(key, "doc", json.dumps(doc, separators=(",", ":"))))
        rating = {"rating": puzzle["rating"], "rd": rd, "vol": 0.06, "games": 0}
        pipe = self.redis.pipeline()
        pipe.hsetnx(key, "rating", json.dumps(rating))
        pipe.hsetnx(key, "plays", 0)
        pipe.zadd(
            keys.puzzles_by_rating_key(puzzle["kind"]), {puzzle["id"]: puzzle["rating"]}, nx=True
        )
        pipe.execute()
        return new

    def get(self, puzzle_id: str) -> dict | None:
        """The puzzle with its current `rating` (a JSON Rating document) and `plays`."""
        doc, rating, plays = self.redis.hmget(keys.puzzle_key(puzzle_id), "doc", "rating", "plays")
        if doc is None:
            return None
        return {**json.loads(doc), "rating": json.loads(data(rating)), "plays": int(plays or 0)}

    def count(self, kind: str) -> int:
        return self.redis.zcard(keys.puzzles_by_rating_key(kind))

    def ids(self, kind: str) -> list[str]:
        """Every id of a kind, in a fixed order (by id)."""
        return sorted(text(m) for m in self.redis.zrange(keys.puzzles_by_rating_key(kind), 0, -1))

    def near(
        self, kind: str, rating: float, account_id: str | None, rng: random.Random
    ) -> str | None:
        """A puzzle id near `rating` that the account has not been shown (anonymous: any),
        marked shown."""
        zkey = keys.puzzles_by_rating_key(kind)
        seen = (
            set()
            if account_id is None
            else {text(m) for m in self.redis.smembers(keys.puzzles_seen_key(account_id))}
        )
        for window in (*WINDOWS, None):
            low, high = ("-inf", "+inf") if window is None else (rating - window, rating + window)
            ids = [text(m) for m in self.redis.zrangebyscore(zkey, low, high)]
            fresh = [i for i in ids if i not in seen]
            if fresh:
                chosen = rng.choice(fresh)
                if account_id is not None:
                    self.redis.sadd(keys.puzzles_seen_key(account_id), chosen)
                return chosen
        return None

    def daily(self, kind: str, day: str) -> str | None:
        raw = self.redis.get(keys.daily_puzzle_key(kind, day))
        return None if raw is None else text(raw)

    def set_daily(self, kind: str, day: str, puzzle_id: str) -> str:
        """Make `puzzle_id` the day's puzzle unless one is set already; the day's puzzle."""
        key = keys.daily_puzzle_key(kind, day)
        self.redis.set(key, puzzle_id, nx=True, ex=8 * 86400)
        return text(self.redis.get(key))

    def first_try(self, account_id: str, puzzle_id: str) -> dict | None:
        raw = self.redis.hget(keys.puzzle_tries_key(account_id), puzzle_id)
        return None if raw is None else json.loads(raw)

    def tries(self, account_id: str) -> dict[str, dict]:
        return {
            text(k): json.loads(v)
            for k, v in self.redis.hgetall(keys.puzzle_tries_key(account_id)).items()
        }

    def account_rating(self, account_id: str, kind: str) -> bytes:
        return data(self.redis.get(keys.puzzle_rating_key(account_id, kind)) or b"")

    def rate_first_try(
        self,
        account_id: str,
        puzzle_id: str,
        kind: str,
        rate: Callable[[bytes, bytes], tuple[dict, dict, dict]],
    ) -> dict | None:
        """Record the account's first decided try of the puzzle with both ratings after it:
        `rate(account's rating document, puzzle's)` gives the new account rating, the new
        puzzle rating and the try's entry. None (and nothing written) when the account had
        tried it already."""
        tries, mine = keys.puzzle_tries_key(account_id), keys.puzzle_rating_key(account_id, kind)
        puzzle = keys.puzzle_key(puzzle_id)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(tries, mine, puzzle)
                    if pipe.hexists(tries, puzzle_id):
                        pipe.unwatch()
                        return None
                    account_raw = data(pipe.get(mine) or b"")
                    puzzle_raw = data(pipe.hget(puzzle, "rating") or b"")
                    account_after, puzzle_after, entry = rate(account_raw, puzzle_raw)
                    pipe.multi()
                    pipe.hset(tries, puzzle_id, json.dumps(entry))
                    pipe.set(mine, json.dumps(account_after))
                    pipe.hset(puzzle, "rating", json.dumps(puzzle_after))
                    pipe.hincrby(puzzle, "plays", 1)
                    pipe.zadd(keys.puzzles_by_rating_key(kind), {puzzle_id: puzzle_after["rating"]})
                    pipe.sadd(keys.puzzles_seen_key(account_id), puzzle_id)
                    pipe.execute()
                    return entry
                except redis.WatchError:
                    continue

    def count_play(self, puzzle_id: str) -> None:
        self.redis.hincrby(keys.puzzle_key(puzzle_id), "plays", 1)

    def mark_mined(self, source: str) -> bool:
        """Whether `source` (a game or playtest game) is newly marked mined."""
        return bool(self.redis.sadd(keys.puzzles_mined_key(), source))

    def owe_mining(self, game_id: str, now: float) -> None:
        """Note that a finished game's mining is enqueued (the first time counts)."""
        self.redis.zadd(keys.puzzles_owed_key(), {game_id: now}, nx=True)

    def mining_done(self, game_id: str) -> None:
        self.redis.zrem(keys.puzzles_owed_key(), game_id)

    def mining_owed(self, before: float) -> list[str]:
        """The games whose mining was enqueued before `before` and has not ended."""
        return [text(m) for m in self.redis.zrangebyscore(keys.puzzles_owed_key(), "-inf", before)]

    def mined(self, source: str) -> bool:
        return bool(self.redis.sismember(keys.puzzles_mined_key(), source))

    def seeded(self) -> bool:
        return bool(self.redis.exists(keys.puzzles_seeded_key()))

    def mark_seeded(self) -> None:
        self.redis.set(keys.puzzles_seeded_key(), 1)

    def pass_lesson(self, account_id: str, kind: str, n: int, now: float) -> None:
        self.redis.hsetnx(keys.lessons_passed_key(account_id), f"{kind}:{n}", now)

    def lessons_passed(self, account_id: str) -> list[str]:
        return sorted(text(k) for k in self.redis.hkeys(keys.lessons_passed_key(account_id)))
