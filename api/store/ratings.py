"""Ratings in Redis: each account's rating per kind (a JSON document), its history and the
leaderboards, and the rated games whose ratings are owed (written by the game store with the
record that ends the game). Reads hand back the raw documents too, so that a write can be made
only while nothing changed since (`WRITE_IF_UNCHANGED`, the game store's own script): the
rating of a game lands with the game's `rating_changes`, in one script, through
`GameStore.update`; a ladder game's through `commit`.
"""

from __future__ import annotations

import json

import redis

from api.store import keys
from api.store.games import WRITE_IF_UNCHANGED
from api.store.replies import data, text

HISTORY_KEPT = 500  # entries of one account's history in one kind (a chart needs no more)


class RatingStore:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._write_if_unchanged = client.register_script(WRITE_IF_UNCHANGED)

    def read(self, kind: str, account_ids: list[str]) -> list[bytes]:
        """The stored rating documents of the accounts in `kind` (b"" for one never rated)."""
        raws = self.redis.mget([keys.rating_key(a, kind) for a in account_ids])
        return [data(raw or b"") for raw in raws]

    def of_account(self, account_id: str, kinds: list[str]) -> dict[str, dict]:
        """The account's rating documents, per kind it has one in."""
        raws = self.redis.mget([keys.rating_key(account_id, k) for k in kinds])
        return {k: json.loads(raw) for k, raw in zip(kinds, raws) if raw is not None}

    def many(self, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], dict]:
        """The rating documents of (account id, kind) pairs, in one round trip; those never
        rated are left out."""
        if not pairs:
            return {}
        raws = self.redis.mget([keys.rating_key(a, k) for a, k in pairs])
        return {pair: json.loads(raw) for pair, raw in zip(pairs, raws) if raw is not None}

    @staticmethod
    def guards(kind: str, account_ids: list[str], raws: list[bytes]) -> dict[str, bytes]:
        """What the writes of an update made from `raws` need to find still stored."""
        return {keys.rating_key(a, kind): raw for a, raw in zip(account_ids, raws)}

    @staticmethod
    def writes(kind: str, account_id: str, rating: dict, entry: dict) -> list[list]:
        """The commands that store an account's new rating, its history entry and its place on
        the kind's leaderboard."""
        history = keys.rating_history_key(account_id, kind)
        return [
            ["SET", keys.rating_key(account_id, kind), json.dumps(rating)],
            ["RPUSH", history, json.dumps(entry)],
            ["LTRIM", history, str(-HISTORY_KEPT), "-1"],
            ["ZADD", keys.leaderboard_key(kind), repr(rating["rating"]), account_id],
        ]

    @staticmethod
    def account_writes(account: dict) -> list[list]:
        """The commands that create an account with the ratings that first need it (a server
        bot's), unless it exists: its name is taken only if free."""
        return [
            ["SET", keys.username_key(account["username"]), account["id"], "NX"],
            ["SET", keys.account_key(account["id"]), json.dumps(account), "NX"],
        ]

    def commit(self, guards: dict[str, bytes], writes: list[list]) -> bool:
        """Make `writes` only while every key of `guards` holds what was read; False when
        another write landed first."""
        return bool(
            self._write_if_unchanged(keys=list(guards), args=[*guards.values(), json.dumps(writes)])
        )

    def history(self, account_id: str, kind: str, limit: int = HISTORY_KEPT) -> list[dict]:
        """The account's last `limit` history entries in `kind`, oldest first."""
        raws = self.redis.lrange(keys.rating_history_key(account_id, kind), -limit, -1)
        return [json.loads(raw) for raw in raws]

    def top(self, kind: str, limit: int) -> list[str]:
        """The ids of the `limit` highest rated accounts of `kind`, best first."""
        return [text(a) for a in self.redis.zrevrange(keys.leaderboard_key(kind), 0, limit - 1)]

    def due(self, ended_before: float) -> list[str]:
        """The rated games whose ratings are still owed, ended before `ended_before`."""
        return [
            text(g)
            for g in self.redis.zrangebyscore(keys.ratings_due_key(), "-inf", repr(ended_before))
        ]
