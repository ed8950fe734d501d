"""Draw offers and takebacks (RULES.md, "All games"): each action's success and its refusals,
the clocks a takeback restores, and the bots' answers, made on a real RQ worker."""

from __future__ import annotations

import pytest

from tests.api.helpers import auth, create, move
from tests.api.test_accounts import new_game, sign_up

FISCHER = {"type": "fischer", "initial_s": 600, "increment_s": 5}


def draw(client, game, token, action):
    return client.post(
        f"/api/v1/games/{game['id']}/draw", headers=auth(token), json={"action": action}
    )


def takeback(client, game, token, action):
    return client.post(
        f"/api/v1/games/{game['id']}/takeback", headers=auth(token), json={"action": action}
    )


def refused(response, status: int, message: str) -> None:
    assert response.status_code == status, response.get_json()
    assert message in response.get_json()["message"]


@pytest.fixture
def game(client):
    """Factor/Multiple between Ada (seat 0, to move) and Bo."""
    return create(client, first=0, time_control=FISCHER)


def test_a_draw_offered_on_your_turn_and_accepted_ends_the_game_drawn(client, game):
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    etag = client.get(f"/api/v1/games/{game['id']}").headers["ETag"]
    offered = draw(client, game, ada, "offer")
    assert offered.status_code == 201 and offered.headers["ETag"] != etag  # pollers see it
    assert offered.get_json()["offers"] == {"draw": 0, "takeback": None}
    accepted = draw(client, game, bo, "accept").get_json()
    assert accepted["status"] == "finished"
    assert accepted["result"] == {"winner": None, "reason": "agreement", "scores": None}
    assert accepted["offers"] == {"draw": None, "takeback": None}


def test_a_declined_draw_offer_leaves_the_game_running(client, game):
    draw(client, game, game["tokens"]["0"], "offer")
    declined = draw(client, game, game["tokens"]["1"], "decline").get_json()
    assert declined["status"] == "active" and declined["offers"]["draw"] is None
    assert declined["ply"] == 0 and declined["to_move"] == 0


def test_draw_refusals(client, game):
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    refused(draw(client, game, bo, "offer"), 409, "You can offer a draw only on your turn.")
    refused(draw(client, game, bo, "accept"), 409, "There is no draw offer to answer.")
    draw(client, game, ada, "offer")
    refused(draw(client, game, ada, "offer"), 409, "You have asked already")
    refused(draw(client, game, ada, "accept"), 409, "Your opponent answers your draw offer")
    refused(client.post(f"/api/v1/games/{game['id']}/draw", json={"action": "offer"}), 401, "token")
    bad = draw(client, game, bo, "maybe")
    assert bad.status_code == 400 and "action" in bad.get_json()["errors"]["json"]
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["offers"]["draw"] == 0


def test_an_offer_lapses_when_a_move_is_made(client, game):
    draw(client, game, game["tokens"]["0"], "offer")
    after = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).get_json()
    assert after["offers"] == {"draw": None, "takeback": None}
    refused(draw(client, after, game["tokens"]["1"], "accept"), 409, "no draw offer")


def test_no_offer_in_a_game_that_is_over_or_not_started(client, game):
    client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(game["tokens"]["1"]))
    refused(draw(client, game, game["tokens"]["0"], "offer"), 409, "The game is over.")
    waiting = create(client, seats=[{"human": {"name": "Ada"}}, {"open": True}], first=0)
    refused(takeback(client, waiting, waiting["tokens"]["0"], "ask"), 409, "has not started")


def test_a_granted_takeback_removes_the_move_and_restores_the_clocks(client, game, store):
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    first = move(client, game, ada, {"type": "say", "number": 4}).get_json()
    second = move(client, first, bo, {"type": "say", "number": 8}).get_json()
    before = store.load(game["id"])  # Ada to move at ply 2, her clock charged for move one
    third = move(client, second, ada, {"type": "say", "number": 16}).get_json()
    assert third["clocks"][0]["remaining_s"] > before.clocks[0]["remaining_s"]  # + increment
    asked = takeback(client, game, ada, "ask").get_json()
    assert asked["offers"] == {"draw": None, "takeback": 0} and asked["ply"] == 3
    granted = takeback(client, game, bo, "grant").get_json()
    assert granted["ply"] == 2 and granted["to_move"] == 0 and granted["state"]["said"] == [4, 8]
    assert granted["offers"] == {"draw": None, "takeback": None} and granted["takebacks"] == 1
    assert store.load(game["id"]).clocks == before.clocks  # no increment; Bo's as it was
    # Ada's clock runs again from what it showed when she moved (she thought well under 1 s)
    shown = granted["clocks"][0]["remaining_s"]
    assert before.clocks[0]["remaining_s"] - 1 < shown <= before.clocks[0]["remaining_s"]
    assert granted["clocks"][1]["remaining_s"] == pytest.approx(
        before.clocks[1]["remaining_s"], abs=0.001
    )
    history = client.get(f"/api/v1/games/{game['id']}/moves").get_json()
    assert [h["move"]["number"] for h in history] == [4, 8]
    positions = client.get(f"/api/v1/games/{game['id']}/positions").get_json()
    assert len(positions) == 3 and positions[-1]["state"] == granted["state"]
    again = move(client, granted, ada, {"type": "say", "number": 24})
    assert again.status_code == 201 and again.get_json()["state"]["said"] == [4, 8, 24]


