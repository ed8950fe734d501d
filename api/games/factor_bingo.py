"""Factor Bingo (Deusovi): fill two letter boards with the divisors of 720, then call them.

Rules: ../../seeds/factor-bingo.md. The boards share their letters, so a fill writes one number on
both boards; in the calling phase a call must divide or be a multiple of the current number while
such a number remains, and the first call that completes a line ends the game.

>>> state = FactorBingo.new(FactorBingo.check_options({}), first=0, seed=0)
>>> state.phase, state.to_move, len(state.legal_moves())
('filling', 0, 750)
>>> state = state.apply(Fill("C", 48))
>>> state.to_dict()["boards"][0][0]
['A', 'B', 48, 'D', 'E']
>>> state.to_dict()["boards"][1][1]
['K', 'G', 48, 'I', 'Y']
"""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Sequence

import sympy

from api.games.base import (
    Either,
    Field,
    Game,
    IllegalMove,
    ListOf,
    MapOf,
    Maybe,
    Move,
    Option,
    Outcome,
    Pair,
    Reason,
    Shape,
    State,
    Text,
    Whole,
    by_seat,
    per_seat,
    wire,
)
from api.games.registry import register

NUMBERS: tuple[int, ...] = tuple(sympy.divisors(720))
SIDE = 5
LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXY")
CENTRE = 12  # cells are numbered row * SIDE + col
GRAY_CELLS = 5

# The default pair (RULES.md §5), row by row; the left board goes to seat 0.
DEFAULT_LETTERS = (tuple("ABCDEFGHIJKLMNOPQRSTUVWXY"), tuple("DPUNFKGCIYWOMRLXQJSBVTHAE"))

# Every row, column and diagonal, as cell numbers.
LINES: tuple[tuple[int, ...], ...] = (
    tuple(tuple(r * SIDE + c for c in range(SIDE)) for r in range(SIDE))
    + tuple(tuple(r * SIDE + c for r in range(SIDE)) for c in range(SIDE))
    + (
        tuple(i * SIDE + i for i in range(SIDE)),
        tuple(i * SIDE + SIDE - 1 - i for i in range(SIDE)),
    )
)


@dataclasses.dataclass(frozen=True)
class Fill(Move):
    """Write a number on a letter of both boards."""

    move_type = "fill"
    letter: str = wire(Text(length=1, upper=True), message="'letter' must be a single letter.")
    number: int = wire(Whole())

    def words(self, before: State) -> str:
        """The move's words.

        >>> Fill("G", 12).words(None)
        'writes 12 on G'
        """
        return f"writes {self.number} on {self.letter}"


@dataclasses.dataclass(frozen=True)
class Start(Move):
    """The starting player picks the current number."""

    move_type = "start"
    number: int = wire(Whole())

    def words(self, before: State) -> str:
        return f"starts with {self.number}"


@dataclasses.dataclass(frozen=True)
class Call(Move):
    """Call a number."""

    move_type = "call"
    number: int = wire(Whole())

    def words(self, before: State) -> str:
        return f"calls {self.number}"


@register
class FactorBingo(Game):
    slug = "factor-bingo"
    title = "Factor Bingo"
    reasons = (Reason.BINGO,)
    summary = (
        "Write the 30 divisors of 720 onto two shared bingo boards, then take turns calling "
        "numbers, each a divisor or multiple of the last. The first line ends the game."
    )
    options = (
        Option(
            "layout",
            "choice",
            "default",
            "Letter boards: the default pair, or a pair dealt from the game's seed.",
            choices=("default", "random"),
        ),
    )
    default_time_control = {"type": "byoyomi", "main_s": 0, "periods": 5, "period_s": 60}
    moves = (Fill, Start, Call)

    @classmethod
    def new(cls, options: dict, first: int, seed: int) -> "FactorBingoState":
        letters = DEFAULT_LETTERS if options["layout"] == "default" else deal_letters(seed)
        return FactorBingoState(letters, first, (), None, ())


