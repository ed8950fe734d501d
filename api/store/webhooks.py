"""Webhooks in Redis: each account's endpoints (with their secrets, which signing needs in the
clear) and delivery logs, the outbox the changes write events to, and the deliveries still owed
with the time of their next attempt.

The outbox is a stream read by one consumer group: a worker that read an entry and died before
fanning it out leaves it pending, and another claims it once it has been idle for a lease. The
fan-out writes the entry's deliveries and acknowledges it in one transaction. Deliveries are
claimed as the games' due checks are (`api.store.games.CLAIM_DUE`): by pushing their score a
lease ahead, so an attempt a dead worker began is made again by another when the lease ends.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, cast

import redis

from api.store import keys
from api.store.games import CLAIM_DUE, HAND_BACK

OUTBOX_GROUP = "deliverers"
LOG_KEPT = 100  # attempts kept per endpoint
# settle a claimed delivery: log the attempt, then, while the claim is still ours (ARGV[2]),
# either drop it (ARGV[4] empty) or set its next attempt at ARGV[4] with its doc ARGV[5];
# 1 when it was ours
SETTLE = """
redis.call('LPUSH', KEYS[3], ARGV[3])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[6]) - 1)
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('DEL', KEYS[2])
else
  redis.call('ZADD', KEYS[1], ARGV[4], ARGV[1])
  redis.call('SET', KEYS[2], ARGV[5], 'KEEPTTL')
