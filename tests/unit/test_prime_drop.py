"""Prime Drop: one test per rule and per ruling (RULES.md §1) and move shapes (the random
playouts every game gets are tests/unit/test_conformance.py's)."""

import doctest
import json
import random

import pytest

import api.games.prime_drop as prime_drop
from api.games.base import BadOption, IllegalMove, MalformedMove, Pass
from api.games.prime_drop import (
    DEFAULT_TILES,
    Challenge,
    DoubleDown,
    Drop,
    PrimeDrop,
    PrimeDropState,
    TimeoutRule,
    board_numbers,
    nontrivial_factor,
    timeout_rule_winner,
)
from tests.browser.drawn import Board


def position(rows: list[str], piles=None, mover: int = 0) -> PrimeDropState:
    """A 9x9 position from a few rows of text ('.' empty), padded with empty cells."""
    size = 9
    lines = [r.ljust(size, ".") for r in rows] + ["." * size] * (size - len(rows))
    pile = tuple(DEFAULT_TILES[d] for d in "0123456789")
    return PrimeDropState(size, "".join(lines), piles or (pile, pile), mover, 0, None)


def numbers(state: PrimeDropState) -> list[tuple]:
    return sorted((n.frm, n.to, n.value) for n in state.numbers)


def start(**options) -> PrimeDropState:
    return PrimeDrop.new(PrimeDrop.check_options(options), first=0, seed=0)


def test_doctests():
    assert doctest.testmod(prime_drop).failed == 0


# Options


def test_default_options_are_the_ruling_table_on_11x11():
    options = PrimeDrop.check_options({})
    assert options["size"] == 11 and options["timeout_rule"] is None
    state = PrimeDrop.new(options, first=1, seed=0)
    assert state.tiles_left == (37, 37) and state.to_move == 1
    assert state.to_dict()["piles"][0] == DEFAULT_TILES


@pytest.mark.parametrize("size", [9, 11, 13])
def test_board_sizes(size):
    assert len(start(size=size).to_dict()["board"]) == size


