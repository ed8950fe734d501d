"""The one engine interface every game, bot, route and job uses.

A game module defines three things, in this order: its constants and moves, a `Game` subclass
(slug, title, options, metadata, its moves, how to start), and a `State` subclass (whose turn it
is, the legal moves, applying a move, the outcome, exact serialisation and its shape). Engines are
pure: no web, storage or job imports below `api/games/`.

Each move's JSON form is declared once, on its dataclass's fields (`wire`), and each state's as a
`Shape`: the engine reads and writes moves by them, and the web layer derives the OpenAPI schemas
from them (api/web/game_shapes.py), so a new game edits no schema.

Two errors, both `ValueError`, tell a move that is not of the game's shape (`MalformedMove`, an
HTTP 400 naming the field) from a well-formed move the rules forbid here (`IllegalMove`, an HTTP
422 whose message a player can read). A field the move's shape does not have is `UnknownField`
(422, naming it). A bad option is `BadOption`, naming the option.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
import functools
from typing import Any, Callable, ClassVar, Iterable, TypeVar

SEATS = (0, 1)

T = TypeVar("T")


def by_seat(items: Iterable[T]) -> tuple[T, T]:
    """`items`, one per seat, as the pair a state's per-seat fields are typed as.

    >>> by_seat(n * n for n in (2, 3))
    (4, 9)
    """
    first, second = items
    return first, second


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
    """The move is well formed but the rules forbid it in this position; `words` are the
    refused move's (`Move.words`), where the caller that tried it names it."""

    def __init__(self, message: str, words: str | None = None):
        super().__init__(message)
        self.message = message
        self.words = words


class BadOption(ValueError):
    """An option is unknown or out of range; `field` names it (`options.n`)."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.message = message
        self.field = field


class Reason(str, enum.Enum):
    """Why a game ended, as python-chess's `Termination` says it: first the rules' own endings,
    which an engine's `outcome` (or a background rule's `verdict`) gives, then those every game
    can end by outside its rules. Their words are the record's (`api.record.reasons`)."""

    ALL_TILES_PLAYED = "all-tiles-played"
    NO_MOVES = "no-moves"
    SCORE = "score"
    BINGO = "bingo"
    TIMEOUT_RULE = "timeout-rule"
    REPETITION = "repetition"  # Prime Drop: the same position for the third time
    RESIGN = "resign"
    TIME = "time"
    ABORTED = "aborted"
    AGREEMENT = "agreement"  # a draw offered and accepted


@dataclasses.dataclass(frozen=True)
class Outcome:
    """How a game ended: `winner` is a seat, or None for a draw or an abort; `reason` says why.

    >>> Outcome(1, "resign")
    Outcome(winner=1, reason=<Reason.RESIGN: 'resign'>, scores=None)
    >>> Outcome(0, Reason.SCORE, [5, 3]).to_dict()
    {'winner': 0, 'reason': 'score', 'scores': [5, 3]}
    """

    winner: int | None
    reason: Reason
    scores: list[int] | None = None

    def __post_init__(self):
        if type(self.reason) is not Reason:  # given as its string: typed (unknown: ValueError)
            object.__setattr__(self, "reason", Reason(self.reason))

    def to_dict(self) -> dict:
        return {"winner": self.winner, "reason": self.reason.value, "scores": self.scores}

    @classmethod
    def from_dict(cls, data: dict) -> "Outcome":
        return cls(data["winner"], Reason(data["reason"]), data.get("scores"))


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
    # a "json" option's form (the OpenAPI document's schema for it; `check` still reads it)
    shape: Kind | None = None

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
        out = {
            "name": self.name,
            "type": self.kind,
            "default": self.default,
            "description": self.description,
        }
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        if self.choices:
            out["choices"] = list(self.choices)
        return out


class Move(abc.ABC):
    """A small typed value: each game's moves are frozen dataclasses whose fields carry their
    JSON form (`wire`), so a move's shape is declared once, on the move: `Game.parse_move`
    reads it, `to_dict` writes it, and the web layer documents it (api/web/game_shapes.py)."""

    move_type: ClassVar[str]  # the JSON `type`, unique across games (a move union's key)
    server_only: ClassVar[bool] = False  # played by the server (a pass), never sent by a player

    @classmethod
    def shape(cls) -> "Shape":
        """The move's JSON form: its `type` and its fields."""
        return _move_shape(cls)

    def to_dict(self) -> dict:
        return {"type": self.move_type, **self.shape().write(self)}

    @abc.abstractmethod
    def words(self, before: "State") -> str:
        """The move in the notation of the game's rules page, said of its player in `before`
        (the position it is made in): what every client shows for it (`drops 7 at [4, 3]`)."""


