"""Ploid (Cameron Browne, 2011): pack your numbered groups onto an n x (n+1) board.

Rules: ../../seeds/ploid.md. A group may hold no more pieces than its smallest number, so a 2
beside White's 1 is refused, while a 2 on its own is fine:

>>> state = Ploid.new(Ploid.check_options({"n": 3}), first=0, seed=0)
>>> state = state.apply(Place(0, 0, 1)).apply(Place(2, 3, 3))
>>> state.apply(Place(0, 1, 2))
Traceback (most recent call last):
...
api.games.base.IllegalMove: That would make a group of 2 pieces whose smallest number is 1.
>>> state.apply(Place(1, 1, 2)).to_dict()["hands"][0]
{'numbers': [3], 'blanks': 3}

The board is a flat tuple of cell codes shared with the solver: 0 is empty, a piece of seat 0 is
its value and a piece of seat 1 is minus its value, where a number's value is the number and a
blank's value is BLANK (larger than any number, so "the smallest number of a group" is simply the
smallest value in it, and a group whose smallest value is BLANK holds no number).
"""

from __future__ import annotations

import dataclasses
import functools

from api.games.base import (
    Either,
    Field,
    Game,
    IllegalMove,
    ListOf,
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
    per_seat,
    wire,
)
from api.games.grid import cell_name, orthogonal_neighbours
from api.games.registry import register

MIN_N, MAX_N, DEFAULT_N = 2, 8, 5
BLANK = 99  # a blank's cell value: above every number, so it never lowers a group's limit
PIECE = Either((Whole(1, MAX_N), Text(choices=("blank",))))


@dataclasses.dataclass(frozen=True)
class Place(Move):
    """Put one of your pieces, a number 1..n or "blank", on an empty cell."""

    move_type = "place"
    row: int = wire(Whole())
    col: int = wire(Whole())
    piece: int | str = wire(
        PIECE, message=f"'piece' must be a number from 1 to {MAX_N} or \"blank\"."
    )

    def words(self, before: State) -> str:
        """The move's words.

        >>> Place(1, 5, "blank").words(None), Place(0, 0, 4).words(None)
        ('places a blank at [1, 5]', 'places a 4 at [0, 0]')
        """
        article = "an" if self.piece == 8 else "a"
        return f"places {article} {self.piece} at {cell_name((self.row, self.col))}"


@register
class Ploid(Game):
    slug = "ploid"
    title = "Ploid"
    reasons = (Reason.SCORE,)
    score_words = ("piece placed", "pieces placed")
    summary = (
        "Place numbered and blank pieces on an n x (n+1) board; no group may hold more "
        "pieces than its smallest number. Whoever places more pieces wins."
    )
    options = (
        Option(
            "n",
            "int",
            DEFAULT_N,
            "Each side has the numbers 1..n and n(n-1)/2 blanks; the board is n x (n+1).",
            min=MIN_N,
            max=MAX_N,
        ),
    )
    moves = (Place, Pass)

    @classmethod
    def new(cls, options: dict, first: int, seed: int) -> "PloidState":
        n = options["n"]
        return PloidState(n, (0,) * (n * (n + 1)), first, None)


