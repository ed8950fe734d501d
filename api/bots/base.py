"""The bot registry: a bot is a pure function of a state, a random source and a time budget.

Each game's bot module registers its levels with `@bot(slug, level, line)`; `choose_move` is the
one entry point the worker and the playtests use.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any, Callable, TypeVar

from api.games.base import Move, State

# A registry holds every game's bots, so a bot's state parameter is typed `Any`: each bot takes
# its own game's state class, which a Callable over the base `State` would refuse.
BotFn = Callable[[Any, random.Random, float], Move]
Fn = TypeVar("Fn", bound=Callable[..., Any])
# why a bot cannot play a game with these (checked) options, or None where it can
OfferedFn = Callable[[dict], str | None]


@dataclasses.dataclass(frozen=True)
class BotLevel:
    level: str
    line: str
    choose: BotFn
    offered: OfferedFn | None = None  # None: every game of its kind
    # whether it accepts a draw offer in a position: a perfect bot, where its solver proves the
    # position drawn (RULES.md, "Draw by agreement"); None: it declines every offer
    draw_judge: Callable[[Any], bool] | None = None


BOTS: dict[str, dict[str, BotLevel]] = {}

DEFAULT_BUDGET_S = 1.0


def bot(
    slug: str,
    level: str,
    line: str,
    offered: OfferedFn | None = None,
    draw_judge: Callable[[Any], bool] | None = None,
) -> Callable[[Fn], Fn]:
    """Register `fn(state, rng, budget_s) -> Move` as the `level` bot of game `slug`; `offered`
    says which games it may play (default all), `draw_judge` which draw offers it accepts
    (default none)."""

    def register(fn: Fn) -> Fn:
        levels = BOTS.setdefault(slug, {})
        if level in levels:
            raise ValueError(f"bot {slug}/{level} is already registered")
        levels[level] = BotLevel(level, line, fn, offered, draw_judge)
        return fn

    return register


@dataclasses.dataclass(frozen=True)
class Analyser:
    """A game's analysis of a position that is not over and has no forced move:
    `analyse(state, rng, budget_s)` gives at least `{"exact": bool, "value": -1..1, "best":
    move}`: the value for the seat to move (1 a win, -1 a loss) and its best move, exact where
    the game's solver decides the position, else the strongest bot's estimate within
    `budget_s`; a solver adds its details (Factor/Multiple: every move's verdict). `quick(state)`
    says whether it is cheap enough (well under 100 ms) to compute inside a web request."""

    analyse: Callable[[Any, random.Random, float], dict]
    quick: Callable[[Any], bool]


ANALYSERS: dict[str, Analyser] = {}


def analyser(slug: str, quick: Callable[[Any], bool] = lambda state: False):
    """Register `fn(state, rng, budget_s) -> dict` as game `slug`'s analysis (see Analyser)."""

    def register(fn: Fn) -> Fn:
        if slug in ANALYSERS:
            raise ValueError(f"an analyser for {slug!r} is already registered")
        ANALYSERS[slug] = Analyser(fn, quick)
        return fn

    return register


def bot_with_estimate(slug: str, level: str, line: str, scale: float):
    """Register a search `fn(state, rng, budget_s) -> (move, score)` twice: as the `level` bot,
    which plays its move, and as the game's analyser, whose estimate is that score (`scale` of
    it a clear lead). Returns the bot's function."""

    def register(fn: Callable[[Any, random.Random, float], tuple[Move, float]]) -> BotFn:
        def play(state: Any, rng: random.Random, budget_s: float) -> Move:
            return fn(state, rng, budget_s)[0]

        def judge(state: Any, rng: random.Random, budget_s: float) -> dict:
            move, score = fn(state, rng, budget_s)
            return estimate(score, scale, move)

        bot(slug, level, line)(play)
        analyser(slug)(judge)
        return play

    return register


def estimate(score: float, scale: float, best: Move) -> dict:
    """A bot's judgement as an analysis: `score` in the bot's own units (`scale` of them read as
    a clear lead, about 0.76) squashed onto -1..1, and its best move."""
    return {"exact": False, "value": round(math.tanh(score / scale), 3), "best": best.to_dict()}


def levels(slug: str) -> dict[str, BotLevel]:
    return BOTS.get(slug, {})


def unavailable(slug: str, level: str, options: dict) -> str | None:
    """Why the `level` bot cannot take a seat in a game of `slug` with these checked options (a
    sentence a player reads), or None when it can."""
    known = levels(slug)
    if level not in known:
        return f"There is no bot {level!r}; the bots are {', '.join(known) or 'none yet'}."
    offered = known[level].offered
    return None if offered is None else offered(options)


def accepts_draw(state: State, level: str) -> bool:
    """Whether the `level` bot, asked in `state`, accepts a draw offer: only a perfect bot in a
    position its solver proves drawn; every other bot declines."""
    judge = BOTS[state.game.slug][level].draw_judge
    return judge is not None and not state.is_over() and judge(state)


def choose_move(
    state: State, level: str, rng: random.Random, budget_s: float = DEFAULT_BUDGET_S
) -> Move:
    """The move the `level` bot plays in `state` (the seat to move must have a legal move)."""
    return BOTS[state.game.slug][level].choose(state, rng, budget_s)
