"""Time-control arithmetic, one test per rule, against a controllable clock (plain numbers)."""

import pytest

from api import clocks
from api.games import Outcome

FISCHER = clocks.Fischer(initial_s=60, increment_s=5)
BYOYOMI = clocks.Byoyomi(main_s=10, periods=3, period_s=30)
CORRESPONDENCE = clocks.Correspondence(days_per_move=2)
BANKED = clocks.Banked(initial_s=3 * 86400, increment_s=86400, max_s=4 * 86400)


@pytest.mark.parametrize("tc", [clocks.NoClock(), FISCHER, BYOYOMI, CORRESPONDENCE, BANKED])
def test_a_time_control_is_typed_by_its_type_and_keeps_its_json(tc):
    data = tc.to_dict()
    assert data["type"] == tc.type
    assert clocks.check(data) == tc and clocks.load(data) == tc
    assert clocks.check(data).to_dict() == data


def test_fischer_spends_then_adds_the_increment():
    clock, out = clocks.spend(FISCHER, clocks.fresh_clock(FISCHER), 20)
    assert (clock, out) == ({"remaining_s": 45.0}, False)


def test_fischer_overrun_loses():
    assert clocks.spend(FISCHER, {"remaining_s": 10.0}, 10.5)[1] is True


def test_byoyomi_main_time_first():
    clock, out = clocks.spend(BYOYOMI, clocks.fresh_clock(BYOYOMI), 4)
    assert clock == {"remaining_s": 6.0, "periods_left": 3} and not out


def test_byoyomi_a_move_inside_a_period_keeps_it():
    clock, out = clocks.spend(BYOYOMI, {"remaining_s": 10.0, "periods_left": 3}, 10 + 29)
    assert clock == {"remaining_s": 0.0, "periods_left": 3} and not out


def test_byoyomi_each_period_overrun_is_used_up():
    clock, out = clocks.spend(BYOYOMI, {"remaining_s": 0.0, "periods_left": 3}, 65)
    assert clock == {"remaining_s": 0.0, "periods_left": 1} and not out


def test_byoyomi_overrunning_the_last_period_loses():
    assert clocks.spend(BYOYOMI, {"remaining_s": 0.0, "periods_left": 1}, 30.01)[1] is True
    assert clocks.time_left(BYOYOMI, {"remaining_s": 10.0, "periods_left": 3}) == 100


def test_correspondence_gives_every_move_the_same_days():
    clock, out = clocks.spend(CORRESPONDENCE, clocks.fresh_clock(CORRESPONDENCE), 86400 * 1.5)
    assert clock == {"remaining_s": 2 * 86400.0} and not out
    assert clocks.spend(CORRESPONDENCE, clock, 2 * 86400 + 1)[1] is True


def test_banked_adds_the_increment_up_to_the_cap():
    clock, _ = clocks.spend(BANKED, clocks.fresh_clock(BANKED), 3600)
    assert clock == {"remaining_s": 4 * 86400.0 - 3600}
    clock, _ = clocks.spend(BANKED, clock, 60)
    assert clock == {"remaining_s": 4 * 86400.0}
    clock, _ = clocks.spend(BANKED, {"remaining_s": 86400.0}, 43200)
    assert clock == {"remaining_s": 86400.0 * 1.5}


def test_a_turn_of_several_actions_is_charged_once_at_its_end():
    both = clocks.start(FISCHER)
    assert clocks.charge(FISCHER, both, 100.0, 0, 110.0, next_seat=0) == (both, 100.0)
    charged, started = clocks.charge(FISCHER, both, 100.0, 0, 130.0, next_seat=1)
    assert charged[0] == {"remaining_s": 35.0} and started == 130.0
    assert both[0] == {"remaining_s": 60.0}  # the clocks given are left as they were


def test_deadline_is_turn_start_plus_time_left():
    assert clocks.deadline_ts(BYOYOMI, clocks.fresh_clock(BYOYOMI), 1000.0) == 1000.0 + 10 + 3 * 30


def test_running_clock_shows_the_current_period():
    shown = clocks.running(BYOYOMI, {"remaining_s": 10.0, "periods_left": 3}, 10 + 45)
    assert shown == {"remaining_s": 0.0, "periods_left": 2, "period_remaining_s": 15.0}


def test_time_out_aborts_a_game_whose_first_move_never_came():
    assert clocks.time_out(FISCHER, 0, 1) == ({"remaining_s": 0.0}, Outcome(None, "aborted"))
    assert clocks.time_out(BYOYOMI, 3, 1) == (
        {"remaining_s": 0.0, "periods_left": 0},
        Outcome(0, "time"),
    )


@pytest.mark.parametrize(
    "tc, field",
    [
        ({"type": "sundial"}, "time_control.type"),
        ({"type": {}}, "time_control.type"),
        ("fischer", "time_control.type"),
        ({"type": "fischer", "initial_s": 60}, "time_control.increment_s"),
        ({"type": "byoyomi", "main_s": 0, "periods": 0, "period_s": 60}, "time_control.periods"),
        ({"type": "none", "extra": 1}, "time_control.extra"),
        (
            {"type": "banked", "initial_s": 10, "increment_s": 1, "max_s": 5},
            "time_control.initial_s",
        ),
    ],
)
def test_bad_time_controls_name_the_field(tc, field):
    with pytest.raises(clocks.BadTimeControl) as err:
        clocks.check(tc)
    assert err.value.field == field


def test_pauses_move_a_deadline_on_by_the_part_still_ahead():
    ten = {"remaining_s": 10.0}
    # working 0-2, paused 2-6 (two overlapping spans), working 6-8, paused 8-20, working 20-26
    assert clocks.deadline_ts(FISCHER, ten, 0.0, [[2, 4], [3, 6], [8, 20]]) == 26
    assert clocks.deadline_ts(FISCHER, ten, 0.0, [[-5, 1]]) == 11  # begun before the turn
    assert clocks.deadline_ts(FISCHER, ten, 0.0, [[12, 20]]) == 10  # after the flag: no matter
    assert clocks.paused_s(0.0, 10.0, [[2, 4], [3, 6], [8, 20]]) == 6
