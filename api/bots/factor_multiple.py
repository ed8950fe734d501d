"""Factor/Multiple bots: random, greedy (leave the opponent the fewest replies), and perfect."""

from __future__ import annotations

import random

from api.bots import clock
from api.bots.base import analyser, bot
from api.bots.fm_solver import Position, analyse
from api.games.factor_multiple import FactorMultipleState, Say

SLUG = "factor-multiple"
# Up to this n every position measured analyses in about 10 ms (n = 1000: 35 ms mean, 200 ms
# worst, so larger boards go to the worker); tests/benchmarks/bench_fm_solver.py has the figures.
QUICK_ANALYSIS_N = 200


@analyser(SLUG, quick=lambda state: state.n <= QUICK_ANALYSIS_N)
def analysis(state: FactorMultipleState, rng: random.Random, budget_s: float) -> dict:
    """The solver's verdicts (exact at any n): every move's, and a winning one as the best."""
    verdicts = analyse(state)
    best = next((m for m in verdicts["moves"] if m["wins"]), verdicts["moves"][0])
    return {
        "exact": True,
        "value": 1 if verdicts["to_move_wins"] else -1,
        "best": best["move"],
        **verdicts,
    }


@bot(SLUG, "random", "Says any legal number.")
def random_bot(state: FactorMultipleState, rng: random.Random, budget_s: float) -> Say:
    return Say(rng.choice(state.legal_numbers()))


@bot(SLUG, "greedy", "Says the number that leaves you the fewest replies.")
def greedy_bot(state: FactorMultipleState, rng: random.Random, budget_s: float) -> Say:
    def replies(k: int) -> int:
        return len(state.apply(Say(k)).legal_numbers())

    return Say(_fewest(state.legal_numbers(), replies, rng))


@bot(SLUG, "perfect", "Never misses a win; when lost, leaves you the fewest ways to win.")
def perfect_bot(state: FactorMultipleState, rng: random.Random, budget_s: float) -> Say:
    """Solved by maximum matching (see fm_solver). When it can win, it plays a winning number that
    leaves the fewest replies, so the win comes soon. When every number loses against perfect play,
    length is beside the point (and finding the longest line needs the game-tree search the
    matching avoids); what counts against a real opponent is the chance of a slip. So it plays the
    number after which the fewest replies win, then the one with the most replies in all (the
    "find the only move" test); in bot matches this beat both a random losing move and the
    smallest share of winning replies. It scores as many numbers as the time budget allows."""
    position = Position(state)
    winning = position.winning()
    if winning:
        return Say(_fewest(winning, position.reply_count, rng))
    deadline = clock.now() + 0.8 * budget_s
    hardness: dict[int, tuple[int, int]] = {}
    for k in position.moves:
        replies, winning_replies = position.opponent_replies(k)
        hardness[k] = (winning_replies, -replies)
        if clock.now() > deadline:
            break
    return Say(_fewest(list(hardness), hardness.__getitem__, rng))


def _fewest(numbers: list[int], key, rng: random.Random) -> int:
    """One of the numbers with the smallest key, chosen at random among ties."""
    best = min(key(k) for k in numbers)
    return rng.choice([k for k in numbers if key(k) == best])
