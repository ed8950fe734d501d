"""Games in Redis: one JSON document per game record (`api.record.GameRecord`), its
history, seat tokens and the lobby indexes. Every change goes through `update`, which applies it with optimistic concurrency:
its writes land, in one script, only while the stored document is the one the change was made
from, so two changes made from the same version can never both land. Each write is the record's
next version, set here and by no caller (its ETag, and the 304 polls' answer, name it).
"""

from __future__ import annotations

import builtins
import dataclasses
import hashlib
import hmac
import json
import time
from collections.abc import Sequence
from typing import Any, Callable, cast

import redis

from api import jsontext
from api.record import GameRecord, Status
from api.store import archive, keys
from api.store.connection import durability
from api.store.replies import data, data_or_none, text


class TokenUnknown(LookupError):
    """No seat of any game has this token."""


class TokenOfAnotherGame(LookupError):
    """The token is a seat's of another game."""


class NotReplicated(redis.exceptions.ConnectionError):
    """A write reached the master but not the replicas it must reach before a player is told it
    succeeded (a failover could lose it): refused as an outage, 503, like a write that failed."""


@dataclasses.dataclass
class Change:
    """What one update writes: the new record, history entries to append (after removing the
    last `drop` ones: a takeback), seat tokens to add, chat messages to append; and other keys
    the change read (`guards`: key -> the value read, b"" when absent), which must still hold
    those values for its further `writes` (Redis commands) to land with it. `at`: when the change
    was made, the record's `updated_ts` (None: now, by this machine's clock)."""

    record: GameRecord
    moves: list[dict] = dataclasses.field(default_factory=list)
    tokens: dict[int, str] = dataclasses.field(default_factory=dict)
    guards: dict[str, bytes] = dataclasses.field(default_factory=dict)
    writes: list[list] = dataclasses.field(default_factory=list)
    drop: int = 0
    chat: list[dict] = dataclasses.field(default_factory=list)
    at: float | None = None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# the writes of a change (ARGV[n + 1]: a JSON list of Redis commands, all strings), made only
# while every key it read still holds what it read (KEYS[i] holds ARGV[i] for i <= n, '' for an
# absent key: the game's stored document first); 1 when they were made, 0 when another change
# landed first. ARGV[n + 2], when given, is the game's new document, stored at KEYS[1] (its
# JSON, or its archive, which is binary: beside the commands' JSON rather than escaped into it)
WRITE_CHANGE = """
local function write_change(n)
  for i = 1, n do
    if (redis.call('GET', KEYS[i]) or '') ~= ARGV[i] then return 0 end
  end
  for _, command in ipairs(cjson.decode(ARGV[n + 1])) do redis.call(unpack(command)) end
  local document = ARGV[n + 2]
  if document then redis.call('SET', KEYS[1], document) end
  return 1
end
"""
WRITE_IF_UNCHANGED = (
    WRITE_CHANGE
    + """
return write_change(#KEYS)
"""
)


# the game's version alone, without sending the document: a poll with a matching ETag needs no
# more. An archive has it in the clear after its magic; in a JSON document the keys are written
# in a fixed order, and a quote inside a string is escaped, so the first `"version":` is the
# record's own
VERSION_OF = """
local function version_of(doc)
  return tonumber(string.match(doc, '^%za1:(%d+):') or string.match(doc, '"version":(%d+)'))
end
"""
VERSION = (
    VERSION_OF
    + """
local doc = redis.call('GET', KEYS[1])
if not doc then return false end
return version_of(doc)
"""
)


# the versions of an account's games (KEYS[1], its sorted set of games, newest first), each
# read as VERSION reads one: id, version, id, version...
VERSIONS_OF = (
    VERSION_OF
    + """
local function versions_of(index, game_prefix)
  local out = {}
  for _, id in ipairs(redis.call('ZREVRANGE', index, 0, -1)) do
    local doc = redis.call('GET', game_prefix .. id)
    if doc then
      out[#out + 1] = id
      out[#out + 1] = version_of(doc)
    end
  end
  return out
end
"""
)
ACCOUNT_VERSIONS = (
    VERSIONS_OF
    + """
return versions_of(KEYS[1], ARGV[1])
"""
)


