"""Clocks are enforced by the worker: a game whose time runs out ends on time with nobody
looking, never early; stale deadline jobs do nothing; a deadline is stored with the move that
starts its turn, so it survives a worker restart."""

from __future__ import annotations

import time

import pytest
from api.clocks import parse_iso
from api.store import keys
from api.games import Outcome
from api.play import service
from api.record.errors import TimeRanOut
from api.record import Status
from tests.api.helpers import create, move

TWO_SECONDS = {"type": "fischer", "initial_s": 2, "increment_s": 0}


def _wait_finished(store, game_id: str, timeout_s: float = 15) -> dict:
    end = time.time() + timeout_s
    while time.time() < end:
        record = store.load(game_id)  # straight from Redis: no request ever touches the game
        if record.status is Status.FINISHED:
            return record
        time.sleep(0.05)
    raise AssertionError("the game did not end")


def test_flag_falls_with_nobody_watching_and_never_early(client, store, start_worker):
    start_worker()
    game = create(client, first=0, time_control=TWO_SECONDS)
    after = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).get_json()
    deadline = parse_iso(after["deadline"])
    record = _wait_finished(store, game["id"])
    assert record.result == Outcome(0, "time")
    assert record.updated_ts >= deadline
    assert record.clocks[1]["remaining_s"] == 0.0


def test_first_move_never_made_aborts_the_game(client, store, start_worker):
    start_worker()
    game = create(client, first=1, time_control=TWO_SECONDS)
    assert _wait_finished(store, game["id"]).result == Outcome(None, "aborted")


def test_a_deadline_is_stored_with_its_move_and_survives_a_worker_restart(
    client, store, redis_client, start_worker
):
    worker = start_worker()
    game = create(client, first=0, time_control=TWO_SECONDS)
    after = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).get_json()
    worker.terminate()  # a restart: no worker runs while the deadline passes
    worker.wait(timeout=10)
    due = redis_client.zscore(keys.due_key(), f"{game['id']}|deadline")
    assert due == pytest.approx(parse_iso(after["deadline"]), abs=0.001)
    time.sleep(2.5)
    assert store.load(game["id"]).status is Status.ACTIVE  # nobody ended it meanwhile
    start_worker()
    assert _wait_finished(store, game["id"]).result.reason == "time"


def test_a_stale_deadline_job_is_a_no_op(client, store, run_jobs):
    game = create(
        client, first=0, time_control={"type": "fischer", "initial_s": 2, "increment_s": 60}
    )
    after = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).get_json()
    move(client, after, game["tokens"]["1"], {"type": "say", "number": 8})
    time.sleep(2.2)  # the first two deadlines have passed; both turns were made in time
    run_jobs(with_due_checks=True)
    record = store.load(game["id"])
    assert record.status is Status.ACTIVE and record.ply == 2


def test_a_move_after_the_deadline_is_refused_and_the_game_ends_on_time(client, store):
    game = create(client, first=0, time_control=TWO_SECONDS)
    moved = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).get_json()
    late = parse_iso(moved["deadline"]) + 0.5
    followups = client.application.extensions["postplay"]["followups"]
    with pytest.raises(TimeRanOut, match="time ran out"):
        service.play_move(
            store, followups, game["id"], 1, {"type": "say", "number": 8}, 1, now=late
        )
    record = store.load(game["id"])
    assert record.result == Outcome(0, "time") and record.ply == 1
