"""Correspondence tools through the API, for every kind: conditional moves (the reply played in
the opponent's move's own write, dropped by any other move and by a takeback, its owner's
alone), private notes, the explore board (exactly a game's /positions from its moves), and the
bad input each refuses with the stored tree, notes and game unchanged."""
from __future__ import annotations

import random
import threading

import pytest

from api.games import GAMES
from tests.api.helpers import auth, create, move

KINDS = sorted(GAMES)


def explore(client, kind, **body):
    return client.post(f"/api/v1/kinds/{kind}/explore", json=body)


def game_of(client, game_id):
    return client.get(f"/api/v1/games/{game_id}").get_json()


def playable(client, kind, game_id, before, listed, avoid=None):
    """The first listed move that plays from the game's position after `before` (a listing
    may show a move's shape without every field, Prime Drop's challenges)."""
    for candidate in listed:
        if candidate != avoid and explore(client, kind, game_id=game_id, ply=0,
                                          moves=before + [candidate]).status_code == 200:
            return candidate
    raise AssertionError("no playable move")


def turn(client, kind, game_id, before, seat, avoid=None):
    """`seat`'s whole turn after the moves `before` (from the game's start), each its first
    playable move (the first one not `avoid`)."""
    moves = []
    while True:
        found = explore(client, kind, game_id=game_id, ply=0, moves=before + moves).get_json()
        if found["outcome"] is not None or found["positions"][-1]["to_move"] != seat:
            return moves
        moves.append(playable(client, kind, game_id, before + moves, found["legal_moves"],
                              avoid if not moves else None))


def played(client, game_id):
    """The players' moves of the game so far (the server's passes left out)."""
    return [e["move"] for e in client.get(f"/api/v1/games/{game_id}/moves").get_json()
            if e["move"]["type"] != "pass"]


def play_turn(client, game_id, token, moves):
    response = None
    for one in moves:
        response = move(client, game_of(client, game_id), token, one)
        assert response.status_code == 201, response.get_json()
    return response.get_json()


def one_or_many(moves):
    return moves[0] if len(moves) == 1 else moves


@pytest.fixture
def after_ada(client, request):
    """A game of `kind` in which Ada (seat 0) has just played her first turn, with Bo's turn
    next and Ada's answer to it found by exploring: (game, Bo's turn, Ada's answer)."""
    kind = request.param
    game = create(client, kind, first=0)
    ada = game["tokens"]["0"]
    play_turn(client, game["id"], ada, turn(client, kind, game["id"], [], 0))
    before = played(client, game["id"])
    bo_turn = turn(client, kind, game["id"], before, 1)
    answer = turn(client, kind, game["id"], before + bo_turn, 0)
    return game, bo_turn, answer


def conditional(client, game, token, tree, ply=None):
    ply = game_of(client, game["id"])["ply"] if ply is None else ply
    return client.put(f"/api/v1/games/{game['id']}/conditional", headers=auth(token),
                      json={"ply": ply, "tree": tree})


def tree_of(client, game, token):
    return client.get(f"/api/v1/games/{game['id']}/conditional", headers=auth(token))


@pytest.mark.parametrize("after_ada", KINDS, indirect=True)
def test_a_matching_move_gets_the_reply_in_the_same_version(client, after_ada):
    game, bo_turn, answer = after_ada
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    tree = [{"if": one_or_many(bo_turn), "then": one_or_many(answer)}]
    set_ = conditional(client, game, ada, tree)
    assert set_.status_code == 200, set_.get_json()
    assert set_.get_json()["tree"] == tree
    before = game_of(client, game["id"])
    for one in bo_turn[:-1]:  # (a turn of several actions: the tree follows it)
        move(client, game_of(client, game["id"]), bo, one)
    last = game_of(client, game["id"])
    after = move(client, last, bo, bo_turn[-1]).get_json()
    assert after["version"] == last["version"] + 1  # one write
    assert after["to_move"] in (1, None)
    assert played(client, game["id"])[-len(answer):] == answer
    history = client.get(f"/api/v1/games/{game['id']}/moves").get_json()
    assert after["ply"] == len(history) >= before["ply"] + len(bo_turn) + len(answer)
    assert [e["seat"] for e in history if e["move"] in answer][-len(answer):] == [0] * len(answer)
    assert tree_of(client, game, ada).get_json()["tree"] == []  # no branch below: done


@pytest.mark.parametrize("after_ada", KINDS, indirect=True)
def test_a_deviating_move_drops_the_tree(client, after_ada):
    game, bo_turn, answer = after_ada
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    assert conditional(client, game, ada, [{"if": one_or_many(bo_turn),
                                             "then": one_or_many(answer)}]).status_code == 200
    now = game_of(client, game["id"])
    listed = client.get(f"/api/v1/games/{game['id']}/legal-moves").get_json()["moves"]
    other = playable(client, game["kind"], game["id"], played(client, game["id"]), listed,
                     avoid=bo_turn[0])
    after = move(client, now, bo, other).get_json()
    assert after["version"] == now["version"] + 1
    assert played(client, game["id"])[-1] == other  # no reply
    assert tree_of(client, game, ada).get_json()["tree"] == []


