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


def levels(slug: str) -> dict[str, BotLevel]:
    return BOTS.get(slug, {})


def choose_move(state: State, level: str, rng: random.Random,
                budget_s: float = DEFAULT_BUDGET_S) -> Move:
    """The move the `level` bot plays in `state` (the seat to move must have a legal move)."""
    return BOTS[state.game.slug][level].choose(state, rng, budget_s)
