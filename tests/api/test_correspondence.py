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
from tests.api.test_contract import SCHEMAS, check, errors

KINDS = sorted(GAMES)


def explore(client, kind, **body):
    return client.post(f"/api/v1/kinds/{kind}/explore", json=body)


def game_of(client, game_id):
    return client.get(f"/api/v1/games/{game_id}").get_json()


def playable(client, kind, game_id, before, listed, avoid=None):
    """The first listed move that plays from the game's position after `before` (a listing
    may show a move's shape without every field, Prime Drop's challenges)."""
    for candidate in listed:
        if (
            candidate != avoid
            and explore(
                client, kind, game_id=game_id, ply=0, moves=before + [candidate]
            ).status_code
            == 200
        ):
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
        moves.append(
            playable(
                client,
                kind,
                game_id,
                before + moves,
                found["legal_moves"],
                avoid if not moves else None,
            )
        )


def played(client, game_id):
    """The players' moves of the game so far (the server's passes left out)."""
    return [
        e["move"]
        for e in client.get(f"/api/v1/games/{game_id}/moves").get_json()
        if e["move"]["type"] != "pass"
    ]


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
    return client.put(
        f"/api/v1/games/{game['id']}/conditional",
        headers=auth(token),
        json={"ply": ply, "tree": tree},
    )


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
    assert played(client, game["id"])[-len(answer) :] == answer
    history = client.get(f"/api/v1/games/{game['id']}/moves").get_json()
    assert after["ply"] == len(history) >= before["ply"] + len(bo_turn) + len(answer)
    assert [e["seat"] for e in history if e["move"] in answer][-len(answer) :] == [0] * len(answer)
    assert tree_of(client, game, ada).get_json()["tree"] == []  # no branch below: done


@pytest.mark.parametrize("after_ada", KINDS, indirect=True)
def test_a_deviating_move_drops_the_tree(client, after_ada):
    game, bo_turn, answer = after_ada
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    assert (
        conditional(
            client, game, ada, [{"if": one_or_many(bo_turn), "then": one_or_many(answer)}]
        ).status_code
        == 200
    )
    now = game_of(client, game["id"])
    listed = client.get(f"/api/v1/games/{game['id']}/legal-moves").get_json()["moves"]
    other = playable(
        client, game["kind"], game["id"], played(client, game["id"]), listed, avoid=bo_turn[0]
    )
    after = move(client, now, bo, other).get_json()
    assert after["version"] == now["version"] + 1
    assert played(client, game["id"])[-1] == other  # no reply
    assert tree_of(client, game, ada).get_json()["tree"] == []


@pytest.mark.parametrize("after_ada", KINDS, indirect=True)
def test_a_takeback_before_the_opponents_move_drops_the_tree(client, after_ada):
    game, bo_turn, answer = after_ada
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    ada_turn = played(client, game["id"])
    assert (
        conditional(
            client, game, ada, [{"if": one_or_many(bo_turn), "then": one_or_many(answer)}]
        ).status_code
        == 200
    )
    # Ada takes back her turn's last action and plays it again: the same position, yet the
    # tree was set for the moves before the takeback, and counts no more
    for action in ("ask", "grant"):
        answered = client.post(
            f"/api/v1/games/{game['id']}/takeback",
            headers=auth(ada if action == "ask" else bo),
            json={"action": action},
        )
        assert answered.status_code == 201, answered.get_json()
    play_turn(client, game["id"], ada, ada_turn[-1:])
    assert tree_of(client, game, ada).get_json()["tree"] == []
    ply = game_of(client, game["id"])["ply"]
    after = play_turn(client, game["id"], bo, bo_turn)
    assert after["ply"] <= ply + len(bo_turn) + 2  # (at most the server's passes after it)
    assert played(client, game["id"])[-len(bo_turn) :] == bo_turn  # no reply


@pytest.mark.parametrize("after_ada", KINDS, indirect=True)
def test_nobody_but_the_owner_sees_the_tree_or_the_notes(client, after_ada):
    game, bo_turn, answer = after_ada
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    version = game_of(client, game["id"])["version"]
    tree = [{"if": one_or_many(bo_turn), "then": one_or_many(answer)}]
    assert conditional(client, game, ada, tree).status_code == 200
    notes = client.put(
        f"/api/v1/games/{game['id']}/notes",
        headers=auth(ada),
        json={"text": "Bo always cuts the corner."},
    )
    assert notes.status_code == 200
    assert tree_of(client, game, ada).get_json()["tree"] == tree
    assert tree_of(client, game, bo).get_json()["tree"] == []  # Bo's own: none
    assert tree_of(client, game, "not-a-token").status_code == 401
    assert client.get(f"/api/v1/games/{game['id']}/conditional").status_code == 401
    assert client.get(f"/api/v1/games/{game['id']}/notes", headers=auth(bo)).get_json() == {
        "text": ""
    }
    assert client.get(f"/api/v1/games/{game['id']}/notes").status_code == 401
    seen = client.get(f"/api/v1/games/{game['id']}")
    assert seen.get_json()["version"] == version  # setting them wrote no new version
    for response in (
        seen,
        client.get(f"/api/v1/games/{game['id']}/export"),
        client.get(f"/api/v1/games/{game['id']}/export", headers=auth(bo)),
        client.get("/api/v1/games?status=active"),
    ):
        text = response.get_data(as_text=True)
        assert "corner" not in text and "conditional" not in text and '"then"' not in text
    mine = client.get(f"/api/v1/games/{game['id']}/export", headers=auth(ada)).get_json()
    assert mine["notes"] == "Bo always cuts the corner."


