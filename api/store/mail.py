"""E-mail in Redis: the mails owed (each a JSON doc under its id, and its next attempt in a sorted
set claimed with a lease, as the games' due checks are), the secret the links in mails are
signed with, and the reminders before a deadline, each written to the outbox once per turn.

A mail is owed under an id the caller chooses (a digest's names its account and day, a
reminder's its turn and threshold), and owing the same id again adds nothing: a check that runs
twice owes its mail once.
"""

from __future__ import annotations

import dataclasses
import json
import secrets

import redis

from api.store import keys
from api.store.games import CLAIM_DUE, VERSION_OF
from api.store.replies import data

# owe a mail (KEYS[1] its doc, KEYS[2] the mails due) unless one of its id is owed already
OWE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', ARGV[3]) then
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[4])
  return 1
end
return 0
"""
# the reminder of one turn and threshold (KEYS[1] its mark): the event onto the outbox
# (KEYS[2]) and, when ARGV[4] is not empty, its mail owed (KEYS[3], KEYS[4]) -- all or nothing,
# and only the first time; 1 when written
REMIND = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
redis.call('XADD', KEYS[2], '*', 'event', ARGV[2])
if ARGV[4] ~= '' then
  if redis.call('SET', KEYS[3], ARGV[4], 'NX', 'EX', ARGV[5]) then
    redis.call('ZADD', KEYS[4], ARGV[3], ARGV[6])
  end
end
return 1
"""
# set a due check (KEYS[2], member ARGV[3] at ARGV[2]) while the game (KEYS[1]) is still at
# version ARGV[1]: a check that read an older game must not move a newer game's check
DUE_IF_CURRENT = (
    VERSION_OF
    + """
local doc = redis.call('GET', KEYS[1])
if not doc or version_of(doc) ~= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
return 1
"""
)
# done with a claimed mail (ARGV[1], claimed until ARGV[2]): drop it (ARGV[3] empty) or owe it
# again at ARGV[3] with its doc ARGV[4], while the claim is still ours
SETTLE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('DEL', KEYS[2])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
  redis.call('SET', KEYS[2], ARGV[4], 'KEEPTTL')
end
return 1
"""
KEPT_S = 3 * 86400  # an owed mail not sent in this long is given up on
REMINDED_KEPT_S = 120 * 86400  # longer than any turn (the longest time control's bank)


@dataclasses.dataclass(frozen=True)
class ClaimedMail:
    """A mail a worker has claimed until `lease`: its doc (`id`, `kind`, `account`, `data`,
    `attempts`, and `to` for a verification)."""

    mail: dict
    lease: float


class MailStore:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._owe = client.register_script(OWE)
        self._remind = client.register_script(REMIND)
        self._due_if_current = client.register_script(DUE_IF_CURRENT)
        self._claim_due = client.register_script(CLAIM_DUE)
        self._settle = client.register_script(SETTLE)

    def secret(self) -> bytes:
        """The links' signing secret, made here if no process has made it yet."""
        self.redis.set(keys.mail_secret_key(), secrets.token_hex(32), nx=True)
        return data(self.redis.get(keys.mail_secret_key()))

    def owe(self, mail: dict, due: float) -> bool:
        """Owe `mail` (its `id` chosen by the caller), first tried at `due`; False when a mail
        of that id is owed already."""
        return bool(
            self._owe(
                keys=[keys.mail_key(mail["id"]), keys.mails_due_key()],
                args=[json.dumps(mail), repr(due), KEPT_S, mail["id"]],
            )
        )

    def remind(self, mark: str, event: dict, mail: dict | None, due: float) -> bool:
        """Write a reminder's event to the outbox, and owe its mail (if any), once per `mark`
        (`keys.reminded_key`); False when it was written before."""
        mail_id = "" if mail is None else mail["id"]
        return bool(
            self._remind(
                keys=[mark, keys.outbox_key(), keys.mail_key(mail_id), keys.mails_due_key()],
                args=[
                    REMINDED_KEPT_S,
                    json.dumps(event),
                    repr(due),
                    "" if mail is None else json.dumps(mail),
                    KEPT_S,
                    mail_id,
                ],
            )
        )

    def due_if_current(self, game_id: str, version: int, check: str, at: float) -> bool:
        """Set the game's `check` due at `at`, unless the game changed from `version`."""
        return bool(
            self._due_if_current(
                keys=[keys.game_key(game_id), keys.due_key()],
                args=[version, repr(at), f"{game_id}|{check}"],
            )
        )

    def set_due(self, owner_id: str, check: str, at: float | None) -> None:
        """Set (or, with `at` None, remove) a due check of an account's: its digest."""
        member = f"{owner_id}|{check}"
        if at is None:
            self.redis.zrem(keys.due_key(), member)
        else:
            self.redis.zadd(keys.due_key(), {member: at})

    def claim_due(self, now: float, lease_s: float, limit: int) -> list[ClaimedMail]:
        """Claim up to `limit` mails due by `now` for `lease_s` seconds."""
        if limit <= 0:
            return []
        lease = now + lease_s
        raw = self._claim_due(keys=[keys.mails_due_key()], args=[repr(now), repr(lease), limit])
        ids = [member.decode() for member in raw[::2]]
        if not ids:
            return []
        docs = self.redis.mget([keys.mail_key(i) for i in ids])
        gone = [i for i, doc in zip(ids, docs) if doc is None]  # expired: given up on
        if gone:
            self.redis.zrem(keys.mails_due_key(), *gone)
        return [ClaimedMail(json.loads(doc), lease) for doc in docs if doc is not None]

    def settle(self, claimed: ClaimedMail, next_at: float | None = None) -> bool:
        """Drop a claimed mail (sent, or not to be sent), or owe it again at `next_at`; False
        when the claim had run out."""
        mail = claimed.mail
        return bool(
            self._settle(
                keys=[keys.mails_due_key(), keys.mail_key(mail["id"])],
                args=[
                    mail["id"],
                    repr(claimed.lease),
                    "" if next_at is None else repr(next_at),
                    json.dumps(mail),
                ],
            )
        )

    def owed(self) -> int:
        return self.redis.zcard(keys.mails_due_key())
