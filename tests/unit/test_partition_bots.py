"""Partition bots: each level's characteristic choice from a small explicit position, and legal
moves throughout a game."""

from __future__ import annotations

import itertools
import random

import pytest

import api.bots.partition as bots
from api.bots.base import ANALYSERS, levels
from api.bots.match import play_game
from api.games.partition import Claim, Partition, Stick
from tests.unit.test_partition import around, position
from tests.unit.test_partition_native import endgames

# hexes 0, 1, 2 (red, orange, yellow in the column layout) with sticks on three of their six
# boundary edges: three more sticks, (1, 7), (2, 7) and (2, 8), close them
POCKET_SIDES = [(1, 7), (2, 7), (2, 8)]
HALF_POCKET = [(0, 6), (1, 6), (2, 3)]


def test_three_levels_are_registered():
    assert set(levels("partition")) == {"beginner", "medium", "advanced"}


def test_beginner_takes_a_closing_point_in_reach():
    state = position(around(0, 1, 2)[:-1], open_at=3)
    move = bots.beginner(state, random.Random(0), 0.1)
    assert move == Stick(around(0, 1, 2)[-1])


def test_medium_claims_a_colour_that_wins_a_closed_region():
    # closed {0, 1, 6}: red, orange, red; claiming red from one red disc leaves the other
    state = position(around(0, 1, 6), open_at=3)
    move = bots.medium(state, random.Random(0), 0.1)
    assert move in (Claim(0), Claim(6))


def test_medium_does_not_bring_a_colourful_piece_within_the_opponents_reach():
    # four sticks still close {0, 1, 2}; with one action left, any of them would hand the
    # opponent a closing point next turn
    state = position([(0, 6), (1, 6)], open_at=0, actions_left=1)
    for seed in range(5):
        move = bots.medium(state, random.Random(seed), 0.1)
        assert move.edge not in [(1, 7), (2, 7), (2, 8), (2, 3)]


def test_pocket_gain_counts_a_double_dip_for_the_owner_of_its_colours():
    state = position(HALF_POCKET, open_at=0, claimed=((0,), ()))  # seat 0 owns red
    owned = [bots.owned_mask(state, bots.discs_by_colour(state), seat) for seat in (0, 1)]
    assert bots.pocket_gain(state, owned, 0, 3) == 2  # the closing point, and red leads there
    assert bots.pocket_gain(state, owned, 1, 3) == 0  # seat 1 would score 1 and lose 1
    assert bots.pocket_gain(state, owned, 0, 2) == 0  # three sticks are needed


def test_advanced_plans_a_three_stick_double_dip_closure():
    state = position(HALF_POCKET, open_at=0, claimed=((0,), ()))
    rng = random.Random(0)
    for _ in range(3):
        move = bots.advanced(state, rng, 5.0)
        assert move.edge in POCKET_SIDES
        state = state.apply(move)
    assert state.closed_regions()[0] == [0, 1, 2] and state.points == (1, 0)
    assert state.region_owner(state.closed[0]) == 0


@pytest.mark.parametrize("level", ["beginner", "medium", "advanced"])
def test_every_level_plays_only_legal_moves_from_random_positions(level):
    rng = random.Random(3)
    for seed in range(4):
        state = Partition.new(Partition.check_options({}), first=0, seed=seed)
        for _ in range(10 + 15 * seed):
            state = state.apply(rng.choice(state.legal_moves()))
        if not state.is_over():
            assert levels("partition")[level].choose(state, rng, 0.05) in state.legal_moves()


def test_a_game_between_bots_ends_with_a_score():
    record = play_game("partition", {}, ("beginner", "medium"), seed=1, budget_s=0.05)
    assert record.outcome.reason == "score" and record.plies > 20


def _minimax(state, me):
    """Plain minimax over every legal action to the end: `evaluate`'s exact value for `me`."""
    if state.is_over():
        return bots.evaluate(state, me)
    values = [_minimax(state.apply(m), me) for m in state.legal_moves()]
    return max(values) if state.turn == me else min(values)


def _outcome(value):
    return (value > 0) - (value < 0)


