"""Faults, for real: kill -9 of a work-horse mid-think, of a whole worker, a worker dying while a
deadline is pending, and Redis refusing the enqueue after a change was written. What must
survive: the bot moves exactly once within 30 s, the deadline fires at most 5 s late, and no
follow-up is lost."""

from __future__ import annotations

import os
import signal
import time

import redis

from api.followups import RQFollowups
from api.play import service
from api.play.background import HEARTBEAT_TTL_S
from api.record import Seat, Status
from api.store.embedded import free_port
from tests.api.helpers import create, move
from tests.worker.conftest import alive, children, wait_for

THINKS_S = 4.0  # the bot's budget while it is killed: long enough to be caught thinking
BOT_FIRST = {
    "kind": "factor-bingo",
    "seats": [{"bot": "advanced"}, {"human": {"name": "Ada"}}],
    "first": 0,
    "time_control": {"type": "none"},
}


def _assert_bot_moved_exactly_once(store, game_id: str, since: float) -> None:
    record = wait_for(lambda: (r := store.load(game_id)).ply >= 1 and r, timeout_s=30)
    assert record is not None, "the bot never moved"
    assert time.monotonic() - since <= 30
    time.sleep(1.0)  # a duplicate job, if any, would have moved by now
    history = store.moves(game_id)
    assert store.load(game_id).ply == 1 and [(e["ply"], e["seat"]) for e in history] == [(0, 0)]


def test_a_horse_killed_mid_think_is_retried_and_the_bot_moves_once(client, store, start_worker):
    worker = start_worker(budget_s=THINKS_S)
    game = create(client, **BOT_FIRST)
    horses = wait_for(lambda: children(worker.pid), timeout_s=15)
    assert horses, "the worker never forked a horse for the bot's move"
    os.kill(horses[0], signal.SIGKILL)
    _assert_bot_moved_exactly_once(store, game["id"], since=time.monotonic())
    assert worker.poll() is None  # the worker itself lived on


def test_a_worker_killed_with_its_horse_leaves_no_orphan_and_another_makes_the_move(
    client, store, start_worker
):
    doomed = start_worker(budget_s=THINKS_S)
    game = create(client, **BOT_FIRST)
    horses = wait_for(lambda: children(doomed.pid), timeout_s=15)
    assert horses
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=5)
    killed = time.monotonic()
    assert wait_for(lambda: not alive(horses[0]), timeout_s=3), "the horse outlived its worker"
    start_worker()
    _assert_bot_moved_exactly_once(store, game["id"], since=killed)


def test_a_deadline_fires_on_time_after_a_worker_dies(client, store, start_worker):
    doomed, _ = start_worker(), start_worker()
    game = create(
        client, first=0, time_control={"type": "fischer", "initial_s": 3, "increment_s": 0}
    )
    moved = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).get_json()
    doomed.send_signal(signal.SIGKILL)  # whichever worker was to fire it, one is left
    deadline = store.load(game["id"]).deadline()
    record = wait_for(
        lambda: (r := store.load(game["id"])).status is Status.FINISHED and r, timeout_s=15
    )
    assert record is not None and record.result.reason == "time"
    assert 0 <= record.updated_ts - deadline <= 5, record.updated_ts - deadline
    assert moved["ply"] == 1


def test_a_failed_enqueue_after_the_write_answers_201_and_the_reconciler_moves_the_bot(
    client, store, start_worker
):
    unreachable = redis.Redis(port=free_port(), socket_connect_timeout=0.5)
    client.application.extensions["postplay"]["followups"] = RQFollowups(unreachable)
    response = client.post(
        "/api/v1/games",
        json={
            "kind": "factor-multiple",
            "seats": [{"bot": "greedy"}, {"human": {"name": "Ada"}}],
            "first": 0,
        },
    )
    assert response.status_code == 201, response.get_json()
    game_id = response.get_json()["id"]
    record, _ = service.create_game(
        store,
        RQFollowups(unreachable),
        "factor-multiple",
        None,
        [Seat.for_bot("greedy"), Seat.human("Bo")],
        first=0,
    )
    assert store.load(game_id).ply == 0 and store.load(record.id).ply == 0  # written, no job
    started = time.monotonic()
    start_worker()
    _assert_bot_moved_exactly_once(store, game_id, since=started)
    _assert_bot_moved_exactly_once(store, record.id, since=started)


def test_health_counts_only_workers_with_a_fresh_heartbeat(client, start_worker):
    def workers() -> int:
        return client.get("/api/v1/health").get_json()["workers"]

    doomed, _ = start_worker(), start_worker()
    assert wait_for(lambda: workers() == 2, timeout_s=15)
    doomed.send_signal(signal.SIGKILL)
    assert wait_for(lambda: workers() == 1, timeout_s=HEARTBEAT_TTL_S + 5, step_s=0.5)
