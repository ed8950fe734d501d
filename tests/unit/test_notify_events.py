"""The events a change tells accounts of, one test per row of `api.notify.events.EVENTS`, from
records built here."""

from __future__ import annotations

import copy
import json

from api.games import Outcome, get_game
from api.notify.events import EVENTS, RAISED_BY_CHECKS, Event, Moment, derive, notices
from api.record import GameRecord, Seat, Status
from api.play.view import game_view

ADA, BOB = "acct-ada", "acct-bob"


def record(seats=None, first=0) -> GameRecord:
    game = get_game("factor-multiple")
    options = game.check_options({"n": 30})
    seats = seats or [Seat.for_account(ADA, "ada"), Seat.for_account(BOB, "bob")]
    return GameRecord.create(
        "g1",
        "factor-multiple",
        options,
        7,
        first,
        seats,
        game.new(options, first, 7),
        0,
        {"type": "none"},
        None,
        100.0,
    )


def say(rec: GameRecord, number: int) -> GameRecord:
    after = copy.deepcopy(rec)
    mover = after.to_move
    state = after.state().apply(
        get_game("factor-multiple").parse_move({"type": "say", "number": number})
    )
    after.end_turn(mover, state.to_move, 101.0)
    after.set_state(state, after.ply + 1)
    after.updated_ts = 101.0
    return after


def events(before: GameRecord | None, after: GameRecord) -> list[tuple[str, str]]:
    return [
        (e.value, a)
        for e, a in derive(None if before is None else Moment.of(before), Moment.of(after))
    ]


def test_every_event_a_change_calls_for_has_one_row():
    assert [event for event, _ in EVENTS] == [e for e in Event if e not in RAISED_BY_CHECKS]


def test_turn_tells_the_account_now_to_move():
    start = record()
    assert events(None, start) == [("turn", ADA)]  # a new game: the first mover
    assert events(start, say(start, 4)) == [("turn", BOB)]


def test_turn_is_not_told_when_the_turn_did_not_change():
    start = record()
    same = copy.deepcopy(start)
    same.updated_ts = 102.0  # a change that leaves the turn as it was (a claim, a chat line...)
    assert events(start, same) == []


def test_turn_tells_nobody_when_a_bot_or_an_anonymous_player_is_to_move():
    start = record([Seat.for_account(ADA, "ada"), Seat.for_bot("greedy")])
    assert events(start, say(start, 4)) == []
    anonymous = record([Seat.human("Ann"), Seat.human("Bo")])
    assert Moment.of(anonymous) is None and events(None, anonymous) == []


def test_game_over_tells_every_account_once():
    start = record()
    over = copy.deepcopy(start)
    over.finish(Outcome(1, "resign"))
    over.updated_ts = 102.0
    assert events(start, over) == [("game-over", ADA), ("game-over", BOB)]
    again = copy.deepcopy(over)
    again.updated_ts = 103.0
    assert events(over, again) == []


def test_challenge_tells_the_account_newly_invited():
    waiting = record([Seat.for_account(ADA, "ada"), Seat.invite(BOB, "bob")])
    assert waiting.status is Status.WAITING
    assert events(None, waiting) == [("challenge", BOB)]
    accepted = copy.deepcopy(waiting)
    accepted.take_seat(1, Seat.for_account(BOB, "bob"), 102.0)
    accepted.updated_ts = 102.0
    assert events(waiting, accepted) == [("turn", ADA)]


def test_draw_offer_tells_the_opponent():
    start = record()
    offered = copy.deepcopy(start)
    offered.offers = {"draw": 0, "takeback": None}
    assert events(start, offered) == [("draw-offer", BOB)]
    assert events(offered, copy.deepcopy(offered)) == []  # still standing: told once


def test_takeback_tells_the_opponent():
    moved = say(record(), 4)
    asked = copy.deepcopy(moved)
    asked.offers = {"draw": None, "takeback": 0}
    assert events(moved, asked) == [("takeback", BOB)]


def test_chat_tells_the_players_but_the_author():
    start = record()
    start.chat_count = 1
    answered = copy.deepcopy(start)
    answered.chat_count = 2  # seat 1 (bob) wrote the second message
    assert derive(Moment.of(start), Moment.of(answered, chat_author=1)) == [(Event.CHAT, ADA)]
    assert events(answered, copy.deepcopy(answered)) == []


def test_notices_carry_the_game_as_the_api_shows_it():
    start = record()
    after = say(start, 4)
    (entry,) = notices(Moment.of(start), after)
    body = json.loads(entry["body"])
    assert entry["type"] == body["type"] == "turn" and entry["account"] == BOB
    assert entry["id"].startswith("msg_") and entry["game"] == "g1"
    assert body["data"] == game_view(after, after.updated_ts)
    assert body["timestamp"] == after.to_dict()["updated_at"]
