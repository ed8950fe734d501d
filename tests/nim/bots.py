"""Nim's bot and analysis: a bot module like api/bots/'s, registered when it is imported (only
the `nim` fixture in tests/conftest.py imports it)."""

from __future__ import annotations

import functools
import operator
import random

from api.bots.base import analyser, bot
from tests.nim.game import NimState, Take

SLUG = "nim"


@bot(SLUG, "random", "Takes any number of objects from any heap.")
def random_bot(state: NimState, rng: random.Random, budget_s: float) -> Take:
    return rng.choice(state.legal_moves())


@analyser(SLUG, quick=lambda state: True)
def analysis(state: NimState, rng: random.Random, budget_s: float) -> dict:
    """Exact (Bouton): the mover wins when the heaps' XOR is not 0, by leaving it 0."""
    total = functools.reduce(operator.xor, state.heaps)
    winning = [
        Take(h, size - (size ^ total)) for h, size in enumerate(state.heaps) if size ^ total < size
    ]
    best = winning[0] if winning else state.legal_moves()[0]
    return {"exact": True, "value": 1 if winning else -1, "best": best.to_dict()}
