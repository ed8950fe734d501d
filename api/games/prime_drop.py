"""Prime Drop: lay digit tiles on a square board; challenge composite numbers back to their owner.

Rules: ../../seeds/prime-drop.md (rulings: ../../../shared/RULES.md §1). Every run of two or more
tiles is a number read both ways; a lone tile is a one-digit number. A challenge that names a
working factor sends the whole run into the challenger's opponent's pile:

>>> state = PrimeDrop.new(PrimeDrop.check_options({"size": 9}), first=0, seed=0)
>>> state = state.apply(Drop(4, 4, 2)).apply(Drop(4, 5, 1))
>>> [(n.frm, n.to, n.value) for n in state.numbers]
[((4, 4), (4, 5), 21), ((4, 5), (4, 4), 12)]
>>> after = state.apply(Challenge((4, 4), (4, 5), factor=7))
>>> after.last_challenge["success"], after.tiles_left
(True, (36, 38))
>>> state.apply(Challenge((4, 5), (4, 4), factor=5)).last_challenge["success"]
False
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import hashlib
from typing import Any, Iterable, NamedTuple

import flint

from api.games.base import (
    BackgroundRule,
    Boolean,
    Field,
    Game,
    IllegalMove,
    ListOf,
    MapOf,
    Maybe,
    Move,
    Obj,
    Option,
    Outcome,
    Pair,
    Pass,
    Reason,
    Shape,
    State,
    Text,
    Whole,
    by_seat,
    listing,
    per_seat,
    shape_of,
    wire,
)
from api.games.grid import cell_name, orthogonal_neighbours
from api.games.registry import register

Cell = tuple[int, int]

SIZES = (9, 11, 13)
DEFAULT_SIZE = 11
DIGITS = "0123456789"
EMPTY = "."  # the board is a string of size*size characters, row by row: a digit or EMPTY
# The ruling's 37-tile pile (the seed's own list is lost); each player starts with one.
DEFAULT_TILES = {"0": 2, "1": 5, "2": 3, "3": 5, "4": 3, "5": 3, "6": 3, "7": 5, "8": 3, "9": 5}
MAX_TILES = 99
# What the server switches on for games with a clock when the creator leaves `timeout_rule` null.
CLOCKED_TIMEOUT_RULE = {"after_s": 3600, "streak": 10}
# the timeout rule's bounds, so its first check is always a date the job queue can schedule
TIMEOUT_RULE_MAX = {"after_s": 30 * 24 * 3600, "streak": 10_000}
TIMEOUT_RULE = Shape(
    "TimeoutRule", tuple(Field(name, Whole(1, most)) for name, most in TIMEOUT_RULE_MAX.items())
)
CELL = Whole(0, SIZES[-1] - 1)  # a row or column on the largest board
REPETITIONS = 3  # the repetition rule: a position arising this many times ends the game


@dataclasses.dataclass(frozen=True)
class Drop(Move):
    """A single drop, and also one tile of a double down."""

    move_type = "drop"
    row: int = wire(CELL)
    col: int = wire(CELL)
    digit: int = wire(Whole(0, 9))

    @property
    def cell(self) -> Cell:
        return self.row, self.col

    def words(self, before: State) -> str:
        """The move's words.

        >>> Drop(4, 3, 7).words(None)
        'drops 7 at [4, 3]'
        """
        return f"drops {self.digit} at {cell_name(self.cell)}"


@dataclasses.dataclass(frozen=True)
class DoubleDown(Move):
    """A double down: two tiles, laid in order. On the wire they are one field, `tiles`."""

    move_type = "double"
    first: Drop
    second: Drop

    @property
    def tiles(self) -> tuple[Drop, Drop]:
        return self.first, self.second

    def words(self, before: State) -> str:
        """The move's words.

        >>> DoubleDown(Drop(4, 4, 4), Drop(5, 4, 2)).words(None)
        'doubles down 4 at [4, 4], then 2 at [5, 4]'
        """
        first, second = (f"{t.digit} at {cell_name(t.cell)}" for t in self.tiles)
        return f"doubles down {first}, then {second}"

    @classmethod
    def shape(cls) -> Shape:
        return DOUBLE_DOWN


DOUBLE_DOWN = Shape(
    "DoubleMove",
    (
        Field(
            "tiles",
            ListOf(Obj(shape_of(Drop, "Tile", "tile")), 2),
            message="A double down needs 'tiles': a list of two tiles.",
        ),
    ),
    "'double' move",
    lambda tiles: DoubleDown(*tiles),
    "double",
)


@dataclasses.dataclass(frozen=True)
class Challenge(Move):
    """Claim that the number read from `frm` to `to` has the nontrivial factor `factor`."""

    move_type = "challenge"
    frm: Cell = wire(Pair(), "from", "[row, col]")
    to: Cell = wire(Pair(), description="[row, col]")
    factor: int = wire(Whole())
    # GET /legal-moves lists each number with its value, so a listed challenge can be sent back
    value: int | None = wire(
        Whole(),
        description="The number read from `from` to `to`, as GET "
        "/legal-moves lists it; may be left out, refused when it is not "
        "that number.",
        default=None,
    )

    def words(self, before: State) -> str:
        """The number by its value and its ends, as the rules page names a challenge.

        >>> state = PrimeDrop.new(PrimeDrop.check_options({"size": 9}), first=0, seed=0)
        >>> state = state.apply(Drop(4, 4, 2)).apply(Drop(4, 5, 1))
        >>> Challenge((4, 4), (4, 5), 7).words(state)
        'challenges 21 from [4, 4] to [4, 5] with factor 7'
        >>> Challenge((4, 4), (4, 4), 7).words(state)
        'challenges from [4, 4] to [4, 4] with factor 7'
        """
        assert isinstance(before, PrimeDropState)
        number = before.number(self.frm, self.to)
        ends = (
            f"the {number.value} at {cell_name(self.frm)}"
            if number is not None and self.frm == self.to
            else f"from {cell_name(self.frm)} to {cell_name(self.to)}"
        )
        value = f"{number.value} " if number is not None and self.frm != self.to else ""
        return f"challenges {value}{ends} with factor {self.factor}"


# the factor a listed challenge proposes: the smallest a challenge may (it gives nothing away)
LISTED_FACTOR = 2


class Number(NamedTuple):
    """A number on the board: read from `frm` to `to` (the same cell for a lone tile)."""

    frm: Cell
    to: Cell
    value: int
    length: int

    @property
    def cells(self) -> list[Cell]:
        (r0, c0), (r1, c1) = self.frm, self.to
        dr, dc = (r1 > r0) - (r1 < r0), (c1 > c0) - (c1 < c0)
        return [(r0 + k * dr, c0 + k * dc) for k in range(self.length)]


def check_tiles(value: Any) -> dict:
    """The `tiles` option: a count per digit (missing digits count 0), 1 to 99 tiles in all."""
    if not isinstance(value, dict) or any(k not in DIGITS or len(k) != 1 for k in value):
        raise ValueError('Option tiles must map digits "0" to "9" to tile counts.')
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in value.values()):
        raise ValueError("Option tiles must give each digit a whole number of tiles, 0 or more.")
    total = sum(value.values())
    if not 1 <= total <= MAX_TILES:
        raise ValueError(f"Option tiles must hold 1 to {MAX_TILES} tiles in all, not {total}.")
    if total == value.get("0", 0):
        # A 0 can never start an empty board, so both players would pass for ever.
        raise ValueError("Option tiles needs at least one tile that is not a 0.")
    return {d: value.get(d, 0) for d in DIGITS}


def check_timeout_rule(value: Any) -> dict | None:
    """The `timeout_rule` option: null (the server decides) or {"after_s": s, "streak": n}."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"after_s", "streak"}:
        raise ValueError(
            'Option timeout_rule must be null or {"after_s": seconds, "streak": turns}.'
        )
    for name, most in TIMEOUT_RULE_MAX.items():
        n = value[name]
        if isinstance(n, bool) or not isinstance(n, int) or not 0 < n <= most:
            raise ValueError(f"timeout_rule.{name} must be a whole number from 1 to {most}.")
    return dict(value)