def _six_open(**changes):
    """Six open hexes (0-2, 6-8), the other thirty one closed region; claims and subdivisions
    spent, so every action is a stick and the search prunes nothing."""
    return position(
        around(0, 1, 2, 6, 7, 8),
        open_at=0,
        claimed=((0, 1), (2, 3)),
        subdivisions_left=(0, 0),
        **changes,
    )


def test_the_endgame_search_proves_what_plain_minimax_finds():
    # in each of these positions some actions lose and others do not; the searches share one
    # table, seat 1's reading what seat 0's left there
    bots.clear_endgame_tables()
    for turn, actions_left in ((0, 3), (1, 3), (1, 2), (1, 1), (0, 2)):
        state = _six_open(turn=turn, actions_left=actions_left)
        exact = _minimax(state, turn)
        proved = bots.solve_endgame(state, deadline=float("inf"))
        if exact < 0:
            assert proved is None  # every action loses
        else:
            move, value = proved
            after = _minimax(state.apply(move), turn)
            assert _outcome(value) == _outcome(exact) == _outcome(after)
            assert value <= exact  # a win's value is a lower bound on its margin


def test_advanced_plays_the_endgame_by_search_and_says_its_outcome():
    state = _six_open()
    move, value = bots.advanced_choice(state, random.Random(0), 5.0)
    after = _minimax(state.apply(move), 0)
    assert _outcome(value) == _outcome(_minimax(state, 0)) == _outcome(after)


def test_advanced_plays_on_by_its_beam_where_the_endgame_search_proves_a_loss():
    state = _six_open(actions_left=2)
    assert _minimax(state, 0) < 0 and bots.solve_endgame(state, float("inf")) is None
    move, value = bots.advanced_choice(state, random.Random(0), 0.5)
    assert move in state.legal_moves() and value < bots.WIN  # the beam's projection


def test_the_endgame_search_gives_up_at_its_deadline_with_nothing_proved():
    bots.clear_endgame_tables()
    with pytest.raises(TimeoutError):
        bots.solve_endgame(_six_open(), deadline=float("-inf"))


def test_a_position_solved_before_is_answered_from_the_table_even_out_of_time():
    bots.clear_endgame_tables()
    state = _six_open(turn=1)
    proved = bots.solve_endgame(state, deadline=float("inf"))
    assert bots.solve_endgame(state, deadline=float("-inf")) == proved


@pytest.mark.parametrize("turn, actions_left", [(0, 2), (1, 2), (1, 1)])
def test_a_proved_value_is_the_exact_outcome_from_either_seat(turn, actions_left):
    bots.clear_endgame_tables()
    state = _six_open(turn=turn, actions_left=actions_left)
    exact = _outcome(_minimax(state, 0))
    for seat in (0, 1):
        outcome = exact if seat == 0 else -exact
        proved = bots.proved_value(state, seat, float("inf"))
        if proved == 0:  # at least a draw for the seat to move, at most one for the other
            assert outcome == 0 or outcome == (1 if seat == turn else -1)
        else:
            assert proved == outcome * bots.WIN


def test_a_proved_value_needs_a_small_open_region_and_time():
    assert bots.proved_value(_six_open(), 0, float("-inf")) is None
    bots.clear_endgame_tables()
    start = Partition.new(Partition.check_options({}), 0, 1)
    assert bots.proved_value(start, 0, float("inf")) is None  # 36 open hexes: not searched


def test_split_turns_proved_won_are_played_and_those_proved_lost_dropped():
    bots.clear_endgame_tables()
    state = _six_open(actions_left=1)  # seat 0's last action: every end is seat 1's to move
    turns = [(0.0, move, state.apply(move)) for move in state.legal_moves()]
    outcomes = [_outcome(_minimax(end, 0)) for _, _, end in turns]
    judged = bots.judge_splits(turns, 0, float("inf"))
    if 1 in outcomes:
        assert len(judged) == 1 and judged[0][0] == bots.WIN
        assert _outcome(_minimax(judged[0][2], 0)) == 1
    else:
        kept = [t for t, o in zip(turns, outcomes) if o == 0]
        assert judged == (kept or turns)


