"""Nim, the test suite's sixth game: heaps of objects; a turn takes any positive number of
objects from one heap; whoever takes the last object wins (normal play).

A game module like api/games/'s, registered (`@register`) when it is imported; only the `nim`
fixture (tests/conftest.py) imports it, and takes it out of the registry again after its test,
so that production and the rest of the suite never see it (docs/adding-a-game.md).
"""

from __future__ import annotations

import dataclasses
import random

from api.games.base import (
    Field,
    Game,
    IllegalMove,
    ListOf,
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

MAX_HEAPS, MAX_SIZE = 6, 9


@dataclasses.dataclass(frozen=True)
class Take(Move):
    """Take `count` objects from heap `heap` (counted from 0)."""

    move_type = "take"
    heap: int = wire(Whole(0, MAX_HEAPS - 1))
    count: int = wire(Whole(1, MAX_SIZE))

    def words(self, before) -> str:
        return f"takes {self.count} from heap {self.heap}"


@register
class Nim(Game):
    slug = "nim"
    title = "Nim"
    summary = "Take any number of objects from one heap; whoever takes the last object wins."
    reasons = (Reason.NO_MOVES,)
    options = (
        Option("heaps", "int", 3, "How many heaps.", min=1, max=MAX_HEAPS),
        Option(
            "size",
            "int",
            5,
            "The largest heap's most objects; each heap is dealt 1 to this many.",
            min=1,
            max=MAX_SIZE,
        ),
    )
    moves = (Take,)

    @classmethod
    def new(cls, options: dict, first: int, seed: int) -> "NimState":
        rng = random.Random(seed)
        return NimState(
            tuple(rng.randint(1, options["size"]) for _ in range(options["heaps"])), first
        )


@dataclasses.dataclass(frozen=True, eq=False)
class NimState(State):
    heaps: tuple[int, ...]
    mover: int  # whose turn it is, whether or not a move is left

    game = Nim
    shape = Shape(
        "NimState", (Field("heaps", ListOf(Whole(0, MAX_SIZE))), Field("mover", Whole(0, 1)))
    )
    facts_shape = Shape("NimFacts", (Field("left", Whole(0), "Objects left on all the heaps."),))

    @property
    def to_move(self) -> int | None:
        return None if self.is_over() else self.mover

    def legal_moves(self) -> list[Move]:
        return [Take(h, k) for h, size in enumerate(self.heaps) for k in range(1, size + 1)]

    def apply(self, move: Move) -> "NimState":
        if not isinstance(move, Take):
            raise IllegalMove("In Nim the only move is to take objects from a heap.")
        if self.is_over():
            raise IllegalMove("The game is over.")
        if move.heap >= len(self.heaps):
            raise IllegalMove(f"There is no heap {move.heap}.")
        if move.count > self.heaps[move.heap]:
            raise IllegalMove(f"Heap {move.heap} holds only {self.heaps[move.heap]}.")
        heaps = list(self.heaps)
        heaps[move.heap] -= move.count
        return NimState(tuple(heaps), 1 - self.mover)

    def outcome(self) -> Outcome | None:
        # the seat that took the last object wins: the one that moved before the mover
        return Outcome(1 - self.mover, Reason.NO_MOVES) if not any(self.heaps) else None

    def to_dict(self) -> dict:
        return {"heaps": list(self.heaps), "mover": self.mover}

    @classmethod
    def from_dict(cls, data: dict) -> "NimState":
        return cls(tuple(data["heaps"]), data["mover"])

    def facts(self) -> dict:
        return {"left": sum(self.heaps)}
