"""Vacation on real workers: a correspondence deadline moves with a vacation and the flag does not
fall during it (it falls after, the vacation's time not charged); and a web process killed -9
half way through telling an account's games of its vacation leaves no game to lose on time: the
worker learns the vacation when the deadline falls due. Time is compressed by starting the turns
a day (less a few seconds) ago, through the store, so one-day deadlines fall within the test."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest
import requests

from api.clocks import DAY_S
from api.games import Outcome
from api.record import Status
from api.store import keys
from api.store.accounts import AccountStore
from api.store.embedded import free_port
from api.store.games import Change
from tests.api.helpers import auth, move
from tests.api.test_accounts import new_game, sign_up
from tests.worker.conftest import wait_for

ONE_DAY = {"type": "correspondence", "days_per_move": 1}


def _due_in(store, game_id: str, seconds: float) -> float:
    """Start the running turn a day, less `seconds`, ago: its deadline falls `seconds` from now."""

    def change(record):
        record.turn_started_ts = time.time() - DAY_S + seconds
        return Change(record)

    return store.update(game_id, change).record.deadline()


def _games_against_a_bot(client, token: str, count: int) -> list[str]:
    """Games against a bot where the account is to move first."""
    return [
        new_game(client, token, [{"me": True}, {"bot": "greedy"}], time_control=ONE_DAY)["id"]
        for _ in range(count)
    ]


def test_a_vacation_moves_the_deadline_and_the_flag_falls_only_after_it(
    client, store, redis_client, start_worker
):
    start_worker()
    ada = sign_up(client, "ada")
    (game_id,) = _games_against_a_bot(client, ada["token"], 1)
    move(client, {"id": game_id, "ply": 0}, ada["token"], {"type": "say", "number": 4})
    assert wait_for(lambda: store.load(game_id).ply == 2, timeout_s=15), "the bot never moved"
    deadline = _due_in(store, game_id, 2.0)
    on_at = time.time()
    assert (
        client.put("/api/v1/me/vacation", headers=auth(ada["token"]), json={"on": True}).status_code
        == 200
    )
    moved = redis_client.zscore(keys.due_key(), f"{game_id}|deadline")
    assert moved > deadline + 2 * DAY_S  # the worker's check moved with the deadline
    time.sleep(4.0)  # past the deadline the game had: the worker's thread has looked twice over
    assert store.load(game_id).status is Status.ACTIVE
    off_at = time.time()
    assert (
        client.put(
            "/api/v1/me/vacation", headers=auth(ada["token"]), json={"on": False}
        ).status_code
        == 200
    )
    record = wait_for(
        lambda: (r := store.load(game_id)).status is Status.FINISHED and r, timeout_s=15
    )
    assert record is not None, "the flag never fell after the vacation"
    assert record.result == Outcome(1, "time")
    # it fell once the time not spent on vacation ran out: the vacation's time was not charged
    assert record.updated_ts >= deadline + (off_at - on_at) - 0.1


@pytest.fixture
def web_process(redis_url):
    """The app in a process of its own (Werkzeug's server, one request at a time), to kill -9."""
    port = free_port()
    code = (
        "import sys; from werkzeug.serving import make_server; from api.web import "
        "create_app; make_server('127.0.0.1', int(sys.argv[1]), create_app({'RATELIMIT_"
        "ENABLED': False})).serve_forever()"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(port)],
        env={**os.environ, "REDIS_URL": redis_url},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/api/v1"
    assert wait_for(lambda: _answers(base), timeout_s=30), "the web process did not start"
    yield proc, base
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=10)


def _answers(base: str) -> bool:
    try:
        return requests.get(f"{base}/kinds", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def test_a_web_process_killed_mid_switch_loses_no_game_on_time(
    client, store, redis_client, start_worker, web_process
):
    proc, base = web_process
    ada = sign_up(client, "ada")
    games = _games_against_a_bot(client, ada["token"], 200)
    start_worker()
    account_id = AccountStore(redis_client).find("ada")["id"]
    allowance_key = keys.account_part_key(account_id, "vacation")
    deadlines = {game_id: _due_in(store, game_id, 6.0) for game_id in games}

    threading.Thread(target=lambda: _switch_on_quietly(base, ada["token"]), daemon=True).start()
    # the newest game is told first: once it is, the others are being told
    assert wait_for(lambda: store.load(games[-1]).vacations, timeout_s=10, step_s=0.0005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=5)
    assert redis_client.exists(allowance_key)
    told = sum(bool(r.vacations) for r in store.load_many(games))
    assert 0 < told < len(games), f"{told} games were told before the kill"

    # every deadline passes, and the worker comes to each game's check (however busy the
    # machine): each game is then either told of the vacation or lost on time
    time.sleep(max(0.0, max(deadlines.values()) - time.time()))
    settled = lambda: all(  # noqa: E731
        r.status is not Status.ACTIVE or account_id in r.vacations for r in store.load_many(games)
    )
    assert wait_for(settled, timeout_s=60), "the worker never came to every game's deadline"
    records = store.load_many(games)
    assert [r.id for r in records if r.status is not Status.ACTIVE] == []
    assert all(account_id in r.vacations for r in records)  # the worker told the others
    due = [redis_client.zscore(keys.due_key(), f"{g}|deadline") for g in games]
    assert min(due) > time.time() + 2 * DAY_S


def _switch_on_quietly(base: str, token: str) -> None:
    try:
        requests.put(f"{base}/me/vacation", headers=auth(token), json={"on": True}, timeout=30)
    except requests.RequestException:
        pass  # the server is killed under it