@pytest.mark.parametrize(
    "options",
    [
        {"size": 10},
        {"size": 11.0},
        {"size": True},
        {"tiles": {"1": 100}},
        {"tiles": {}},
        {"tiles": {"x": 3}},
        {"tiles": {"1": -1, "2": 3}},
        {"tiles": {"0": 4}},
        {"timeout_rule": {"after_s": 0, "streak": 3}},
        {"timeout_rule": {"after_s": 60}},
        {"colour": 1},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(BadOption):
        PrimeDrop.check_options(options)


def test_a_tiles_option_of_only_zeros_is_refused():
    with pytest.raises(BadOption, match="not a 0"):
        PrimeDrop.check_options({"tiles": {"0": 5}})


def test_tiles_option_replaces_the_table_for_both_players():
    state = start(tiles={"1": 2, "7": 1})
    assert state.tiles_left == (3, 3)
    assert state.to_dict()["piles"][1] == {**{d: 0 for d in "0123456789"}, "1": 2, "7": 1}


def test_timeout_rule_is_settled_on_for_clocked_games_only():
    options = PrimeDrop.check_options({})
    settle = TimeoutRule().settle
    clocked = settle(options, {"type": "fischer", "initial_s": 60, "increment_s": 1})
    assert clocked["timeout_rule"] == {"after_s": 3600, "streak": 10}
    assert settle(options, {"type": "none"})["timeout_rule"] is None
    own = PrimeDrop.check_options({"timeout_rule": {"after_s": 5, "streak": 2}})
    assert settle(own, {"type": "byoyomi"})["timeout_rule"]["after_s"] == 5


def test_timeout_rule_option_is_kept():
    rule = {"after_s": 60, "streak": 4}
    assert PrimeDrop.check_options({"timeout_rule": rule})["timeout_rule"] == rule


# Numbers on the board


def test_a_run_reads_both_ways_in_rows_and_columns():
    state = position(["123", "..", "..4", "..7"])
    assert numbers(state) == sorted(
        [((0, 0), (0, 2), 123), ((0, 2), (0, 0), 321), ((2, 2), (3, 2), 47), ((3, 2), (2, 2), 74)]
    )


def test_a_tile_in_a_run_is_not_also_a_one_digit_number():
    state = position(["12", "", "..5"])
    assert numbers(state) == sorted(
        [((0, 0), (0, 1), 12), ((0, 1), (0, 0), 21), ((2, 2), (2, 2), 5)]
    )


def test_a_column_run_counts_its_tiles_even_when_they_are_alone_in_their_rows():
    state = position(["3", "1"])
    assert numbers(state) == [((0, 0), (1, 0), 31), ((1, 0), (0, 0), 13)]


def test_leading_zeros_are_ignored():
    state = position([".07", "", ".00"])
    assert ((0, 1), (0, 2), 7) in numbers(state) and ((0, 2), (0, 1), 70) in numbers(state)
    assert ((2, 1), (2, 2), 0) in numbers(state)


def test_the_facts_list_every_number_with_its_ends_as_a_challenge_names_them():
    state = position(["21", "...4"])
    assert state.facts()["numbers"] == [
        {"from": [0, 0], "to": [0, 1], "value": 21, "length": 2},
        {"from": [0, 1], "to": [0, 0], "value": 12, "length": 2},
        {"from": [1, 3], "to": [1, 3], "value": 4, "length": 1},
    ]
    assert PrimeDropState.from_dict(state.view()) == state


def test_board_numbers_lists_lone_tiles_once():
    assert [n.value for n in board_numbers("1..." + "...." * 3, 4)] == [1]


# Single drop and zero


def test_single_drop_lays_a_tile_from_the_pile():
    state = start(size=9).apply(Drop(8, 8, 9))
    assert state.tile((8, 8)) == 9 and state.tiles_left == (36, 37) and state.to_move == 1


def test_drop_on_a_taken_cell_is_illegal():
    with pytest.raises(IllegalMove, match=r"Cell \[0, 0\] is taken"):
        position(["1"]).apply(Drop(0, 0, 3))


def test_drop_off_the_board_is_illegal():
    with pytest.raises(IllegalMove, match="off the 9×9 board"):
        position(["1"]).apply(Drop(9, 0, 3))


def test_drop_of_a_digit_not_in_the_pile_is_illegal():
    pile = (0, 1) + (0,) * 8
    with pytest.raises(IllegalMove, match="no 4 left"):
        position(["1"], piles=(pile, pile)).apply(Drop(4, 4, 4))


def test_zero_needs_a_neighbour_in_a_single_drop():
    state = position(["1"])
    with pytest.raises(IllegalMove, match="A 0 must go next to a tile"):
        state.apply(Drop(4, 4, 0))
    with pytest.raises(IllegalMove):
        state.apply(Drop(1, 1, 0))  # diagonal is not orthogonal
    assert state.apply(Drop(0, 1, 0)).tile((0, 1)) == 0


def test_zero_is_not_offered_on_an_empty_board():
    assert all(m.digit != 0 for m in start(size=9).drops())


# Double down


def test_double_down_lays_two_tiles_in_order():
    state = position(["1"]).apply(DoubleDown(Drop(0, 1, 3), Drop(0, 2, 7)))
    assert numbers(state) == [((0, 0), (0, 2), 137), ((0, 2), (0, 0), 731)]
    assert state.tiles_left == (35, 37)


def test_double_down_is_illegal_on_an_empty_board():
    with pytest.raises(IllegalMove, match="needs a tile already on the board"):
        start(size=9).apply(DoubleDown(Drop(0, 0, 1), Drop(0, 1, 3)))


def test_double_down_first_tile_must_touch_the_board():
    with pytest.raises(IllegalMove, match="first tile"):
        position(["1"]).apply(DoubleDown(Drop(5, 5, 3), Drop(0, 1, 3)))


def test_double_down_second_tile_may_touch_only_the_first():
    state = position(["1"]).apply(DoubleDown(Drop(1, 0, 3), Drop(2, 0, 7)))
    assert state.tile((2, 0)) == 7


def test_double_down_second_tile_must_touch_a_tile():
    with pytest.raises(IllegalMove, match="second tile"):
        position(["1"]).apply(DoubleDown(Drop(1, 0, 3), Drop(5, 5, 7)))


def test_zero_as_second_tile_may_lean_on_the_first():
    state = position(["1"]).apply(DoubleDown(Drop(0, 1, 3), Drop(1, 1, 0)))
    assert state.tile((1, 1)) == 0


def test_double_down_needs_both_digits_in_the_pile():
    pile = (0, 1) + (0,) * 8
    with pytest.raises(IllegalMove, match="no 1 left"):
        position(["1"], piles=(pile, pile)).apply(DoubleDown(Drop(0, 1, 1), Drop(0, 2, 1)))


# Challenge


def test_successful_challenge_sends_the_run_to_the_challengers_opponent():
    # 5, 1 laid by both players; seat 1 challenges 51 = 3 x 17: the tiles go to seat 0.
    state = position(["51"], mover=1)
    after = state.apply(Challenge((0, 0), (0, 1), 3))
    assert after.board.count(".") == 81 and after.tiles_left == (39, 37)
    assert after.piles[0][5] == 4 and after.piles[0][1] == 6
    assert after.last_challenge == {
        "seat": 1,
        "value": 51,
        "factor": 3,
        "success": True,
        "from": [0, 0],
        "to": [0, 1],
        "tiles": 2,
        "turn": 0,
    }
    assert after.to_move == 0


def test_challenge_reads_the_direction_named():
    state = position(["13"])  # 13 is prime, 31 is prime; 1 3 -> 13
    assert not state.apply(Challenge((0, 0), (0, 1), 13)).last_challenge["success"]
    state = position(["29"])  # 29 prime, 92 = 4 x 23
    assert not state.apply(Challenge((0, 0), (0, 1), 2)).last_challenge["success"]
    assert state.apply(Challenge((0, 1), (0, 0), 2)).last_challenge["success"]


def test_failed_challenge_changes_nothing_but_the_turn():
    state = position(["37"])
    after = state.apply(Challenge((0, 0), (0, 1), 3))
    assert after.board == state.board and after.piles == state.piles and after.to_move == 1
    assert after.last_challenge["success"] is False and after.last_challenge["tiles"] == 0


@pytest.mark.parametrize("factor", [1, 91, -7, 0])
def test_only_a_nontrivial_factor_wins(factor):
    assert not position(["91"]).apply(Challenge((0, 0), (0, 1), factor)).last_challenge["success"]


def test_value_zero_falls_to_any_factor_of_two_or_more():
    state = position(["10", ".0"])  # column 1 reads 00 = 0
    assert state.apply(Challenge((0, 1), (1, 1), 12345)).last_challenge["success"]
    assert not state.apply(Challenge((0, 1), (1, 1), 1)).last_challenge["success"]


def test_value_one_can_never_be_challenged():
    state = position(["01"])  # read right to left: 10; left to right: 01 = 1
    assert not state.apply(Challenge((0, 0), (0, 1), 1)).last_challenge["success"]
    assert state.apply(Challenge((0, 1), (0, 0), 2)).last_challenge["success"]


@pytest.mark.parametrize("rows, frm, to", [(["1"], (0, 0), (0, 0)), (["001"], (0, 0), (0, 2))])
def test_challenging_a_one_is_legal_and_always_fails(rows, frm, to):
    state = position(rows)
    for factor in (1, 2, 11):
        after = state.apply(Challenge(frm, to, factor))
        assert not after.last_challenge["success"] and after.to_move == 1
        assert after.board == state.board and after.piles == state.piles


def test_lone_tile_is_challenged_by_naming_its_cell_twice():
    state = position(["", ".9"])
    after = state.apply(Challenge((1, 1), (1, 1), 3))
    assert after.tile((1, 1)) is None and after.tiles_left == (37, 38)


def test_a_tile_inside_a_run_cannot_be_challenged_alone():
    with pytest.raises(IllegalMove, match="part of a longer number"):
        position(["94"]).apply(Challenge((0, 1), (0, 1), 2))


@pytest.mark.parametrize(
    "frm, to",
    [((0, 0), (0, 1)), ((0, 0), (0, 3)), ((5, 5), (5, 5)), ((0, 0), (1, 1)), ((0, 0), (20, 0))],
)
def test_naming_something_that_is_not_a_number_is_illegal(frm, to):
    state = position(["945.1"])
    with pytest.raises(IllegalMove, match="no number|part of a longer"):
        state.apply(Challenge(frm, to, 3))


def test_challenge_removes_only_the_named_run():
    state = position(["131", ".4."], mover=0)  # column 1 reads 34 / 43; row 0 131 / 131
    after = state.apply(Challenge((0, 1), (1, 1), 2))
    assert after.board.startswith("1.1......") and after.tiles_left == (37, 39)


# Passing and winning


def test_forced_pass_with_only_zeros_on_an_empty_board():
    zeros = (2,) + (0,) * 9
    state = PrimeDropState(9, "." * 81, (zeros, (0, 1) + (0,) * 8), 0, 3, None)
    assert state.legal_moves() == [] and state.forced_move() == Pass()
    after = state.apply(Pass())
    assert after.to_move == 1 and after.turn == 4


def test_pass_is_refused_when_a_move_exists():
    assert position(["1"]).forced_move() is None
    with pytest.raises(IllegalMove, match="cannot pass"):
        position(["1"]).apply(Pass())


def test_a_full_board_of_primes_leaves_a_failed_challenge_not_a_pass():
    pile = (0, 1) + (0,) * 8
    # A 2x2 board (smaller than the game offers, to keep it explicit): 13, 31 in every line.
    state = PrimeDropState(2, "1331", (pile, pile), 0, 0, None)
    assert state.forced_move() is None and state.drops() == []
    [move] = state.legal_moves()
    assert not state.apply(move).last_challenge["success"]


def test_playing_the_last_tile_wins():
    last = (0, 0, 0, 1) + (0,) * 6
    state = PrimeDropState(9, "1" + "." * 80, (last, last), 1, 7, None)
    after = state.apply(Drop(5, 5, 3))
    assert after.outcome().to_dict() == {"winner": 1, "reason": "all-tiles-played", "scores": None}
    assert after.to_move is None and after.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        after.apply(Drop(6, 6, 3))


def test_laying_the_last_two_tiles_by_double_down_wins():
    two = (0, 1, 0, 1) + (0,) * 6
    state = PrimeDropState(9, "1" + "." * 80, (two, two), 0, 7, None)
    assert state.apply(DoubleDown(Drop(0, 1, 3), Drop(1, 0, 1))).outcome().winner == 0


# Repetition (ruling: the third occurrence of a position ends the game)


def cycle(state: PrimeDropState, times: int) -> PrimeDropState:
    """The drop/challenge cycle `times` over: the mover drops a 4 at [8, 8], the other
    challenges it back into the mover's pile, which restores the position."""
    for _ in range(times):
        state = state.apply(Drop(8, 8, 4)).apply(Challenge((8, 8), (8, 8), 2))
    return state


def test_the_drop_challenge_cycle_restores_the_position():
    state = start(size=9)
    after = cycle(state, 1)
    assert (after.board, after.piles, after.mover) == (state.board, state.piles, state.mover)
    assert after.occurrences == 2 and not after.is_over()


def test_the_third_occurrence_ends_the_game_at_once_and_fewer_tiles_win():
    # Seat 0 lays a prime 1 it keeps, so it holds a tile fewer; then seat 1 cycles.
    state = start(size=9).apply(Drop(0, 0, 1))  # the position's first occurrence
    assert state.tiles_left == (36, 37) and state.to_move == 1 and state.occurrences == 1
    second = cycle(state, 1)
    assert second.occurrences == 2 and second.outcome() is None
    third = cycle(second, 1)
    assert third.occurrences == 3
    assert third.outcome().to_dict() == {"winner": 0, "reason": "repetition", "scores": None}
    assert third.to_move is None and third.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        third.apply(Drop(8, 8, 4))


def test_repetition_with_equal_tile_counts_is_a_draw():
    state = cycle(start(size=9), 2)  # the start position, for the third time
    assert state.outcome() == prime_drop.Outcome(None, "repetition")


def test_failed_challenges_repeat_positions_too():
    # Each failed challenge only hands the turn over: after four, seat 0 faces its third.
    state = position(["3"])
    for _ in range(4):
        assert not state.is_over()
        state = state.apply(Challenge((0, 0), (0, 0), 2))
    assert state.outcome().reason == "repetition" and state.outcome().winner is None


def test_the_same_board_with_the_other_seat_to_move_is_another_position():
    laid = start(size=9).apply(Drop(0, 0, 1))
    other = laid.apply(Challenge((0, 0), (0, 0), 2))  # fails: the same board, seat 0 to move
    assert other.board == laid.board and other.occurrences == 1


def test_a_finished_game_keeps_only_what_its_outcome_needs():
    over = cycle(start(size=9), 2)
    data = json.loads(json.dumps(over.to_dict()))
    again = PrimeDropState.from_dict(data)
    assert again == over and again.outcome() == over.outcome()
    assert len(data["seen"]) <= 32  # three 8-byte keys, not one per turn
    running = cycle(start(size=9), 1)
    assert PrimeDropState.from_dict(running.to_dict()).seen == running.seen


def test_a_state_stored_before_the_rule_loads_and_counts_from_there():
    data = start(size=9).to_dict()
    del data["seen"]
    assert PrimeDropState.from_dict(data).occurrences == 1


# The timeout rule


def test_timeout_rule_ignores_turns_before_the_threshold():
    turns = [(t, (1, 9)) for t in range(0, 100, 10)]
    assert timeout_rule_winner(turns, after_s=100, streak=1) is None


def test_timeout_rule_counts_from_the_threshold_on():
    turns = [(50, (1, 9)), (100, (3, 5)), (110, (3, 5))]
    assert timeout_rule_winner(turns, after_s=100, streak=2) == 0


def test_timeout_rule_needs_strictly_fewer_tiles():
    turns = [(100 + k, (4, 4)) for k in range(20)]
    assert timeout_rule_winner(turns, after_s=100, streak=3) is None


def test_timeout_rule_streak_restarts_on_a_tie_or_a_change_of_leader():
    turns = [
        (100, (9, 5)),
        (101, (9, 5)),
        (102, (7, 7)),
        (103, (9, 5)),
        (104, (4, 5)),
        (105, (3, 5)),
        (106, (3, 5)),
    ]
    assert timeout_rule_winner(turns[:6], after_s=100, streak=3) is None
    assert timeout_rule_winner(turns, after_s=100, streak=3) == 0


def test_timeout_rule_the_position_at_the_threshold_is_not_a_turn_of_the_streak():
    # seat 0 held fewer tiles from before the threshold on: only the turn after it counts
    turns = [(50, (1, 9)), (150, (1, 9))]
    assert timeout_rule_winner(turns, after_s=100, streak=2) is None
    assert timeout_rule_winner(turns + [(160, (1, 9))], after_s=100, streak=2) == 0


def test_timeout_rule_a_level_turn_breaks_every_streak():
    turns = [(100, (3, 5)), (101, (4, 4)), (102, (3, 5)), (103, (3, 5))]
    assert timeout_rule_winner(turns[:3], after_s=100, streak=2) is None
    assert timeout_rule_winner(turns, after_s=100, streak=2) == 0


def test_timeout_rule_first_to_reach_the_streak_wins():
    turns = [(200, (9, 5)), (201, (9, 5)), (202, (1, 5)), (203, (1, 5))]
    assert timeout_rule_winner(turns, after_s=100, streak=2) == 1


# Move shapes (API.md)


@pytest.mark.parametrize(
    "move",
    [Drop(1, 2, 3), DoubleDown(Drop(1, 2, 3), Drop(1, 3, 0)), Challenge((0, 1), (0, 4), 7), Pass()],
)
def test_moves_round_trip_through_their_json_shape(move):
    assert PrimeDrop.parse_move(json.loads(json.dumps(move.to_dict()))) == move


def test_move_shapes_match_the_api():
    assert Drop(1, 2, 3).to_dict() == {"type": "drop", "row": 1, "col": 2, "digit": 3}
    assert DoubleDown(Drop(1, 2, 3), Drop(1, 3, 0)).to_dict() == {
        "type": "double",
        "tiles": [{"row": 1, "col": 2, "digit": 3}, {"row": 1, "col": 3, "digit": 0}],
    }
    assert Challenge((0, 1), (0, 4), 7).to_dict() == {
        "type": "challenge",
        "from": [0, 1],
        "to": [0, 4],
        "factor": 7,
    }


@pytest.mark.parametrize(
    "data, field",
    [
        ([], "move"),
        ({"type": "place"}, "move.type"),
        ({"type": "drop", "row": 1, "col": 2}, "move.digit"),
        ({"type": "drop", "row": 1, "col": 2, "digit": 10}, "move.digit"),
        ({"type": "drop", "row": -1, "col": 2, "digit": 1}, "move.row"),
        ({"type": "drop", "row": True, "col": 2, "digit": 1}, "move.row"),
        ({"type": "double", "tiles": [{"row": 1, "col": 2, "digit": 3}]}, "move.tiles"),
        ({"type": "double", "tiles": [{"row": 1, "col": 2, "digit": 3}, 5]}, "move.tiles[1]"),
        (
            {"type": "double", "tiles": [{"row": 1, "col": 2, "digit": 3}, {"row": 1, "col": 2}]},
            "move.tiles[1].digit",
        ),
        ({"type": "challenge", "from": [0, 0], "to": [0], "factor": 3}, "move.to"),
        ({"type": "challenge", "from": [0, 0], "to": [0, 1], "factor": "3"}, "move.factor"),
    ],
)
def test_malformed_moves_name_the_field(data, field):
    with pytest.raises(MalformedMove) as err:
        PrimeDrop.parse_move(data)
    assert err.value.field == field


def test_state_shape_matches_the_api():
    data = position(["51"], mover=1).apply(Challenge((0, 0), (0, 1), 17)).to_dict()
    assert {"size", "board", "piles", "tiles_left", "last_challenge"} <= set(data)
    assert data["board"][0][:2] == [None, None] and data["tiles_left"] == [39, 37]
    assert set(data["piles"][0]) == set("0123456789")
    assert {"seat", "value", "factor", "success"} <= set(data["last_challenge"])


def test_legal_moves_listing_gives_drops_and_numbers_with_the_smallest_factor():
    listing = position(["91"]).legal_moves_listing()
    assert listing["complete"] is False and "Double downs" in listing["note"]
    challenges = [m for m in listing["moves"] if m["type"] == "challenge"]
    assert challenges == [
        {"type": "challenge", "from": [0, 0], "to": [0, 1], "factor": 2, "value": 91},
        {"type": "challenge", "from": [0, 1], "to": [0, 0], "factor": 2, "value": 19},
    ]
    drops = [m for m in listing["moves"] if m["type"] == "drop"]
    assert len(drops) == 79 * 10 - 79 + 3  # a 0 only on the three cells beside a tile


def test_a_listed_challenge_sent_back_as_listed_is_played():
    state = position(["91"])
    listed = next(m for m in state.legal_moves_listing()["moves"] if m["type"] == "challenge")
    after = state.apply(PrimeDrop.parse_move(listed))
    assert after.last_challenge["value"] == 91 and after.last_challenge["success"] is False
    sent = PrimeDrop.parse_move({**listed, "factor": 7})
    assert state.apply(sent).last_challenge["success"] is True


def test_a_challenge_naming_the_wrong_value_is_illegal():
    state = position(["91"])
    with pytest.raises(IllegalMove, match="is 91, not 19"):
        state.apply(Challenge((0, 0), (0, 1), 7, value=19))


def test_legal_moves_challenge_each_composite_with_a_working_factor():
    state = position(["91"])
    challenges = [m for m in state.legal_moves() if isinstance(m, Challenge)]
    assert challenges == [Challenge((0, 0), (0, 1), 7)]


def test_nontrivial_factor_beyond_trial_division():
    big = 1000003 * 1000033
    assert nontrivial_factor(big) == 1000003 and nontrivial_factor(1000003) is None


def test_random_double_downs_are_accepted_or_refused_with_a_reason():
    rng = random.Random(5)
    state = start(size=9).apply(Drop(4, 4, 1))
    accepted = 0
    for _ in range(300):
        tiles = [Drop(rng.randrange(9), rng.randrange(9), rng.randrange(10)) for _ in range(2)]
        try:
            after = state.apply(DoubleDown(*tiles))
        except IllegalMove as err:
            assert err.message
            continue
        accepted += 1
        assert after.tiles_left[1] == state.tiles_left[1] - 2  # seat 1 moves after the drop
    assert accepted > 0


def test_the_rules_page_worked_examples_replay():
    state = start(size=11)
    for move in (
        Drop(4, 3, 1),
        Drop(6, 6, 7),
        Drop(4, 5, 3),
        DoubleDown(Drop(4, 4, 4), Drop(5, 4, 2)),
    ):
        state = state.apply(move)
    assert ((4, 3), (4, 5), 143) in numbers(state) and ((4, 4), (5, 4), 42) in numbers(state)
    won = state.apply(Challenge((4, 3), (4, 5), 11))
    assert won.last_challenge["success"] and won.tiles_left == (35, 37)
    assert ((5, 4), (5, 4), 2) in numbers(won)
    with pytest.raises(IllegalMove):
        state.apply(Challenge((4, 3), (4, 4), 2))
    with pytest.raises(IllegalMove):
        state.apply(Challenge((4, 4), (4, 4), 2))
    failed = position(["107"]).apply(Challenge((0, 2), (0, 0), 7))
    assert failed.last_challenge["value"] == 701 and not failed.last_challenge["success"]


# valid values other than the defaults, for the test that sweeps every option (test_sweeps.py)
JSON_OPTION_VALUES = {
    "tiles": {"1": 5, "2": 5, "3": 5},
    "timeout_rule": {"after_s": 60, "streak": 3},
}

# ---------------------------------------------------------------- the board
# Prime Drop's board as the browser tests over every game drive it (tests/browser/drawn.py's
# `Board`): what it draws read back from the page, the same worked out from a server state, a legal
# move picked on the page, and options that keep a bot game short. Its moves made by hand are tested
# in test_web_client.py.


def drawn_for(state: dict) -> dict:
    return {
        "board": [
            [f"{r},{c}", d] for r, row in enumerate(state["board"]) for c, d in enumerate(row)
        ],
        "piles": [[pile[d] for d in "0123456789"] for pile in state["piles"]],
    }


def pick_on_page(page, move: dict) -> None:
    page.click(f".pd button[data-digit='{move['digit']}']")
    page.click(f"[data-cell='{move['row']},{move['col']}']")


BOARD = Board(
    read="""() => ({
        board: [...document.querySelectorAll(".pd [data-cell]")].map((cell) => [cell.dataset.cell,
            cell.dataset.digit === undefined ? null : Number(cell.dataset.digit)]),
        piles: [...document.querySelectorAll(".pd .panel[data-seat]")]
            .sort((a, b) => a.dataset.seat - b.dataset.seat).map((panel) =>
            [...panel.querySelectorAll(".chip")].map((chip) => Number(chip.dataset.count))),
    })""",
    expected=drawn_for,
    pick=pick_on_page,
    # the bots trade challenges back and forth for ever on the full pile; 1s, 3s and 7s run out
    short={"size": 9, "tiles": {d: {"1": 5, "3": 3, "7": 4}.get(d, 0) for d in "0123456789"}},
)
