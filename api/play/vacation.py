"""Vacation for correspondence clocks (RULES.md, "Vacation", after OGS and Little Golem).

An account earns 30 days a year, credited monthly (2.5 days at the start of each month of its
life, the first at sign-up) and banked up to 60. Switched on, a vacation lasts until it is switched
off or the allowance runs out, and is charged by the time it actually lasted. While it lasts the
clocks of all the account's correspondence games stand still, both sides': each such game keeps
the vacations' spans (`GameRecord.vacations`), so its deadline, and the due check the store writes
for it, move on by the time spent. Fischer, byo-yomi and banked games are not paused.

The allowance is kept beside the account (`AccountStore.vacation`) and settled lazily: whoever
reads it credits the months passed and charges the vacation days spent, in order. A switch writes
the allowance first, then tells each game; should the web process die between the two, the
worker learns the vacation when the game's deadline falls due, before it lets the flag fall
(`end_on_time`), and switching again tells every game again.
"""

from __future__ import annotations

import dataclasses
import time

from api.clocks import DAY_S, iso
from api.play import service
from api.record.errors import Conflict, Stale
from api.record import GameRecord, Status
from api.players.accounts import Principal
from api.store.accounts import AccountStore
from api.store.games import Change, GameStore

DAYS_PER_YEAR = 30
MAX_BANKED_DAYS = 60
MONTH_S = 365.25 * DAY_S / 12
CREDIT_S = DAYS_PER_YEAR * DAY_S / 12
MAX_BANKED_S = MAX_BANKED_DAYS * DAY_S
PAUSED_CLOCKS = ("correspondence",)


class NoAllowance(Conflict):
    """The account has no vacation days left."""


@dataclasses.dataclass(frozen=True)
class Allowance:
    """An account's vacation allowance as of `settled_ts`: `left_s` to spend, `months` credited so
    far, and its latest vacation `last` as (since, until), `until` being when it was switched off
    or, while it lasts, when it will use the allowance up."""

    left_s: float
    months: int
    settled_ts: float
    last: tuple[float, float] | None = None

    @classmethod
    def of(cls, stored: dict | None, created_ts: float) -> "Allowance":
        """The stored allowance; an account that never settled one starts at sign-up with none
        (its first month's days are credited when it is first settled)."""
        if stored is None:
            return cls(0.0, 0, created_ts)
        last = stored.get("last")
        return cls(
            stored["left_s"],
            stored["months"],
            stored["settled_ts"],
            None if last is None else (last[0], last[1]),
        )

    def to_dict(self) -> dict:
        return {
            "left_s": self.left_s,
            "months": self.months,
            "settled_ts": self.settled_ts,
            "last": None if self.last is None else list(self.last),
        }

    def on(self, now: float) -> bool:
        return self.last is not None and self.last[0] <= now < self.last[1]

    def settled(self, created_ts: float, now: float) -> "Allowance":
        """The allowance at `now`: each month's days credited at its start (up to the cap), and
        the vacation's days before it charged first."""
        left, months, at = self.left_s, self.months, self.settled_ts
        while (credit_at := created_ts + months * MONTH_S) <= now:
            left = min(MAX_BANKED_S, left - self._spent(at, credit_at) + CREDIT_S)
            months, at = months + 1, max(at, credit_at)
        left -= self._spent(at, now)
        return dataclasses.replace(
            self, left_s=max(0.0, left), months=months, settled_ts=max(at, now)
        )

    def runs_out(self, created_ts: float, since: float) -> float:
        """When a vacation from `since` (this allowance settled at `since`) uses it up, counting
        the months credited while it lasts (2.5 days a month never outlast a month)."""
        left, months, at = self.left_s, self.months, since
        while at + left > (credit_at := created_ts + months * MONTH_S):
            left = min(MAX_BANKED_S, left - (credit_at - at) + CREDIT_S)
            months, at = months + 1, credit_at
        return at + left

    def next_credit_at(self, created_ts: float) -> float:
        return created_ts + self.months * MONTH_S

    def _spent(self, start: float, end: float) -> float:
        """The vacation time between `start` and `end`."""
        if self.last is None:
            return 0.0
        return max(0.0, min(end, self.last[1]) - max(start, self.last[0]))


def allowance(accounts: AccountStore, account: dict, now: float) -> Allowance:
    """The account's allowance, settled at `now`."""
    return Allowance.of(accounts.vacation(account["id"]), account["created_ts"]).settled(
        account["created_ts"], now
    )