# what a move by seat token reads, in one script (cheaper than a pipeline of four): the game's
# document (KEYS[1]), the token's entry (KEYS[2], "<game>:<seat>"), the game's seat hashes
# (KEYS[3], flat) and the conditional moves of the token's opponent (KEYS[4] seat 0's, KEYS[5]
# seat 1's), which the move's change reads
SEAT_AND_READ = """
local entry = redis.call('GET', KEYS[2])
local seat = entry and tonumber(string.match(entry, ':(%d+)$'))
local tree = false
if seat == 0 or seat == 1 then tree = redis.call('GET', KEYS[5 - seat]) end
return {redis.call('GET', KEYS[1]), entry, redis.call('HGETALL', KEYS[3]), tree}
"""


# claim up to ARGV[3] checks due by ARGV[1], pushing each one's score to ARGV[2] (the lease's
# end); returns member, due score, member, due score...
CLAIM_DUE = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[3])
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], ARGV[2], due[i]) end
return due
"""
# a claim handed back unused (its worker stops): due again at ARGV[3], unless a newer write has
# set it due meanwhile or the lease ARGV[2] has run out
HAND_BACK = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
"""
# done with a claimed check: remove it unless a newer write has set it due again
RELEASE_DUE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) end
"""


@dataclasses.dataclass(frozen=True)
class DueCheck:
    """A check a worker has claimed: `check` ("deadline" or "rule:<name>") of game `game_id`,
    due at `due`, leased until `lease`."""

    game_id: str
    check: str
    due: float
    lease: float

    @property
    def member(self) -> str:
        return f"{self.game_id}|{self.check}"


def versions_listed(raw: list) -> list[list]:
    """[game id, version] pairs from a script's flat id, version, id, version... answer."""
    return [[game_id.decode(), version] for game_id, version in zip(raw[::2], raw[1::2])]


@dataclasses.dataclass(frozen=True)
class Events:
    """How the events of a change are derived, given by the layer that owns them
    (`api.notify.events.GAME_EVENTS`), so that the store writes them to the outbox in the change's
    own script without knowing them: `moment` keeps what they need of a record before a change,
    and `notices` gives the outbox entries of a change from that moment (None: a new game), the
    record after it and the seat that wrote its chat message, if any."""

    moment: Callable[[GameRecord], object]
    notices: Callable[[Any, GameRecord, int | None], list[dict]]  # (its moment: `moment`'s)
    # what other indexes a change keeps with it (an event's, `api.events.links`): the keys it
    # reads given the status the game had (None: a new game) and the record after the change,
    # and its writes from the values read (guarded: they land only while those values hold)
    reads: Callable[[Status | None, GameRecord], list[str]] = lambda was, record: []
    writes: Callable[[Status | None, GameRecord, dict[str, bytes]], list[list]] = (
        lambda was, record, read: []
    )


