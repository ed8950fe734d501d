"""The record layer, just above the engines: the stored game as one typed record, built in one
place (`GameRecord.create`), ended only by `finish` (the store gives it its next version on every write); its seats and
history entries; the refusals (`errors`) and the words of every reason a game ends by
(`reasons`). The store keeps what it defines, and the services change it; it imports only the
engines and the clocks.

The record serialises to the JSON document the store keeps, key for key as earlier versions
stored it, so games saved before this class existed still load.
"""

from __future__ import annotations

import dataclasses
import enum
from types import EllipsisType
from typing import Any

from api import clocks
from api.clocks import DAY_S, NoClock, TimeControl, iso, parse_iso
from api.clocks import check as check_time_control
from api.games import Move, Outcome, Reason, State, get_game


class Status(str, enum.Enum):
    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"


class Offer(str, enum.Enum):
    """What a player may propose to the other, who answers it (RULES.md, "All games")."""

    DRAW = "draw"
    TAKEBACK = "takeback"


def no_offers() -> dict[str, int | None]:
    """`GameRecord.offers` with nothing proposed: each offer's seat that made it, or None."""
    return {offer.value: None for offer in Offer}


def history_entry(ply: int, seat: int, move: Move, now: float) -> dict:
    """One entry of a game's history, as `GET /games/{id}/moves` shows it."""
    return {"ply": ply, "seat": seat, "move": move.to_dict(), "at": iso(now)}


@dataclasses.dataclass
class Seat:
    """A seat: a person (`name`; `account` when it is bound to an account, whose token then plays
    it), a server bot (`bot` is its level), or open for anyone to join (`listed` False keeps it
    out of the lobby, for an invited friend; `invited` reserves it for one account: a
    challenge)."""

    name: str | None
    bot: str | None = None
    open: bool = False
    listed: bool = True
    account: str | None = None
    invited: str | None = None
    invited_name: str | None = None
    rating_range: tuple[int, int] | None = None  # an open seat's fair pairing: who may join

    @classmethod
    def human(cls, name: str) -> "Seat":
        return cls(name)

    @classmethod
    def for_bot(cls, level: str) -> "Seat":
        return cls(f"{level.capitalize()} bot", bot=level)

    @classmethod
    def empty(cls, listed: bool = True, rating_range: tuple[int, int] | None = None) -> "Seat":
        return cls(None, open=True, listed=listed, rating_range=rating_range)

    @classmethod
    def for_account(cls, account_id: str, username: str) -> "Seat":
        return cls(username, account=account_id)

    @classmethod
    def invite(cls, account_id: str, username: str) -> "Seat":
        return cls(None, open=True, listed=False, invited=account_id, invited_name=username)

    @property
    def joinable(self) -> bool:
        """Open to anyone with the game's link (not reserved for one account)."""
        return self.open and self.invited is None

    def to_dict(self) -> dict:
        out = self._common()
        if self.account is not None:
            out["account"] = self.account
        if self.invited is not None:
            out.update(invited=self.invited, invited_name=self.invited_name)
        if self.rating_range is not None:
            out["rating_range"] = list(self.rating_range)
        return out

    def view(self) -> dict:
        """The seat as the API shows it: account ids stay inside; usernames are shown."""
        out = self._common()
        if self.account is not None:
            out["player"] = self.name
        if self.invited is not None:
            out["invited"] = self.invited_name
        if self.rating_range is not None:
            out["rating_range"] = {"min": self.rating_range[0], "max": self.rating_range[1]}
        return out

    def _common(self) -> dict:
        out = {"name": self.name, "bot": self.bot, "open": self.open}
        if self.open:
            out["listed"] = self.listed
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Seat":
        rating_range = data.get("rating_range")
        return cls(
            data["name"],
            data["bot"],
            data["open"],
            data.get("listed", True),
            data.get("account"),
            data.get("invited"),
            data.get("invited_name"),
            None if rating_range is None else tuple(rating_range),
        )


# RULES.md, "Abandoned games": a lobby game nobody joins, and an untimed game whose first move
# never comes, are aborted after these; a game that ends with no move at all is then deleted
UNJOINED_S = 14 * DAY_S
UNANSWERED_S = 7 * DAY_S  # a challenge to an account expires sooner
UNSTARTED_S = 7 * DAY_S
EMPTY_KEPT_S = 7 * DAY_S


