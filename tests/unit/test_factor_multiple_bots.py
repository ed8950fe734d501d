"""Factor/Multiple bots: legal moves always; the perfect bot takes every win the solver sees."""

import random

import pytest

import api.bots.factor_multiple  # noqa: F401  (registers the levels)
from api.bots.base import ANALYSERS, choose_move, levels
from api.bots.fm_solver import Position, analyse
from api.bots.match import match
from api.games.factor_multiple import FactorMultiple

SLUG = "factor-multiple"


def start(n, even_start=True, first=0):
    options = FactorMultiple.check_options({"n": n, "even_start": even_start})
    return FactorMultiple.new(options, first=first, seed=0)


def test_the_three_levels_and_the_analysis_are_registered():
    assert set(levels(SLUG)) == {"random", "greedy", "perfect"}
    opening = start(n=100)
    judged = ANALYSERS[SLUG].analyse(opening, random.Random(0), 0.1)
    assert judged["exact"] is True and judged["value"] == 1  # even start: first player wins
    assert {k: judged[k] for k in ("to_move_wins", "moves")} == analyse(opening)
    assert next(m for m in judged["moves"] if m["move"] == judged["best"])["wins"]
    assert ANALYSERS[SLUG].quick(start(n=100)) and not ANALYSERS[SLUG].quick(start(n=1000))


@pytest.mark.parametrize("level", ["random", "greedy", "perfect"])
@pytest.mark.parametrize("seed", range(8))
def test_bots_only_play_legal_numbers(level, seed):
    rng = random.Random(seed)
    state = start(n=rng.choice([10, 37, 100]), even_start=seed % 2 == 0)
    while not state.is_over():
        move = choose_move(state, level, rng, budget_s=0.2)
        assert move.number in state.legal_numbers()
        state = state.apply(move)


@pytest.mark.parametrize("seed", range(10))
def test_perfect_bot_plays_a_winning_number_whenever_one_exists(seed):
    rng = random.Random(seed)
    state = start(n=rng.randint(10, 60), even_start=rng.random() < 0.5)
    while not state.is_over():
        verdict = analyse(state)
        move = choose_move(state, "perfect" if state.to_move == 0 else "random", rng, 0.2)
        if state.to_move == 0 and verdict["to_move_wins"]:
            assert {"number": move.number, "wins": True, "move": move.to_dict()} in verdict["moves"]
        state = state.apply(move)


def test_perfect_bot_when_lost_leaves_the_fewest_winning_replies():
    lost = start(n=32)  # every even opening loses at n = 32
    position = Position(lost)
    assert not position.winning()
    move = choose_move(lost, "perfect", random.Random(0), budget_s=1.0)
    fewest = min(position.opponent_replies(k)[1] for k in position.moves)
    assert position.opponent_replies(move.number)[1] == fewest


def test_perfect_bot_never_loses_a_won_opening_to_random_or_greedy():
    # n = 100 with even start is a first-player win: the perfect bot wins every game it opens
    for opponent in ("random", "greedy"):
        for seed in range(4):
            result = match(SLUG, {"n": 100}, "perfect", opponent, games=1, seed=seed, budget_s=0.2)
            assert result["perfect"] == 1