class GameStore:
    def __init__(self, client: redis.Redis, events: Events):
        """`events`: how a change's events are derived (given by the layer that owns them)."""
        self.redis, self.events = client, events
        self._write_if_unchanged = client.register_script(WRITE_IF_UNCHANGED)
        self._version = client.register_script(VERSION)
        self._account_versions = client.register_script(ACCOUNT_VERSIONS)
        self._seat_and_read = client.register_script(SEAT_AND_READ)
        self.wait_replicas, self.wait_ms = durability(client)
        self._claim_due = client.register_script(CLAIM_DUE)
        self._release_due = client.register_script(RELEASE_DUE)
        self._hand_back = client.register_script(HAND_BACK)

    def create(
        self,
        record: GameRecord,
        tokens: dict[int, str],
        moves: Sequence[dict] = (),
        bot_games_of: str | None = None,
    ) -> None:
        """Store a new game (version 1) with its seat tokens (kept only as hashes); with
        `bot_games_of`, counted among that client's running bot games."""
        writes = self.creation_writes(record, tokens, moves)
        with self.redis.pipeline(transaction=True) as pipe:
            for command in writes:
                pipe.execute_command(*command)
            if bot_games_of is not None:
                pipe.sadd(keys.client_bot_games_key(hash_token(bot_games_of)), record.id)
            pipe.execute()
        if self.wait_replicas:
            self._check_replicated(self.redis.wait(self.wait_replicas, self.wait_ms))

    def running_bot_games(self, client: str) -> int:
        """How many of `client`'s bot games still run (those that ended are dropped here)."""
        key = keys.client_bot_games_key(hash_token(client))
        ids = [text(i) for i in self.redis.smembers(key)]
        running = {r.id for r in self.load_many(ids) if r.status is not Status.FINISHED}
        ended = [i for i in ids if i not in running]
        if ended:
            self.redis.srem(key, *ended)
        return len(running)

    def load(self, game_id: str) -> GameRecord | None:
        found = self.load_and_read(game_id)
        return None if found is None else found[0]

    def load_and_read(self, game_id: str) -> tuple[GameRecord, bytes] | None:
        """The record and its document as read (which `update` may start from)."""
        raw = data_or_none(self.redis.get(keys.game_key(game_id)))
        return None if raw is None else (_record(raw), raw)

    def load_and_read_trees(self, game_id: str) -> tuple[GameRecord, bytes, list[bytes]] | None:
        """`load_and_read`, with each seat's conditional moves as `seat_part` reads them, in one
        round trip: what a move by an account's token reads (its seat known from the record)."""
        raw, *trees = self.redis.mget(
            [keys.game_key(game_id), *(keys.conditional_key(game_id, seat) for seat in (0, 1))]
        )
        if raw is None:
            return None
        return _record(data(raw)), data(raw), [data(tree or b"") for tree in trees]

    def load_many(self, game_ids: list[str]) -> list[GameRecord]:
        if not game_ids:
            return []
        raws = self.redis.mget([keys.game_key(g) for g in game_ids])
        return [_record(data(raw)) for raw in raws if raw is not None]

    def moves(self, game_id: str) -> list[dict]:
        """The game's history: its list while it runs, its archive once it is over."""
        listed = self.redis.lrange(keys.moves_key(game_id), 0, -1)
        if listed:
            return [jsontext.loads(raw) for raw in listed]
        raw = data_or_none(self.redis.get(keys.game_key(game_id)))
        return archive.decode(raw)[1] if raw is not None and archive.is_archive(raw) else []

    def chat(self, game_id: str) -> list[dict]:
        """The game's chat messages, oldest first."""
        return [json.loads(raw) for raw in self.redis.lrange(keys.chat_key(game_id), 0, -1)]

    def version(self, game_id: str) -> int | None:
        """The game's version (None: no such game), read without its document."""
        return self._version(keys=[keys.game_key(game_id)])

    def account_versions(self, account_id: str) -> list[list]:
        """[game id, version] of each of the account's games, newest first, in one round trip
        and without their documents: what a poll of the account's games needs to answer 304."""
        raw = self._account_versions(
            keys=[keys.account_part_key(account_id, "games")], args=[keys.game_key("")]
        )
        return versions_listed(raw)

    def update(
        self, game_id: str, change: Callable[[GameRecord], Change], read: bytes | None = None
    ) -> Change:
        """Apply `change` to the current record atomically and return what it wrote.

        `change` gets the record as it stands and returns a `Change` or raises; when another
        writer lands first, `change` runs again on the newer record (and may then refuse).
        `read`, the document as the caller has just read it (`seat_for_token`), saves reading it
        again: a stale one only costs a retry.
        """
        key = keys.game_key(game_id)
        while True:
            raw, read = read if read is not None else data_or_none(self.redis.get(key)), None
            if raw is None:
                raise KeyError(game_id)
            result, script_keys, args = self._prepared(game_id, raw, change)
            if self._write(self._write_if_unchanged, script_keys, args):
                return result

    def _prepared(
        self, game_id: str, raw: bytes, change: Callable[[GameRecord], Change]
    ) -> tuple[Change, list[str], list]:
        """`change` made to the document `raw`: what it wrote, and the write script's keys and
        arguments that store it."""
        record = _record(raw)
        version = record.version
        # before `change` edits the record in place
        before, moment = Standing.of(record), self.events.moment(record)
        result = change(record)
        _advance(result, version)
        self._linked(before.status, result)
        writes = _writes(before, result, self._notices(moment, result))
        if result.record.status is Status.FINISHED:
            writes, document = _archived(writes, result, *self._history_and_hashes(game_id, raw))
        else:  # (its first write sets the document: it goes beside the others)
            writes, document = writes[1:], writes[0][2]
        return (
            result,
            [keys.game_key(game_id), *result.guards],
            [raw, *result.guards.values(), jsontext.dumps(writes), document],
        )

    def _linked(self, was: Status | None, change: Change) -> None:
        """The change's writes to the indexes of the layers above (`Events.reads`/`writes`),
        guarded by the values they were derived from."""
        wanted = [k for k in self.events.reads(was, change.record) if k not in change.guards]
        read = (
            dict(zip(wanted, (data(v or b"") for v in self.redis.mget(wanted)))) if wanted else {}
        )
        change.guards.update(read)
        change.writes += self.events.writes(was, change.record, read)

    def creation_writes(
        self, record: GameRecord, tokens: dict[int, str], moves: Sequence[dict] = ()
    ) -> list[list]:
        """The writes `create` makes, in order, for a caller that pipelines many (a finished
        game, a playtest's sample, is archived at once)."""
        change = Change(record, list(moves), tokens)
        notices = self._notices(None, change)
        if record.status is not Status.FINISHED:
            return _writes(None, change, notices)
        writes, finished = _archived(
            _writes(None, Change(record, tokens=tokens), notices), change, [], {}
        )
        return [*writes, ["SET", keys.game_key(record.id), finished]]

    def new_game_writes(self, record: GameRecord, moves: Sequence[dict] = ()) -> list[list]:
        """The writes that store a new game (no seat tokens: its seats are accounts' or bots'),
        for a caller that makes them in a transaction of its own with other writes."""
        change = Change(record, list(moves))
        return _writes(None, change, self._notices(None, change))

    def _notices(self, moment: object, change: Change) -> list[dict]:
        """The outbox entries of `change` to a game that stood at `moment` (None: a new game)."""
        author = change.chat[-1]["seat"] if change.chat else None
        return self.events.notices(moment, change.record, author)

    def _history_and_hashes(self, game_id: str, raw: bytes) -> tuple[list[dict], dict]:
        """What a game's archive keeps besides its record, as the game stands."""
        if archive.is_archive(raw):
            _, history, seat_hashes = archive.decode(raw)
            return history, seat_hashes
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.lrange(keys.moves_key(game_id), 0, -1)
            pipe.hgetall(keys.seat_hashes_key(game_id))
            listed, hashes = pipe.execute()
        return (
            [jsontext.loads(e) for e in listed],
            {k.decode(): v.decode() for k, v in hashes.items()},
        )

    def _write(self, script, script_keys: list[str], args: list):
        """A write script's answer; with replicas to wait for, WAIT in the same round trip."""
        if not self.wait_replicas:
            return script(keys=script_keys, args=args)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.evalsha(script.sha, len(script_keys), *script_keys, *args)
            pipe.wait(self.wait_replicas, self.wait_ms)
            written, replicas = pipe.execute(raise_on_error=False)
        if isinstance(written, redis.exceptions.NoScriptError):  # a new master: load it once
            return (
                self._write(script, script_keys, args)
                if self.redis.script_load(script.script)
                else 0
            )
        if isinstance(written, Exception):
            raise written
        if written == 1:
            self._check_replicated(replicas)
        return written

    def _check_replicated(self, replicas) -> None:
        """Refuse a write fewer replicas confirmed than asked for, unless the master has none
        left to confirm it (just after a failover, until the old master comes back as a
        replica): it is then as safe as one Redis can make it, and refusing would stop play."""
        if isinstance(replicas, Exception):
            raise replicas
        if replicas < self.wait_replicas and self.redis.execute_command("ROLE")[2]:
            raise NotReplicated(
                f"the write reached {replicas} of {self.wait_replicas} replicas "
                f"within {self.wait_ms} ms"
            )

    def seat_for_token(self, game_id: str, token: str) -> int:
        """The seat of `game_id` that `token` belongs to; KeyError when there is no such game."""
        return self.seat_and_read(game_id, token)[0]

    def seat_and_read(self, game_id: str, token: str) -> tuple[int, bytes, bytes]:
        """The seat of `game_id` that `token` belongs to, the game's document as read with it
        (for `update`) and its opponent's conditional moves as `seat_part` reads them (for the
        move's change), in one round trip; KeyError when there is no such game."""
        token_hash = hash_token(token)
        return self._seat_of(
            game_id,
            token_hash,
            *self._seat_and_read(
                keys=[
                    keys.game_key(game_id),
                    keys.token_key(token_hash),
                    keys.seat_hashes_key(game_id),
                    keys.conditional_key(game_id, 0),
                    keys.conditional_key(game_id, 1),
                ]
            ),
        )

    def _seat_of(
        self,
        game_id: str,
        token_hash: str,
        raw: bytes | None,
        owner: bytes | None,
        flat: list,
        tree: bytes | None,
    ) -> tuple[int, bytes, bytes]:
        """`seat_and_read`'s answer from what SEAT_AND_READ read: the game's document, the
        token's index entry, the game's seat hashes and the opponent's conditional moves."""
        seat_hashes = dict(zip(flat[::2], flat[1::2]))
        if raw is None:
            raise KeyError(game_id)
        if not seat_hashes and archive.is_archive(raw):
            seat_hashes = {k.encode(): v.encode() for k, v in archive.decode(raw)[2].items()}
        if owner is None:
            raise TokenUnknown
        owner_game, seat = owner.decode().rsplit(":", 1)
        if owner_game != game_id:
            raise TokenOfAnotherGame
        stored = seat_hashes.get(seat.encode())
        if stored is None or not hmac.compare_digest(stored.decode(), token_hash):
            raise TokenUnknown
        return int(seat), raw, data(tree or b"")

    def list(
        self, status: str | None, kind: str | None, offset: int, limit: int
    ) -> tuple[list[GameRecord], int]:
        """A page of games, newest first, and how many match in all."""
        key = keys.lobby_key(status, kind)
        ids = [text(i) for i in self.redis.zrevrange(key, offset, offset + limit - 1)]
        return self.load_many(ids), self.redis.zcard(key)

    def claim_due(self, now: float, lease_s: float, limit: int = 100) -> builtins.list[DueCheck]:
        """Claim the checks due by `now` for `lease_s` seconds: no other worker gets them until
        they are released or the lease runs out."""
        lease = now + lease_s
        raw = self._claim_due(keys=[keys.due_key()], args=[repr(now), repr(lease), limit])
        claimed = []
        for member, due in zip(raw[::2], raw[1::2]):
            game_id, check = member.decode().split("|", 1)
            claimed.append(DueCheck(game_id, check, float(due), lease))
        return claimed

    def release_due(self, claimed: DueCheck) -> None:
        self._release_due(keys=[keys.due_key()], args=[claimed.member, repr(claimed.lease)])

    def hand_back_due(self, claimed: DueCheck) -> None:
        """Give back a claimed check not run (its worker stops): due as it was, for another."""
        self._hand_back(
            keys=[keys.due_key()], args=[claimed.member, repr(claimed.lease), repr(claimed.due)]
        )

    def next_due(self) -> float | None:
        """When the earliest check is due (None: nothing is)."""
        # (member, score) pairs: redis-py's type of the reply does not tell them from members
        first = cast(
            list[tuple[bytes, float]], self.redis.zrange(keys.due_key(), 0, 0, withscores=True)
        )
        return first[0][1] if first else None

    def bots_to_move(self, changed_before: float) -> builtins.list[str]:
        """The games where a server bot is to move, unchanged since before `changed_before`."""
        return [
            text(g)
            for g in self.redis.zrangebyscore(keys.bots_to_move_key(), "-inf", repr(changed_before))
        ]

    def delete(self, game_id: str) -> bool:
        """Remove a game and every key and index entry it has; False when it is gone already."""
        raw = data_or_none(self.redis.get(keys.game_key(game_id)))
        if raw is None:
            self.redis.zrem(keys.deletable_key(), game_id)
            return False
        record = _record(raw)
        token_hashes = list(self._history_and_hashes(game_id, raw)[1].values())
        analyses = list(self.redis.scan_iter(keys.analysis_key(game_id, "*"), count=1000))
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(
                keys.game_key(game_id),
                keys.moves_key(game_id),
                keys.seat_hashes_key(game_id),
                keys.chat_key(game_id),
                keys.rematch_key(game_id),
                *analyses,
                *_seat_parts(game_id, record),
                *(keys.token_key(h) for h in token_hashes),
            )
            for key in keys.lobby_keys(record.status.value, record.kind):
                pipe.zrem(key, game_id)
            pipe.zrem(keys.due_key(), *(f"{game_id}|{c}" for c in record.possible_checks()))
            pipe.zrem(keys.bots_to_move_key(), game_id)
            pipe.zrem(keys.ratings_due_key(), game_id)
            pipe.zrem(keys.deletable_key(), game_id)
            pipe.execute()
        return True

    def seat_part(self, game_id: str, part: Callable[[str, int], str], seat: int) -> bytes:
        """What a seat keeps beside the game (`keys.conditional_key`, `keys.notes_key`), as
        stored: b"" when it has none (the value a change's `guards` compare)."""
        return data(self.redis.get(part(game_id, seat)) or b"")

    def set_seat_part(
        self, game_id: str, part: Callable[[str, int], str], seat: int, value: bytes | None
    ) -> None:
        """Set (None: remove) what a seat keeps beside the game, whatever the game's version."""
        key = part(game_id, seat)
        self.redis.set(key, value) if value is not None else self.redis.delete(key)

    def write_beside(self, game_id: str, read: bytes, writes: builtins.list[builtins.list]) -> bool:
        """Make `writes` (Redis commands on a game's seat parts) only while the game's document
        is still `read`, without writing a new version of it: False when a change landed first
        (the caller reads the game again and decides anew)."""
        return bool(
            self._write(
                self._write_if_unchanged, [keys.game_key(game_id)], [read, jsontext.dumps(writes)]
            )
        )

    def deletable(self, now: float, limit: int = 1000) -> builtins.list[str]:
        """Games that ended with no move made, kept long enough to be deleted by `now`."""
        return [
            text(g)
            for g in self.redis.zrangebyscore(
                keys.deletable_key(), "-inf", repr(now), start=0, num=limit
            )
        ]

    def cache_analysis(self, game_id: str, ply: int, analysis: dict, ttl_s: int = 86400) -> None:
        self.redis.set(keys.analysis_key(game_id, ply), json.dumps(analysis), ex=ttl_s)

    def cached_analysis(self, game_id: str, ply: int) -> dict | None:
        raw = self.redis.get(keys.analysis_key(game_id, ply))
        return None if raw is None else json.loads(raw)

    def rematch_of(self, game_id: str, making_s: int) -> str | None:
        """The id of the game's rematch; "" when this call may make it (no other is being made:
        the claim lasts `making_s` seconds unless `link_rematch` names the rematch first); None
        while another request makes it."""
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(keys.rematch_key(game_id), "", nx=True, ex=making_s)
            pipe.get(keys.rematch_key(game_id))
            claimed, held = pipe.execute()
        return "" if claimed else (held.decode() or None)

    def link_rematch(self, game_id: str, rematch_id: str | None) -> None:
        """Name the rematch of the game for good, or (None) give up the claim to make it."""
        if rematch_id is None:
            self.redis.delete(keys.rematch_key(game_id))
        else:
            self.redis.set(keys.rematch_key(game_id), rematch_id)