class TimeoutRule(BackgroundRule):
    """The timeout rule as the workers enforce it: `timeout_rule_winner` over the game's turns."""

    name = "timeout-rule"

    def settle(self, options: dict, time_control: dict) -> dict:
        """A `timeout_rule` left null is on (the ruling's hour and ten turns) when the game has a
        clock, and stays off without one."""
        if options["timeout_rule"] is None and time_control.get("type", "none") != "none":
            return {**options, "timeout_rule": dict(CLOCKED_TIMEOUT_RULE)}
        return options

    def starts_at(self, options: dict, first_move_ts: float | None) -> float | None:
        rule = options.get("timeout_rule")
        if rule is None or first_move_ts is None:
            return None
        return first_move_ts + rule["after_s"]

    def verdict(self, options: dict, turns: list[tuple[float, State]]) -> Outcome | None:
        rule = options["timeout_rule"]
        tiles_left = []
        for at_s, state in turns:
            assert isinstance(state, PrimeDropState)  # Prime Drop's rule sees Prime Drop's states
            tiles_left.append((at_s, state.tiles_left))
        winner = timeout_rule_winner(tiles_left, rule["after_s"], rule["streak"])
        return None if winner is None else Outcome(winner, Reason.TIMEOUT_RULE)


@register
class PrimeDrop(Game):
    slug = "prime-drop"
    title = "Prime Drop"
    reasons = (Reason.ALL_TILES_PLAYED, Reason.REPETITION, Reason.TIMEOUT_RULE)
    summary = (
        "Lay digit tiles on a square board; every line of tiles is a number read both ways. "
        "Challenge a composite with a factor to send its tiles to your opponent. "
        "First to empty their pile wins."
    )
    options = (
        Option(
            "size",
            "int",
            DEFAULT_SIZE,
            "The board's side: 9, 11 or 13.",
            min=SIZES[0],
            max=SIZES[-1],
            choices=SIZES,
        ),
        Option(
            "tiles",
            "json",
            DEFAULT_TILES,
            "Each player's starting pile: a count per digit, 1 to 99 tiles in all.",
            check=check_tiles,
            shape=MapOf(Text(choices=tuple(DIGITS)), Whole(lo=0)),
        ),
        Option(
            "timeout_rule",
            "json",
            None,
            'null (on as {"after_s": 3600, "streak": 10} when the game has a clock, else off) '
            'or {"after_s", "streak"}: after after_s seconds (at most 30 days), the first '
            "player to hold fewer tiles at the end of streak turns (at most 10000) in a row "
            "wins.",
            check=check_timeout_rule,
            shape=Maybe(Obj(TIMEOUT_RULE)),
        ),
    )
    background_rules = (TimeoutRule(),)
    moves = (Drop, DoubleDown, Challenge, Pass)

    @classmethod
    def new(cls, options: dict, first: int, seed: int) -> "PrimeDropState":
        pile = tuple(options["tiles"][d] for d in DIGITS)
        size = options["size"]
        board = EMPTY * size * size
        return PrimeDropState(
            size, board, (pile, pile), first, 0, None, (position_key(board, (pile, pile), first),)
        )


