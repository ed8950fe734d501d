"""Tournaments and ladders in Redis: one JSON document each, changed only inside a transaction
that watches it (WATCH / MULTI / EXEC), with whatever else the change writes (the games a round
creates, the outbox's events, the due check of its next step). A process that dies before EXEC
leaves nothing written; a change made from a document another has changed meanwhile is made
again from the new one, so a step runs once however many workers try it."""

from __future__ import annotations

import builtins
import dataclasses
from collections.abc import Sequence
from typing import Callable

import redis

from api import jsontext
from api.store import keys
from api.store.replies import text

STATUSES = ("open", "running", "finished", "cancelled")


@dataclasses.dataclass
class Written:
    """What a change writes besides the document: Redis commands, in its transaction."""

    writes: list[list] = dataclasses.field(default_factory=list)
    after: object = None  # what the caller wants back (the games created, ...)


class TournamentStore:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def create(self, doc: dict, writes: Sequence[list] = ()) -> None:
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(keys.tournament_key(doc["id"]), jsontext.dumps_text(doc))
            for status in (None, doc["status"]):
                pipe.zadd(keys.tournaments_key(status), {doc["id"]: doc["created_ts"]})
            for command in writes:
                pipe.execute_command(*command)
            pipe.execute()

    def load(self, tournament_id: str) -> dict | None:
        raw = self.redis.get(keys.tournament_key(tournament_id))
        return None if raw is None else jsontext.loads(raw)

    def load_many(self, ids: list[str]) -> list[dict]:
        if not ids:
            return []
        raws = self.redis.mget([keys.tournament_key(i) for i in ids])
        return [jsontext.loads(raw) for raw in raws if raw is not None]

    def list(self, status: str | None, offset: int, limit: int) -> tuple[list[dict], int]:
        key = keys.tournaments_key(status)
        ids = [text(i) for i in self.redis.zrevrange(key, offset, offset + limit - 1)]
        return self.load_many(ids), self.redis.zcard(key)

    def of_account(self, account_id: str) -> builtins.list[dict]:
        key = keys.account_part_key(account_id, "tournaments")
        return self.load_many([text(i) for i in self.redis.zrevrange(key, 0, 99)])

    def running(self) -> builtins.list[str]:
        return [text(i) for i in self.redis.zrange(keys.tournaments_key("running"), 0, -1)]

    def update(self, tournament_id: str, change: Callable[[dict], Written]) -> tuple[dict, Written]:
        """Apply `change` (which edits the document in place, or raises) in one transaction;
        again from the newer document when another change lands first. KeyError: no such
        tournament."""
        return self._transact(keys.tournament_key(tournament_id), change, indexed=True)

    def ladder(self, kind: str) -> dict:
        raw = self.redis.get(keys.ladder_key(kind))
        return _empty_ladder(kind) if raw is None else jsontext.loads(raw)

    def update_ladder(self, kind: str, change: Callable[[dict], Written]) -> tuple[dict, Written]:
        return self._transact(
            keys.ladder_key(kind), change, indexed=False, missing=_empty_ladder(kind)
        )

    def _transact(self, key: str, change, indexed: bool, missing: dict | None = None):
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    if raw is not None:
                        doc = jsontext.loads(raw)
                    elif missing is not None:
                        doc = dict(missing)
                    else:
                        raise KeyError(key)
                    was = doc.get("status")
                    written = change(doc)
                    doc["version"] = doc.get("version", 0) + 1
                    pipe.multi()
                    pipe.set(key, jsontext.dumps_text(doc))
                    if indexed and doc["status"] != was:
                        pipe.zrem(keys.tournaments_key(was), doc["id"])
                        pipe.zadd(
                            keys.tournaments_key(doc["status"]), {doc["id"]: doc["created_ts"]}
                        )
                    for command in written.writes:
                        pipe.execute_command(*command)
                    pipe.execute()
                    return doc, written
                except redis.WatchError:
                    continue


def _empty_ladder(kind: str) -> dict:
    return {"kind": kind, "ranks": [], "open": {}, "version": 0}
