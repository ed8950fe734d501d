"""Bot moves run on a real RQ worker against a real Redis, never inside a request."""

from __future__ import annotations

from rq import Queue

from api.followups import QUEUE
from tests.api.helpers import create, move


def test_bot_replies_on_the_worker_not_in_the_request(client, run_jobs):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"bot": "greedy"}], first=0)
    after = move(client, game, game["tokens"]["0"], {"type": "say", "number": 98}).get_json()
    assert after["ply"] == 1 and after["to_move"] == 1  # the request did not play for the bot
    assert run_jobs() == 1
    now = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert now["ply"] == 2
    assert now["state"]["said"][1] in (1, 2, 7, 14, 49)
    history = client.get(f"/api/v1/games/{game['id']}/moves").get_json()
    assert [h["seat"] for h in history] == [0, 1]


def test_bot_moving_first_is_queued_at_creation(client, run_jobs):
    game = create(client, seats=[{"bot": "random"}, {"human": {"name": "Bo"}}], first=0)
    assert game["ply"] == 0
    run_jobs()
    now = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert now["ply"] == 1 and now["state"]["said"][0] % 2 == 0


def test_a_duplicated_bot_job_is_a_no_op(client, redis_client, run_jobs):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"bot": "random"}], first=0)
    move(client, game, game["tokens"]["0"], {"type": "say", "number": 50})
    queue = Queue(QUEUE, connection=redis_client)
    duplicate = queue.enqueue("worker.jobs.bot_move", game["id"], 1)
    run_jobs()
    assert duplicate.latest_result().return_value is False
    assert len(client.get(f"/api/v1/games/{game['id']}/moves").get_json()) == 2


def test_bots_play_each_other_to_the_end(client, run_jobs):
    game = create(client, seats=[{"bot": "greedy"}, {"bot": "random"}], options={"n": 30})
    for _ in range(60):
        if run_jobs() == 0:
            break
    final = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert final["status"] == "finished" and final["result"]["reason"] == "no-moves"
    assert len(client.get(f"/api/v1/games/{game['id']}/moves").get_json()) == final["ply"]


def test_a_game_between_two_bots_is_aborted_at_the_ply_limit(client, run_jobs, monkeypatch):
    # no game of Factor/Multiple ends before its third number: 1 divides every number
    monkeypatch.setenv("POSTPLAY_BOT_GAME_PLY_LIMIT", "2")
    game = create(client, seats=[{"bot": "random"}, {"bot": "random"}], options={"n": 100})
    for _ in range(10):
        if run_jobs() == 0:
            break
    final = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert final["status"] == "finished" and final["ply"] == 2
    assert final["result"] == {"winner": None, "reason": "aborted", "scores": None}


def test_the_ply_limit_spares_a_game_with_a_person_in_it(client, run_jobs, monkeypatch):
    monkeypatch.setenv("POSTPLAY_BOT_GAME_PLY_LIMIT", "1")
    game = create(
        client, seats=[{"human": {"name": "Ada"}}, {"bot": "random"}], first=0, options={"n": 100}
    )
    move(client, game, game["tokens"]["0"], {"type": "say", "number": 60})
    run_jobs()
    now = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert now["status"] == "active" and now["ply"] == 2