@dataclasses.dataclass
class GameRecord:
    id: str
    kind: str
    options: dict
    seed: int
    first: int
    seats: list[Seat]
    status: Status
    ply: int
    version: int
    state_data: dict  # the engine state's exact JSON form; `state()` gives the typed one
    time_control: TimeControl
    clocks: list[dict] | None
    turn_started_ts: float
    created_ts: float
    updated_ts: float
    result: Outcome | None = None
    first_move_ts: float | None = None
    playtest: dict | None = None
    rated: bool | None = None  # None: a game stored before ratings existed (unrated)
    # per seat {"before", "after", ...} once the worker has applied a rated game's ratings
    rating_changes: list[dict] | None = None
    # {"draw": seat|None, "takeback": seat|None}: the seat that made each standing offer. Readable
    # by whoever compares a record before and after a change (an offer made, answered, lapsed)
    offers: dict[str, int | None] = dataclasses.field(default_factory=no_offers)
    # what a takeback of the last move restores: {"ply", "seat", "clocks", "elapsed_s",
    # "first_move_ts"} as they stood before it (set by `end_turn`, so by every move)
    undo: dict | None = None
    takebacks: int = 0  # takebacks granted: each replaced the end of the history
    chat_count: int = 0  # messages in the game's chat (they are kept beside the record)
    imported: bool = False  # read from an exported record: finished, unrated, never on a clock
    # {account id: [[since, until], ...]}: the vacations of its players that a correspondence
    # game's clocks stand still for, from the running turn on (api.play.vacation notes them)
    vacations: dict[str, list[list[float]]] = dataclasses.field(default_factory=dict)
    # the event the game belongs to: {"tournament": id, "round": r} or {"ladder": kind}
    event: dict | None = None
    _state: State | None = dataclasses.field(default=None, repr=False, compare=False)
    # the state's seat to move, asked once per state: some engines work out the end to know it
    _mover: int | None | EllipsisType = dataclasses.field(default=..., repr=False, compare=False)

    @classmethod
    def create(
        cls,
        game_id: str,
        kind: str,
        options: dict,
        seed: int,
        first: int,
        seats: list[Seat],
        state: State,
        ply: int,
        time_control: TimeControl | dict,
        clocks: list[dict] | None,
        now: float,
        playtest: dict | None = None,
        rated: bool | None = None,
    ) -> "GameRecord":
        """A new game at `state`, `ply` moves in (the server's forced moves at the start, or a
        whole game for a playtest's sample): waiting while a seat is open, else active, and
        finished at once when `state` is over."""
        record = cls(
            game_id,
            kind,
            options,
            seed,
            first,
            seats,
            Status.WAITING if any(s.open for s in seats) else Status.ACTIVE,
            ply,
            1,
            state.to_dict(),
            check_time_control(time_control),
            clocks,
            now,
            now,
            now,
            playtest=playtest,
            rated=rated,
            _state=state,
        )
        record.finish_if_over()
        return record

    # -- the state -------------------------------------------------------------------------

    def state(self) -> State:
        """The engine state, read from its JSON form once per record."""
        if self._state is None:
            self._state = get_game(self.kind).state_class.from_dict(self.state_data)
        return self._state

    def set_state(self, state: State, ply: int) -> None:
        """The game moves to `state` at `ply`; an offer stands only until a move is made."""
        self._state, self.state_data, self.ply, self._mover = state, state.to_dict(), ply, ...
        self.offers = no_offers()

    @property
    def to_move(self) -> int | None:
        """The seat to move while the game runs; None while it waits or once it is over."""
        if self.status is not Status.ACTIVE:
            return None
        if self._mover is ...:
            self._mover = self.state().to_move
        return self._mover

    @property
    def bot_to_move(self) -> str | None:
        """The level of the server bot in the seat to move, if there is one."""
        mover = self.to_move
        return None if mover is None else self.seats[mover].bot

    def due_checks(self) -> dict[str, float]:
        """What the workers owe this game while it stands as it is, and when: the turn's
        deadline, the reminders before it when an account is to move (first looked at when the
        turn starts: the thresholds are the account's, `api.notify.digests`), and each
        background rule once it counts (from its start, then after every change). Every other
        check the game could have (`possible_checks`) is not due."""
        due: dict[str, float] = {}
        if self.status is Status.WAITING:
            return {"abandoned": self.created_ts + (UNANSWERED_S if self.invited else UNJOINED_S)}
        if self.status is not Status.ACTIVE:
            return due
        if self.first_move_ts is None and isinstance(self.time_control, NoClock):
            due["abandoned"] = self.turn_started_ts + UNSTARTED_S
        deadline = self.deadline()
        if deadline is not None:
            due["deadline"] = deadline
            mover = self.to_move
            assert mover is not None  # a turn with a deadline has a seat to move
            if self.seats[mover].account is not None:
                due["reminder"] = self.turn_started_ts
        for rule in get_game(self.kind).background_rules:
            start = rule.starts_at(self.options, self.first_move_ts)
            if start is not None:
                due[f"rule:{rule.name}"] = max(start, self.updated_ts)
        return due

    def possible_checks(self) -> list[str]:
        rules = get_game(self.kind).background_rules
        return ["abandoned", "deadline", "reminder", *(f"rule:{rule.name}" for rule in rules)]

    def abandoned(self, now: float) -> bool:
        """Whether nobody came: still waiting for a player, or for the first move of an
        untimed game, past the time the rules allow."""
        return "abandoned" in (due := self.due_checks()) and now >= due["abandoned"]

    def deletable_at(self) -> float | None:
        """When a game that ended with no move made may be deleted (None: it is kept, as is an
        imported one: somebody chose to keep it)."""
        if self.status is not Status.FINISHED or self.first_move_ts is not None or self.imported:
            return None
        return self.updated_ts + EMPTY_KEPT_S

    @property
    def unlisted(self) -> bool:
        return any(s.open and not s.listed for s in self.seats)

    def seats_of(self, account_id: str) -> list[int]:
        """The seats bound to an account."""
        return [i for i, s in enumerate(self.seats) if s.account == account_id]

    @property
    def accounts(self) -> set[str]:
        return {s.account for s in self.seats if s.account is not None}

    @property
    def invited(self) -> set[str]:
        """The accounts this game waits for: a challenge to each."""
        return {s.invited for s in self.seats if s.invited is not None}

    @property
    def all_bots(self) -> bool:
        return all(s.bot for s in self.seats)

    @property
    def rating_due(self) -> bool:
        """A rated game that ended with a move made (an abort rates nobody) and whose ratings
        the worker has not applied yet."""
        return (
            bool(self.rated)
            and self.status is Status.FINISHED
            and self.rating_changes is None
            and self.first_move_ts is not None
            and self.result is not None
            and self.result.reason != Reason.ABORTED
        )

    @property
    def bot_to_answer(self) -> str | None:
        """The level of a server bot that a standing offer waits for (the offerer's opponent)."""
        for seat in self.offers.values():
            if seat is not None and self.seats[1 - seat].bot is not None:
                return self.seats[1 - seat].bot
        return None

    @property
    def bot_to_act(self) -> str | None:
        """The level of a server bot the game waits for: to answer an offer, or to move."""
        return self.bot_to_answer or self.bot_to_move

    # -- clocks ----------------------------------------------------------------------------

    def deadline(self) -> float | None:
        """When the seat to move loses on time; None without a clock or a running turn. Its
        players' vacations move it on by the time they stand the clock still."""
        mover = self.to_move
        if mover is None or isinstance(self.time_control, NoClock):
            return None
        assert self.clocks is not None  # a game with a clock has a clock per seat
        return clocks.deadline_ts(
            self.time_control, self.clocks[mover], self.turn_started_ts, self.pauses
        )

    @property
    def pauses(self) -> list[list[float]]:
        """The spans the clocks stand still: its players' vacations."""
        return [span for spans in self.vacations.values() for span in spans]

    def _clock_start(self, now: float) -> float:
        """When the running turn started as its clock counts it: later by the pauses in it."""
        return self.turn_started_ts + clocks.paused_s(self.turn_started_ts, now, self.pauses)

    def flagged(self, now: float) -> bool:
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def end_turn(self, seat: int, next_seat: int | None, now: float) -> None:
        """Charge `seat`'s clock for its turn, if the turn is over, and start the next; keep
        what the clocks were, for a takeback of this move."""
        start = self._clock_start(now)
        self.undo = {
            "ply": self.ply,
            "seat": seat,
            "clocks": self.clocks,
            "elapsed_s": now - start,
            "first_move_ts": self.first_move_ts,
        }
        self.clocks, _ = clocks.charge(self.time_control, self.clocks, start, seat, now, next_seat)
        if next_seat != seat:  # (a turn of several actions keeps its true start)
            self.turn_started_ts = now

    def take_back(self, state: State, now: float) -> int:
        """Undo the last move (and the server's passes after it): the game returns to `state`,
        the clocks to what they were before it, the mover's running again from `now` with the
        time it had used. How many history entries that removes."""
        undo = self.undo
        assert undo is not None  # a takeback has a move to undo
        dropped = self.ply - undo["ply"]
        self.set_state(state, undo["ply"])
        self.clocks, self.first_move_ts = undo["clocks"], undo["first_move_ts"]
        self.turn_started_ts = now - undo["elapsed_s"]
        self.undo = None
        self.takebacks += 1
        return dropped

    def end_on_time(self) -> None:
        """The seat to move ran out of time: it loses (or the game is aborted, at ply 0)."""
        mover = self.to_move
        assert mover is not None and self.clocks is not None  # a clocked game, a seat to move
        self.clocks = list(self.clocks)
        self.clocks[mover], outcome = clocks.time_out(self.time_control, self.ply, mover)
        self.finish(outcome)

    def clocks_view(self, now: float) -> list[dict] | None:
        return clocks.view(
            self.time_control, self.clocks, self.to_move, self._clock_start(now), now
        )

    def on_vacation(self, now: float) -> list[int]:
        """The seats whose players' vacations stand this game's clocks still now."""
        away = {
            account
            for account, spans in self.vacations.items()
            if any(since <= now < until for since, until in spans)
        }
        return [i for i, seat in enumerate(self.seats) if seat.account in away]

    # -- the only ways to end a game -------------------------------------------------------

    def finish(self, outcome: Outcome) -> None:
        """End the game: every way a game ends (its rules, resignation, time, a background rule,
        an abort) comes through here (an `Outcome` refuses an unknown reason)."""
        self.status = Status.FINISHED
        self.result = outcome

    def finish_if_over(self) -> None:
        outcome = self.state().outcome()
        if outcome is not None:
            self.finish(outcome)

    def take_seat(self, index: int, seat: Seat, now: float) -> None:
        """Someone takes the open seat `index`; once no seat is open, the game and the first
        mover's clock start."""
        self.seats[index] = seat
        if not any(s.open for s in self.seats):
            self.status = Status.ACTIVE
            self.turn_started_ts = now

    # -- serialisation ---------------------------------------------------------------------

    def to_dict(self) -> dict:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "options": self.options,
            "seed": self.seed,
            "status": self.status.value,
            "seats": [s.to_dict() for s in self.seats],
            "first": self.first,
            "unlisted": self.unlisted,
            "ply": self.ply,
            "version": self.version,
            "state": self.state_data,
            "result": None if self.result is None else self.result.to_dict(),
            "time_control": self.time_control.to_dict(),
            "clocks": self.clocks,
            "turn_started_ts": self.turn_started_ts,
            "created_at": iso(self.created_ts),
            "updated_at": iso(self.updated_ts),
            "created_ts": self.created_ts,
            "updated_ts": self.updated_ts,
        }
        if self.first_move_ts is not None:
            out["first_move_ts"] = self.first_move_ts
        if self.playtest is not None:
            out["playtest"] = self.playtest
        if self.rated is not None:
            out["rated"] = self.rated
        if self.rating_changes is not None:
            out["rating_changes"] = self.rating_changes
        if any(seat is not None for seat in self.offers.values()):
            out["offers"] = self.offers
        for name in ("undo", "takebacks", "chat_count", "imported", "vacations", "event"):
            if getattr(self, name):  # left out while empty, as records made before them were
                out[name] = getattr(self, name)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "GameRecord":
        result = data.get("result")
        return cls(
            data["id"],
            data["kind"],
            data["options"],
            data["seed"],
            data["first"],
            [Seat.from_dict(s) for s in data["seats"]],
            Status(data["status"]),
            data["ply"],
            data["version"],
            data["state"],
            clocks.load(data.get("time_control") or {"type": "none"}),
            data.get("clocks"),
            data["turn_started_ts"],
            data["created_ts"],
            data.get("updated_ts") or parse_iso(data["updated_at"]),
            None if result is None else Outcome.from_dict(result),
            data.get("first_move_ts"),
            data.get("playtest"),
            data.get("rated"),
            data.get("rating_changes"),
            offers={**no_offers(), **data.get("offers", {})},
            undo=data.get("undo"),
            takebacks=data.get("takebacks", 0),
            chat_count=data.get("chat_count", 0),
            imported=data.get("imported", False),
            vacations=data.get("vacations", {}),
            event=data.get("event"),
        )
