"""The one engine interface every game, bot, route and job uses.

A game module defines three things, in this order: its constants, a `Game` subclass (slug, title,
options, metadata, and how to start and how to read a move), and a `State` subclass (whose turn it
is, the legal moves, applying a move, the outcome, exact serialisation). Engines are pure: no web,
storage or job imports below `api/games/`.

Two errors, both `ValueError`, tell a move that is not of the game's shape (`MalformedMove`, an
HTTP 400 naming the field) from a well-formed move the rules forbid here (`IllegalMove`, an HTTP
422 whose message a player can read). A field the move's shape does not have is `UnknownField`
(422, naming it). A bad option is `BadOption`, naming the option.
"""
from __future__ import annotations

import abc
import dataclasses
from typing import Any, Callable, ClassVar

SEATS = (0, 1)


class MalformedMove(ValueError):
    """The move is not of the game's shape; `field` names the part at fault (`move.row`)."""

    def __init__(self, message: str, field: str = "move"):
        super().__init__(message)
        self.message = message
        self.field = field


class UnknownField(ValueError):
    """A move (or a part of one) carries a field its shape does not have; `field` names it
    (`move.evil`). Well formed, yet not accepted: an HTTP 422."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message = message
        self.field = field


class IllegalMove(ValueError):
    """The move is well formed but the rules forbid it in this position."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class BadOption(ValueError):
    """An option is unknown or out of range; `field` names it (`options.n`)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a game ended: `winner` is a seat, or None for a draw or an abort."""

    winner: int | None
    reason: str
    scores: list[int] | None = None

    def to_dict(self) -> dict:
        return {"winner": self.winner, "reason": self.reason, "scores": self.scores}

    @classmethod
    def from_dict(cls, data: dict) -> "Outcome":
        return cls(data["winner"], data["reason"], data.get("scores"))


@dataclasses.dataclass(frozen=True)
class Option:
    """One game option as `GET /kinds` shows it, and its validation.

    `kind` is "int", "bool", "choice" or "json". A "json" option is checked by `check`, which
    returns the normalised value or raises ValueError with a sentence naming what is wrong.
    """

    name: str
    kind: str
    default: Any
    description: str
    min: int | None = None
    max: int | None = None
    choices: tuple = ()
    check: Callable[[Any], Any] | None = None

    def validate(self, value: Any) -> Any:
        field = f"options.{self.name}"
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadOption(field, f"Option {self.name} must be a whole number.")
            if self.min is not None and value < self.min:
                raise BadOption(field, f"Option {self.name} must be at least {self.min}.")
            if self.max is not None and value > self.max:
                raise BadOption(field, f"Option {self.name} must be at most {self.max}.")
        elif self.kind == "bool" and not isinstance(value, bool):
            raise BadOption(field, f"Option {self.name} must be true or false.")
        if self.kind in ("int", "choice") and self.choices and value not in self.choices:
            raise BadOption(field, f"Option {self.name} must be one of {_listing(self.choices)}.")
        if self.check is not None:
            try:
                value = self.check(value)
            except ValueError as exc:
                raise BadOption(field, str(exc)) from None
        return value

    def describe(self) -> dict:
        out = {"name": self.name, "type": self.kind, "default": self.default,
               "description": self.description}
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        if self.choices:
            out["choices"] = list(self.choices)
        return out


class Move(abc.ABC):
    """A small typed value: each game's moves are frozen dataclasses with `to_dict`."""

    @abc.abstractmethod
    def to_dict(self) -> dict: ...


@dataclasses.dataclass(frozen=True)
class Pass(Move):
    """The server's own move for a seat that has no legal move, where the rules say it passes."""

    def to_dict(self) -> dict:
        return {"type": "pass"}


class State(abc.ABC):
    """A position. Immutable from the outside: `apply` returns a new state."""

    game: ClassVar[type["Game"]]

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "game" in cls.__dict__:  # a state class names its game; the game learns its state
            cls.game.state_class = cls

    @property
    @abc.abstractmethod
    def to_move(self) -> int | None:
        """The seat to move, or None when the game is over."""

    @abc.abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move (a game whose move space is too large to list
        overrides `legal_moves_listing` and lists what it can here)."""

    @abc.abstractmethod
    def apply(self, move: Move) -> "State":
        """The state after `move`; raises IllegalMove with a player-readable reason."""

    @abc.abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game runs."""

    @abc.abstractmethod
    def to_dict(self) -> dict:
        """Exact JSON-ready form: `from_dict(to_dict())` gives an equal state."""

    @classmethod
    @abc.abstractmethod
    def from_dict(cls, data: dict) -> "State": ...

    def facts(self) -> dict:
        """What a board draws that follows from the state by the rules (Partition's region
        owners, Ploid's groups, Factor Bingo's lines, Prime Drop's numbers), so that no client
        works the rules out again. Sent beside `to_dict`'s fields (`view`), never stored: an
        archived game keeps only what it cannot derive."""
        return {}

    def view(self) -> dict:
        """The state as the API sends it: `to_dict`'s exact fields, then `facts`."""
        return {**self.to_dict(), **self.facts()}

    def forced_move(self) -> Move | None:
        """A move the server makes itself for the seat to move (a pass), or None."""
        return None

    def is_over(self) -> bool:
        return self.outcome() is not None

    def legal_moves_listing(self) -> dict:
        """What `GET /legal-moves` shows: the moves, and whether that list is complete."""
        return {"moves": [m.to_dict() for m in self.legal_moves()], "complete": True, "note": None}

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(self.to_dict()))