@dataclasses.dataclass(frozen=True)
class Pass(Move):
    """The server's own move for a seat that has no legal move, where the rules say it passes."""

    move_type = "pass"
    server_only = True

    def words(self, before: "State") -> str:
        return "passes (no legal move)"


class State(abc.ABC):
    """A position. Immutable from the outside: `apply` returns a new state."""

    game: ClassVar[type["Game"]]
    shape: ClassVar["Shape"]  # the JSON form `to_dict` gives, field by field

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

    # the JSON form of `facts()`: see Shape below (a state without facts has none)
    facts_shape: ClassVar["Shape"]

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
        """What `GET /legal-moves` shows: the moves, their words (`Move.words`, in the same
        order), and whether that list is complete."""
        return listing(self, self.legal_moves())

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(repr(self.to_dict()))


def listing(state: State, moves: list[Move], complete: bool = True, note: str | None = None):
    """A legal-moves listing of `moves` in `state`: each move's JSON form and its words."""
    return {
        "moves": [m.to_dict() for m in moves],
        "words": [m.words(state) for m in moves],
        "complete": complete,
        "note": note,
    }


def play_forced(state: State) -> tuple[State, list[tuple[int, Move]]]:
    """Apply the server's own moves (passes) for as long as the rules call for them; return the
    state and the (seat, move) pairs played."""
    played: list[tuple[int, Move]] = []
    while not state.is_over() and (forced := state.forced_move()) is not None:
        seat = state.to_move
        assert seat is not None  # a game not over has a seat to move
        played.append((seat, forced))
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
    # the rules' own endings: every outcome its states and background rules give is one of these
    reasons: ClassVar[tuple[Reason, ...]] = ()
    options: ClassVar[tuple[Option, ...]] = ()
    # what a score counts, for one and for more ("piece placed", "pieces placed"); None: the
    # game's scores need no words, or it has none
    score_words: ClassVar[tuple[str, str] | None] = None
    default_time_control: ClassVar[dict] = {"type": "none"}
    background_rules: ClassVar[tuple[BackgroundRule, ...]] = ()
    moves: ClassVar[tuple[type[Move], ...]]  # every move type the game reads, passes included
    state_class: ClassVar[type[State]]

    @classmethod
    def check_options(cls, raw: dict | None) -> dict:
        """Fill defaults, reject unknown names and out-of-range values (BadOption)."""
        raw = dict(raw or {})
        known = {o.name: o for o in cls.options}
        for name in raw:
            if name not in known:
                names = _listing(sorted(known)) if known else "none"
                raise BadOption(
                    f"options.{name}",
                    f"{cls.title} has no option {name!r}; its options are {names}.",
                )
        return {
            name: opt.validate(raw[name]) if name in raw else opt.default
            for name, opt in known.items()
        }

    @classmethod
    @abc.abstractmethod
    def new(cls, options: dict, first: int, seed: int) -> State:
        """The start position for checked `options`, with seat `first` to move; `seed` drives any
        shuffle the rules call for, so the same seed gives the same game."""

    @classmethod
    def parse_move(cls, data: Any) -> Move:
        """A typed move from its JSON form, read by the shape of its type among `moves`; raises
        MalformedMove naming the field at fault (UnknownField for a field the shape lacks)."""
        if not isinstance(data, dict):
            raise MalformedMove("A move must be a JSON object.", "move")
        by_type = {move.move_type: move for move in cls.moves}
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in by_type:
            raise MalformedMove(f"Move type must be one of {_listing(by_type)}.", "move.type")
        return by_type[kind].shape().read(data, "move", f"A {kind!r} move", ("type",))

    @classmethod
    def words_for(cls, before: State, data: dict) -> str:
        """The words of a move given in its JSON form (a stored history entry's), made in
        `before`: a pass is the server's own, read as the forced move."""
        move = before.forced_move() if data.get("type") == "pass" else cls.parse_move(data)
        assert move is not None  # a pass in a history was the forced move
        return move.words(before)

    @classmethod
    def describe(cls) -> dict:
        return {
            "kind": cls.slug,
            "title": cls.title,
            "summary": cls.summary,
            "options": [o.describe() for o in cls.options],
            "score_words": (
                {"one": cls.score_words[0], "many": cls.score_words[1]} if cls.score_words else None
            ),
            "default_time_control": cls.default_time_control,
        }