@pytest.mark.parametrize("turn, actions_left", [(0, 3), (1, 3), (1, 2), (1, 1), (0, 2)])
def test_the_analysis_is_exact_where_the_endgame_search_decides_the_position(turn, actions_left):
    bots.clear_endgame_tables()
    state = _six_open(turn=turn, actions_left=actions_left)
    exact = _outcome(_minimax(state, turn))
    judged = ANALYSERS["partition"].analyse(state, random.Random(0), 30.0)
    assert judged["exact"] is True and judged["value"] == exact
    best = Partition.parse_move(judged["best"])
    if exact >= 0:  # the best action keeps the outcome; in a lost position any action loses
        assert _outcome(_minimax(state.apply(best), turn)) == exact
    assert best in state.legal_moves()


def test_the_analysis_estimates_where_the_endgame_search_runs_out_of_time():
    bots.clear_endgame_tables()
    start = Partition.new(Partition.check_options({}), 0, 1)  # 36 open hexes: never searched
    judged = ANALYSERS["partition"].analyse(start, random.Random(0), 0.2)
    assert judged["exact"] is False and -1 < judged["value"] < 1
    assert Partition.parse_move(judged["best"]) in start.legal_moves()


@pytest.mark.parametrize("seed", range(4))
def test_the_endgame_search_orders_actions_by_the_standing_after_them(seed):
    # sticks are sorted by `stick_standing`, worked out without making their positions: the
    # order is the one sorting every action by `standing` after it gives (equal ones as listed)
    rng = random.Random(seed)
    state = Partition.new(Partition.check_options({}), first=0, seed=seed)
    sticks = 0
    while not state.is_over():
        listed = bots.endgame_moves(state)
        me = state.turn
        after = [bots.standing(child or state.apply(move), me) for move, child in listed]
        assert after == sorted(after, reverse=True)
        for move, _child in listed:
            if isinstance(move, Stick):
                now = bots.standing(state, me)
                owned = [bots.owned_mask(state, bots.discs_by_colour(state), s) for s in (0, 1)]
                assert bots.stick_standing(state, move, now, owned) == bots.standing(
                    state.apply(move), me
                )
                sticks += 1
        state = state.apply(rng.choice(state.legal_moves()))
    assert sticks > 100


def _drawn_endgames(count: int = 8):
    """The first `count` positions of medium-bot games with 6 to 9 open hexes that the endgame
    search proves drawn (those bots use no clock: the same positions every run)."""
    drawn = (
        state
        for state in endgames(6, 9, {}, range(12))
        if bots.endgame_verdict(state, float("inf"))[0] == 0
    )
    return list(itertools.islice(drawn, count))


def _holds_draw(state, move) -> bool:
    """Whether the Python reference search proves the mover at least a draw after `move`."""
    me, after = state.turn, state.apply(move)
    if after.is_over():
        return bots.standing(after, me) >= 0
    proved = bots.endgame_search(after, float("inf"))[0]
    if after.turn == me:
        return proved is not None
    return proved is None or proved[1] < 1  # the opponent's best is a draw at most


def test_in_a_drawn_endgame_the_turns_kept_are_those_whose_first_action_holds_the_draw():
    for state in _drawn_endgames():
        bots.clear_endgame_tables()
        turns = bots.plan_turns(state, random.Random(0), float("inf"))
        kept = bots.holding_draw(state, turns, float("inf"))
        assert kept == [t for t in turns if _holds_draw(state, t[1])][: bots.REPLIES]
        assert kept  # a drawn position has an action that holds the draw


def test_advanced_holds_a_proved_draw_with_the_action_its_turns_rank_best():
    # not the first drawing action the search happens to find: where several hold the draw,
    # the one that leaves the opponent the most chances to go wrong
    positions = _drawn_endgames()
    other_than_the_search = 0
    for state in positions:
        bots.clear_endgame_tables()
        move, value = bots.advanced_choice(state, random.Random(0), 2.0)
        assert value == 0 and _holds_draw(state, move)
        other_than_the_search += move != bots.solve_endgame(state, float("inf"))[0]
    assert len(positions) == 8 and other_than_the_search >= 2