@dataclasses.dataclass(frozen=True, eq=False)
class PrimeDropState(State):
    size: int
    board: str  # row by row, a digit or EMPTY per cell
    piles: tuple[tuple[int, ...], tuple[int, ...]]  # per seat, the count of each digit 0-9
    mover: int  # the seat whose turn it is, whether or not the game is over
    turn: int  # turns played so far, passes included
    last_challenge: dict | None
    # the repetition rule's record: `position_key` of every position so far, the current one last
    # (a position built without one, as tests do, counts as seen once)
    seen: tuple[int, ...] = ()

    game = PrimeDrop
    shape = Shape(
        "PrimeDropState",
        (
            Field("size", Whole(choices=SIZES)),
            Field(
                "board",
                ListOf(ListOf(Maybe(Whole(0, 9)))),
                "Rows of cells: a digit, or null when empty.",
            ),
            Field(
                "piles",
                per_seat(MapOf(Text(choices=tuple(DIGITS)), Whole())),
                'Per seat, the count of each digit "0"-"9".',
            ),
            Field("tiles_left", per_seat(Whole())),
            Field(
                "last_challenge",
                Maybe(
                    Obj(
                        Shape(
                            "LastChallenge",
                            (
                                Field("seat", Whole()),
                                Field("value", Whole()),
                                Field("factor", Whole()),
                                Field("success", Boolean()),
                                Field("from", Pair()),
                                Field("to", Pair()),
                                Field(
                                    "tiles",
                                    Whole(),
                                    "Tiles sent back (0 when the challenge failed).",
                                ),
                                Field("turn", Whole()),
                            ),
                        )
                    )
                ),
            ),
            Field("mover", Whole()),
            Field("turn", Whole()),
            Field(
                "seen",
                Text(),
                "The repetition rule's record, for the server: a 64-bit key of "
                "every position so far (board, both piles, seat to move), packed as base64; once "
                "the game is over, only the final position's.",
            ),
        ),
    )

    @property
    def to_move(self) -> int | None:
        return None if self.is_over() else self.mover

    @property
    def tiles_left(self) -> tuple[int, int]:
        return sum(self.piles[0]), sum(self.piles[1])

    def tile(self, cell: Cell) -> int | None:
        ch = self.board[cell[0] * self.size + cell[1]]
        return None if ch == EMPTY else int(ch)

    def on_board(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.size and 0 <= cell[1] < self.size

    def touches_tile(self, cell: Cell, board: str | None = None) -> bool:
        """Whether a tile sits orthogonally next to `cell` (on `board`, default this one)."""
        return touches_tile(
            self.board if board is None else board, self.size, cell[0] * self.size + cell[1]
        )

    @functools.cached_property
    def numbers(self) -> tuple[Number, ...]:
        return tuple(board_numbers(self.board, self.size))

    def number(self, frm: Cell, to: Cell) -> Number | None:
        """The number read from `frm` to `to`, or None when that is not a number on the board."""
        return next((n for n in self.numbers if n.frm == frm and n.to == to), None)

    def drops(self) -> list[Drop]:
        """Every legal single drop: empty cells times the digits in hand (0 only next to a tile)."""
        hand = [d for d in range(10) if self.piles[self.mover][d]]
        lone_hand = [d for d in hand if d]
        table = _drop_table(self.size)
        out: list[Drop] = []
        for i, ch in enumerate(self.board):
            if ch == EMPTY:
                at = table[i]
                out.extend(
                    at[d] for d in (hand if touches_tile(self.board, self.size, i) else lone_hand)
                )
        return out

    def legal_moves(self) -> list[Move]:
        """The single drops, and one winning challenge per challengeable number (naming its
        smallest nontrivial factor). Double downs are too many to list; they are checked when
        played. A challenge bound to fail is listed (once) only when nothing else is legal."""
        if self.is_over():
            return []
        challenges = [
            Challenge(n.frm, n.to, f)
            for n in self.numbers
            if (f := nontrivial_factor(n.value)) is not None
        ]
        moves: list[Move] = [*self.drops(), *challenges]
        if not moves and self.numbers:
            moves.append(Challenge(self.numbers[0].frm, self.numbers[0].to, 1))
        return moves

    def legal_moves_listing(self) -> dict:
        moves: list[Move] = (
            []
            if self.is_over()
            else [
                *self.drops(),
                *(Challenge(n.frm, n.to, LISTED_FACTOR, n.value) for n in self.numbers),
            ]
        )
        return listing(
            self,
            moves,
            complete=False,
            note="Single drops and every number on the board are listed. A challenge entry "
            f"gives the number's from, to and value, with factor {LISTED_FACTOR}: "
            "propose your own factor in its place. Double downs are not listed; "
            "they are checked when you play one.",
        )

    def has_move(self) -> bool:
        """Whether the seat to move can drop, double down or challenge (else it passes)."""
        if EMPTY not in self.board:
            return True  # a full board always holds a number to challenge
        if self.board.count(EMPTY) < len(self.board):
            return True  # some empty cell touches a tile, and anything can go there
        return any(self.piles[self.mover][1:])  # an empty board takes any digit but 0

    def forced_move(self) -> Move | None:
        return Pass() if not self.is_over() and not self.has_move() else None

    def apply(self, move: Move) -> "PrimeDropState":
        if self.is_over():
            raise IllegalMove("The game is over.")
        if isinstance(move, Drop):
            return self._lay([move])
        if isinstance(move, DoubleDown):
            return self._lay([move.first, move.second])
        if isinstance(move, Challenge):
            return self._challenge(move)
        if isinstance(move, Pass):
            if self.has_move():
                raise IllegalMove("You have a legal move, so you cannot pass.")
            return self._next(self.board, self.piles, self.last_challenge)
        raise IllegalMove("In Prime Drop a move is a drop, a double down or a challenge.")

    def outcome(self) -> Outcome | None:
        # Only the mover's own drops empty a pile, so an empty pile is its owner's win.
        for seat in (0, 1):
            if not any(self.piles[seat]):
                return Outcome(winner=seat, reason=Reason.ALL_TILES_PLAYED)
        if self.occurrences >= REPETITIONS:
            a, b = self.tiles_left
            return Outcome(winner=None if a == b else int(b < a), reason=Reason.REPETITION)
        return None

    @functools.cached_property
    def occurrences(self) -> int:
        """How many times the current position (board, both piles, seat to move) has arisen."""
        return self.seen.count(self.seen[-1]) if self.seen else 1

    def to_dict(self) -> dict:
        s = self.size
        return {
            "size": s,
            "board": [
                [None if ch == EMPTY else int(ch) for ch in self.board[r * s : (r + 1) * s]]
                for r in range(s)
            ],
            "piles": [{d: n for d, n in zip(DIGITS, pile)} for pile in self.piles],
            "tiles_left": list(self.tiles_left),
            "last_challenge": _copy_challenge(self.last_challenge),
            "mover": self.mover,
            "turn": self.turn,
            "seen": _pack(self._kept()),
        }

    facts_shape = Shape(
        "PrimeDropFacts",
        (
            Field(
                "numbers",
                ListOf(
                    Obj(
                        Shape(
                            "PrimeDropNumber",
                            (
                                Field("from", Pair(), "[row, col]"),
                                Field("to", Pair(), "[row, col]; `from` for a lone tile"),
                                Field("value", Whole(), "Read from `from` to `to`."),
                                Field("length", Whole(), "Its tiles."),
                            ),
                        )
                    )
                ),
                "every number on the board as a challenge names it: each run of two or more tiles "
                "read both ways (rows first, then columns), then the lone tiles.",
            ),
        ),
    )

    def facts(self) -> dict:
        """Every number on the board, as a challenge names it: each run of two or more tiles read
        both ways (rows first, then columns), then the lone tiles."""
        return {
            "numbers": [
                {"from": list(n.frm), "to": list(n.to), "value": n.value, "length": n.length}
                for n in self.numbers
            ]
        }

    @classmethod
    def from_dict(cls, data: dict) -> "PrimeDropState":
        board = "".join(EMPTY if d is None else str(d) for row in data["board"] for d in row)
        piles = by_seat(tuple(pile[d] for d in DIGITS) for pile in data["piles"])
        return cls(
            data["size"],
            board,
            piles,
            data["mover"],
            data["turn"],
            _copy_challenge(data["last_challenge"]),
            _unpack(data.get("seen", "")),
        )

    def _kept(self) -> tuple[int, ...]:
        """What of `seen` the stored form keeps: all of it while the game runs; once it is over,
        only the final position's occurrences, which are all its outcome needs."""
        if not self.is_over():
            return self.seen
        return self.seen[-1:] * min(self.occurrences, REPETITIONS)

    def _lay(self, tiles: list[Drop]) -> "PrimeDropState":
        """A single drop (one tile) or a double down (two, in order)."""
        pile = list(self.piles[self.mover])
        board = self.board
        if len(tiles) == 2 and EMPTY * len(board) == board:
            raise IllegalMove("A double down needs a tile already on the board.")
        for k, tile in enumerate(tiles):
            cell = tile.cell
            if not self.on_board(cell):
                raise IllegalMove(f"Cell {list(cell)} is off the {self.size}×{self.size} board.")
            if board[cell[0] * self.size + cell[1]] != EMPTY:
                raise IllegalMove(f"Cell {list(cell)} is taken.")
            if not pile[tile.digit]:
                raise IllegalMove(f"You have no {tile.digit} left in your pile.")
            if len(tiles) == 2 and not self.touches_tile(cell, board):
                which = "first" if k == 0 else "second"
                raise IllegalMove(
                    f"The {which} tile of a double down must go next to a tile; "
                    f"{list(cell)} has none beside it."
                )
            if tile.digit == 0 and not self.touches_tile(cell, board):
                raise IllegalMove(f"A 0 must go next to a tile; {list(cell)} has none beside it.")
            pile[tile.digit] -= 1
            i = cell[0] * self.size + cell[1]
            board = board[:i] + str(tile.digit) + board[i + 1 :]
        piles = _with_pile(self.piles, self.mover, tuple(pile))
        return self._next(board, piles, self.last_challenge)

    def _challenge(self, move: Challenge) -> "PrimeDropState":
        number = self.number(move.frm, move.to)
        if number is None:
            raise IllegalMove(self._not_a_number(move.frm, move.to))
        if move.value is not None and move.value != number.value:
            raise IllegalMove(
                f"The number at {list(move.frm)} to {list(move.to)} is "
                f"{number.value}, not {move.value}."
            )
        v, f = number.value, move.factor
        success = v != 1 and ((v == 0 and f >= 2) or (1 < f < v and v % f == 0))
        board, piles = self.board, self.piles
        if success:
            # The run goes to the challenger's opponent, whoever laid its tiles.
            opponent = 1 - self.mover
            pile = list(piles[opponent])
            for r, c in number.cells:
                i = r * self.size + c
                pile[int(board[i])] += 1
                board = board[:i] + EMPTY + board[i + 1 :]
            piles = _with_pile(piles, opponent, tuple(pile))
        last = {
            "seat": self.mover,
            "value": v,
            "factor": f,
            "success": success,
            "from": list(move.frm),
            "to": list(move.to),
            "tiles": number.length if success else 0,
            "turn": self.turn,
        }
        return self._next(board, piles, last)

    def _not_a_number(self, frm: Cell, to: Cell) -> str:
        where = f"{list(frm)} to {list(to)}" if frm != to else f"{list(frm)}"
        for cell in (frm, to):
            if not self.on_board(cell) or self.tile(cell) is None:
                return f"There is no number at {where}: {list(cell)} holds no tile."
        if frm == to:
            return (
                f"The tile at {list(frm)} is part of a longer number: name both ends of its "
                "line of tiles."
            )
        return (
            f"There is no number at {where}: a challenge names both ends of one unbroken "
            "line of tiles in a row or a column."
        )

    def _next(self, board: str, piles: tuple, last: dict | None) -> "PrimeDropState":
        mover = 1 - self.mover
        return PrimeDropState(
            self.size,
            board,
            piles,
            mover,
            self.turn + 1,
            last,
            (self.seen or (position_key(self.board, self.piles, self.mover),))
            + (position_key(board, piles, mover),),
        )


def position_key(board: str, piles: tuple, mover: int) -> int:
    """A 64-bit digest of a position as the repetition rule sees it: board, both piles, seat to
    move. (Stored per turn, so eight bytes rather than the position; two different positions
    share a key with odds of 2^-64, far below any game's length.)"""
    text = f"{board}|{piles}|{mover}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def board_numbers(board: str, size: int) -> list[Number]:
    """Every number on the board: each run of two or more tiles in a row or a column, read both
    ways (rows first, then columns), then the lone tiles. Leading zeros are ignored by `int`."""
    out: list[Number] = []
    singles: list[set[Cell]] = [set(), set()]  # tiles alone in their row, alone in their column
    for axis, start, step, cells in _lines(size):
        pos = 0
        for run in board[start : start + step * size : step].split(EMPTY):
            n = len(run)
            if n >= 2:
                a, b = cells[pos], cells[pos + n - 1]
                out.append(Number(a, b, int(run), n))
                out.append(Number(b, a, int(run[::-1]), n))
            elif n:
                singles[axis].add(cells[pos])
            pos += n + 1
    out.extend(
        Number(cell, cell, int(board[cell[0] * size + cell[1]]), 1)
        for cell in sorted(singles[0] & singles[1])
    )
    return out


def runs_through(board: str, size: int, i: int) -> list[str]:
    """The digits of the numbers through the tile at flat index `i`, each read one way (read
    them reversed for the other): its row run and its column run, or the tile alone."""
    r, c = divmod(i, size)
    runs = [
        run
        for run in (_run_at(board[r * size : (r + 1) * size], c), _run_at(board[c::size], r))
        if len(run) >= 2
    ]
    return runs or [board[i]]


def challengeable(run: str) -> bool:
    """Whether some factor wins a challenge of `run` read one way or the other."""
    return nontrivial_factor(int(run)) is not None or (
        len(run) > 1 and nontrivial_factor(int(run[::-1])) is not None
    )


def touches_tile(board: str, size: int, i: int) -> bool:
    """Whether a tile sits orthogonally next to flat index `i`."""
    return any(board[j] != EMPTY for j in _neighbours(size)[i])


def is_prime(value: int) -> bool:
    """A proven primality test in python-flint (sympy.isprime takes its fast path only with
    gmpy2, and runs Miller-Rabin in Python otherwise: about 50 times slower on 13 digits)."""
    return value > 1 and bool(flint.fmpz(value).is_prime())


@functools.lru_cache(maxsize=1 << 16)
def nontrivial_factor(value: int) -> int | None:
    """The smallest factor that wins a challenge of `value`, or None when none does (a prime,
    or 1). Bots call this on every number they look at, hence the cache.

    >>> nontrivial_factor(0), nontrivial_factor(1), nontrivial_factor(91), nontrivial_factor(97)
    (2, None, 7, None)
    """
    if value == 0:
        return 2
    if value == 1 or is_prime(value):
        return None
    return int(min(p for p, _ in flint.fmpz(value).factor()))


def timeout_rule_winner(
    turns: Iterable[tuple[float, tuple[int, int]]], after_s: float, streak: int
) -> int | None:
    """The timeout rule's verdict: the seat that wins by it, or None while nobody has yet.

    `turns` lists every completed turn (passes included) in order, each as `(at_s, tiles_left)`:
    seconds since the game's first move when the turn ended, and both players' tile counts then.
    Only turns ending at `after_s` or later count. The first player to hold strictly fewer tiles
    at the end of `streak` such turns in a row wins; a tie or a change of leader restarts the run.

    >>> timeout_rule_winner([(10, (5, 9)), (3600, (5, 9)), (3700, (6, 9))], 3600, 2)
    0
    """
    leader, run = None, 0
    for at_s, (a, b) in turns:
        if at_s < after_s:
            continue
        ahead = None if a == b else (0 if a < b else 1)
        run = run + 1 if ahead is not None and ahead == leader else int(ahead is not None)
        leader = ahead
        if run >= streak:
            return leader
    return None


@functools.cache
def _drop_table(size: int) -> tuple[tuple[Drop, ...], ...]:
    """Per flat index, the drop of each digit there: built once, as moves are immutable."""
    return tuple(tuple(Drop(*divmod(i, size), d) for d in range(10)) for i in range(size * size))


@functools.cache
def _lines(size: int) -> tuple[tuple[int, int, int, tuple[Cell, ...]], ...]:
    """Each row, then each column: (axis, first flat index, stride, its cells in order)."""
    rows = [(0, r * size, 1, tuple((r, c) for c in range(size))) for r in range(size)]
    cols = [(1, c, size, tuple((r, c) for r in range(size))) for c in range(size)]
    return tuple(rows + cols)


@functools.cache
def _neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """Per flat index, the flat indices of its orthogonal neighbours."""
    return tuple(
        tuple(r * size + c for r, c in orthogonal_neighbours(*divmod(i, size), size, size))
        for i in range(size * size)
    )


def _run_at(line: str, k: int) -> str:
    """The unbroken stretch of tiles in `line` that holds position `k`."""
    a, b = k, k
    while a > 0 and line[a - 1] != EMPTY:
        a -= 1
    while b < len(line) - 1 and line[b + 1] != EMPTY:
        b += 1
    return line[a : b + 1]


def _copy_challenge(last: dict | None) -> dict | None:
    """A copy sharing no list with `last`, so no caller can change a state through it."""
    return None if last is None else {**last, "from": list(last["from"]), "to": list(last["to"])}


def _pack(keys: tuple[int, ...]) -> str:
    """Position keys as one base64 string, eleven characters or so a key (JSON lists of 64-bit
    integers would take twice that)."""
    return base64.b64encode(b"".join(k.to_bytes(8, "big") for k in keys)).decode()


def _unpack(text: str) -> tuple[int, ...]:
    raw = base64.b64decode(text)
    return tuple(int.from_bytes(raw[i : i + 8], "big") for i in range(0, len(raw), 8))


def _with_pile(piles: tuple, seat: int, pile: tuple) -> tuple:
    return (pile, piles[1]) if seat == 0 else (piles[0], pile)
