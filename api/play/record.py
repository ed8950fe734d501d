"""The stored game: one typed record, built in one place (`GameRecord.create`), ended only by
`finish` and bumped only by `touch`. It serialises to the JSON document the store keeps, key for
key as earlier versions stored it, so games saved before this class existed still load.
"""
from __future__ import annotations

import dataclasses
import enum
from typing import Any

from api import clocks
from api.clocks import DAY_S, iso, parse_iso
from api.games import Move, Outcome, State, get_game


class Status(str, enum.Enum):
    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"


class Reason(str, enum.Enum):
    """Why a game ended: the engines' own reasons, then the server's."""

    ALL_TILES_PLAYED = "all-tiles-played"
    NO_MOVES = "no-moves"
    SCORE = "score"
    BINGO = "bingo"
    RESIGN = "resign"
    TIME = "time"
    TIMEOUT_RULE = "timeout-rule"
    REPETITION = "repetition"
    ABORTED = "aborted"


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

    @classmethod
    def human(cls, name: str) -> "Seat":
        return cls(name)

    @classmethod
    def for_bot(cls, level: str) -> "Seat":
        return cls(f"{level.capitalize()} bot", bot=level)

    @classmethod
    def empty(cls, listed: bool = True) -> "Seat":
        return cls(None, open=True, listed=listed)

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
        return out

    def view(self) -> dict:
        """The seat as the API shows it: account ids stay inside; usernames are shown."""
        out = self._common()
        if self.account is not None:
            out["player"] = self.name
        if self.invited is not None:
            out["invited"] = self.invited_name
        return out

    def _common(self) -> dict:
        out = {"name": self.name, "bot": self.bot, "open": self.open}
        if self.open:
            out["listed"] = self.listed
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "Seat":
        return cls(data["name"], data["bot"], data["open"], data.get("listed", True),
                   data.get("account"), data.get("invited"), data.get("invited_name"))


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
    time_control: dict
    clocks: list[dict] | None
    turn_started_ts: float
    created_ts: float
    updated_ts: float
    result: Outcome | None = None
    first_move_ts: float | None = None
    playtest: dict | None = None
    _state: State | None = dataclasses.field(default=None, repr=False, compare=False)
    # the state's seat to move, asked once per state: some engines work out the end to know it
    _mover: int | None | object = dataclasses.field(default=..., repr=False, compare=False)

    @classmethod
    def create(cls, game_id: str, kind: str, options: dict, seed: int, first: int,
               seats: list[Seat], state: State, ply: int, time_control: dict,
               clocks: list[dict] | None, now: float, playtest: dict | None = None
               ) -> "GameRecord":
        """A new game at `state`, `ply` moves in (the server's forced moves at the start, or a
        whole game for a playtest's sample): waiting while a seat is open, else active, and
        finished at once when `state` is over."""
        record = cls(game_id, kind, options, seed, first, seats,
                     Status.WAITING if any(s.open for s in seats) else Status.ACTIVE, ply, 1,
                     state.to_dict(), time_control, clocks, now, now, now, playtest=playtest,
                     _state=state)
        record.finish_if_over()
        return record

    # -- the state -------------------------------------------------------------------------

    def state(self) -> State:
        """The engine state, read from its JSON form once per record."""
        if self._state is None:
            self._state = get_game(self.kind).state_class.from_dict(self.state_data)
        return self._state

    def set_state(self, state: State, ply: int) -> None:
        self._state, self.state_data, self.ply, self._mover = state, state.to_dict(), ply, ...

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
        deadline, and each background rule once it counts (from its start, then after every
        change). Every other check the game could have (`possible_checks`) is not due."""
        due: dict[str, float] = {}
        if self.status is Status.WAITING:
            return {"abandoned": self.created_ts + (UNANSWERED_S if self.invited
                                                    else UNJOINED_S)}
        if self.status is not Status.ACTIVE:
            return due
        if self.first_move_ts is None and self.time_control["type"] == "none":
            due["abandoned"] = self.turn_started_ts + UNSTARTED_S
        deadline = self.deadline()
        if deadline is not None:
            due["deadline"] = deadline
        for rule in get_game(self.kind).background_rules:
            start = rule.starts_at(self.options, self.first_move_ts)
            if start is not None:
                due[f"rule:{rule.name}"] = max(start, self.updated_ts)
        return due

    def possible_checks(self) -> list[str]:
        rules = get_game(self.kind).background_rules
        return ["abandoned", "deadline", *(f"rule:{rule.name}" for rule in rules)]

    def abandoned(self, now: float) -> bool:
        """Whether nobody came: still waiting for a player, or for the first move of an
        untimed game, past the time the rules allow."""
        return "abandoned" in (due := self.due_checks()) and now >= due["abandoned"]

    def deletable_at(self) -> float | None:
        """When a game that ended with no move made may be deleted (None: it is kept)."""
        if self.status is not Status.FINISHED or self.first_move_ts is not None:
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

    # -- clocks ----------------------------------------------------------------------------

    def deadline(self) -> float | None:
        """When the seat to move loses on time; None without a clock or a running turn."""
        mover = self.to_move
        if mover is None or self.time_control["type"] == "none":
            return None
        return clocks.deadline_ts(self.time_control, self.clocks[mover], self.turn_started_ts)

    def flagged(self, now: float) -> bool:
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def end_turn(self, seat: int, next_seat: int | None, now: float) -> None:
        """Charge `seat`'s clock for its turn, if the turn is over, and start the next."""
        self.clocks, self.turn_started_ts = clocks.charge(
            self.time_control, self.clocks, self.turn_started_ts, seat, now, next_seat)

    def end_on_time(self) -> None:
        """The seat to move ran out of time: it loses (or the game is aborted, at ply 0)."""
        mover = self.to_move
        self.clocks = list(self.clocks)
        self.clocks[mover], outcome = clocks.time_out(self.time_control, self.ply, mover)
        self.finish(outcome)

    def clocks_view(self, now: float) -> list[dict] | None:
        return clocks.view(self.time_control, self.clocks, self.to_move, self.turn_started_ts,
                           now)

    # -- the only ways to end or bump a game ---------------------------------------------

    def finish(self, outcome: Outcome) -> None:
        """End the game: every way a game ends (its rules, resignation, time, a background rule,
        an abort) comes through here."""
        Reason(outcome.reason)  # an unknown reason is a bug: refuse to store it
        self.status = Status.FINISHED
        self.result = outcome

    def finish_if_over(self) -> None:
        outcome = self.state().outcome()
        if outcome is not None:
            self.finish(outcome)

    def touch(self, now: float) -> None:
        """Mark the record changed: a new version (and so a new ETag)."""
        self.version += 1
        self.updated_ts = now

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
            "id": self.id, "kind": self.kind, "options": self.options, "seed": self.seed,
            "status": self.status.value, "seats": [s.to_dict() for s in self.seats],
            "first": self.first, "unlisted": self.unlisted, "ply": self.ply,
            "version": self.version, "state": self.state_data,
            "result": None if self.result is None else self.result.to_dict(),
            "time_control": self.time_control, "clocks": self.clocks,
            "turn_started_ts": self.turn_started_ts, "created_at": iso(self.created_ts),
            "updated_at": iso(self.updated_ts), "created_ts": self.created_ts,
            "updated_ts": self.updated_ts,
        }
        if self.first_move_ts is not None:
            out["first_move_ts"] = self.first_move_ts
        if self.playtest is not None:
            out["playtest"] = self.playtest
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "GameRecord":
        result = data.get("result")
        return cls(
            data["id"], data["kind"], data["options"], data["seed"], data["first"],
            [Seat.from_dict(s) for s in data["seats"]], Status(data["status"]), data["ply"],
            data["version"], data["state"], data.get("time_control") or {"type": "none"},
            data.get("clocks"), data["turn_started_ts"], data["created_ts"],
            data.get("updated_ts") or parse_iso(data["updated_at"]),
            None if result is None else Outcome.from_dict(result),
            data.get("first_move_ts"), data.get("playtest"))
