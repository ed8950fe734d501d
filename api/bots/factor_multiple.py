"""Factor/Multiple bots: random, and greedy (leave the opponent the fewest replies)."""
from __future__ import annotations

import random

from api.bots.base import bot
from api.games.factor_multiple import FactorMultipleState, Say

SLUG = "factor-multiple"


@bot(SLUG, "random", "Says any legal number.")
def random_bot(state: FactorMultipleState, rng: random.Random, budget_s: float) -> Say:
    return Say(rng.choice(state.legal_numbers()))


@bot(SLUG, "greedy", "Says the number that leaves you the fewest replies.")
def greedy_bot(state: FactorMultipleState, rng: random.Random, budget_s: float) -> Say:
    def replies(k: int) -> int:
        return len(state.apply(Say(k)).legal_numbers())

    options = state.legal_numbers()
    fewest = min(replies(k) for k in options)
    return Say(rng.choice([k for k in options if replies(k) == fewest]))
