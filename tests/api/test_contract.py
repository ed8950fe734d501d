"""The OpenAPI document is a typed contract: every move shape the engines accept and produce is in
its move unions, every state matches its kind's state schema, and the real app's responses
validate against the document's response schemas."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest
from openapi_schema_validator import OAS30Validator

from api.bots import levels
from api.bots.match import play_game
from api.games import GAMES, Game, MalformedMove, Pass, State
from api.games.base import play_forced
from api.learn import service
from api.store.puzzles import PuzzleStore
from tests.api.helpers import auth, create, move
from tests.api.test_accounts import sign_up

DOC = json.loads((Path(__file__).resolve().parents[2] / "openapi" / "openapi.json").read_text())
SCHEMAS = DOC["components"]["schemas"]
PLAYER_MOVE = SCHEMAS["MoveBody"]["properties"]["move"]  # what a client sends
PLAYED_MOVE = SCHEMAS["HistoryEntry"]["properties"]["move"]  # what a history holds
LISTED_MOVE = SCHEMAS["LegalMoves"]["properties"]["moves"]["items"]
PASS = Pass().to_dict()["type"]
MAX_PLIES = 300  # untimed Prime Drop can cycle between random players


def errors(instance, schema: dict) -> list[str]:
    """Why `instance` does not match `schema` (a part of the document, its $refs resolved in it)."""
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in _validator(json.dumps(schema, sort_keys=True)).iter_errors(instance)
    ]


@functools.cache
def _validator(schema: str) -> OAS30Validator:
    return OAS30Validator({**json.loads(schema), "components": DOC["components"]})


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def state_schema(kind: str) -> dict:
    """The kind's state schema, found through the game object's discriminator on `kind`."""
    game = SCHEMAS[SCHEMAS["Game"]["discriminator"]["mapping"][kind].rsplit("/", 1)[1]]
    return game["properties"]["state"]


def accepted_types(game: type[Game]) -> set[str]:
    """The move types `parse_move` reads: of every type in the document's unions and one it
    does not hold, those it does not refuse for their `type`."""
    accepted = set()
    for kind in (*PLAYED_MOVE["discriminator"]["mapping"], "teleport"):
        try:
            game.parse_move({"type": kind})
        except MalformedMove as bad:
            if bad.field == "move.type":
                continue
        accepted.add(kind)
    return accepted


def playouts(kind: str) -> list[tuple[list[State], list]]:
    """Seeded games of `kind`, each as its states and its moves (passes included): random legal
    moves, and the two weakest bot levels against each other (they play what legal_moves does
    not list, e.g. Prime Drop's double downs)."""
    game = GAMES[kind]
    options = game.check_options({})
    games = []
    for seed in range(3):
        rng = random.Random(seed)
        state, forced = play_forced(game.new(options, seed % 2, seed))
        states, moves = [state], [m for _, m in forced]
        while not state.is_over() and len(moves) < MAX_PLIES:
            chosen = rng.choice(state.legal_moves())
            state, forced = play_forced(state.apply(chosen))
            states.append(state)
            moves += [chosen, *(m for _, m in forced)]
        games.append((states, moves))
    weakest = (tuple(levels(kind)) * 2)[:2]  # the weakest two, or the one bot against itself
    for seed in range(2):
        record = play_game(
            kind, {}, weakest[:: 1 - 2 * seed], seed, first=seed, budget_s=0.01, max_plies=MAX_PLIES
        )
        state = game.new(options, seed, seed)
        states = [state]
        for _, played in record.history:
            state = state.apply(played)
            states.append(state)
        games.append((states, [m for _, m in record.history]))
    return games


def test_the_move_unions_hold_exactly_the_types_the_engines_accept():
    accepted = set().union(*(accepted_types(game) for game in GAMES.values()))
    assert set(PLAYED_MOVE["discriminator"]["mapping"]) == accepted
    assert set(PLAYER_MOVE["discriminator"]["mapping"]) == accepted - {PASS}
    assert set(LISTED_MOVE["discriminator"]["mapping"]) == accepted - {PASS}
    for union in (PLAYED_MOVE, PLAYER_MOVE, LISTED_MOVE):
        assert sorted(r["$ref"] for r in union["oneOf"]) == sorted(
            union["discriminator"]["mapping"].values()
        )


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_played_moves_and_every_state_match_the_document(kind):
    game = GAMES[kind]
    accepted = accepted_types(game)
    seen = set()
    sampler = random.Random(0)
    for states, moves in playouts(kind):
        for played in moves:
            data = played.to_dict()
            seen.add(data["type"])
            assert data["type"] in accepted
            assert not errors(data, PLAYED_MOVE), (data, errors(data, PLAYED_MOVE))
            if data["type"] != PASS:
                assert not errors(data, PLAYER_MOVE), (data, errors(data, PLAYER_MOVE))
            assert game.parse_move(data) == played  # the documented shape is the one read
        for state in states:
            data = state.view()  # what the API sends: the stored fields and the derived ones
            assert not errors(data, state_schema(kind)), errors(data, state_schema(kind))
            listed = state.legal_moves_listing()["moves"]
            for item in sampler.sample(listed, min(len(listed), 10)):
                assert not errors(item, LISTED_MOVE), (item, errors(item, LISTED_MOVE))
    # every type the engine reads was played and checked (pass: where the rules force one)
    assert accepted - {PASS} <= seen, accepted - seen


def test_the_document_refuses_shapes_the_engines_never_make():
    assert errors({"type": "say"}, PLAYER_MOVE)  # no number
    assert errors({"type": "say", "number": 4, "extra": 1}, PLAYER_MOVE)
    assert errors({"type": "teleport"}, PLAYED_MOVE)
    assert errors({"type": "pass"}, PLAYER_MOVE)  # only the server passes
    assert errors({"type": "challenge", "from": [0, 0], "to": [0, 1]}, PLAYER_MOVE)  # no factor
    state = GAMES["factor-multiple"].new(GAMES["factor-multiple"].check_options({}), 0, 0)
    assert errors({**state.view(), "extra": 1}, state_schema("factor-multiple"))
    assert errors(state.view(), state_schema("ploid"))


def response_errors(response, path: str, method: str) -> list[str]:
    operation = DOC["paths"][path][method]
    schema = operation["responses"][str(response.status_code)]["content"]["application/json"]
    return errors(response.get_json(), schema["schema"])


def check(response, path: str, method: str = "get", status: int = 200):
    assert response.status_code == status, response.get_json()
    assert not response_errors(response, path, method), response_errors(response, path, method)
    return response.get_json()


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_apps_responses_match_the_document(client, kind):
    games, game_path = "/api/v1/games", "/api/v1/games/{game_id}"
    rng = random.Random(kind)
    created = client.post(
        games,
        json={
            "kind": kind,
            "first": 0,
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
        },
    )
    game = check(created, games, "post", 201)
    assert game["kind"] == kind
    tokens = game["tokens"]
    for _ in range(6):
        listing = check(client.get(f"{games}/{game['id']}/legal-moves"), f"{game_path}/legal-moves")
        playable = [m for m in listing["moves"] if "value" not in m]  # challenges need a factor
        if not playable:
            break
        made = move(client, game, tokens[str(listing["seat"])], rng.choice(playable))
        game = check(made, f"{game_path}/moves", "post", 201)
    history = check(client.get(f"{games}/{game['id']}/moves"), f"{game_path}/moves")
    assert len(history) == game["ply"] > 0
    check(client.get(f"{games}/{game['id']}"), game_path)

    if game["status"] != "finished":  # a short game (Nim's heaps) may be over within six plies
        resigned = client.post(
            f"{games}/{game['id']}/resign", headers=auth(tokens[str(game["to_move"])])
        )
        assert check(resigned, f"{game_path}/resign", "post", 201)["status"] == "finished"
    over = check(client.get(f"{games}/{game['id']}/legal-moves"), f"{game_path}/legal-moves")
    assert over["moves"] == []

    waiting = create(client, kind=kind, seats=[{"human": {"name": "Ada"}}, {"open": True}])
    joined = client.post(f"{games}/{waiting['id']}/join", json={"name": "Cy"})
    assert check(joined, f"{game_path}/join", "post", 201)["seat"] == 1

    listed = check(client.get(games, query_string={"kind": kind}), games)
    assert {g["kind"] for g in listed} == {kind} and len(listed) == 2


def test_kinds_match_the_document(client):
    kinds = check(client.get("/api/v1/kinds"), "/api/v1/kinds")
    assert {k["kind"] for k in kinds} == set(GAMES)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_learn_and_explore_responses_match_the_document(client, redis_client, kind):
    """Puzzles (read, tried wrong, tried again, tried a move at a time), lessons and the explore
    board answer as the document types them: states and options per kind, moves as the unions."""
    store = PuzzleStore(redis_client)
    service.load_seeds(store)
    if store.ids(kind):  # the kinds the shipped seeds hold puzzles of
        puzzle = store.get(store.ids(kind)[0])
        path, url = "/api/v1/puzzles/{puzzle_id}", f"/api/v1/puzzles/{puzzle['id']}"
        shown = check(client.get(url), path)
        assert shown["kind"] == kind and shown["legal"]["moves"]
        check(
            client.get("/api/v1/puzzles/daily", query_string={"kind": kind}),
            "/api/v1/puzzles/daily",
        )
        check(
            client.get("/api/v1/puzzles/next", query_string={"kind": kind}), "/api/v1/puzzles/next"
        )
        token = sign_up(client, "solver")["token"]
        mine = [s["move"] for s in puzzle["line"] if s["seat"] == puzzle["to_move"]]
        wrong = next(v["move"] for v in puzzle["verdicts"] if not v["wins"])
        for moves, said in (([wrong], "expected"), (mine, "first_try"), (mine[:1], None)):
            tried = client.post(f"{url}/attempt", headers=auth(token), json={"moves": moves})
            answer = check(tried, f"{path}/attempt", "post")
            assert said is None or said in answer, answer
    listed = check(client.get(f"/api/v1/kinds/{kind}/lessons"), "/api/v1/kinds/{kind}/lessons")
    if listed["lessons"]:  # a game may have none (docs/adding-a-game.md)
        lesson = check(
            client.get(f"/api/v1/kinds/{kind}/lessons/1"), "/api/v1/kinds/{kind}/lessons/{n}"
        )
        assert listed["lessons"][0] == lesson and lesson["kind"] == kind
        tried = client.post(
            f"/api/v1/kinds/{kind}/lessons/1/check", json={"move": lesson["legal"]["moves"][0]}
        )
        check(tried, "/api/v1/kinds/{kind}/lessons/{n}/check", "post")
    start = client.post(f"/api/v1/kinds/{kind}/explore", json={"moves": []})
    explored = check(start, "/api/v1/kinds/{kind}/explore", "post")
    move = next(m for m in explored["legal_moves"] if "value" not in m)  # (a challenge's factor)
    after = client.post(
        f"/api/v1/kinds/{kind}/explore",
        json={"state": explored["positions"][0]["state"], "moves": [move]},
    )
    assert len(check(after, "/api/v1/kinds/{kind}/explore", "post")["positions"]) >= 2