def test_a_refused_takeback_leaves_the_move(client, game):
    after = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).get_json()
    takeback(client, game, game["tokens"]["0"], "ask")
    refused_back = takeback(client, game, game["tokens"]["1"], "refuse").get_json()
    assert refused_back["ply"] == after["ply"] == 1 and refused_back["offers"]["takeback"] is None
    assert refused_back["state"]["said"] == [4]


def test_takeback_refusals(client, game):
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    refused(takeback(client, game, ada, "ask"), 409, "There is nothing to take back")
    first = move(client, game, ada, {"type": "say", "number": 4}).get_json()
    refused(takeback(client, game, bo, "ask"), 409, "the last move is not yours")
    refused(takeback(client, game, bo, "grant"), 409, "There is no takeback request to answer.")
    takeback(client, game, ada, "ask")
    refused(takeback(client, game, ada, "grant"), 409, "Your opponent answers your takeback")
    move(client, first, bo, {"type": "say", "number": 8})  # Bo answers the move instead
    refused(takeback(client, game, bo, "grant"), 409, "no takeback request")
    refused(takeback(client, game, ada, "ask"), 409, "the last move is not yours")


def test_a_rated_game_allows_takebacks_only_when_both_accounts_do(client):
    ada, bo = sign_up(client, "ada"), sign_up(client, "bob")
    game = new_game(client, ada["token"], [{"me": True}, {"player": "bob"}])
    assert game["rated"]  # two accounts: rated unless made casual
    client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bo["token"]))
    move(client, game, ada["token"], {"type": "say", "number": 4})
    client.patch("/api/v1/me", headers=auth(bo["token"]), json={"allow_takebacks": False})
    refused(takeback(client, game, ada["token"], "ask"), 409, "rated game")
    client.patch("/api/v1/me", headers=auth(bo["token"]), json={"allow_takebacks": True})
    asked = takeback(client, game, ada["token"], "ask")
    assert asked.status_code == 201 and asked.get_json()["offers"]["takeback"] == 0


def test_a_bot_declines_a_draw_on_the_worker(client, run_jobs):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"bot": "perfect"}], first=0)
    offered = draw(client, game, game["tokens"]["0"], "offer").get_json()
    assert offered["offers"]["draw"] == 0  # the request did not answer for the bot
    assert run_jobs() == 1
    now = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert now["status"] == "active" and now["offers"]["draw"] is None and now["ply"] == 0


def test_a_perfect_bot_accepts_a_draw_its_solver_proves(client, run_jobs):
    # Ploid with n = 2 is a draw with perfect play from the start (api/bots/ploid_solver.py)
    game = create(
        client,
        kind="ploid",
        options={"n": 2},
        first=0,
        seats=[{"human": {"name": "Ada"}}, {"bot": "perfect"}],
    )
    draw(client, game, game["tokens"]["0"], "offer")
    run_jobs()
    now = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert now["result"] == {"winner": None, "reason": "agreement", "scores": None}


def test_a_bot_grants_a_takeback_in_a_casual_game(client, run_jobs):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"bot": "greedy"}], first=0)
    move(client, game, game["tokens"]["0"], {"type": "say", "number": 98})
    asked = takeback(client, game, game["tokens"]["0"], "ask").get_json()
    assert asked["offers"]["takeback"] == 0 and asked["ply"] == 1
    run_jobs()  # the bot's move job and its answer job: whichever runs first answers
    now = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert now["ply"] == 0 and now["to_move"] == 0 and now["offers"]["takeback"] is None
    assert client.get(f"/api/v1/games/{game['id']}/moves").get_json() == []


def test_a_bot_refuses_a_takeback_in_a_rated_game_and_moves(client, run_jobs):
    ada = sign_up(client, "ada")["token"]
    game = new_game(client, ada, [{"me": True}, {"bot": "greedy"}])
    assert game["rated"]  # an account against a server bot: rated against the bot's account
    move(client, game, ada, {"type": "say", "number": 98})
    takeback(client, game, ada, "ask")
    run_jobs()
    now = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert now["ply"] == 2 and now["offers"]["takeback"] is None
    assert now["state"]["said"][0] == 98