def _record(raw: bytes) -> GameRecord:
    """The record of a stored document: JSON, or an archive."""
    return GameRecord.from_dict(
        archive.decode(raw)[0] if archive.is_archive(raw) else jsontext.loads(raw)
    )


def _seat_parts(game_id: str, record: GameRecord) -> list[str]:
    """The keys each seat of the game keeps beside it."""
    return [
        part(game_id, seat)
        for seat in range(len(record.seats))
        for part in (keys.conditional_key, keys.notes_key)
    ]


def _advance(change: Change, version: int) -> None:
    """The record a change writes is the next version of the one it was made from, stamped with
    the change's time: set here, for every write, so that no change can forget it (a version
    left as it was would let a poll's ETag hide the change)."""
    change.record.version = version + 1
    change.record.updated_ts = time.time() if change.at is None else change.at


def _archived(
    writes: list[list], change: Change, history: list[dict], seat_hashes: dict[str, str]
) -> tuple[list[list], bytes]:
    """A finished game's writes: its record, history and seat hashes go into one archive
    (`api.store.archive`) instead of their keys; `history` and `seat_hashes` are what it had."""
    game_id = change.record.id
    own = {keys.game_key(game_id), keys.moves_key(game_id), keys.seat_hashes_key(game_id)}
    hashes = {**seat_hashes, **{str(s): hash_token(t) for s, t in change.tokens.items()}}
    finished = archive.encode(change.record.to_dict(), history + change.moves, hashes)
    # a finished game keeps no conditional moves: nobody is to move any more
    conditional = [keys.conditional_key(game_id, seat) for seat in range(len(change.record.seats))]
    return (
        [w for w in writes if w[1] not in own and w[1] not in conditional]
        + [["DEL", keys.moves_key(game_id), keys.seat_hashes_key(game_id), *conditional]]
    ), finished


