"""Time-control arithmetic, one test per rule, against a controllable clock (plain numbers)."""
import pytest

from api import clocks

FISCHER = {"type": "fischer", "initial_s": 60, "increment_s": 5}
BYOYOMI = {"type": "byoyomi", "main_s": 10, "periods": 3, "period_s": 30}
CORRESPONDENCE = {"type": "correspondence", "days_per_move": 2}
BANKED = {"type": "banked", "initial_s": 3 * 86400, "increment_s": 86400, "max_s": 4 * 86400}


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
    doc = {"time_control": FISCHER, "clocks": clocks.start(FISCHER), "turn_started_ts": 100.0}
    clocks.charge(doc, 0, 110.0, next_seat=0)
    assert doc["clocks"][0] == {"remaining_s": 60.0} and doc["turn_started_ts"] == 100.0
    clocks.charge(doc, 0, 130.0, next_seat=1)
    assert doc["clocks"][0] == {"remaining_s": 35.0} and doc["turn_started_ts"] == 130.0


def test_deadline_is_turn_start_plus_time_left_and_flag_falls_at_it():
    doc = {"time_control": BYOYOMI, "clocks": clocks.start(BYOYOMI), "turn_started_ts": 1000.0,
           "status": "active"}
    assert clocks.deadline_ts(doc, 1) == 1000.0 + 10 + 3 * 30
    assert not clocks.flagged(doc, 1, 1099.9)
    assert clocks.flagged(doc, 1, 1100.0)


def test_running_clock_shows_the_current_period():
    shown = clocks.running(BYOYOMI, {"remaining_s": 10.0, "periods_left": 3}, 10 + 45)
    assert shown == {"remaining_s": 0.0, "periods_left": 2, "period_remaining_s": 15.0}


def test_end_on_time_aborts_a_game_whose_first_move_never_came():
    doc = {"time_control": FISCHER, "clocks": clocks.start(FISCHER), "ply": 0}
    clocks.end_on_time(doc, 1)
    assert doc["result"] == {"winner": None, "reason": "aborted", "scores": None}
    doc = {"time_control": FISCHER, "clocks": clocks.start(FISCHER), "ply": 3}
    clocks.end_on_time(doc, 1)
    assert doc["result"] == {"winner": 0, "reason": "time", "scores": None}


@pytest.mark.parametrize("tc, field", [
    ({"type": "sundial"}, "time_control.type"),
    ({"type": "fischer", "initial_s": 60}, "time_control.increment_s"),
    ({"type": "byoyomi", "main_s": 0, "periods": 0, "period_s": 60}, "time_control.periods"),
    ({"type": "none", "extra": 1}, "time_control.extra"),
    ({"type": "banked", "initial_s": 10, "increment_s": 1, "max_s": 5}, "time_control.initial_s"),
])
def test_bad_time_controls_name_the_field(tc, field):
    with pytest.raises(clocks.BadTimeControl) as err:
        clocks.check(tc)
    assert err.value.field == field