# Shapes: the JSON form of a move or a state, declared once in the game's module. The engine reads
# and writes moves by them; the web layer turns them into marshmallow schemas for the OpenAPI
# document. They are plain data, so the engines stay free of web imports (marshmallow-dataclass
# would put marshmallow in every engine, and its errors are not the ones players read here).


class Kind:
    """A JSON value's kind. `read` checks a value sent at `field` (its last part `name`) and
    gives the engine's value, or raises MalformedMove; `write` gives the JSON form back."""

    def read(self, value: Any, name: str, field: str) -> Any:
        return value

    def write(self, value: Any) -> Any:
        return value


@dataclasses.dataclass(frozen=True)
class Whole(Kind):
    """A whole number, within [lo, hi] and one of `choices` when given."""

    lo: int | None = None
    hi: int | None = None
    choices: tuple[int, ...] = ()

    def read(self, value: Any, name: str, field: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedMove(f"{name!r} must be a whole number.", field)
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise MalformedMove(f"{name!r} must be between {self.lo} and {self.hi}.", field)
        if self.choices and value not in self.choices:
            raise MalformedMove(f"{name!r} must be one of {_listing(self.choices)}.", field)
        return value


@dataclasses.dataclass(frozen=True)
class Boolean(Kind):
    def read(self, value: Any, name: str, field: str) -> bool:
        if not isinstance(value, bool):
            raise MalformedMove(f"{name!r} must be true or false.", field)
        return value


@dataclasses.dataclass(frozen=True)
class Text(Kind):
    """A string: of `length` characters, or one of `choices`, when given; read in upper case
    when `upper`."""

    length: int | None = None
    choices: tuple[str, ...] = ()
    upper: bool = False

    def read(self, value: Any, name: str, field: str) -> str:
        if (
            not isinstance(value, str)
            or (self.length is not None and len(value) != self.length)
            or (self.choices and value not in self.choices)
        ):
            what = (
                f"one of {_listing(self.choices)}"
                if self.choices
                else f"a string of {self.length} characters"
                if self.length
                else "a string"
            )
            raise MalformedMove(f"{name!r} must be {what}.", field)
        return value.upper() if self.upper else value


@dataclasses.dataclass(frozen=True)
class Pair(Kind):
    """Two whole numbers, a cell `[row, col]` or an edge `[a, b]`: a tuple in the engine, in
    increasing order when `ordered`."""

    ordered: bool = False

    def read(self, value: Any, name: str, field: str) -> tuple[int, int]:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        ):
            raise MalformedMove(f"{name!r} must be a pair of whole numbers.", field)
        return (min(value), max(value)) if self.ordered else (value[0], value[1])

    def write(self, value: tuple[int, int]) -> list[int]:
        return list(value)


@dataclasses.dataclass(frozen=True)
class Maybe(Kind):
    """`kind`, or null."""

    kind: Kind

    def read(self, value: Any, name: str, field: str) -> Any:
        return None if value is None else self.kind.read(value, name, field)

    def write(self, value: Any) -> Any:
        return None if value is None else self.kind.write(value)


@dataclasses.dataclass(frozen=True)
class Either(Kind):
    """One of several kinds (tried in order)."""

    kinds: tuple[Kind, ...]
    description: str = ""

    def read(self, value: Any, name: str, field: str) -> Any:
        for kind in self.kinds:
            try:
                return kind.read(value, name, field)
            except MalformedMove:
                pass
        raise MalformedMove(f"{name!r} is not of any of its kinds.", field)


@dataclasses.dataclass(frozen=True)
class ListOf(Kind):
    """A list of `item`s, exactly `length` of them when given: a tuple in the engine."""

    item: Kind
    length: int | None = None

    def read(self, value: Any, name: str, field: str) -> tuple:
        if not isinstance(value, list) or (self.length is not None and len(value) != self.length):
            raise MalformedMove(
                f"{name!r} must be a list" + (f" of {self.length}." if self.length else "."), field
            )
        return tuple(self.item.read(v, name, f"{field}[{k}]") for k, v in enumerate(value))

    def write(self, value: Any) -> list:
        return [self.item.write(v) for v in value]