end
return 1
"""


@dataclasses.dataclass(frozen=True)
class Claimed:
    """A delivery a worker has claimed until `lease`: its doc (`id`, `msg`, `account`,
    `endpoint`, `type`, `game`, `body`, `first_ts`, `attempts`)."""

    delivery: dict
    lease: float


class WebhookStore:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._claim_due = client.register_script(CLAIM_DUE)
        self._settle = client.register_script(SETTLE)
        self._hand_back = client.register_script(HAND_BACK)

    # -- endpoints ---------------------------------------------------------------------

    def add(self, account_id: str, endpoint: dict) -> None:
        self.redis.hset(keys.webhooks_key(account_id), endpoint["id"], json.dumps(endpoint))

    def count(self, account_id: str) -> int:
        return self.redis.hlen(keys.webhooks_key(account_id))

    def endpoints(self, account_id: str) -> list[dict]:
        """The account's endpoints, oldest first, each with `disabled`: None, or {at, reason}."""
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(keys.webhooks_key(account_id))
            pipe.hgetall(keys.webhooks_disabled_key(account_id))
            stored, disabled = pipe.execute()
        found = [
            {**json.loads(raw), "disabled": _json_or_none(disabled.get(eid))}
            for eid, raw in stored.items()
        ]
        return sorted(found, key=lambda e: e["created_ts"])

    def endpoint(self, account_id: str, endpoint_id: str) -> dict | None:
        return next((e for e in self.endpoints(account_id) if e["id"] == endpoint_id), None)

    def remove(self, account_id: str, endpoint_id: str) -> bool:
        """Delete an endpoint and its log; False when the account has none of that id. The
        deliveries still owed to it are dropped when they come due."""
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hdel(keys.webhooks_key(account_id), endpoint_id)
            pipe.hdel(keys.webhooks_disabled_key(account_id), endpoint_id)
            pipe.delete(keys.webhook_log_key(account_id, endpoint_id))
            removed, _, _ = pipe.execute()
        return bool(removed)

    def disable(self, account_id: str, endpoint_id: str, at: float, reason: str) -> None:
        self.redis.hset(
            keys.webhooks_disabled_key(account_id),
            endpoint_id,
            json.dumps({"at": at, "reason": reason}),
        )

    def log(self, account_id: str, endpoint_id: str) -> list[dict]:
        """The endpoint's recent attempts, newest first."""
        return [
            json.loads(raw)
            for raw in self.redis.lrange(keys.webhook_log_key(account_id, endpoint_id), 0, -1)
        ]

    # -- the outbox --------------------------------------------------------------------

    def ensure_group(self) -> None:
        """The consumer group, reading the outbox from its first entry (made once)."""
        try:
            self.redis.xgroup_create(keys.outbox_key(), OUTBOX_GROUP, id="0", mkstream=True)
        except redis.ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise

    def read_outbox(self, consumer: str, count: int, block_ms: int | None) -> list[tuple]:
        """Entries no worker has read yet, now this `consumer`'s: (entry id, event)."""
        # the RESP2 shape of the reply (our clients' protocol): [stream, [(entry id, fields)]]
        found = cast(
            list[list[Any]],
            self.redis.xreadgroup(
                OUTBOX_GROUP, consumer, {keys.outbox_key(): ">"}, count=count, block=block_ms
            ),
        )
        return [
            (entry_id, _event(fields))
            for _, entries in (found or [])
            for entry_id, fields in entries
        ]

    def reclaim_outbox(self, consumer: str, idle_ms: int, count: int) -> list[tuple]:
        """Entries read by a worker that has not fanned them out for `idle_ms`: a dead one's.
        An entry deleted meanwhile comes back with no event (None)."""
        reply = self.redis.xautoclaim(
            keys.outbox_key(), OUTBOX_GROUP, consumer, idle_ms, "0-0", count=count
        )
        return [(entry_id, _event(fields)) for entry_id, fields in reply[1]]

    def fan_out(self, entry_id, deliveries: list[dict], due: float, ttl_s: int) -> None:
        """Owe `deliveries` (due at `due`) for the outbox entry, and take the entry off the
        outbox, in one transaction."""
        with self.redis.pipeline(transaction=True) as pipe:
            for delivery in deliveries:
                pipe.set(keys.delivery_key(delivery["id"]), json.dumps(delivery), ex=ttl_s)
                pipe.zadd(keys.deliveries_due_key(), {delivery["id"]: due})
            pipe.xack(keys.outbox_key(), OUTBOX_GROUP, entry_id)
            pipe.xdel(keys.outbox_key(), entry_id)
            pipe.execute()

    def outbox_length(self) -> int:
        return self.redis.xlen(keys.outbox_key())

    # -- deliveries --------------------------------------------------------------------

    def claim_due(self, now: float, lease_s: float, limit: int) -> list[Claimed]:
        """Claim up to `limit` deliveries due by `now` for `lease_s` seconds."""
        if limit <= 0:
            return []
        lease = now + lease_s
        raw = self._claim_due(
            keys=[keys.deliveries_due_key()], args=[repr(now), repr(lease), limit]
        )
        ids = [member.decode() for member in raw[::2]]
        if not ids:
            return []
        docs = self.redis.mget([keys.delivery_key(i) for i in ids])
        gone = [i for i, doc in zip(ids, docs) if doc is None]  # expired: nothing to send
        if gone:
            self.redis.zrem(keys.deliveries_due_key(), *gone)
        return [Claimed(json.loads(doc), lease) for doc in docs if doc is not None]

    def settle(
        self,
        claimed: Claimed,
        attempt: dict,
        next_at: float | None = None,
        log_key: str | None = None,
        log_kept: int = LOG_KEPT,
    ) -> bool:
        """Log an attempt of a claimed delivery (in its endpoint's log, or `log_key`), then drop
        the delivery (`next_at` None) or owe it again at `next_at`; False when the claim had run
        out (another worker has it)."""
        delivery = claimed.delivery
        if log_key is None:
            log_key = keys.webhook_log_key(delivery["account"], delivery["endpoint"])
        return bool(
            self._settle(
                keys=[keys.deliveries_due_key(), keys.delivery_key(delivery["id"]), log_key],
                args=[
                    delivery["id"],
                    repr(claimed.lease),
                    json.dumps(attempt),
                    "" if next_at is None else repr(next_at),
                    json.dumps(delivery),
                    log_kept,
                ],
            )
        )

    def hand_back(self, claimed: Claimed, now: float) -> None:
        """Give back a claimed delivery not attempted (its worker stops): due at `now`."""
        self._hand_back(
            keys=[keys.deliveries_due_key()],
            args=[claimed.delivery["id"], repr(claimed.lease), repr(now)],
        )

    def drop(self, claimed: Claimed) -> None:
        """Forget a claimed delivery without an attempt (its endpoint is gone or disabled)."""
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(keys.deliveries_due_key(), claimed.delivery["id"])
            pipe.delete(keys.delivery_key(claimed.delivery["id"]))
            pipe.execute()

    def owed(self) -> int:
        """How many deliveries are owed (waiting for an attempt or a retry)."""
        return self.redis.zcard(keys.deliveries_due_key())


def _event(fields: dict | None) -> dict | None:
    return None if not fields else json.loads(fields[b"event"])


def _json_or_none(raw: bytes | None) -> dict | None:
    return None if raw is None else json.loads(raw)
