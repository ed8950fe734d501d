"""The vacation allowance (RULES.md, "Vacation"): 30 days a year credited monthly, the first month
at sign-up, banked up to 60, charged by the time a vacation actually lasts."""

from __future__ import annotations

import pytest

from api.clocks import DAY_S
from api.play.vacation import MONTH_S, Allowance

SIGN_UP = 1_000_000.0


def days(allowance: Allowance) -> float:
    return allowance.left_s / DAY_S


def test_a_new_account_has_its_first_month_and_earns_one_a_month():
    fresh = Allowance.of(None, SIGN_UP)
    assert days(fresh.settled(SIGN_UP, SIGN_UP)) == pytest.approx(2.5)
    assert days(fresh.settled(SIGN_UP, SIGN_UP + MONTH_S - 1)) == pytest.approx(2.5)
    assert days(fresh.settled(SIGN_UP, SIGN_UP + MONTH_S)) == pytest.approx(5.0)
    a_year = fresh.settled(SIGN_UP, SIGN_UP + 11.5 * MONTH_S)
    assert days(a_year) == pytest.approx(30.0) and a_year.months == 12


def test_at_most_60_days_are_banked():
    later = Allowance.of(None, SIGN_UP).settled(SIGN_UP, SIGN_UP + 40 * MONTH_S)
    assert days(later) == pytest.approx(60.0)


def test_a_vacation_is_charged_by_the_time_it_lasted():
    held = Allowance.of(None, SIGN_UP).settled(SIGN_UP, SIGN_UP + DAY_S)
    on = Allowance(
        held.left_s, held.months, held.settled_ts, (SIGN_UP + DAY_S, SIGN_UP + 2 * DAY_S)
    )
    assert days(on.settled(SIGN_UP, SIGN_UP + 1.5 * DAY_S)) == pytest.approx(2.0)
    assert days(on.settled(SIGN_UP, SIGN_UP + 5 * DAY_S)) == pytest.approx(1.5)
    assert on.on(SIGN_UP + 1.5 * DAY_S) and not on.on(SIGN_UP + 2 * DAY_S)


def test_a_vacation_runs_out_with_the_days_credited_while_it_lasts():
    # 2.5 days left, starting a day before the next month: 1 day, then 2.5 + 1.5 more
    since = SIGN_UP + MONTH_S - DAY_S
    held = Allowance.of(None, SIGN_UP).settled(SIGN_UP, since)
    end = held.runs_out(SIGN_UP, since)
    assert end == pytest.approx(since + 5 * DAY_S)
    spent = Allowance(held.left_s, held.months, held.settled_ts, (since, end))
    assert spent.settled(SIGN_UP, end).left_s == pytest.approx(0.0, abs=1e-6)


def test_the_month_credited_while_at_the_cap_is_charged_first():
    # banked at 60, on vacation across a month's start: the day before it makes room for one of
    # its 2.5 days (60 - 1, capped at 60 again, - 2); crediting first would leave 57
    full = Allowance.of(None, SIGN_UP).settled(SIGN_UP, SIGN_UP + 40 * MONTH_S - DAY_S)
    since = full.settled_ts
    away = Allowance(full.left_s, full.months, full.settled_ts, (since, since + 3 * DAY_S))
    assert days(away.settled(SIGN_UP, since + 3 * DAY_S)) == pytest.approx(58.0)


def test_it_round_trips_through_its_stored_form():
    held = Allowance(12.5, 3, SIGN_UP, (SIGN_UP, SIGN_UP + DAY_S))
    assert Allowance.of(held.to_dict(), SIGN_UP) == held
