"""Accounts in Redis: the account, its username (taken atomically, case-insensitively), its
tokens and recovery codes, kept only as hashes. Its games and challenges are indexes the game
store writes with each game (`api.store.games`)."""

from __future__ import annotations

import json
from typing import Callable, cast

import redis

from api.store import keys
from api.store.games import VERSIONS_OF, hash_token, versions_listed
from api.store.replies import text

# a token's entry (KEYS[1]), marked used at ARGV[3], with its account and the versions of the
# account's games (ARGV[1] and ARGV[2]: the key prefixes of accounts and games): entry,
# account, id, version, id, version...; nothing when the token or its account is unknown. The
# account is marked present at its games (the key ARGV[5] after the account's) for ARGV[4] s
# (0: not marked)
TOKEN_WITH_GAMES = (
    VERSIONS_OF
    + """
local entry = redis.call('GET', KEYS[1])
if not entry then return false end
local token = cjson.decode(entry)
local account_key = ARGV[1] .. token.account
local account = redis.call('GET', account_key)
if not account then return false end
redis.call('HSET', account_key .. ':token-use', token.id, ARGV[3])
if tonumber(ARGV[4]) > 0 then redis.call('SET', account_key .. ARGV[5], 1, 'EX', ARGV[4]) end
local out = versions_of(account_key .. ':games', ARGV[2])
table.insert(out, 1, account)
table.insert(out, 1, entry)
return out
"""
)


class NameTaken(LookupError):
    """Another account has this username (in any case)."""