@pytest.mark.parametrize("after_ada", KINDS, indirect=True)
def test_the_document_types_a_trees_moves_by_the_games_kind(client, after_ada):
    game, bo_turn, answer = after_ada
    ada = game["tokens"]["0"]
    tree = [{"if": one_or_many(bo_turn), "then": one_or_many(answer)}]
    path = "/api/v1/games/{game_id}/conditional"
    # the answer's tree, found through its discriminator on `kind`: this kind's nodes alone
    of_kind = SCHEMAS["Conditional"]["discriminator"]["mapping"][game["kind"]]
    node = SCHEMAS[of_kind.rsplit("/", 1)[1]]["properties"]["tree"]["items"]
    fitting = [
        branch["items"]
        for branch in SCHEMAS["ConditionalBody"]["properties"]["tree"]["anyOf"]
        if not errors(tree, branch)
    ]
    assert fitting == [node], fitting  # a body's tree fits its kind's nodes, no other kind's
    for other in KINDS:
        if other != game["kind"]:  # (move types are unique across kinds)
            assert errors({"kind": other, "ply": 1, "tree": tree}, SCHEMAS["Conditional"])
    shown = check(conditional(client, game, ada, tree), path, "put")
    assert shown["kind"] == game["kind"] and shown["tree"] == tree
    assert check(tree_of(client, game, ada), path) == shown


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
        explored = explore(
            client, kind, game_id=game["id"], ply=0, moves=played(client, game["id"])
        )
        assert explored.status_code == 200, explored.get_json()
        positions = client.get(f"/api/v1/games/{game['id']}/positions").get_json()
        assert explored.get_json()["positions"] == positions
        now = game_of(client, game["id"])
        assert explored.get_json()["outcome"] == now["result"]
        from_state = explore(client, kind, state=now["state"], moves=[]).get_json()
        assert from_state["positions"][0]["state"] == now["state"]
        assert (
            from_state["legal_moves"]
            == client.get(f"/api/v1/games/{game['id']}/legal-moves").get_json()["moves"]
        )


SAY = [{"type": "say", "number": n} for n in range(101)]


@pytest.fixture
def said(client):
    """Factor/Multiple: Ada said 2, Bo to move (1, 4, ... are his legal answers)."""
    game = create(client, first=0)
    assert move(client, game, game["tokens"]["0"], SAY[2]).status_code == 201
    return game


def _unchanged(client, game, token, tree, version):
    assert tree_of(client, game, token).get_json()["tree"] == tree
    assert game_of(client, game["id"])["version"] == version


def test_bad_trees_are_refused_naming_the_part_and_change_nothing(client, said):
    ada, bo = said["tokens"]["0"], said["tokens"]["1"]
    good = [{"if": SAY[1], "then": SAY[3]}]
    assert conditional(client, said, ada, good).status_code == 200
    version = game_of(client, said["id"])["version"]
    illegal = conditional(
        client,
        said,
        ada,
        [{"if": SAY[4], "then": SAY[8], "next": [{"if": SAY[16], "then": SAY[99]}]}],
    )
    assert illegal.status_code == 422
    assert "tree.0.next.0.then" in illegal.get_json()["errors"]["json"]
    assert "Branch tree.0.next.0" in illegal.get_json()["message"]
    malformed = conditional(client, said, ada, [{"if": {"type": "say"}, "then": SAY[3]}])
    assert malformed.status_code == 400 and "tree.0.if.number" in str(malformed.get_json())
    by_the_mover = conditional(client, said, bo, [{"if": SAY[4], "then": SAY[8]}])
    assert by_the_mover.status_code == 409 and "your turn" in by_the_mover.get_json()["message"]
    stale = conditional(client, said, ada, good, ply=0)
    assert stale.status_code == 409 and "moved on" in stale.get_json()["message"]
    chain = {"if": SAY[4], "then": SAY[8]}
    for _ in range(10):
        chain = {"if": SAY[4], "then": SAY[8], "next": [chain]}
    deep = conditional(client, said, ada, [chain])
    assert deep.status_code == 422 and "10 levels" in deep.get_json()["message"]
    wide = conditional(client, said, ada, [{"if": SAY[1], "then": SAY[2]}] * 1001)
    assert wide.status_code == 422 and "1000 moves" in wide.get_json()["message"]
    twice = conditional(client, said, ada, [{"if": SAY[1], "then": SAY[3]}] * 2)
    assert twice.status_code == 422 and "tree.1.if" in twice.get_json()["errors"]["json"]
    for refused in (illegal, by_the_mover, stale, deep, wide, twice):
        assert refused.get_json()["message"]
    _unchanged(client, said, ada, good, version)
    assert (
        client.delete(f"/api/v1/games/{said['id']}/conditional", headers=auth(ada)).status_code
        == 204
    )
    assert tree_of(client, said, ada).get_json()["tree"] == []