def play_forced(state: State) -> tuple[State, list[tuple[int, Move]]]:
    """Apply the server's own moves (passes) for as long as the rules call for them; return the
    state and the (seat, move) pairs played."""
    played = []
    while not state.is_over() and (forced := state.forced_move()) is not None:
        played.append((state.to_move, forced))
        state = state.apply(forced)
    return state, played


class BackgroundRule(abc.ABC):
    """A rule the workers enforce between moves, by wall time rather than by a move (Prime
    Drop's timeout rule). A game lists its rules in `Game.background_rules`, so generic code never
    names a game: the service settles their options, the workers check them when `starts_at`
    says, then after every turn, and end the game with the outcome `verdict` gives."""

    name: ClassVar[str]

    def settle(self, options: dict, time_control: dict) -> dict:
        """Options whose default depends on the time control, settled when a game is made."""
        return options

    @abc.abstractmethod
    def starts_at(self, options: dict, first_move_ts: float | None) -> float | None:
        """When the workers first check the rule; None while it is off or not yet counting."""

    @abc.abstractmethod
    def verdict(self, options: dict, turns: list[tuple[float, "State"]]) -> Outcome | None:
        """The outcome by the rule, from every completed turn as (seconds since the first move
        when it ended, the state after it); None while the game goes on."""


class Game(abc.ABC):
    """A game's static side: slug, title, options, and how to start and how to read a move."""

    slug: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str] = ""
    options: ClassVar[tuple[Option, ...]] = ()
    default_time_control: ClassVar[dict] = {"type": "none"}
    background_rules: ClassVar[tuple[BackgroundRule, ...]] = ()
    state_class: ClassVar[type[State]]

    @classmethod
    def check_options(cls, raw: dict | None) -> dict:
        """Fill defaults, reject unknown names and out-of-range values (BadOption)."""
        raw = dict(raw or {})
        known = {o.name: o for o in cls.options}
        for name in raw:
            if name not in known:
                names = _listing(sorted(known)) if known else "none"
                raise BadOption(f"options.{name}",
                                f"{cls.title} has no option {name!r}; its options are {names}.")
        return {name: opt.validate(raw[name]) if name in raw else opt.default
                for name, opt in known.items()}

    @classmethod
    @abc.abstractmethod
    def new(cls, options: dict, first: int, seed: int) -> State:
        """The start position for checked `options`, with seat `first` to move; `seed` drives any
        shuffle the rules call for, so the same seed gives the same game."""

    @classmethod
    @abc.abstractmethod
    def parse_move(cls, data: Any) -> Move:
        """A typed move from its JSON form; raises MalformedMove naming the field at fault."""

    @classmethod
    def describe(cls) -> dict:
        return {"kind": cls.slug, "title": cls.title, "summary": cls.summary,
                "options": [o.describe() for o in cls.options],
                "default_time_control": cls.default_time_control}


# Reading move fields, shared by every game's parse_move.

def move_object(data: Any, shapes: dict[str, tuple[str, ...]]) -> str:
    """Check `data` is an object whose `type` is one of `shapes` (move type -> its field names)
    and that has no other field; return the type."""
    if not isinstance(data, dict):
        raise MalformedMove("A move must be a JSON object.", "move")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in shapes:
        raise MalformedMove(f"Move type must be one of {_listing(shapes)}.", "move.type")
    known_fields(data, ("type", *shapes[kind]), "move", f"A {kind!r} move")
    return kind


def known_fields(data: dict, names: tuple[str, ...], prefix: str, what: str) -> None:
    """Refuse a field of `data` that is not in `names`, naming the first one (UnknownField)."""
    for name in data:
        if name not in names:
            raise UnknownField(f"{what} has no field {name!r}; its fields are "
                               f"{', '.join(names)}.", f"{prefix}.{name}")


def int_field(data: dict, name: str, lo: int | None = None, hi: int | None = None,
              prefix: str = "move") -> int:
    """A whole-number field, within [lo, hi] when given."""
    field = f"{prefix}.{name}"
    if name not in data:
        raise MalformedMove(f"The move needs a {name!r} field.", field)
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedMove(f"{name!r} must be a whole number.", field)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise MalformedMove(f"{name!r} must be between {lo} and {hi}.", field)
    return value


def pair_field(data: dict, name: str, prefix: str = "move") -> tuple[int, int]:
    """A pair of whole numbers: a cell `[row, col]` or an edge `[a, b]`."""
    field = f"{prefix}.{name}"
    if name not in data:
        raise MalformedMove(f"The move needs a {name!r} field.", field)
    value = data[name]
    if (not isinstance(value, list) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)):
        raise MalformedMove(f"{name!r} must be a pair of whole numbers.", field)
    return value[0], value[1]


def _listing(items) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
