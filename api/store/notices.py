"""What telling an account away from the board keeps in Redis: its Web Push subscriptions, the
server's VAPID key, its inbox (30 days of notifications, with what is unread) and its presence
(a marker per game it reads, living the presence window)."""

from __future__ import annotations

import json

import redis

from api.store import keys
from api.store.games import hash_token
from api.store.replies import data, text

INBOX_KEPT_S = 30 * 86400
# a token's entry (KEYS[1]) names its account: mark it present at ARGV[1] .. account .. ARGV[2]
# for ARGV[3] seconds; one round trip, and nothing when the token is unknown
SEEN_BY_TOKEN = """
local entry = redis.call('GET', KEYS[1])
if not entry then return 0 end
redis.call('SET', ARGV[1] .. cjson.decode(entry).account .. ARGV[2], 1, 'EX', ARGV[3])
return 1
"""

# keep a notification ARGV[1] at ARGV[2] (its JSON ARGV[3]) in the inbox KEYS[1..2], unread
# (KEYS[3]), unless it is kept already; then let go of those kept at ARGV[4] or before, and keep
# the three keys ARGV[5] seconds from now: one round trip for each notification a worker sends
RECORD = """
if redis.call('ZADD', KEYS[1], 'NX', ARGV[2], ARGV[1]) == 1 then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
  redis.call('SADD', KEYS[3], ARGV[1])
end
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[4])) do
  redis.call('ZREM', KEYS[1], old)
  redis.call('HDEL', KEYS[2], old)
  redis.call('SREM', KEYS[3], old)
end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[5]) end
"""


class NoticeStore:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._seen_by_token = client.register_script(SEEN_BY_TOKEN)
        self._record = client.register_script(RECORD)

    # -- VAPID ---------------------------------------------------------------------------

    def vapid_pem(self, make) -> str:
        """The server's VAPID private key (PEM): the stored one, or `make()` stored now unless
        another process stored one first."""
        found = self.redis.get(keys.vapid_key())
        if found is None:
            self.redis.set(keys.vapid_key(), make(), nx=True)
            found = self.redis.get(keys.vapid_key())
        return text(found)

    # -- push subscriptions -----------------------------------------------------------------

    def add_subscription(self, account_id: str, subscription: dict) -> None:
        self.redis.hset(
            keys.push_subscriptions_key(account_id), subscription["id"], json.dumps(subscription)
        )

    def subscriptions(self, account_id: str) -> list[dict]:
        """The account's subscriptions, oldest first."""
        found = self.redis.hgetall(keys.push_subscriptions_key(account_id))
        return sorted((json.loads(raw) for raw in found.values()), key=lambda s: s["created_ts"])

    def subscription(self, account_id: str, subscription_id: str) -> dict | None:
        raw = self.redis.hget(keys.push_subscriptions_key(account_id), subscription_id)
        return None if raw is None else json.loads(raw)

    def remove_subscription(self, account_id: str, subscription_id: str) -> bool:
        return bool(self.redis.hdel(keys.push_subscriptions_key(account_id), subscription_id))

    # -- the inbox ---------------------------------------------------------------------------

    def record(self, account_id: str, item: dict, now: float) -> None:
        """Keep a notification (`item["id"]`, at `item["ts"]`) unread; the same id again changes
        nothing (a repeated delivery, even after it was read). Those older than 30 days go."""
        self._record(
            keys=[
                keys.inbox_key(account_id),
                keys.inbox_items_key(account_id),
                keys.inbox_unread_key(account_id),
            ],
            args=[
                item["id"],
                repr(item["ts"]),
                json.dumps(item),
                repr(now - INBOX_KEPT_S),
                INBOX_KEPT_S,
            ],
        )

    def inbox(self, account_id: str, since: float, unread_only: bool) -> list[dict]:
        """The notifications since `since`, newest first, each with `read`."""
        ids = [
            data(i) for i in self.redis.zrevrangebyscore(keys.inbox_key(account_id), "+inf", since)
        ]
        if not ids:
            return []
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(keys.inbox_items_key(account_id), ids)
            pipe.smembers(keys.inbox_unread_key(account_id))
            items, unread = pipe.execute()
        found = [
            {**json.loads(raw), "read": i not in unread}
            for i, raw in zip(ids, items)
            if raw is not None
        ]
        return [f for f in found if not (unread_only and f["read"])]

    def unread(self, account_id: str) -> int:
        return self.redis.scard(keys.inbox_unread_key(account_id))

    def mark_read(self, account_id: str, ids: list[str] | None) -> None:
        """Mark those notifications read (`ids` None: all of them)."""
        if ids is None:
            self.redis.delete(keys.inbox_unread_key(account_id))
        elif ids:
            self.redis.srem(keys.inbox_unread_key(account_id), *ids)

    # -- presence ------------------------------------------------------------------------------

    def seen(self, account_id: str, where: str, window_s: int) -> None:
        """The account read `where` (a game id, or "games") just now."""
        self.redis.set(keys.presence_key(account_id, where), 1, ex=window_s)

    def seen_by_token(self, token: str, where: str, window_s: int) -> None:
        """As `seen`, for the account of an account token (nothing when it is unknown)."""
        before, _, after = keys.presence_key("\0", where).partition("\0")
        self._seen_by_token(
            keys=[keys.auth_token_key(hash_token(token))], args=[before, after, window_s]
        )

    def present(self, account_id: str, game_id: str) -> bool:
        """Whether the account read the game, or its list of games, within the window."""
        return bool(
            self.redis.exists(
                keys.presence_key(account_id, game_id), keys.presence_key(account_id, "games")
            )
        )