def view(accounts: AccountStore, account: dict, now: float | None = None) -> dict:
    """The account's vacation as `GET /me` shows it."""
    now = time.time() if now is None else now
    held = allowance(accounts, account, now)
    on = held.on(now)
    last = held.last if on else None
    return {
        "on": on,
        "days_left": round(held.left_s / DAY_S, 2),
        "since": None if last is None else iso(last[0]),
        "until": None if last is None else iso(last[1]),
        "next_days_at": iso(held.next_credit_at(account["created_ts"])),
        "days_per_year": DAYS_PER_YEAR,
        "max_days": MAX_BANKED_DAYS,
    }


def switch(
    store: GameStore, accounts: AccountStore, who: Principal, on: bool, now: float | None = None
) -> dict:
    """Switch the account's vacation on or off (again: a no-op for the allowance, and every
    game is told once more); the vacation as `view` shows it."""
    now = time.time() if now is None else now
    who.require("play")
    created = who.account["created_ts"]

    def change(stored: dict | None) -> dict:
        held = Allowance.of(stored, created).settled(created, now)
        if on == held.on(now):
            return held.to_dict()
        if not on:
            assert held.last is not None  # it is on now, so it has a latest vacation
            return dataclasses.replace(held, last=(held.last[0], now)).to_dict()
        if held.left_s <= 0:
            raise NoAllowance(
                f"You have no vacation days left: {CREDIT_S / DAY_S:g} more come "
                f"on {iso(held.next_credit_at(created))[:10]}."
            )
        return dataclasses.replace(held, last=(now, held.runs_out(created, now))).to_dict()

    last = Allowance.of(accounts.update_vacation(who.id, change), created).last
    for record in store.load_many(accounts.game_ids(who.id)):
        if record.status is Status.ACTIVE and _learn(record, who.id, last, dry_run=True):
            _tell(store, record.id, {who.id: last}, now)
    return view(accounts, who.account, now)


def end_on_time(
    store: GameStore,
    accounts: AccountStore,
    followups: service.Followups,
    game_id: str,
    deadline_ts: float,
    now: float | None = None,
) -> GameRecord | None:
    """The worker's deadline check: first, a player's vacation the game has not learned (its
    switch died half way, or the game started during it) stands its clock still, and the game
    learns it (its deadline moves on); otherwise as `service.end_on_time`."""
    now = time.time() if now is None else now
    record = store.load(game_id)
    if record is not None and record.time_control.type in PAUSED_CLOCKS:
        lasts = {}
        for account_id in sorted(record.accounts):
            account = accounts.load(account_id)
            if account is not None:
                lasts[account_id] = Allowance.of(
                    accounts.vacation(account_id), account["created_ts"]
                ).last
        learned = _tell(store, game_id, lasts, now)
        if learned is not None:
            return learned
    return service.end_on_time(store, followups, game_id, deadline_ts, now)


def _tell(
    store: GameStore, game_id: str, lasts: dict[str, tuple[float, float] | None], now: float
) -> GameRecord | None:
    """Let a running correspondence game learn its players' latest vacations; None when it
    knew them all (or is no such game)."""

    def change(record: GameRecord) -> Change:
        learned = [_learn(record, account_id, last) for account_id, last in lasts.items()]
        if record.status is not Status.ACTIVE or not any(learned):
            raise Stale
        return Change(record, at=now)

    try:
        return store.update(game_id, change).record
    except (Stale, KeyError):
        return None


def _learn(
    record: GameRecord, account_id: str, last: tuple[float, float] | None, dry_run: bool = False
) -> bool:
    """Note the account's latest vacation in a correspondence game it plays, where it matters
    (it lasts into the running turn, or the game knows it with another end: switched off since,
    or not yet); spans over before the turn began are dropped. Whether that changes the
    record."""
    if record.time_control.type not in PAUSED_CLOCKS or account_id not in record.accounts:
        return False
    known = [
        span for span in record.vacations.get(account_id, []) if span[1] > record.turn_started_ts
    ]
    if last is None or list(last) in known:
        return False
    same = [span for span in known if span[0] == last[0]]  # the same vacation, with a new end
    if not same and last[1] <= record.turn_started_ts:
        return False
    if not dry_run:
        record.vacations[account_id] = [span for span in known if span[0] != last[0]] + [list(last)]
    return True