@dataclasses.dataclass(frozen=True)
class Standing:
    """What the indexes need to know of a record as it was before a change."""

    status: Status
    kind: str
    unlisted: bool
    invited: frozenset[str]

    @classmethod
    def of(cls, record: GameRecord) -> "Standing":
        return cls(record.status, record.kind, record.unlisted, frozenset(record.invited))


def _writes(before: Standing | None, change: Change, notices: list[dict]) -> list[list]:
    """The Redis commands that store `change` to a game that stood as `before` (None: a new
    game), with the outbox entries it calls for (`notices`)."""
    record = change.record
    doc = record.to_dict()
    game_id = doc["id"]
    writes: list[list] = [["SET", keys.game_key(game_id), jsontext.dumps_text(doc)]]
    if change.drop:
        writes.append(["LTRIM", keys.moves_key(game_id), "0", str(-1 - change.drop)])
    if change.moves:
        writes.append(
            ["RPUSH", keys.moves_key(game_id), *(jsontext.dumps_text(m) for m in change.moves)]
        )
    if change.chat:
        writes.append(
            ["RPUSH", keys.chat_key(game_id), *(jsontext.dumps_text(m) for m in change.chat)]
        )
    for seat, token in change.tokens.items():
        token_hash = hash_token(token)
        writes.append(["HSET", keys.seat_hashes_key(game_id), str(seat), token_hash])
        writes.append(["SET", keys.token_key(token_hash), f"{game_id}:{seat}"])
    writes += _work_writes(change.record)
    writes += _account_writes(before, change.record)
    writes += change.writes
    writes += _outbox_writes(notices)
    if before is not None and before.status is record.status:
        return writes  # the lobby indexes already hold it
    new_keys = _lobby_keys(Standing.of(record))
    if before is not None:
        writes += [["ZREM", key, game_id] for key in sorted(_lobby_keys(before) - new_keys)]
    writes += [["ZADD", key, repr(record.created_ts), game_id] for key in sorted(new_keys)]
    return writes


