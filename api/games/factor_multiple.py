"""Factor/Multiple (Juniper Green): say a factor or a multiple of the last number said.

Rules: ../../seeds/factor-multiple.md. The seed's example game replays to its stated end:

>>> state = FactorMultiple.new(FactorMultiple.check_options({}), first=0, seed=0)
>>> for k in (98, 49, 7, 77, 11, 55, 1, 97):
...     state = state.apply(Say(k))
>>> state.outcome()
Outcome(winner=1, reason=<Reason.NO_MOVES: 'no-moves'>, scores=None)
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from typing import Iterable

from api.games.base import (
    Boolean,
    Field,
    Game,
    IllegalMove,
    ListOf,
    Maybe,
    Move,
    Option,
    Outcome,
    Reason,
    Shape,
    State,
    Whole,
    wire,
)
from api.games.registry import register

MIN_N, MAX_N, DEFAULT_N = 10, 1000, 100


@dataclasses.dataclass(frozen=True)
class Say(Move):
    """Say a number."""

    move_type = "say"
    number: int = wire(Whole())

    def words(self, before: State) -> str:
        """The move's words.

        >>> Say(12).words(None)
        'says 12'
        """
        return f"says {self.number}"


@register
class FactorMultiple(Game):
    slug = "factor-multiple"
    title = "Factor/Multiple"
    reasons = (Reason.NO_MOVES,)
    summary = (
        "Say numbers from 1 to n in turn; each must be a factor or a multiple of the last "
        "one, and none twice. Whoever cannot say a number loses."
    )
    options = (
        Option("n", "int", DEFAULT_N, "Numbers run from 1 to n.", min=MIN_N, max=MAX_N),
        Option("even_start", "bool", True, "The first number said must be even."),
    )
    moves = (Say,)

    @classmethod
    def new(cls, options: dict, first: int, seed: int) -> "FactorMultipleState":
        return FactorMultipleState(options["n"], options["even_start"], first, ())


@dataclasses.dataclass(frozen=True, eq=False)
class FactorMultipleState(State):
    n: int
    even_start: bool
    first: int
    said: tuple[int, ...]

    game = FactorMultiple
    shape = Shape(
        "FactorMultipleState",
        (
            Field("n", Whole(MIN_N, MAX_N)),
            Field("even_start", Boolean()),
            Field("first", Whole()),
            Field("said", ListOf(Whole())),
            Field("current", Maybe(Whole())),
        ),
    )

    @property
    def current(self) -> int | None:
        return self.said[-1] if self.said else None

    @property
    def mover(self) -> int:
        """The seat whose turn it is, whether or not it has a move."""
        return (self.first + len(self.said)) % 2

    @property
    def to_move(self) -> int | None:
        return None if self.is_over() else self.mover

    def legal_moves(self) -> list[Move]:
        return [Say(k) for k in self.legal_numbers()]

    def legal_numbers(self) -> list[int]:
        """The numbers the seat to move may say, in increasing order."""
        used = set(self.said)
        if self.current is None:
            step = 2 if self.even_start else 1
            return list(range(step, self.n + 1, step))
        return [k for k in divisibility_neighbours(self.current, self.n) if k not in used]

    def apply(self, move: Move) -> "FactorMultipleState":
        if not isinstance(move, Say):
            raise IllegalMove("In Factor/Multiple the only move is to say a number.")
        if self.is_over():
            raise IllegalMove("The game is over.")
        k = move.number
        if not 1 <= k <= self.n:
            raise IllegalMove(f"{k} is not a number from 1 to {self.n}.")
        if k in self.said:
            raise IllegalMove(f"{k} has already been said.")
        if self.current is None:
            if self.even_start and k % 2:
                raise IllegalMove("The first number must be even.")
        elif k % self.current and self.current % k:
            raise IllegalMove(f"{k} is neither a factor nor a multiple of {self.current}.")
        return dataclasses.replace(self, said=self.said + (k,))

    def outcome(self) -> Outcome | None:
        return self._outcome

    @functools.cached_property
    def _outcome(self) -> Outcome | None:
        # asked several times of each state by one move (its checks, its record, its view),
        # and at n=1000 the first number's neighbours are a thousand numbers to look through
        used = set(self.said)
        if self.current is None or any(k not in used for k in _neighbours(self.current, self.n)):
            return None
        return Outcome(winner=1 - self.mover, reason=Reason.NO_MOVES)

    def to_dict(self) -> dict:
        return {
            "n": self.n,
            "even_start": self.even_start,
            "first": self.first,
            "said": list(self.said),
            "current": self.current,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "FactorMultipleState":
        return cls(data["n"], data["even_start"], data["first"], tuple(data["said"]))


def divisibility_neighbours(k: int, n: int) -> list[int]:
    """Every number in 1..n other than k that divides k or that k divides, in increasing order."""
    return list(_neighbours(k, n))


def _neighbours(k: int, n: int) -> Iterable[int]:
    """`divisibility_neighbours`, the multiples made only as they are read (whether any is still
    free is asked of every state, and it is nearly always one of the first)."""
    if k == 1:
        return range(2, n + 1)
    small = [d for d in range(1, math.isqrt(k) + 1) if k % d == 0]  # each pairs with k // d
    large = [k // d for d in reversed(small) if d * d != k and d != 1]
    return itertools.chain(small, large, range(2 * k, n + 1, k))
