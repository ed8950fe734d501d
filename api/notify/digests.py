"""The daily e-mail of the games awaiting a player's move, and the reminders before a flag falls,
both run by the workers as due checks (`api.play.background`), with the `now` they are given.

- **digest**: an account with a verified address has the check "<account id>|digest" due at
  its next `settings.digest_hour` o'clock in `settings.timezone`. When it runs, the account is
  owed one digest for that local day (its id names the day, so a check run twice owes it once)
  if it wants digests and some game awaits its move; then the check is set for the next day.
- **reminder**: a running game with a deadline whose mover is an account has the check
  "<game id>|reminder" due at the start of each turn (`GameRecord.due_checks`). When it runs,
  every threshold of the mover's `settings.reminder_minutes` smaller than the time the turn
  started with, and whose moment (the deadline less the threshold) has come, fires once: a
  `reminder` event onto the outbox and, at once, its mail, both in one Redis script and only
  the first time for that turn and threshold. Then the check is set for the next threshold's
  moment, unless the game changed meanwhile (its own write set the check anew).
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from api import clocks
from api.clocks import iso
from api.notify import mail
from api.record import GameRecord, Status
from api.play.view import game_view
from api.players.accounts import DEFAULT_SETTINGS
from api.store import keys
from api.store.accounts import AccountStore
from api.store.games import GameStore
from api.store.mail import MailStore

DEFAULT_REMINDERS = DEFAULT_SETTINGS["reminder_minutes"]
DEFAULT_DIGEST_HOUR = DEFAULT_SETTINGS["digest_hour"]
DEFAULT_TIMEZONE = DEFAULT_SETTINGS["timezone"]


def zone(name: str) -> ZoneInfo:
    """The IANA time zone `name`; ValueError when there is none of that name."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{name!r} is not an IANA time zone (such as Europe/Paris).") from None


def next_digest_ts(settings: dict, now: float) -> float:
    """The next `digest_hour` o'clock in the account's time zone after `now`."""
    tz = zone(settings.get("timezone", DEFAULT_TIMEZONE))
    hour = settings.get("digest_hour", DEFAULT_DIGEST_HOUR)
    local = datetime.fromtimestamp(now, tz)
    at = local.replace(hour=hour, minute=0, second=0, microsecond=0)
    while at.timestamp() <= now:
        # a day on in wall-clock time (a day of a DST change is 23 or 25 hours)
        at = (at.replace(tzinfo=None) + timedelta(days=1)).replace(tzinfo=tz)
    return at.timestamp()


def schedule_digest(mails: MailStore, account: dict, now: float) -> None:
    """Set the account's digest check for its next digest hour, or take it away when the
    account has no verified address."""
    email = account.get("email")
    on = email is not None and email["verified"] and not account.get("deleted")
    mails.set_due(account["id"], "digest", next_digest_ts(account["settings"], now) if on else None)


def run_digest(
    accounts: AccountStore, games: GameStore, mails: MailStore, account_id: str, now: float
) -> None:
    """The digest check of an account (see the module's docstring)."""
    account = accounts.load(account_id)
    if account is None:
        return
    if mail.wants(account, "digest"):
        waiting = [
            r
            for r in games.load_many(accounts.game_ids(account_id))
            if r.status is Status.ACTIVE
            and r.to_move is not None
            and r.seats[r.to_move].account == account_id
        ]
        if waiting:
            waiting.sort(key=lambda r: r.deadline() or float("inf"))
            day = (
                datetime.fromtimestamp(
                    now, zone(account["settings"].get("timezone", DEFAULT_TIMEZONE))
                )
                .date()
                .isoformat()
            )
            mails.owe(
                {
                    "id": f"digest-{account_id}-{day}",
                    "kind": "digest",
                    "account": account_id,
                    "attempts": 0,
                    "data": {"games": [_listed(r, now) for r in waiting]},
                },
                now,
            )
    schedule_digest(mails, account, now)


def _listed(record: GameRecord, now: float) -> dict:
    game = game_view(record, now)
    return {
        "id": record.id,
        "kind": record.kind,
        "seats": game["seats"],
        "deadline": game.get("deadline"),
    }


def run_reminders(
    accounts: AccountStore, games: GameStore, mails: MailStore, game_id: str, now: float
) -> int:
    """The reminder check of a game (see the module's docstring); how many reminders it fired."""
    record = games.load(game_id)
    deadline = None if record is None else record.deadline()
    if (
        record is None
        or deadline is None
        or "reminder" not in record.due_checks()
        or now >= deadline
    ):
        return 0
    mover = record.to_move
    assert mover is not None and record.clocks is not None  # a deadline: a seat to move, a clock
    account_id = record.seats[mover].account
    account = None if account_id is None else accounts.load(account_id)
    if account is None or account.get("deleted"):
        return 0
    tc, clock = record.time_control, record.clocks[mover]
    turn_s = clocks.time_left(tc, clock)
    thresholds = sorted(
        {
            m
            for m in account["settings"].get("reminder_minutes", DEFAULT_REMINDERS)
            if m * 60 < turn_s
        },
        reverse=True,
    )
    fired, later = 0, []
    for minutes in thresholds:
        at = deadline - minutes * 60
        if at > now:
            later.append(at)
            continue
        fired += _remind(mails, account, record, minutes, deadline, now)
    if later:
        mails.due_if_current(record.id, record.version, "reminder", min(later))
    return fired


def _remind(
    mails: MailStore, account: dict, record: GameRecord, minutes: int, deadline: float, now: float
) -> int:
    """The reminder `minutes` before the deadline, once per turn: the event and its mail."""
    game = game_view(record, now)
    event_id = f"msg_{uuid.uuid4().hex}"
    event = {
        "id": event_id,
        "type": "reminder",
        "account": account["id"],
        "game": record.id,
        "ts": now,
        "minutes": minutes,
        "deadline": iso(deadline),
        "body": json.dumps(
            {"type": "reminder", "timestamp": iso(now), "data": game}, separators=(",", ":")
        ),
    }
    owed = None
    if mail.wants(account, "reminder"):
        # the mail's id names the turn and threshold: a repeat of this check owes no second one
        reminder = mail.event_mail(
            event,
            f"reminder-{record.id}-{record.ply}-{int(record.turn_started_ts * 1000)}-{minutes}",
        )
        assert reminder is not None  # a reminder is mailed on its own
        owed = {**reminder, "account": account["id"]}
    mark = keys.reminded_key(record.id, record.turn_started_ts, minutes)
    return int(mails.remind(mark, event, owed, now))
