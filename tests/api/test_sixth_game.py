"""A sixth game needs no edit outside its own files: Nim (tests/nim/), registered in the test
suite only, shows in GET /kinds and in the OpenAPI document of an app made after it, serves its
rules page, and plays to its end through the API against a bot whose moves a real RQ worker
makes. The committed document, made without it, has no trace of it."""

from __future__ import annotations

import json
import random
from pathlib import Path

from openapi_schema_validator import OAS30Validator

from tests.api.helpers import create, move

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def test_kinds_lists_the_sixth_game_with_its_reasons_options_and_bots(nim_client):
    kinds = {k["kind"]: k for k in nim_client.get("/api/v1/kinds").get_json()}
    nim = kinds["nim"]
    assert nim["title"] == "Nim" and "last object" in nim["summary"]
    assert [(o["name"], o["min"], o["max"], o["default"]) for o in nim["options"]] == [
        ("heaps", 1, 6, 3),
        ("size", 1, 9, 5),
    ]
    assert [r["reason"] for r in nim["reasons"]] == [
        "no-moves",
        "resign",
        "time",
        "aborted",
        "agreement",
    ]
    assert nim["reasons"][0]["win"] == "{loser} had no legal move left."
    assert [b["level"] for b in nim["bots"]] == ["random"]
    assert nim["time_controls"] == kinds["ploid"]["time_controls"]


def test_the_sixth_games_rules_page_is_served(nim_client):
    page = nim_client.get("/api/v1/kinds/nim/rules").get_json()
    assert page["kind"] == "nim" and "Whoever takes the last object wins." in page["html"]


def test_the_openapi_document_of_an_app_with_the_sixth_game_types_it(nim_client):
    doc = nim_client.get("/api/v1/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    assert schemas["Game"]["discriminator"]["mapping"]["nim"] == "#/components/schemas/NimGame"
    assert schemas["NimGame"]["properties"]["kind"]["enum"] == ["nim"]
    assert set(schemas["NimState"]["properties"]) == {"heaps", "mover", "left"}
    assert schemas["NimState"]["properties"]["left"]["description"].startswith("Derived")
    sent = schemas["MoveBody"]["properties"]["move"]["discriminator"]["mapping"]
    assert sent["take"] == "#/components/schemas/TakeMove"
    assert set(schemas["TakeMove"]["properties"]) == {"type", "heap", "count"}
    committed = COMMITTED.read_text()
    assert '"NimState"' not in committed and '"take"' not in committed
    assert json.loads(committed) != doc  # this document is the committed one with Nim added


def test_the_sixth_game_plays_to_its_end_against_a_worker_bot(nim_client, run_jobs):
    doc = nim_client.get("/api/v1/openapi.json").get_json()
    state_ok = OAS30Validator(
        {"$ref": "#/components/schemas/NimState", "components": doc["components"]}
    )
    game = create(
        nim_client,
        kind="nim",
        seats=[{"human": {"name": "Ada"}}, {"bot": "random"}],
        first=0,
        options={"heaps": 3, "size": 5},
    )
    token, url, rng = game["tokens"]["0"], f"/api/v1/games/{game['id']}", random.Random(39)
    for _ in range(40):
        game = nim_client.get(url).get_json()
        state_ok.validate(game["state"])
        assert game["state"]["left"] == sum(game["state"]["heaps"])
        if game["status"] == "finished":
            break
        if game["to_move"] == 1:
            assert run_jobs() >= 1  # the bot's move, made by the worker
            continue
        legal = nim_client.get(f"{url}/legal-moves").get_json()["moves"]
        answer = move(nim_client, game, token, rng.choice(legal))
        assert answer.status_code == 201, answer.get_json()
        assert answer.get_json()["to_move"] in (1, None)  # the request did not play for the bot
    assert game["status"] == "finished" and game["state"]["left"] == 0
    history = nim_client.get(f"{url}/moves").get_json()
    assert len(history) == game["ply"] and {h["move"]["type"] for h in history} == {"take"}
    assert {h["seat"] for h in history} == {0, 1}
    # whoever took the last object wins
    assert game["result"] == {"winner": history[-1]["seat"], "reason": "no-moves", "scores": None}


def test_a_bad_move_in_the_sixth_game_is_refused_naming_the_field(nim_client):
    game = create(nim_client, kind="nim", first=0, options={"heaps": 2, "size": 3})
    token = game["tokens"]["0"]
    bad = move(nim_client, game, token, {"type": "take", "heap": 0, "count": "all"})
    assert bad.status_code == 400 and "count" in json.dumps(bad.get_json())
    too_many = move(nim_client, game, token, {"type": "take", "heap": 0, "count": 9})
    assert too_many.status_code == 422 and "holds only" in json.dumps(too_many.get_json())