def per_seat(item: Kind) -> ListOf:
    """One `item` per seat."""
    return ListOf(item, len(SEATS))


@dataclasses.dataclass(frozen=True)
class MapOf(Kind):
    """An object from `keys` (strings) to `values`."""

    keys: Text
    values: Kind


@dataclasses.dataclass(frozen=True)
class Obj(Kind):
    """An object of `shape`'s fields (a tile of a double down, a region of a state)."""

    shape: "Shape"

    def read(self, value: Any, name: str, field: str) -> Any:
        if not isinstance(value, dict):
            raise MalformedMove(
                f"Each {self.shape.noun} must be an object with "
                f"{_listing(self.shape.names, 'and')}.",
                field,
            )
        return self.shape.read(value, field, f"A {self.shape.noun}")

    def write(self, value: Any) -> dict:
        return self.shape.write(value)


@dataclasses.dataclass(frozen=True)
class Field:
    """One field of a shape: its JSON `name`, its kind, the engine's attribute (`attr`, the name
    when left out), a description for the document, and the sentence a bad value gets, where
    the kind's own would not read well. An `optional` field may be left out (and is, when its
    value is None)."""

    name: str
    kind: Kind
    description: str = ""
    optional: bool = False
    message: str = ""
    attr: str = ""

    def read(self, value: Any, field: str) -> Any:
        try:
            return self.kind.read(value, self.name, field)
        except MalformedMove as bad:
            if self.message and bad.field == field:
                raise MalformedMove(self.message, field) from None
            raise


@dataclasses.dataclass(frozen=True)
class Shape:
    """A JSON object's form: `name` (its schema's name in the document), its fields, the noun a
    refusal calls it, what to build from the values read (`make`, called with the attributes;
    a dict when None) and, for a move, its `move_type`."""

    name: str
    fields: tuple[Field, ...]
    noun: str = ""
    make: Callable[..., Any] | None = None
    move_type: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def read(self, data: dict, field: str, what: str, extra: tuple[str, ...] = ()) -> Any:
        names = (*extra, *self.names)
        for name in data:
            if name not in names:
                raise UnknownField(
                    f"{what} has no field {name!r}; its fields are {', '.join(names)}.",
                    f"{field}.{name}",
                )
        values = {}
        for f in self.fields:
            if f.name in data:
                values[f.attr or f.name] = f.read(data[f.name], f"{field}.{f.name}")
            elif f.optional:
                values[f.attr or f.name] = None
            else:
                raise MalformedMove(f"The move needs a {f.name!r} field.", f"{field}.{f.name}")
        return values if self.make is None else self.make(**values)

    def write(self, value: Any) -> dict:
        get = value.get if isinstance(value, dict) else functools.partial(getattr, value)
        out = {}
        for f in self.fields:
            item = get(f.attr or f.name)
            if item is not None or not f.optional:
                out[f.name] = f.kind.write(item)
        return out


State.facts_shape = Shape("NoFacts", ())


def wire(
    kind: Kind, name: str = "", description: str = "", message: str = "", **field_kwargs
) -> Any:
    """A move's dataclass field with its JSON form (`name`, when it is not the attribute's);
    a field given a default is optional."""
    return dataclasses.field(**field_kwargs, metadata={"wire": (kind, name, description, message)})


@functools.cache
def shape_of(cls: type, name: str, noun: str, move_type: str | None = None) -> Shape:
    """The shape of a dataclass whose fields are declared with `wire`."""
    fields = []
    for f in dataclasses.fields(cls):
        kind, json_name, description, message = f.metadata["wire"]
        optional = (
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        )
        fields.append(Field(json_name or f.name, kind, description, optional, message, f.name))
    return Shape(name, tuple(fields), noun, cls, move_type)


@functools.cache
def _move_shape(cls: type[Move]) -> Shape:
    return shape_of(cls, f"{_camel(cls.move_type)}Move", f"{cls.move_type!r} move", cls.move_type)


def _camel(slug: str) -> str:
    """`prime-drop` -> `PrimeDrop`."""
    return "".join(word.capitalize() for word in slug.split("-"))


def _listing(items, last: str = "or") -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]
