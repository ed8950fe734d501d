"""Prime Drop bots: legal moves only, and each level's stated habits from small positions."""

import random

import pytest

import api.bots.prime_drop as bots
from api.bots.base import choose_move, levels
from api.bots.search import step
from api.games.prime_drop import (
    DEFAULT_TILES,
    Challenge,
    DoubleDown,
    Drop,
    PrimeDrop,
    PrimeDropState,
    challengeable,
    runs_through,
)

PILE = tuple(DEFAULT_TILES[d] for d in "0123456789")


def position(rows: list[str], piles=None, mover: int = 0) -> PrimeDropState:
    size = 9
    lines = [r.ljust(size, ".") for r in rows] + ["." * size] * (size - len(rows))
    return PrimeDropState(size, "".join(lines), piles or (PILE, PILE), mover, 0, None)


def laid_cells(move) -> list[Drop]:
    return [move] if isinstance(move, Drop) else [move.first, move.second]


def test_three_levels_are_registered():
    assert set(levels("prime-drop")) == {"beginner", "medium", "advanced"}


@pytest.mark.parametrize(
    "pair", [("beginner", "medium"), ("medium", "advanced"), ("advanced", "beginner")]
)
def test_bots_only_play_legal_moves(pair):
    rng = random.Random(7)
    state = PrimeDrop.new(PrimeDrop.check_options({"size": 9}), first=0, seed=7)
    for _ in range(80):
        if state.is_over():
            break
        move = choose_move(state, pair[state.to_move], rng, 0.02)
        state = step(state, move)  # raises IllegalMove on an illegal move
    assert state.turn > 0


def test_beginner_challenges_numbers_divisible_by_2_3_or_5():
    move = bots.beginner(position(["15"]), random.Random(1), 0.1)
    assert isinstance(move, Challenge) and move.factor in (3, 5)
    assert position(["15"]).apply(move).last_challenge["success"]


def test_beginner_does_not_see_larger_factors():
    move = bots.beginner(position(["91"]), random.Random(1), 0.1)  # 91 = 7 x 13, 19 prime
    assert isinstance(move, Drop)


def test_medium_challenges_the_composite_worth_most_tiles():
    state = position(["143", "", "", "......9"])  # 143 = 11 x 13 and a lone 9
    move = bots.medium(state, random.Random(1), 0.1)
    assert isinstance(move, Challenge) and {move.frm, move.to} == {(0, 0), (0, 2)}
    assert state.apply(move).last_challenge["success"]


@pytest.mark.parametrize("level", ["medium", "advanced"])
def test_lays_leave_no_composite_through_the_new_tiles(level):
    state = position(["13", "", "....7"])
    move = choose_move(state, level, random.Random(3), 0.1)
    assert isinstance(move, (Drop, DoubleDown))
    after = state.apply(move)
    for tile in laid_cells(move):
        runs = runs_through(after.board, after.size, tile.row * after.size + tile.col)
        assert not any(challengeable(run) for run in runs)


@pytest.mark.parametrize("level", ["medium", "advanced"])
def test_lays_the_last_two_tiles_to_win(level):
    two = (0, 0, 0, 0, 1, 0, 1, 0, 0, 0)  # a 4 and a 6: unsafe, but laying them wins
    state = position(["1"], piles=(two, PILE))
    move = choose_move(state, level, random.Random(1), 0.1)
    assert state.apply(move).outcome().winner == 0


@pytest.mark.parametrize("level", ["medium", "advanced"])
def test_challenges_when_the_opponent_is_about_to_go_out(level):
    one = (0, 1) + (0,) * 8
    state = position(["", "", "....9"], piles=(PILE, one))
    move = choose_move(state, level, random.Random(1), 0.1)
    assert isinstance(move, Challenge) and state.apply(move).last_challenge["success"]


def test_advanced_gives_away_a_long_composite_rather_than_laying():
    state = position(["1", "", "", "", "....1243"])  # 1243 = 11 x 113; 3421 = 11 x 311
    move = bots.advanced(state, random.Random(2), 0.2)
    assert isinstance(move, Challenge) and state.apply(move).tiles_left == (37, 41)


def test_advanced_lays_awkward_digits_while_it_safely_can():
    state = position(["1", "", "....3", "", "", "......7"])
    move = bots.advanced(state, random.Random(4), 0.2)
    assert any(t.digit in (0, 4, 6, 8) for t in laid_cells(move))
