"""The typed game record: built in one place, ended only by `finish`, serialised exactly, and
reading the documents stored before it existed."""

from __future__ import annotations

import pytest

from api import clocks
from api.games import Outcome, get_game
from api.record import UNANSWERED_S, UNJOINED_S, GameRecord, Seat, Status

BYOYOMI = {"type": "byoyomi", "main_s": 10, "periods": 3, "period_s": 30}


def new_record(seats=None, time_control=None, now=1000.0) -> GameRecord:
    game = get_game("factor-multiple")
    options = game.check_options({"n": 10})
    tc = clocks.check(time_control or {"type": "none"})
    return GameRecord.create(
        "g1",
        game.slug,
        options,
        7,
        0,
        seats or [Seat.human("Ada"), Seat.for_bot("greedy")],
        game.new(options, 0, 7),
        0,
        tc,
        clocks.start(tc),
        now,
    )


def test_a_new_record_waits_for_an_open_seat_and_starts_when_it_is_taken():
    record = new_record([Seat.human("Ada"), Seat.empty(listed=False)])
    assert record.status is Status.WAITING and record.to_move is None and record.unlisted
    record.take_seat(1, Seat.human("Bo"), now=1005.0)
    assert record.status is Status.ACTIVE and record.to_move == 0
    assert record.turn_started_ts == 1005.0 and not record.unlisted


def test_a_lobby_game_is_abandoned_after_14_days_and_a_challenge_after_7():
    lobby = new_record([Seat.human("Ada"), Seat.empty()])
    challenge = new_record([Seat.for_account("a1", "ada"), Seat.invite("b2", "bo")])
    assert lobby.due_checks() == {"abandoned": 1000.0 + UNJOINED_S}
    assert challenge.due_checks() == {"abandoned": 1000.0 + UNANSWERED_S}
    assert challenge.abandoned(1000.0 + UNANSWERED_S) and not lobby.abandoned(1000.0 + UNANSWERED_S)


def test_finish_ends_the_game_and_refuses_an_unknown_reason():
    record = new_record()
    with pytest.raises(ValueError):
        record.finish(Outcome(0, "checkmate"))
    assert record.status is Status.ACTIVE
    record.finish(Outcome(1, "resign"))
    assert record.status is Status.FINISHED and record.result == Outcome(1, "resign")
    assert record.to_move is None


def test_the_flag_falls_at_the_deadline_and_not_before():
    record = new_record(time_control=BYOYOMI)
    assert record.deadline() == 1000.0 + 10 + 3 * 30
    assert not record.flagged(1099.9) and record.flagged(1100.0)
    record.end_on_time()
    assert record.result == Outcome(None, "aborted")  # the first move never came
    assert record.clocks[0] == {"remaining_s": 0.0, "periods_left": 0}


def test_a_record_round_trips_exactly_through_its_json():
    record = new_record(time_control=BYOYOMI)
    record.first_move_ts = 1001.25
    record.finish(Outcome(0, "no-moves"))
    again = GameRecord.from_dict(record.to_dict())
    assert again == record and again.to_dict() == record.to_dict()
    assert again.state() == record.state()


def test_a_document_stored_before_the_record_class_still_loads():
    old = {
        "id": "g0",
        "kind": "factor-multiple",
        "options": {"n": 10, "even_start": True},
        "seed": 3,
        "status": "waiting",
        "seats": [
            {"name": "Ada", "bot": None, "open": False},
            {"name": None, "bot": None, "open": True, "listed": False},
        ],
        "first": 0,
        "unlisted": True,
        "ply": 0,
        "version": 1,
        "state": {"n": 10, "said": [], "current": None},
        "result": None,
        "time_control": {"type": "none"},
        "clocks": None,
        "turn_started_ts": 5.0,
        "created_at": "1970-01-01T00:00:05.000Z",
        "updated_at": "1970-01-01T00:00:06.500Z",
        "created_ts": 5.0,
    }
    record = GameRecord.from_dict(old)
    assert record.updated_ts == 6.5 and record.unlisted and record.seats[1].open
    assert {k: v for k, v in record.to_dict().items() if k != "updated_ts"} == old
