"""Factor Bingo bots: legal moves only, the tactics each level promises, and an exact endgame."""

import functools
import random

import api.bots.factor_bingo as bots
from api.bots.base import choose_move, levels
from api.games.factor_bingo import LETTERS, NUMBERS, Call, FactorBingo, Fill, Start


def filled(starter=0):
    """Letter k filled with the k-th divisor of 720 (see test_factor_bingo.py)."""
    state = FactorBingo.new({"layout": "default"}, starter, 0)
    for letter, number in zip(LETTERS, NUMBERS):
        state = state.apply(Fill(letter, number))
    return state


def calling(numbers, starter=0):
    state = filled(starter).apply(Start(720))
    for n in numbers:
        state = state.apply(Call(n))
    return state


def test_three_levels_are_registered():
    assert set(levels("factor-bingo")) == {"beginner", "medium", "advanced"}


def test_every_level_plays_only_legal_moves_to_the_end():
    for seed, seats in enumerate(
        [("beginner", "medium"), ("medium", "advanced"), ("advanced", "beginner")]
    ):
        rng = random.Random(seed)
        state = FactorBingo.new({"layout": "random"}, seed % 2, seed)
        while not state.is_over():
            move = choose_move(state, seats[state.to_move], rng, budget_s=0.01)
            assert move in state.legal_moves()
            state = state.apply(move)
        assert state.outcome().reason == "bingo"


def test_medium_and_advanced_call_a_winning_number():
    # Seat 0 to move from 5: calling 1 finishes its top row 1 2 3 4 5.
    state = calling([60, 4, 2, 12, 3, 15, 5])
    assert state.to_move == 0
    for level in ("medium", "advanced"):
        assert choose_move(state, level, random.Random(0), budget_s=0.05) == Call(1)


def test_medium_never_calls_a_losing_number_while_a_safe_one_exists():
    # Seat 1 to move from 5: calling 1 would finish seat 0's top row.
    state = calling([4, 2, 12, 3, 15, 5])
    assert state.to_move == 1
    for seed in range(20):
        assert bots.medium(state, random.Random(seed), 0) != Call(1)


def test_medium_fills_far_reaching_numbers_on_its_own_lines():
    # For seat 0, C sits on two left lines and on two right ones, while A (corner of the left
    # board's diagonal, edge of the right board's bottom row) is on three of its own lines against
    # two; 1 and 720 reach every other number.
    move = bots.medium(FactorBingo.new({"layout": "default"}, 0, 0), random.Random(0), 0)
    assert move.number in (1, 720)
    assert _lines_for(0, move.letter) > _lines_for(1, move.letter)


def test_the_exact_solve_agrees_with_plain_minimax():
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = FactorBingo.new({"layout": "random"}, seed % 2, seed)
        while not state.is_over() and (state.phase != "calling" or len(_uncalled(state)) > 11):
            state = state.apply(bots.medium(state, rng, 0))
        if state.is_over():
            continue
        card, used, current = bots._position(state)
        choice = Call(NUMBERS[card.solve(used, current, state.mover, rng)])
        if _mover_wins(state):
            after = state.apply(choice)
            assert (
                after.is_over()
                and after.outcome().winner == state.mover
                or (not after.is_over() and not _mover_wins(after))
            )
            checked += 1
        assert choose_move(state, "advanced", rng, budget_s=0.01) in state.legal_moves()
    assert checked >= 3


def test_the_length_of_a_win_agrees_with_plain_minimax():
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = FactorBingo.new({"layout": "random"}, seed % 2, seed)
        while not state.is_over() and (state.phase != "calling" or len(_uncalled(state)) > 11):
            state = state.apply(bots.medium(state, rng, 0))
        if state.is_over():
            continue
        card, used, current = bots._position(state)
        calls = card.calls_to_win(used, current, state.mover)
        if not _mover_wins(state):
            assert calls is None
            continue
        assert _wins_within(state, calls) and not _wins_within(state, calls - 1), seed
        checked += 1
    assert checked >= 3


@functools.lru_cache(maxsize=None)
def _wins_within(state, calls):
    """Plain minimax over engine states: the mover wins with at most `calls` calls of its own."""
    if calls < 1:
        return False
    for move in state.legal_moves():
        after = state.apply(move)
        if after.is_over():
            if after.outcome().winner == state.mover:
                return True
            continue
        if all(
            (reply := after.apply(answer)).is_over()
            and reply.outcome().winner == state.mover
            or not reply.is_over()
            and _wins_within(reply, calls - 1)
            for answer in after.legal_moves()
        ):
            return True
    return False


def _uncalled(state):
    return [n for n in NUMBERS if n != state.start and n not in state.called]


@functools.lru_cache(maxsize=None)
def _mover_wins(state):
    """Plain minimax over engine states."""
    for move in state.legal_moves():
        after = state.apply(move)
        if after.is_over():
            if after.outcome().winner == state.mover:
                return True
        elif not _mover_wins(after):
            return True
    return False


def _lines_for(seat, letter):
    return bots._lines_at(FactorBingo.new({"layout": "default"}, 0, 0).letters[seat], letter)
