"""The events a change to a game tells its players' accounts of, derived in one place: from what
the game record was before the change (`Moment`, kept by the store before it applies the change)
and what it is after. The store writes each event to the outbox in the same Redis script as the
change itself (`api.store.games`, which is given `GAME_EVENTS`), so none is lost when a process
dies between two writes; the workers deliver them (`api.notify.delivery`).

Each event is one row of `EVENTS`: its name and who is told, a function of the two moments.

>>> from api.record import Status
>>> before = Moment(Status.ACTIVE, 3, 0, ("ada", "bob"), frozenset(), {}, 0, None)
>>> after = Moment(Status.ACTIVE, 4, 1, ("ada", "bob"), frozenset(), {}, 0, None)
>>> derive(before, after)
[(<Event.TURN: 'turn'>, 'bob')]
"""

from __future__ import annotations

import dataclasses
import enum
import json
import uuid
from typing import Callable

from api.clocks import iso
from api.events import links
from api.record import GameRecord, Status
from api.play.view import game_view
from api.store.games import Events


class Event(str, enum.Enum):
    TURN = "turn"
    GAME_OVER = "game-over"
    CHALLENGE = "challenge"
    DRAW_OFFER = "draw-offer"
    TAKEBACK = "takeback"
    CHAT = "chat"
    REMINDER = "reminder"  # not derived from a change: the workers' check before a deadline


@dataclasses.dataclass(frozen=True)
class Moment:
    """What the events need of a game record at one moment: its status and turn, the account of
    each seat, the accounts it waits for, the standing offers (`{"draw": seat|None, "takeback":
    seat|None}`) and how many chat messages it holds, with the seat of the last one."""

    status: Status
    ply: int
    to_move: int | None
    seat_accounts: tuple[str | None, ...]
    invited: frozenset[str]
    offers: dict
    chat: int
    chat_author: int | None

    @classmethod
    def of(cls, record: GameRecord, chat_author: int | None = None) -> "Moment | None":
        """The record's moment (`chat_author`: the seat that wrote the change's chat message, if
        it wrote one); None for a game no account plays or is invited to (no event is ever
        derived for it, so its state is not read for the seat to move)."""
        if not record.accounts and not record.invited:
            return None
        return cls(
            record.status,
            record.ply,
            record.to_move,
            tuple(s.account for s in record.seats),
            frozenset(record.invited),
            dict(record.offers),
            record.chat_count,
            chat_author,
        )

    @property
    def mover_account(self) -> str | None:
        return None if self.to_move is None else self.seat_accounts[self.to_move]

    def accounts_but(self, seat: int | None) -> set[str]:
        """The accounts of every seat but `seat`."""
        return {a for i, a in enumerate(self.seat_accounts) if a is not None and i != seat}


Told = Callable[["Moment | None", Moment], set[str]]


def _turn(before: Moment | None, after: Moment) -> set[str]:
    """The seat to move is now an account's: a new turn, or the same seat again after the
    server's passes, or a seat just claimed."""
    mover = after.mover_account
    if mover is None:
        return set()
    if before is not None and (before.ply, before.to_move, before.mover_account) == (
        after.ply,
        after.to_move,
        mover,
    ):
        return set()
    return {mover}


def _game_over(before: Moment | None, after: Moment) -> set[str]:
    if after.status is not Status.FINISHED or (
        before is not None and before.status is Status.FINISHED
    ):
        return set()
    return after.accounts_but(None)


def _challenge(before: Moment | None, after: Moment) -> set[str]:
    """An account is newly invited to a game that waits for it."""
    if after.status is not Status.WAITING:
        return set()
    return set(after.invited - (before.invited if before is not None else frozenset()))


def _offered(kind: str) -> Told:
    """A seat newly offers `kind` ("draw", "takeback"): its opponents are told."""

    def told(before: Moment | None, after: Moment) -> set[str]:
        seat = after.offers.get(kind)
        if seat is None or (before is not None and before.offers.get(kind) == seat):
            return set()
        return after.accounts_but(seat)

    return told


def _chat(before: Moment | None, after: Moment) -> set[str]:
    """A new message: the players but its author are told."""
    if after.chat <= (before.chat if before is not None else 0):
        return set()
    return after.accounts_but(after.chat_author)


# every event, and who a change tells of it: a new kind of event is one more row
EVENTS: tuple[tuple[Event, Told], ...] = (
    (Event.TURN, _turn),
    (Event.GAME_OVER, _game_over),
    (Event.CHALLENGE, _challenge),
    (Event.DRAW_OFFER, _offered("draw")),
    (Event.TAKEBACK, _offered("takeback")),
    (Event.CHAT, _chat),
)
# the events no change calls for: the workers' own checks raise them (api.notify.digests)
RAISED_BY_CHECKS = (Event.REMINDER,)


def derive(before: Moment | None, after: Moment | None) -> list[tuple[Event, str]]:
    """(event, account told) for every event a change from `before` to `after` calls for
    (`before` None: a new game)."""
    if after is None:
        return []
    return [(event, account) for event, told in EVENTS for account in sorted(told(before, after))]


def notices(
    before: Moment | None, record: GameRecord, chat_author: int | None = None
) -> list[dict]:
    """The outbox entries of a change that left the game as `record` (and wrote a chat message
    of `chat_author`'s, if any): one per event and account,
    `{"id", "type", "account", "game", "ts", "body"}`, where `body` is the exact JSON a webhook
    sends (`{"type", "timestamp", "data": the game object}`) and `id` its webhook-id."""
    found = derive(before, Moment.of(record, chat_author))
    if not found:
        return []
    ts = record.updated_ts
    game = game_view(record, ts)
    return [
        {
            "id": f"msg_{uuid.uuid4().hex}",
            "type": event.value,
            "account": account,
            "game": record.id,
            "ts": ts,
            "body": json.dumps(
                {"type": event.value, "timestamp": iso(ts), "data": game}, separators=(",", ":")
            ),
        }
        for event, account in found
    ]


# what every game store derives a change's events with: `GameStore(client, GAME_EVENTS)`
# (and the writes an event's game makes with its changes: `api.events.links`)
GAME_EVENTS = Events(moment=Moment.of, notices=notices, reads=links.reads, writes=links.writes)
