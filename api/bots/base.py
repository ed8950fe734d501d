"""The bot registry: a bot is a pure function of a state, a random source and a time budget.

Each game's bot module registers its levels with `@bot(slug, level, line)`; `choose_move` is the
one entry point the worker and the playtests use.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Callable

from api.games.base import Move, State

BotFn = Callable[[State, random.Random, float], Move]


@dataclasses.dataclass(frozen=True)
class BotLevel:
    level: str
    line: str
    choose: BotFn


BOTS: dict[str, dict[str, BotLevel]] = {}

DEFAULT_BUDGET_S = 1.0


def bot(slug: str, level: str, line: str) -> Callable[[BotFn], BotFn]:
    """Register `fn(state, rng, budget_s) -> Move` as the `level` bot of game `slug`."""

    def register(fn: BotFn) -> BotFn:
        levels = BOTS.setdefault(slug, {})
        if level in levels:
            raise ValueError(f"bot {slug}/{level} is already registered")
        levels[level] = BotLevel(level, line, fn)
        return fn

    return register


@dataclasses.dataclass(frozen=True)
class Analyser:
    """Perfect-play verdicts for a game's positions: `analyse(state)` gives
    `{"to_move_wins": bool, "moves": [{"move": {...}, "wins": bool}, ...]}`; `quick(state)` says
    whether that is cheap enough (well under 100 ms) to compute inside a web request."""

    analyse: Callable[[State], dict]
    quick: Callable[[State], bool]


ANALYSERS: dict[str, Analyser] = {}


def analyser(slug: str, quick: Callable[[State], bool]):
    """Register `fn(state) -> dict` as game `slug`'s perfect-play analysis."""

    def register(fn: Callable[[State], dict]) -> Callable[[State], dict]:
        if slug in ANALYSERS:
            raise ValueError(f"an analyser for {slug!r} is already registered")
        ANALYSERS[slug] = Analyser(fn, quick)
        return fn

    return register


# per game, `proves_drawn(state, budget_s)`: whether its solver proves the position a draw with
# perfect play within the budget (False when it cannot tell); only games that can be drawn have one
DRAW_PROOFS: dict[str, Callable[[State, float], bool]] = {}
PERFECT = "perfect"  # the level that never loses a position its game's solver proves


def draw_proof(slug: str):
    """Register `fn(state, budget_s) -> bool` as game `slug`'s proof that a position is drawn."""

    def register(fn: Callable[[State, float], bool]) -> Callable[[State, float], bool]:
        if slug in DRAW_PROOFS:
            raise ValueError(f"a draw proof for {slug!r} is already registered")
        DRAW_PROOFS[slug] = fn
        return fn

    return register


def accepts_draw(state: State, level: str, budget_s: float = DEFAULT_BUDGET_S) -> bool:
    """Whether the `level` bot accepts a draw offered in `state`: bots decline, except the
    perfect one in a position its game's solver proves drawn (RULES.md, "Draw by agreement")."""
    proof = DRAW_PROOFS.get(state.game.slug)
    return level == PERFECT and proof is not None and proof(state, budget_s)


def levels(slug: str) -> dict[str, BotLevel]:
    return BOTS.get(slug, {})


def choose_move(state: State, level: str, rng: random.Random,
                budget_s: float = DEFAULT_BUDGET_S) -> Move:
    """The move the `level` bot plays in `state` (the seat to move must have a legal move)."""
    return BOTS[state.game.slug][level].choose(state, rng, budget_s)