@dataclasses.dataclass(frozen=True, eq=False)
class PloidState(State):
    n: int
    board: tuple[int, ...]  # row-major cell codes, see the module docstring
    mover: int  # the seat whose turn it is, whether or not it can place
    last_number: int | None  # the number placed by the move just made (None after a blank/pass)

    game = Ploid
    shape = Shape(
        "PloidState",
        (
            Field("n", Whole(MIN_N, MAX_N)),
            Field("rows", Whole()),
            Field("cols", Whole()),
            Field(
                "board",
                ListOf(
                    ListOf(
                        Maybe(
                            Obj(Shape("PloidCell", (Field("seat", Whole()), Field("piece", PIECE))))
                        )
                    )
                ),
                "Rows of cells: a piece, or null when empty.",
            ),
            Field(
                "hands",
                per_seat(
                    Obj(
                        Shape(
                            "PloidHand",
                            (Field("numbers", ListOf(Whole())), Field("blanks", Whole())),
                        )
                    )
                ),
            ),
            Field("last_number", Maybe(Whole())),
            Field("placed", per_seat(Whole())),
            Field("mover", Whole()),
        ),
    )

    @property
    def rows(self) -> int:
        return self.n

    @property
    def cols(self) -> int:
        return self.n + 1

    @property
    def to_move(self) -> int | None:
        return None if self.is_over() else self.mover

    def hand(self, seat: int) -> tuple[tuple[int, ...], int]:
        """The numbers `seat` still holds (increasing) and how many blanks."""
        return hand(self.board, self.n, seat)

    def placed(self, seat: int) -> int:
        return sum(1 for code in self.board if owner(code) == seat)

    @functools.cached_property
    def _placements(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """Per seat, every (cell index, value) the group and numbers-first rules allow."""
        return (placements(self.board, self.n, 0), placements(self.board, self.n, 1))

    def legal_placements(self) -> list[tuple[int, int]]:
        """The (cell index, value) placements open to the mover, the same-number ban applied."""
        return apply_ban(self._placements[self.mover], self.last_number)

    def legal_moves(self) -> list[Move]:
        if self.is_over():
            return []
        return [
            Place(i // self.cols, i % self.cols, piece_name(v)) for i, v in self.legal_placements()
        ]

    def forced_move(self) -> Move | None:
        if not self.is_over() and not self._placements[self.mover]:
            return Pass()
        return None

    def apply(self, move: Move) -> "PloidState":
        if self.is_over():
            raise IllegalMove("The game is over.")
        if isinstance(move, Pass):
            if self._placements[self.mover]:
                raise IllegalMove("You can still place a piece, so you may not pass.")
            return dataclasses.replace(self, mover=1 - self.mover, last_number=None)
        if not isinstance(move, Place):
            raise IllegalMove("In Ploid the only move is to place a piece.")
        index = self._check_placement(move)
        value = BLANK if move.piece == "blank" else move.piece
        assert isinstance(value, int)  # _check_placement passed only "blank" or a number in hand
        board = list(self.board)
        board[index] = value if self.mover == 0 else -value
        return dataclasses.replace(
            self,
            board=tuple(board),
            mover=1 - self.mover,
            last_number=None if value == BLANK else value,
        )

    def _check_placement(self, move: Place) -> int:
        """The cell index of a placement the rules allow, or IllegalMove saying why not."""
        r, c = move.row, move.col
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise IllegalMove(f"Cell [{r}, {c}] is not on the {self.rows} x {self.cols} board.")
        index = r * self.cols + c
        if self.board[index]:
            raise IllegalMove(f"Cell [{r}, {c}] is taken.")
        numbers, blanks = self.hand(self.mover)
        if move.piece == "blank":
            if numbers:
                raise IllegalMove("Place all your numbered pieces before any blank.")
            if not blanks:
                raise IllegalMove("You have no blanks left.")
            value = BLANK
        else:
            if move.piece not in numbers:
                raise IllegalMove(f"You have no {move.piece} left to place.")
            value = move.piece
        size, limit = merged_group(self.board, self.n, self.mover, index, value)
        if limit == BLANK:
            raise IllegalMove("A blank must join a group of yours that holds a number.")
        if size > limit:
            raise IllegalMove(
                f"That would make a group of {size} pieces whose smallest number is {limit}."
            )
        if (index, value) not in self.legal_placements():
            raise IllegalMove(
                f"You may not place the {value} your opponent just placed while "
                f"you have another placement."
            )
        return index

    def outcome(self) -> Outcome | None:
        if any(self._placements):
            return None
        scores = [self.placed(0), self.placed(1)]
        winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
        return Outcome(winner=winner, reason=Reason.SCORE, scores=scores)

    def to_dict(self) -> dict:
        cols = self.cols
        board = [
            [cell_dict(code) for code in self.board[r * cols : (r + 1) * cols]]
            for r in range(self.rows)
        ]
        hands = [
            {"numbers": list(numbers), "blanks": blanks}
            for numbers, blanks in (self.hand(0), self.hand(1))
        ]
        return {
            "n": self.n,
            "rows": self.rows,
            "cols": cols,
            "board": board,
            "hands": hands,
            "last_number": self.last_number,
            "placed": [self.placed(0), self.placed(1)],
            "mover": self.mover,
        }

    facts_shape = Shape(
        "PloidFacts",
        (
            Field(
                "groups",
                ListOf(
                    Obj(
                        Shape(
                            "PloidGroup",
                            (
                                Field("seat", Whole()),
                                Field("cells", ListOf(Pair()), "[row, col], in board order."),
                                Field("size", Whole()),
                                Field(
                                    "limit",
                                    Maybe(Whole()),
                                    "The smallest number in the group, which its size may "
                                    "not pass (null for a group without a number).",
                                ),
                            ),
                        )
                    )
                ),
                "every group of either seat, seat 0's first.",
            ),
        ),
    )

    def facts(self) -> dict:
        """Every group of either seat (seat 0's first, each in board order): its cells, its size
        and its limit, the smallest number in it (null for a group without one), which its size
        may not pass."""
        cols, out = self.cols, []
        for seat in (0, 1):
            label, sizes, limits = groups(self.board, self.n, seat)
            cells: list[list[list[int]]] = [[] for _ in sizes]
            for i in sorted(label):
                cells[label[i]].append([i // cols, i % cols])
            out += [
                {
                    "seat": seat,
                    "cells": part,
                    "size": size,
                    "limit": None if limit == BLANK else limit,
                }
                for part, size, limit in zip(cells, sizes, limits)
            ]
        return {"groups": out}

    @classmethod
    def from_dict(cls, data: dict) -> "PloidState":
        board = tuple(cell_code(cell) for row in data["board"] for cell in row)
        return cls(data["n"], board, data["mover"], data["last_number"])


# Board helpers, shared with the solver and the bots (api/bots/ploid*.py).


def owner(code: int) -> int | None:
    """The seat whose piece has this cell code, or None for an empty cell."""
    return None if code == 0 else int(code < 0)


def piece_name(value: int) -> int | str:
    return "blank" if value == BLANK else value


def cell_dict(code: int) -> dict | None:
    return None if code == 0 else {"seat": owner(code), "piece": piece_name(abs(code))}


def cell_code(cell: dict | None) -> int:
    if cell is None:
        return 0
    value = BLANK if cell["piece"] == "blank" else cell["piece"]
    return value if cell["seat"] == 0 else -value


@functools.lru_cache(maxsize=None)
def neighbour_table(n: int) -> tuple[tuple[int, ...], ...]:
    """For each cell index of the n x (n+1) board, the indices of its orthogonal neighbours."""
    rows, cols = n, n + 1
    return tuple(
        tuple(r * cols + c for r, c in orthogonal_neighbours(i // cols, i % cols, rows, cols))
        for i in range(rows * cols)
    )


def hand(board: tuple[int, ...], n: int, seat: int) -> tuple[tuple[int, ...], int]:
    """The numbers `seat` has not placed yet (increasing) and its blanks left."""
    sign = 1 if seat == 0 else -1
    values = [code * sign for code in board if code * sign > 0]
    numbers = tuple(k for k in range(1, n + 1) if k not in values)
    return numbers, n * (n - 1) // 2 - values.count(BLANK)


def groups(
    board: tuple[int, ...], n: int, seat: int
) -> tuple[dict[int, int], list[int], list[int]]:
    """The groups of `seat`: a group id per cell it holds, then each group's size and limit
    (its smallest value: its smallest number, or BLANK if it has none)."""
    sign = 1 if seat == 0 else -1
    label, parts = components(n, [i for i, code in enumerate(board) if code * sign > 0])
    return (
        label,
        [len(part) for part in parts],
        [min(abs(board[i]) for i in part) for part in parts],
    )


def components(n: int, cells: list[int]) -> tuple[dict[int, int], list[list[int]]]:
    """The orthogonally connected parts of `cells` (indices of the n x (n+1) board, in board
    order): a part id per cell, and each part's cells. By index, not (row, col): the bots and
    the solver call this at every node, and it is most of their time."""
    inside, table = set(cells), neighbour_table(n)
    label: dict[int, int] = {}
    parts: list[list[int]] = []
    for start in cells:
        if start in label:
            continue
        label[start] = len(parts)
        part = [start]
        for i in part:  # (the part grows while it is read)
            for j in table[i]:
                if j in inside and j not in label:
                    label[j] = len(parts)
                    part.append(j)
        parts.append(part)
    return label, parts


def merged_group(
    board: tuple[int, ...], n: int, seat: int, index: int, value: int
) -> tuple[int, int]:
    """Size and limit of the group a piece of `value` placed at `index` would belong to."""
    label, sizes, limits = groups(board, n, seat)
    joined = {label[j] for j in neighbour_table(n)[index] if j in label}
    return 1 + sum(sizes[g] for g in joined), min([value] + [limits[g] for g in joined])


def placements(board: tuple[int, ...], n: int, seat: int) -> list[tuple[int, int]]:
    """Every (cell index, value) `seat` may place by the numbers-first and group rules (the
    same-number ban is `apply_ban`'s), in board order, numbers increasing, then blank."""
    numbers, blanks = hand(board, n, seat)
    values = numbers or ((BLANK,) if blanks else ())
    if not values:
        return []
    label, sizes, limits = groups(board, n, seat)
    out: list[tuple[int, int]] = []
    for index, neighbours in enumerate(neighbour_table(n)):
        if board[index]:
            continue
        joined = {label[j] for j in neighbours if j in label}
        size = 1 + sum(sizes[g] for g in joined)
        limit = min([limits[g] for g in joined], default=BLANK)
        # min(limit, value) <= n: the group holds a number; size <= it: the group fits
        out.extend((index, v) for v in values if size <= min(limit, v) <= n)
    return out


def apply_ban(legal: list[tuple[int, int]], banned: int | None) -> list[tuple[int, int]]:
    """Drop placements of the number the opponent just placed, unless nothing else is left."""
    allowed = [(i, v) for i, v in legal if v != banned]
    return allowed or legal
