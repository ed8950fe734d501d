"""A conditional reply that ends the game, on a real RQ worker: the game is rated once and each
player is told once that it is over."""

from __future__ import annotations

import json

from rq import Queue

from api.followups import QUEUE
from api.store import keys
from tests.api.helpers import auth, move
from tests.api.test_accounts import new_game, sign_up
from tests.worker.test_ratings import _history, _rating

SAY = {n: {"type": "say", "number": n} for n in (1, 2, 7)}


def _outbox(redis_client) -> list[dict]:
    return [json.loads(fields[b"event"]) for _, fields in redis_client.xrange(keys.outbox_key())]


def test_a_conditional_reply_that_ends_the_game_rates_it_once_and_tells_each_player_once(
    client, store, redis_client, run_jobs
):
    ada, bob = sign_up(client, "ada"), sign_up(client, "bob")
    game = new_game(client, ada["token"], [{"me": True}, {"player": "bob"}], options={"n": 10})
    assert (
        client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bob["token"])).status_code
        == 201
    )
    game = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert game["rated"] is True
    game = move(client, game, ada["token"], SAY[2]).get_json()
    # 2, 1, 7: nothing is left that 7 divides or that divides 7, so Bob loses
    set_ = client.put(
        f"/api/v1/games/{game['id']}/conditional",
        headers=auth(ada["token"]),
        json={"ply": 1, "tree": [{"if": SAY[1], "then": SAY[7]}]},
    )
    assert set_.status_code == 200, set_.get_json()
    told_before = len(_outbox(redis_client))
    over = move(client, game, bob["token"], SAY[1]).get_json()
    assert over["status"] == "finished" and over["version"] == game["version"] + 1
    assert over["result"] == {"winner": 0, "reason": "no-moves", "scores": None}
    assert over["state"]["said"] == [2, 1, 7]
    ended = [e for e in _outbox(redis_client)[told_before:] if e["type"] == "game-over"]
    ids = {redis_client.get(keys.username_key(name)).decode() for name in ("ada", "bob")}
    assert sorted(e["account"] for e in ended) == sorted(ids)  # each once
    assert redis_client.get(keys.conditional_key(game["id"], 0)) is None  # the end drops it
    assert run_jobs() >= 1
    Queue(QUEUE, connection=redis_client).enqueue("worker.jobs.rate", game["id"])
    run_jobs()  # a second rating job finds the game rated: it does nothing
    assert _rating(redis_client, "ada").games == _rating(redis_client, "bob").games == 1
    assert len(_history(redis_client, "ada")) == len(_history(redis_client, "bob")) == 1
    assert _rating(redis_client, "ada").rating > 1500 > _rating(redis_client, "bob").rating
    assert [e for e in _outbox(redis_client)[told_before:] if e["type"] == "game-over"] == ended
