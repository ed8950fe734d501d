"""A worker asked to stop (SIGTERM, as systemd and Kubernetes ask) exits within 10 s, is not
started again by its own loop, and hands back the job under way and its claims: a bot move it
was thinking over is made once, by another worker."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

from rq.job import Job, JobStatus

from api.followups import bot_job_id
from api.play.background import LEASE_S, Background
from api.store import keys
from tests.api.helpers import create
from tests.worker.conftest import alive, children, wait_for
from tests.worker.test_faults import BOT_FIRST, _assert_bot_moved_exactly_once

STOPS_WITHIN_S = 10.0  # what systemd's and Kubernetes' 30 s leave room for, with a margin
THINKS_S = 60.0  # the bot's budget while the worker is stopped: far longer than a stop may take
HOGS = 2  # busy processes beside it, so that the stop is made on a loaded machine


def _live(redis_client) -> set[bytes]:
    return {
        name
        for name in redis_client.smembers(keys.workers_key())
        if redis_client.exists(keys.worker_key(name.decode()))
    }


def test_an_idle_worker_asked_to_stop_exits_and_is_not_started_again(redis_client, start_worker):
    worker = start_worker()
    assert wait_for(lambda: _live(redis_client), timeout_s=15), "the worker never beat"
    worker.send_signal(signal.SIGTERM)
    assert worker.wait(timeout=STOPS_WITHIN_S) == 0
    assert not _live(redis_client)  # its heartbeat went with it, at once


def test_a_worker_stopped_mid_think_hands_the_move_back_and_another_makes_it_once(
    client, store, redis_client, start_worker
):
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(HOGS)]
    try:
        doomed = start_worker(budget_s=THINKS_S)
        game = create(client, **BOT_FIRST)
        horses = wait_for(lambda: children(doomed.pid), timeout_s=15)
        assert horses, "the worker never forked a horse for the bot's move"
        assert wait_for(
            lambda: (
                Job.fetch(bot_job_id(store.load(game["id"])), connection=redis_client).get_status()
                == JobStatus.STARTED
            ),
            timeout_s=15,
        )
        doomed.send_signal(signal.SIGTERM)
        asked = time.monotonic()
        assert doomed.wait(timeout=STOPS_WITHIN_S) == 0
        assert not alive(horses[0]), "the horse outlived its stopped worker"
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert time.monotonic() - asked <= STOPS_WITHIN_S
    record = store.load(game["id"])
    assert record.ply == 0  # the stopped worker did not make the move
    job = Job.fetch(bot_job_id(record), connection=redis_client)
    assert job.get_status() == JobStatus.QUEUED  # handed back, for the next worker
    start_worker()
    _assert_bot_moved_exactly_once(store, game["id"], since=time.monotonic())


def test_due_checks_claimed_when_the_stop_comes_are_handed_back(redis_client):
    due = time.time() - 1
    redis_client.zadd(keys.due_key(), {"g1|deadline": due, "g2|deadline": due})
    stop = threading.Event()
    stop.set()
    assert Background(redis_client, "stopping").run_due(time.time(), stop) == 0
    # due as they were, for another worker now, not once the lease has run out
    assert redis_client.zrangebyscore(keys.due_key(), "-inf", time.time() + LEASE_S / 2) == [
        b"g1|deadline",
        b"g2|deadline",
    ]
    assert redis_client.zscore(keys.due_key(), "g1|deadline") == due