def test_notes_over_the_limit_are_refused_and_change_nothing(client, said):
    ada = said["tokens"]["0"]
    url = f"/api/v1/games/{said['id']}/notes"
    assert client.put(url, headers=auth(ada), json={"text": "x" * 10_000}).status_code == 200
    long = client.put(url, headers=auth(ada), json={"text": "y" * 10_001})
    assert long.status_code == 422 and "text" in long.get_json()["errors"]["json"]
    assert client.get(url, headers=auth(ada)).get_json()["text"] == "x" * 10_000


def test_explore_refuses_too_many_moves_an_unknown_kind_and_illegal_moves(client, said):
    many = explore(client, "factor-multiple", moves=[SAY[2]] * 201)
    assert many.status_code == 422 and "moves" in many.get_json()["errors"]["json"]
    unknown = explore(client, "chess", moves=[])
    assert unknown.status_code == 404 and "chess" in unknown.get_json()["message"]
    illegal = explore(client, "factor-multiple", game_id=said["id"], moves=[SAY[4], SAY[7]])
    assert illegal.status_code == 422 and "moves.1" in illegal.get_json()["errors"]["json"]
    broken = explore(client, "factor-multiple", state={"n": "many"}, moves=[])
    assert broken.status_code == 422 and "state" in broken.get_json()["errors"]["json"]
    for malformed in ("many", [1]):  # not an object at all: malformed, named
        refused = explore(client, "factor-multiple", state=malformed, moves=[])
        assert refused.status_code == 400 and "state" in refused.get_json()["errors"]["json"]
    other = explore(client, "partition", game_id=said["id"], moves=[])
    assert other.status_code == 422 and "game_id" in other.get_json()["errors"]["json"]
    fresh = explore(client, "factor-multiple", options={"n": 20}, moves=[SAY[2]]).get_json()
    assert [p["ply"] for p in fresh["positions"]] == [0, 1] and fresh["outcome"] is None
    assert "verdict" not in str(fresh) and "best" not in str(fresh)
    assert game_of(client, said["id"])["ply"] == 1  # exploring touched no game


def test_a_branch_below_stands_for_the_next_move(client, said):
    ada, bo = said["tokens"]["0"], said["tokens"]["1"]
    tree = [
        {"if": SAY[4], "then": SAY[8], "next": [{"if": SAY[16], "then": SAY[32]}]},
        {"if": SAY[1], "then": SAY[3]},
    ]
    assert conditional(client, said, ada, tree).status_code == 200
    after = move(client, game_of(client, said["id"]), bo, SAY[4]).get_json()
    assert after["ply"] == 3 and after["state"]["said"] == [2, 4, 8]
    assert tree_of(client, said, ada).get_json() == {
        "kind": "factor-multiple",
        "ply": 3,
        "tree": tree[0]["next"],
    }
    after = move(client, after, bo, SAY[16]).get_json()
    assert after["state"]["said"] == [2, 4, 8, 16, 32] and after["to_move"] == 1


def test_the_opponents_move_and_the_owners_edit_racing_end_in_one_order(app, client):
    """100 races of Bo's move against Ada's replacing her tree: the game never holds a reply
    from a tree that was replaced (either the edit landed first and its reply is played, or
    the move did and the edit is refused as stale)."""
    orders = set()
    for _ in range(100):
        game = create(client, first=0)
        ada, bo = game["tokens"]["0"], game["tokens"]["1"]
        move(client, game, ada, SAY[2])
        assert (
            conditional(client, game, ada, [{"if": SAY[4], "then": SAY[8]}], ply=1).status_code
            == 200
        )
        barrier, answers = threading.Barrier(2), {}

        def edit(barrier, answers, game, ada):
            barrier.wait()
            answers["edit"] = conditional(
                app.test_client(), game, ada, [{"if": SAY[4], "then": SAY[12]}], ply=1
            ).status_code

        def bos_move(barrier, answers, game, bo):
            barrier.wait()
            answers["move"] = move(app.test_client(), {**game, "ply": 1}, bo, SAY[4]).status_code

        threads = [
            threading.Thread(target=edit, args=(barrier, answers, game, ada)),
            threading.Thread(target=bos_move, args=(barrier, answers, game, bo)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=10)
        assert answers["move"] == 201
        reply = game_of(client, game["id"])["state"]["said"][1:]
        if answers["edit"] == 200:
            assert reply == [4, 12]
        else:
            assert answers["edit"] == 409 and reply == [4, 8]
        orders.add(answers["edit"])
    assert orders <= {200, 409}  # (which occur is the scheduler's: each is checked above)
