"""Ploid bots: every level plays only legal moves; perfect never does worse than the solver says."""
from __future__ import annotations

import random

import pytest

import api.bots.ploid as ploid_bots
from api.bots.base import choose_move, levels
from api.bots.match import play_game
from api.bots.search import step
from api.games.ploid import Place, Ploid, PloidState

LEVELS = ("beginner", "medium", "advanced", "perfect")


def start(n: int, first: int = 0) -> PloidState:
    return Ploid.new(Ploid.check_options({"n": n}), first=first, seed=0)


def test_all_four_levels_are_registered():
    assert set(levels("ploid")) == set(LEVELS)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_to_the_end(level):
    rng = random.Random(7)
    for n in (2, 4):
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


def test_perfect_falls_back_to_advanced_beyond_its_boards():
    state = start(ploid_bots.PERFECT_MAX_N + 1)
    move = choose_move(state, "perfect", random.Random(1), 0.05)
    assert isinstance(move, Place) and move in state.legal_moves()


def test_advanced_takes_the_winning_endgame_move():
    # Seed example after White's pass: Black's only placement wins 13 to 12.
    board = (4, 99, -99, -99, -5, -99,
             99, 0, 99, 3, 99, 0,
             -99, -99, 0, 0, -1, 99,
             -4, 0, -99, 2, 0, 5,
             -99, 1, -2, 99, -3, 99)
    state = PloidState(5, board, 1, None)
    assert choose_move(state, "advanced", random.Random(0), 0.2) == Place(1, 5, "blank")


@pytest.mark.parametrize("level", ["medium", "advanced"])
def test_number_is_not_wasted_beside_a_bigger_one(level):
    # Putting White's 2 beside its 3 would leave the pair room for nothing more.
    state = PloidState(3, (3,) + (0,) * 10 + (-1,), 0, 1)
    for seed in range(5):
        move = choose_move(state, level, random.Random(seed), 0.2)
        assert (move.row, move.col) not in ((0, 1), (1, 0))
