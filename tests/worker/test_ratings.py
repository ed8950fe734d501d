"""The rating job, for real: a rated game's end moves both ratings exactly once, whether the job
runs twice, two games of one account end at the same moment, or the worker applying it is
killed with kill -9 mid-update."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

from rq import Queue

from api.followups import QUEUE
from api.players import ratings
from api.store.ratings import RatingStore
from tests.api.helpers import auth, move
from tests.api.test_accounts import new_game, sign_up
from tests.worker.conftest import alive, children, wait_for

SAY_4 = {"type": "say", "number": 4}


def _ended_rated_game(client, ada: dict, bob: dict) -> str:
    """A rated game between Ada and Bob that Bob resigned after Ada's first move."""
    game = new_game(client, ada["token"], [{"me": True}, {"player": "bob"}])
    assert (
        client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bob["token"])).status_code
        == 201
    )
    game = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert move(client, game, ada["token"], SAY_4).status_code == 201
    assert (
        client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(bob["token"])).status_code
        == 201
    )
    return game["id"]


def _rating(redis_client, username: str) -> ratings.Rating:
    account_id = redis_client.get(f"pp:username:{username}").decode()
    (raw,) = RatingStore(redis_client).read("factor-multiple", [account_id])
    return ratings.Rating.from_raw(raw)


def _history(redis_client, username: str) -> list[dict]:
    account_id = redis_client.get(f"pp:username:{username}").decode()
    return RatingStore(redis_client).history(account_id, "factor-multiple")


def test_the_rating_job_run_twice_updates_both_ratings_exactly_once(
    client, store, redis_client, run_jobs
):
    ada, bob = sign_up(client, "ada"), sign_up(client, "bob")
    game_id = _ended_rated_game(client, ada, bob)
    assert run_jobs() == 1
    after_once = (_rating(redis_client, "ada"), _rating(redis_client, "bob"))
    changes = store.load(game_id).rating_changes
    Queue(QUEUE, connection=redis_client).enqueue("worker.jobs.rate", game_id)
    assert run_jobs() == 1  # the second run found the ratings applied: it did nothing
    assert (_rating(redis_client, "ada"), _rating(redis_client, "bob")) == after_once
    assert after_once[0].games == after_once[1].games == 1
    assert len(_history(redis_client, "ada")) == len(_history(redis_client, "bob")) == 1
    assert store.load(game_id).rating_changes == changes
    assert RatingStore(redis_client).due(time.time() + 60) == []


def test_two_games_of_one_account_ending_together_lose_no_update(client, store, redis_client):
    ada, bob, cyd = sign_up(client, "ada"), sign_up(client, "bob"), sign_up(client, "cyd")
    first = _ended_rated_game(client, ada, bob)
    game = new_game(client, ada["token"], [{"me": True}, {"player": "cyd"}])
    client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(cyd["token"]))
    move(client, game, ada["token"], SAY_4)
    client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(cyd["token"]))
    rating_store = RatingStore(redis_client)
    barrier = threading.Barrier(2)
    applied = {}

    def apply(game_id: str) -> None:
        barrier.wait()
        applied[game_id] = ratings.apply_game(store, rating_store, game_id)

    threads = [threading.Thread(target=apply, args=(g,)) for g in (first, game["id"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(applied.values())
    ada_after = _rating(redis_client, "ada")
    assert ada_after.games == 2 and len(_history(redis_client, "ada")) == 2
    # whichever landed first, the second was computed from the first's rating
    ordered = sorted(applied.values(), key=lambda changes: changes[0]["before"])
    assert ordered[0][0]["before"] == 1500
    assert ordered[1][0]["before"] == ordered[0][0]["after"]
    assert round(ada_after.rating, 1) == ordered[1][0]["after"]


def test_a_game_still_running_owes_no_rating(client, store, redis_client):
    ada = sign_up(client, "ada")
    game = new_game(client, ada["token"], [{"me": True}, {"bot": "greedy"}])
    assert game["rated"] and not store.load(game["id"]).rating_due
    assert ratings.apply_game(store, RatingStore(redis_client), game["id"]) is None
    assert RatingStore(redis_client).due(time.time() + 60) == []


# the rating job's commit waits this long, in the worker that is killed: the window in which it
# has read both ratings and computed the update but not yet written it
SLOW_COMMIT = """
import time
from api.store.games import GameStore
update = GameStore.update
def slow(self, game_id, change):
    def waiting(record):
        result = change(record)
        if result.guards:
            open({marker!r}, "w").close()
            time.sleep(30)
        return result
    return update(self, game_id, waiting)
GameStore.update = slow
from api.cli import main
main(["worker"])
"""


def test_a_worker_killed_mid_update_leaves_the_rating_to_land_exactly_once(
    client, store, redis_client, redis_url, start_worker, tmp_path
):
    ada, bob = sign_up(client, "ada"), sign_up(client, "bob")
    marker = tmp_path / "reading"
    doomed = subprocess.Popen(
        [sys.executable, "-c", SLOW_COMMIT.format(marker=str(marker))],
        env={**os.environ, "REDIS_URL": redis_url},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        game_id = _ended_rated_game(client, ada, bob)
        assert wait_for(marker.exists, timeout_s=20), "the worker never started the rating job"
        horses = children(doomed.pid)
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(timeout=5)
        assert wait_for(lambda: not any(alive(h) for h in horses), timeout_s=5)
    finally:
        if doomed.poll() is None:
            doomed.kill()
    assert store.load(game_id).rating_changes is None  # killed before it wrote anything
    assert _rating(redis_client, "ada").games == 0
    start_worker()  # the reconciler finds the lost job and enqueues it again
    record = wait_for(
        lambda: (r := store.load(game_id)).rating_changes and r, timeout_s=40, step_s=0.2
    )
    assert record is not None, "the rating never landed"
    time.sleep(1.0)  # a duplicate run, if any, would have landed by now
    assert _rating(redis_client, "ada").games == _rating(redis_client, "bob").games == 1
    assert len(_history(redis_client, "ada")) == len(_history(redis_client, "bob")) == 1
    assert record.rating_changes[0]["after"] == round(_rating(redis_client, "ada").rating, 1)