@dataclasses.dataclass(frozen=True, eq=False)
class FactorBingoState(State):
    letters: tuple[tuple[str, ...], tuple[str, ...]]  # each board's letters, cell by cell
    starter: int
    fills: tuple[tuple[str, int], ...]  # (letter, number) in the order they were picked
    start: int | None  # the starting player's chosen current number
    called: tuple[int, ...]

    game = FactorBingo
    shape = Shape(
        "FactorBingoState",
        (
            Field("phase", Text(choices=("filling", "start", "calling"))),
            Field(
                "boards",
                per_seat(
                    ListOf(
                        ListOf(
                            Either((Whole(), Text()), "A number, or the letter while it has none.")
                        )
                    )
                ),
                "Per seat, five rows of five cells.",
            ),
            Field("numbers", ListOf(Whole())),
            Field("unused", ListOf(Whole())),
            Field("current", Maybe(Whole())),
            Field("called", ListOf(Whole())),
            Field("lines", per_seat(Whole())),
            Field("starter", Whole()),
            Field(
                "letters",
                per_seat(ListOf(ListOf(Text(choices=LETTERS)))),
                "Per seat, five rows of five cells.",
            ),
            Field(
                "gray",
                ListOf(Pair()),
                "[row, col] of the cells with the same letter on both boards.",
            ),
            Field("filled", MapOf(Text(), Whole())),
            Field("start", Maybe(Whole())),
        ),
    )

    @property
    def phase(self) -> str:
        if len(self.fills) < len(LETTERS):
            return "filling"
        return "start" if self.start is None else "calling"

    @property
    def current(self) -> int | None:
        return self.called[-1] if self.called else self.start

    @property
    def mover(self) -> int:
        """The seat whose turn it is: fills alternate from the starter, who also picks the
        start; the other player makes the first call."""
        if self.phase == "filling":
            return (self.starter + len(self.fills)) % 2
        if self.phase == "start":
            return self.starter
        return (self.starter + 1 + len(self.called)) % 2

    @property
    def to_move(self) -> int | None:
        return None if self.is_over() else self.mover

    @property
    def unused(self) -> list[int]:
        """The numbers on neither board (all of them not yet picked, during the filling)."""
        placed = {n for _, n in self.fills}
        return [n for n in NUMBERS if n not in placed]

    def callable_numbers(self) -> list[int]:
        """What the seat to move may call: the uncalled divisors and multiples of the current
        number, or, when none is left, every uncalled number."""
        current = self.current
        assert current is not None  # the calling phase has a current number
        left = [n for n in NUMBERS if n != self.start and n not in self.called]
        near = [n for n in left if current % n == 0 or n % current == 0]
        return near or left

    def legal_moves(self) -> list[Move]:
        if self.is_over():
            return []
        if self.phase == "filling":
            picked = {n for _, n in self.fills}
            letters = [x for x in LETTERS if x not in dict(self.fills)]
            return [Fill(x, n) for x in letters for n in NUMBERS if n not in picked]
        if self.phase == "start":
            return [Start(n) for n in self.unused]
        return [Call(n) for n in self.callable_numbers()]

    def apply(self, move: Move) -> "FactorBingoState":
        if self.is_over():
            raise IllegalMove("The game is over.")
        phase = self.phase
        expected = {"filling": Fill, "start": Start, "calling": Call}[phase]
        if not isinstance(move, expected):
            raise IllegalMove(_WRONG_PHASE[phase])
        if move.number not in NUMBERS:
            raise IllegalMove(f"{move.number} is not a divisor of 720.")
        if phase == "filling":
            return self._fill(move)
        if phase == "start":
            if move.number not in self.unused:
                raise IllegalMove(f"{move.number} is on the boards; start with an unused number.")
            return dataclasses.replace(self, start=move.number)
        if move.number == self.start or move.number in self.called:
            raise IllegalMove(f"{move.number} has already been called.")
        if move.number not in self.callable_numbers():
            raise IllegalMove(
                f"{move.number} is neither a divisor nor a multiple of "
                f"{self.current}, and such a number is still uncalled."
            )
        return dataclasses.replace(self, called=self.called + (move.number,))

    def _fill(self, move: Fill) -> "FactorBingoState":
        if move.letter not in LETTERS:
            raise IllegalMove(f"There is no letter {move.letter} on the boards.")
        filled = dict(self.fills)
        if move.letter in filled:
            raise IllegalMove(f"Letter {move.letter} already holds {filled[move.letter]}.")
        if move.number in filled.values():
            raise IllegalMove(f"{move.number} is already on the boards.")
        return dataclasses.replace(self, fills=self.fills + ((move.letter, move.number),))

    def lines(self) -> list[int]:
        """Complete lines (five called numbers) on each seat's board."""
        if not self.called:
            return [0, 0]
        called = number_mask(self.called)
        return [
            sum(mask & called == mask for mask in masks)
            for masks in line_masks(self.letters, self.fills)
        ]

    def bingo_lines(self) -> list[list[list[list[int]]]]:
        """Each seat's complete lines, each as its five cells' [row, col] in order (a row left to
        right, a column top down, a diagonal from the top)."""
        called = number_mask(self.called)
        return [
            [
                [list(divmod(c, SIDE)) for c in LINES[k]]
                for k, mask in board
                if mask & called == mask
            ]
            for board in filled_lines(self.letters, self.fills)
        ]

    facts_shape = Shape(
        "FactorBingoFacts",
        (
            Field(
                "bingo_lines",
                per_seat(ListOf(ListOf(Pair()))),
                "per seat, its complete lines, each as its five cells' [row, col] in order.",
            ),
        ),
    )

    def facts(self) -> dict:
        return {"bingo_lines": self.bingo_lines()}

    def outcome(self) -> Outcome | None:
        lines = self.lines()
        if lines == [0, 0]:
            return None
        if lines[0] != lines[1]:
            winner = 0 if lines[0] > lines[1] else 1
        else:  # equal lines: whoever made the last call loses
            winner = (self.starter + 1 + len(self.called)) % 2
        return Outcome(winner, Reason.BINGO, lines)

    def to_dict(self) -> dict:
        filled = dict(self.fills)
        return {
            "phase": self.phase,
            "boards": [_rows([filled.get(x, x) for x in board]) for board in self.letters],
            "numbers": list(NUMBERS),
            "unused": self.unused,
            "current": self.current,
            "called": list(self.called),
            "lines": self.lines(),
            "starter": self.starter,
            "letters": [_rows(board) for board in self.letters],
            "gray": [[c // SIDE, c % SIDE] for c in gray_cells(self.letters)],
            "filled": filled,
            "start": self.start,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "FactorBingoState":
        letters = by_seat(tuple(x for row in board for x in row) for board in data["letters"])
        return cls(
            letters,
            data["starter"],
            tuple(data["filled"].items()),
            data["start"],
            tuple(data["called"]),
        )


_WRONG_PHASE = {
    "filling": "The boards are still being filled: pick a letter and a number (a fill move).",
    "start": "The boards are full: the starting player picks the current number (a start move).",
    "calling": "The calling phase is on: call a number (a call move).",
}


def number_mask(numbers) -> int:
    """A bit per number, in the order of NUMBERS."""
    mask = 0
    for n in numbers:
        mask |= 1 << NUMBERS.index(n)
    return mask


@functools.lru_cache(maxsize=4096)
def line_masks(
    letters: tuple[tuple[str, ...], ...], fills: tuple[tuple[str, int], ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each seat's fully filled lines as number masks (a line with a letter left has none)."""
    return by_seat(tuple(mask for _, mask in board) for board in filled_lines(letters, fills))


@functools.lru_cache(maxsize=4096)
def filled_lines(
    letters: tuple[tuple[str, ...], ...], fills: tuple[tuple[str, int], ...]
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Each seat's fully filled lines as (index in LINES, number mask)."""
    filled = dict(fills)
    return tuple(
        tuple(
            (k, number_mask(filled[board[c]] for c in line))
            for k, line in enumerate(LINES)
            if all(board[c] in filled for c in line)
        )
        for board in letters
    )


def gray_cells(letters) -> list[int]:
    """The cells holding the same letter on both boards."""
    return [c for c in range(SIDE * SIDE) if letters[0][c] == letters[1][c]]


def shares_a_line(letters) -> bool:
    """Whether some line of one board holds the same five letters as a line of the other."""
    left = {frozenset(letters[0][c] for c in line) for line in LINES}
    return any(frozenset(letters[1][c] for c in line) in left for line in LINES)


def deal_letters(seed: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A random pair for option layout "random": the left board in alphabetical order, five gray
    cells (the centre and four more), every other cell holding a different letter on the right,
    and no line shared between the boards."""
    rng = random.Random(seed)
    gray = {CENTRE, *rng.sample([c for c in range(SIDE * SIDE) if c != CENTRE], GRAY_CELLS - 1)}
    left = LETTERS
    free = [c for c in range(SIDE * SIDE) if c not in gray]
    while True:
        moved = [left[c] for c in free]
        rng.shuffle(moved)
        right = list(left)
        for c, x in zip(free, moved):
            right[c] = x
        pair = (left, tuple(right))
        if len(gray_cells(pair)) == GRAY_CELLS and not shares_a_line(pair):
            return pair


def _rows(cells: Sequence) -> list[list]:
    return [list(cells[r * SIDE : (r + 1) * SIDE]) for r in range(SIDE)]