def _work_writes(record: GameRecord) -> list[list]:
    """The writes that keep the workers' indexes true to the record, in the same script as the
    record itself, so no check or bot move a change calls for can be lost between two writes:
    its due checks, whether a bot is to move (or to answer an offer), and whether a rated game's
    ratings are owed."""
    due = record.due_checks()
    writes: list[list] = [
        ["ZADD", keys.due_key(), repr(at), f"{record.id}|{check}"] for check, at in due.items()
    ]
    gone = [f"{record.id}|{check}" for check in record.possible_checks() if check not in due]
    if gone:
        writes.append(["ZREM", keys.due_key(), *gone])
    deletable = record.deletable_at()
    if deletable is not None:
        writes.append(["ZADD", keys.deletable_key(), repr(deletable), record.id])
    if record.bot_to_act is None:
        writes.append(["ZREM", keys.bots_to_move_key(), record.id])
    else:
        writes.append(["ZADD", keys.bots_to_move_key(), repr(record.updated_ts), record.id])
    if record.rating_due:
        writes.append(["ZADD", keys.ratings_due_key(), repr(record.updated_ts), record.id])
    elif record.rated:
        writes.append(["ZREM", keys.ratings_due_key(), record.id])
    return writes


def _account_writes(before: Standing | None, record: GameRecord) -> list[list]:
    """The accounts' indexes of the game: its players' games, and the challenges of the accounts
    it waits for (gone once they accept or decline)."""
    score = repr(record.created_ts)
    writes = [
        ["ZADD", keys.account_part_key(a, "games"), score, record.id]
        for a in sorted(record.accounts)
    ]
    waits_for = record.invited if record.status is Status.WAITING else set()
    writes += [
        ["ZADD", keys.account_part_key(a, "challenges"), score, record.id]
        for a in sorted(waits_for)
    ]
    was_waiting_for = before.invited if before is not None else frozenset()
    writes += [
        ["ZREM", keys.account_part_key(a, "challenges"), record.id]
        for a in sorted(was_waiting_for - waits_for)
    ]
    return writes


def _outbox_writes(notices: list[dict]) -> list[list]:
    """The events a change tells the game's accounts of, onto the outbox the workers deliver
    from: in the record's own script, so that no event is lost between two writes."""
    return [
        ["XADD", keys.outbox_key(), "*", "event", jsontext.dumps_text(entry)] for entry in notices
    ]


def _lobby_keys(standing: Standing) -> set[str]:
    """The lobby indexes that list the game: none while it waits for an invited friend."""
    if standing.status is Status.WAITING and standing.unlisted:
        return set()
    return set(keys.lobby_keys(standing.status.value, standing.kind))
