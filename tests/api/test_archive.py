"""Export and import: a game as one JSON document, read back as an imported game after replaying
every entry with the engine; a record the rules refuse is refused naming the ply at fault."""

from __future__ import annotations

import copy

import pytest

from api.store import keys
from tests.api.helpers import auth, create, move
from tests.api.test_games import SEED_GAME


@pytest.fixture
def finished(client) -> dict:
    """A finished Factor/Multiple game (the seed example: seat 1 wins, no moves left)."""
    game = create(
        client, first=0, time_control={"type": "fischer", "initial_s": 600, "increment_s": 0}
    )
    tokens = game["tokens"]
    for i, number in enumerate(SEED_GAME):
        game = move(client, game, tokens[str(i % 2)], {"type": "say", "number": number}).get_json()
    assert game["status"] == "finished"
    return {**game, "tokens": tokens}


def export(client, game_id: str) -> dict:
    response = client.get(f"/api/v1/games/{game_id}/export")
    assert response.status_code == 200
    return response.get_json()


def import_(client, document: dict):
    return client.post("/api/v1/games/import", json=document)


def test_export_holds_the_setup_the_history_and_the_result(client, finished):
    document = export(client, finished["id"])
    assert document["format"] == "postplay-game" and document["version"] == 1
    assert document["kind"] == "factor-multiple" and document["result"] == finished["result"]
    assert document["seats"] == [{"name": "Ada", "bot": None}, {"name": "Bo", "bot": None}]
    assert [m["move"]["number"] for m in document["moves"]] == list(SEED_GAME)
    history = client.get(f"/api/v1/games/{finished['id']}/moves").get_json()
    # each entry as the history has it, with the move's words as the move list shows them
    assert document["moves"] == [{**e, "words": f"says {e['move']['number']}"} for e in history]


def test_an_exported_game_imports_as_a_finished_imported_game(client, finished, redis_client):
    response = import_(client, export(client, finished["id"]))
    assert response.status_code == 201, response.get_json()
    imported = response.get_json()
    assert imported["id"] != finished["id"] and imported["imported"] is True
    assert imported["status"] == "finished" and imported["result"] == finished["result"]
    assert imported["state"] == finished["state"] and imported["ply"] == len(SEED_GAME)
    assert imported["clocks"] is None and imported["deadline"] is None  # on no clock
    again = export(client, imported["id"])
    assert again["moves"] == export(client, finished["id"])["moves"] and again["imported"]
    # nothing for the workers: no due check, no bot to move, not deletable
    members = [m.decode() for m in redis_client.zrange(keys.due_key(), 0, -1)]
    assert not any(m.startswith(imported["id"]) for m in members)
    assert redis_client.zscore(keys.bots_to_move_key(), imported["id"]) is None
    assert redis_client.zscore(keys.deletable_key(), imported["id"]) is None
    resign = client.post(
        f"/api/v1/games/{imported['id']}/resign", headers=auth(finished["tokens"]["0"])
    )
    assert resign.status_code == 403  # it has no seat tokens of its own


def test_a_resigned_game_imports_with_its_result(client):
    game = create(client, kind="ploid", options={"n": 3}, first=0)
    legal = client.get(f"/api/v1/games/{game['id']}/legal-moves").get_json()["moves"][0]
    moved = move(client, game, game["tokens"]["0"], legal).get_json()
    client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(game["tokens"]["1"]))
    document = export(client, game["id"])
    imported = import_(client, document).get_json()
    assert imported["result"] == {"winner": 0, "reason": "resign", "scores": None}
    assert imported["state"] == moved["state"]


def test_an_illegal_move_is_refused_naming_its_ply(client, finished):
    document = export(client, finished["id"])
    document["moves"][3]["move"]["number"] = 9  # 7 was said; 9 is no factor or multiple of it
    response = import_(client, document)
    assert response.status_code == 422
    body = response.get_json()
    assert body["message"].startswith("Ply 3: ") and "moves.3.move" in body["errors"]["json"]


@pytest.mark.parametrize(
    "edit, field, words",
    [
        (lambda d: d["moves"][2].update(seat=1), "moves.2.seat", "Ply 2: seat 0 is to move, not"),
        (lambda d: d["moves"][5].update(ply=9), "moves.5.ply", "Ply 5"),
        (lambda d: d["moves"][1].update(move={"type": "pass"}), "moves.1.move", "Ply 1"),
        (lambda d: d["moves"][4].update(at="yesterday"), "moves.4.at", "Ply 4"),
        (
            lambda d: d["moves"][0].update(move={"type": "say", "number": "x"}),
            "moves.0.move.number",
            "Ply 0",
        ),
        (lambda d: d["moves"].append({**d["moves"][-1], "ply": 8}), "moves.8", "was over before"),
        (lambda d: d["result"].update(winner=0), "result", "not with the record's result"),
        (lambda d: d.update(moves=d["moves"][:-1]), "result.reason", "do not end the game"),
        (lambda d: d.update(result=None), "result", "Only a finished game"),
        (lambda d: d["result"].update(reason="boredom"), "result.reason", "no result reason"),
        (lambda d: d.update(options={"n": 1}), "options.n", ""),
    ],
)
def test_a_record_that_does_not_replay_is_refused(client, finished, edit, field, words):
    document = export(client, finished["id"])
    edit(document)
    response = import_(client, document)
    assert response.status_code == 422, response.get_json()
    assert (
        field in response.get_json()["errors"]["json"] and words in response.get_json()["message"]
    )


def test_a_game_with_no_move_imports_and_is_kept(client, redis_client):
    game = create(client, first=0)
    client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(game["tokens"]["0"]))
    imported = import_(client, export(client, game["id"])).get_json()
    assert imported["ply"] == 0 and imported["result"]["reason"] == "resign"
    assert redis_client.zscore(keys.deletable_key(), game["id"]) is not None  # the original
    assert redis_client.zscore(keys.deletable_key(), imported["id"]) is None


def test_a_game_stopped_by_the_server_imports_only_with_a_fitting_result(client, finished):
    document = export(client, finished["id"])
    document["moves"] = document["moves"][:4]
    for result, status in (
        ({"winner": None, "reason": "agreement"}, 201),
        ({"winner": 1, "reason": "agreement"}, 422),
        ({"winner": None, "reason": "time"}, 422),
        ({"winner": 0, "reason": "time"}, 201),
    ):
        trial = copy.deepcopy(document) | {"result": {**result, "scores": None}}
        assert import_(client, trial).status_code == status, result


def test_a_malformed_document_is_a_400_naming_the_field(client, finished):
    document = export(client, finished["id"])
    del document["seed"]
    response = import_(client, document)
    assert response.status_code == 400 and "seed" in response.get_json()["errors"]["json"]
    unknown = import_(client, export(client, finished["id"]) | {"extra": 1})
    assert unknown.status_code == 400 and "extra" in unknown.get_json()["errors"]["json"]