class AccountStore:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._token_with_games = client.register_script(TOKEN_WITH_GAMES)

    def create(self, account: dict, recovery_codes: list[str]) -> None:
        """Store a new account; NameTaken when its name is taken (the one atomic step)."""
        if not self.redis.set(keys.username_key(account["username"]), account["id"], nx=True):
            raise NameTaken(account["username"])
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(keys.account_key(account["id"]), json.dumps(account))
            pipe.sadd(
                keys.account_part_key(account["id"], "recovery"),
                *(hash_token(code) for code in recovery_codes),
            )
            pipe.execute()

    def load(self, account_id: str) -> dict | None:
        raw = self.redis.get(keys.account_key(account_id))
        return None if raw is None else json.loads(raw)

    def load_many(self, account_ids: list[str]) -> dict[str, dict]:
        """The accounts of these ids that exist, by id, in one round trip."""
        if not account_ids:
            return {}
        raws = self.redis.mget([keys.account_key(a) for a in account_ids])
        return {a: json.loads(raw) for a, raw in zip(account_ids, raws) if raw is not None}

    def find(self, username: str) -> dict | None:
        """The account named `username`, in any case."""
        account_id = self.redis.get(keys.username_key(username))
        return None if account_id is None else self.load(text(account_id))

    def save(self, account: dict) -> None:
        self.redis.set(keys.account_key(account["id"]), json.dumps(account))

    def add_token(self, token: str, entry: dict) -> None:
        """Keep a new token of `entry["account"]` (only its hash)."""
        token_hash = hash_token(token)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(keys.auth_token_key(token_hash), json.dumps(entry))
            pipe.hset(keys.account_part_key(entry["account"], "tokens"), entry["id"], token_hash)
            pipe.execute()

    def token(self, token: str) -> dict | None:
        """The entry of a token, or None (unknown or revoked)."""
        raw = self.redis.get(keys.auth_token_key(hash_token(token)))
        return None if raw is None else json.loads(raw)

    def tokens(self, account_id: str) -> list[dict]:
        """Every token of the account, with when each was last used."""
        hashes = self.redis.hgetall(keys.account_part_key(account_id, "tokens"))
        if not hashes:
            return []
        raws = self.redis.mget([keys.auth_token_key(text(h)) for h in hashes.values()])
        used = self.redis.hgetall(keys.account_part_key(account_id, "token-use"))
        entries = [json.loads(raw) for raw in raws if raw is not None]
        return [
            {
                **e,
                "last_used_ts": float(used[e["id"].encode()]) if e["id"].encode() in used else None,
            }
            for e in entries
        ]

    def token_with_games(
        self, token: str, now: float, present_s: int = 0
    ) -> tuple[dict, dict, list[list]] | None:
        """In one round trip: a token's entry, marked used at `now` (as `used` marks it), its
        account, and [game id, version] of each of the account's games, newest first (as
        `GameStore.account_versions` lists them); None when the token or its account is unknown.
        What a poll of the account's games needs to answer 304. With `present_s`, the account
        is marked present at its games for that long (`keys.presence_key`)."""
        present_at = keys.presence_key("", "games")[len(keys.account_key("")) :]
        raw = self._token_with_games(
            keys=[keys.auth_token_key(hash_token(token))],
            args=[keys.account_key(""), keys.game_key(""), repr(now), present_s, present_at],
        )
        if not raw:
            return None
        return json.loads(raw[0]), json.loads(raw[1]), versions_listed(raw[2:])

    def used(self, entry: dict, now: float) -> None:
        self.redis.hset(
            keys.account_part_key(entry["account"], "token-use"), entry["id"], repr(now)
        )

    def revoke(self, account_id: str, token_id: str) -> bool:
        """Revoke one token at once; False when the account has no such token."""
        token_hash = self.redis.hget(keys.account_part_key(account_id, "tokens"), token_id)
        if token_hash is None:
            return False
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(keys.auth_token_key(text(token_hash)))
            pipe.hdel(keys.account_part_key(account_id, "tokens"), token_id)
            pipe.hdel(keys.account_part_key(account_id, "token-use"), token_id)
            pipe.execute()
        return True

    def revoke_all(self, account_id: str, kind: str | None = None, keep: str | None = None) -> None:
        """Revoke every token of the account (of one kind), but `keep` (a token id)."""
        for entry in self.tokens(account_id):
            if entry["id"] != keep and kind in (None, entry["kind"]):
                self.revoke(account_id, entry["id"])

    def spend_recovery_code(self, account_id: str, code: str) -> bool:
        """Use up one recovery code: True once, for a code the account holds."""
        return bool(
            self.redis.srem(
                keys.account_part_key(account_id, "recovery"), hash_token(code.strip().lower())
            )
        )

    def replace_recovery_codes(self, account_id: str, codes: list[str]) -> None:
        key = keys.account_part_key(account_id, "recovery")
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            pipe.sadd(key, *(hash_token(code) for code in codes))
            pipe.execute()

    def game_ids(self, account_id: str, part: str = "games") -> list[str]:
        """The account's games ("games") or the challenges waiting for it ("challenges"), newest
        first."""
        return [
            text(g) for g in self.redis.zrevrange(keys.account_part_key(account_id, part), 0, -1)
        ]

    def vacation(self, account_id: str) -> dict | None:
        """The account's vacation allowance as last settled (None: never settled)."""
        raw = self.redis.get(keys.account_part_key(account_id, "vacation"))
        return None if raw is None else json.loads(raw)

    def update_vacation(self, account_id: str, change: Callable[[dict | None], dict]) -> dict:
        """Store `change(allowance as stored)` with optimistic concurrency: when another switch
        lands first, `change` runs again on it. Kept beside the account, so that saving the
        account's settings never writes an older allowance back."""
        key = keys.account_part_key(account_id, "vacation")

        def write(pipe: redis.client.Pipeline) -> dict:
            raw = pipe.get(key)
            new = change(None if raw is None else json.loads(raw))
            pipe.multi()
            pipe.set(key, json.dumps(new))
            return new

        # redis-py types `func` as answering None, though `value_from_callable` answers its value
        answer = self.redis.transaction(write, key, value_from_callable=True)  # type: ignore[arg-type]
        return cast(dict, answer)

    def count_failures(self, whos: list[str], window_s: int) -> None:
        """Count one failed password check for each of `whos` (a name, an address, a pair of
        them, an account) in its window, which starts with its first failure; atomically, so a
        count never outlives its window."""
        pipe = self.redis.pipeline(transaction=True)
        for who in whos:
            key = keys.sign_in_failures_key(hash_token(who))
            pipe.set(key, 0, ex=window_s, nx=True)
            pipe.incr(key)  # keeps the expiry SET gave
        pipe.execute()

    def failures(self, whos: list[str]) -> list[tuple[int, int]]:
        """For each of `whos`, its failures in the window and the seconds the window has left,
        in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for who in whos:
            key = keys.sign_in_failures_key(hash_token(who))
            pipe.get(key)
            pipe.ttl(key)
        found = pipe.execute()
        return [(int(raw or 0), max(0, ttl)) for raw, ttl in zip(found[::2], found[1::2])]

    def delete(self, account: dict) -> None:
        """Remove the account's credentials; its username stays taken, so nobody can take the
        name of a player whose games are still shown."""
        account_id = account["id"]
        self.revoke_all(account_id)
        self.redis.delete(
            keys.account_part_key(account_id, "recovery"),
            keys.account_part_key(account_id, "token-use"),
            keys.account_part_key(account_id, "vacation"),
        )
        self.save({**account, "deleted": True, "password_hash": None})
