"""Ploid bots: every level plays only legal moves; perfect never does worse than the solver says."""
from __future__ import annotations

import random

import pytest

import api.bots.ploid as ploid_bots
from api.bots.base import accepts_draw, choose_move, levels, unavailable
from api.bots.match import play_game
from api.bots.search import step
from api.bots.ploid_solver import Solver, place_move
from api.games.ploid import Place, Ploid, PloidState

LEVELS = ("beginner", "medium", "advanced", "perfect")


def start(n: int, first: int = 0) -> PloidState:
    return Ploid.new(Ploid.check_options({"n": n}), first=first, seed=0)


def test_all_four_levels_are_registered():
    assert set(levels("ploid")) == set(LEVELS)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_to_the_end(level):
    rng = random.Random(7)
    for n in ((2, 3) if level == "perfect" else (2, 4)):
        state = start(n)
        while not state.is_over():
            mover = state.to_move
            move = (choose_move(state, level, rng, 0.05) if mover == 0
                    else rng.choice(state.legal_moves()))
            assert move in state.legal_moves()
            state = step(state, move)


def test_perfect_never_loses_on_n2():
    # The solver proves n = 2 a draw, so perfect play keeps at least a draw from either seat.
    for seed in range(8):
        for levels_ in (("perfect", "beginner"), ("beginner", "perfect")):
            record = play_game("ploid", {"n": 2}, levels_, seed, first=seed % 2, budget_s=0.05)
            perfect_seat = levels_.index("perfect")
            assert record.outcome.winner in (None, perfect_seat)


@pytest.mark.parametrize("seed", range(6))
def test_perfect_never_loses_on_n3_whatever_the_budget(seed):
    # n = 3 is a proved draw; a tiny budget must not make perfect guess (its openings are booked)
    rival = ("beginner", "medium", "advanced")[seed % 3]
    levels_ = ("perfect", rival) if seed % 2 == 0 else (rival, "perfect")
    record = play_game("ploid", {"n": 3}, levels_, seed, first=(seed // 2) % 2, budget_s=0.01)
    assert record.outcome.winner in (None, levels_.index("perfect"))


def test_perfect_is_offered_only_on_solved_boards():
    assert unavailable("ploid", "perfect", {"n": 3}) is None
    assert "n = 3" in unavailable("ploid", "perfect", {"n": ploid_bots.PERFECT_MAX_N + 1})
    assert unavailable("ploid", "advanced", {"n": 8}) is None


def test_perfect_accepts_a_draw_only_where_the_solver_proves_one():
    empty = start(3)
    assert accepts_draw(empty, "perfect")  # n = 3 is a draw from the start
    assert not accepts_draw(empty, "advanced")  # every other bot declines
    values = set()
    for placement in empty.legal_placements():  # Black to move after each White opening
        child = empty.apply(place_move(empty, *placement))
        value = ploid_bots.proven_value(child)
        values.add(value)
        assert accepts_draw(child, "perfect") is (value == 0)
    assert 0 in values and values - {0}  # some openings lose: no draw is accepted there
    later = step(step(step(step(empty, Place(1, 1, 3)), Place(0, 0, 2)), Place(2, 3, 1)),
                 Place(2, 0, 3))  # past the book: a fresh solve decides
    assert ploid_bots.proven_value(later) == Solver(3).value(later)
    assert accepts_draw(later, "perfect") is (Solver(3).value(later) == 0)