@pytest.mark.parametrize("after_ada", KINDS, indirect=True)
def test_a_takeback_before_the_opponents_move_drops_the_tree(client, after_ada):
    game, bo_turn, answer = after_ada
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    ada_turn = played(client, game["id"])
    assert conditional(client, game, ada, [{"if": one_or_many(bo_turn),
                                             "then": one_or_many(answer)}]).status_code == 200
    # Ada takes back her turn's last action and plays it again: the same position, yet the
    # tree was set for the moves before the takeback, and counts no more
    for action in ("ask", "grant"):
        answered = client.post(f"/api/v1/games/{game['id']}/takeback",
                               headers=auth(ada if action == "ask" else bo),
                               json={"action": action})
        assert answered.status_code == 201, answered.get_json()
    play_turn(client, game["id"], ada, ada_turn[-1:])
    assert tree_of(client, game, ada).get_json()["tree"] == []
    ply = game_of(client, game["id"])["ply"]
    after = play_turn(client, game["id"], bo, bo_turn)
    assert after["ply"] <= ply + len(bo_turn) + 2  # (at most the server's passes after it)
    assert played(client, game["id"])[-len(bo_turn):] == bo_turn  # no reply


@pytest.mark.parametrize("after_ada", KINDS, indirect=True)
def test_nobody_but_the_owner_sees_the_tree_or_the_notes(client, after_ada):
    game, bo_turn, answer = after_ada
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    version = game_of(client, game["id"])["version"]
    tree = [{"if": one_or_many(bo_turn), "then": one_or_many(answer)}]
    assert conditional(client, game, ada, tree).status_code == 200
    notes = client.put(f"/api/v1/games/{game['id']}/notes", headers=auth(ada),
                       json={"text": "Bo always cuts the corner."})
    assert notes.status_code == 200
    assert tree_of(client, game, ada).get_json()["tree"] == tree
    assert tree_of(client, game, bo).get_json()["tree"] == []  # Bo's own: none
    assert tree_of(client, game, "not-a-token").status_code == 401
    assert client.get(f"/api/v1/games/{game['id']}/conditional").status_code == 401
    assert client.get(f"/api/v1/games/{game['id']}/notes", headers=auth(bo)).get_json() == {
        "text": ""}
    assert client.get(f"/api/v1/games/{game['id']}/notes").status_code == 401
    seen = client.get(f"/api/v1/games/{game['id']}")
    assert seen.get_json()["version"] == version  # setting them wrote no new version
    for response in (seen, client.get(f"/api/v1/games/{game['id']}/export"),
                     client.get(f"/api/v1/games/{game['id']}/export", headers=auth(bo)),
                     client.get(f"/api/v1/games?status=active")):
        text = response.get_data(as_text=True)
        assert "corner" not in text and "conditional" not in text and '"then"' not in text
    mine = client.get(f"/api/v1/games/{game['id']}/export", headers=auth(ada)).get_json()
    assert mine["notes"] == "Bo always cuts the corner."


def _random_game(client, kind, rng, plies):
    game = create(client, kind, first=rng.randrange(2))
    tokens = game["tokens"]
    for _ in range(plies):
        now = game_of(client, game["id"])
        if now["to_move"] is None:
            break
        listed = client.get(f"/api/v1/games/{game['id']}/legal-moves").get_json()["moves"]
        rng.shuffle(listed)
        for candidate in listed[:8]:
            if move(client, now, tokens[str(now["to_move"])], candidate).status_code == 201:
                break
    return game


@pytest.mark.parametrize("kind", KINDS)
def test_explore_from_the_start_with_a_games_moves_gives_its_positions(client, kind):
    rng = random.Random(f"explore:{kind}")
    for _ in range(2):
        game = _random_game(client, kind, rng, rng.randrange(4, 16))
        explored = explore(client, kind, game_id=game["id"], ply=0,
                           moves=played(client, game["id"]))
        assert explored.status_code == 200, explored.get_json()
        positions = client.get(f"/api/v1/games/{game['id']}/positions").get_json()
        assert explored.get_json()["positions"] == positions
        now = game_of(client, game["id"])
        assert explored.get_json()["outcome"] == now["result"]
        from_state = explore(client, kind, state=now["state"], moves=[]).get_json()
        assert from_state["positions"][0]["state"] == now["state"]
        assert from_state["legal_moves"] == client.get(
            f"/api/v1/games/{game['id']}/legal-moves").get_json()["moves"]
