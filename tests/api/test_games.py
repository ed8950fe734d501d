"""The HTTP contract of ../shared/API.md: every endpoint and every error path."""

from __future__ import annotations

import threading
import time

from tests.api.helpers import auth, create, move

SEED_GAME = (98, 49, 7, 77, 11, 55, 1, 97)


def test_seed_example_replays_through_the_api_to_its_result(client):
    game = create(client, first=0)
    tokens = game["tokens"]
    for i, number in enumerate(SEED_GAME):
        response = move(client, game, tokens[str(i % 2)], {"type": "say", "number": number})
        assert response.status_code == 201, response.get_json()
        game = response.get_json()
    assert game["status"] == "finished"
    assert game["result"] == {"winner": 1, "reason": "no-moves", "scores": None}
    assert game["to_move"] is None
    history = client.get(f"/api/v1/games/{game['id']}/moves").get_json()
    assert [h["move"]["number"] for h in history] == list(SEED_GAME)
    assert [h["seat"] for h in history] == [0, 1] * 4


def test_create_records_a_coin_flip_and_returns_tokens_only_for_humans(client):
    firsts = {
        create(client, seats=[{"human": {"name": "A"}}, {"bot": "random"}])["first"]
        for _ in range(24)
    }
    assert firsts == {0, 1}
    game = create(client, seats=[{"human": {"name": "A"}}, {"bot": "greedy"}])
    assert set(game["tokens"]) == {"0"} and len(game["tokens"]["0"]) >= 22
    assert game["seats"][1] == {"name": "Greedy bot", "bot": "greedy", "open": False}
    assert game["options"] == {"n": 100, "even_start": True}


def test_game_response_carries_etag_and_304_on_match(client):
    game = create(client)
    first = client.get(f"/api/v1/games/{game['id']}")
    etag = first.headers["ETag"]
    assert first.status_code == 200
    again = client.get(f"/api/v1/games/{game['id']}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag  # the app's own first 304 carries it too
    move(client, game, game["tokens"][str(game["first"])], {"type": "say", "number": 4})
    changed = client.get(f"/api/v1/games/{game['id']}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_400_malformed_body_names_the_field(client):
    game = create(client)
    token = game["tokens"][str(game["first"])]
    no_ply = client.post(
        f"/api/v1/games/{game['id']}/moves",
        headers=auth(token),
        json={"move": {"type": "say", "number": 4}},
    )
    assert no_ply.status_code == 400
    assert "ply" in no_ply.get_json()["errors"]["json"]
    assert "ply" in no_ply.get_json()["message"]
    bad_move = move(client, game, token, {"type": "say", "number": "four"})
    assert bad_move.status_code == 400
    assert bad_move.get_json()["errors"]["json"] == {
        "move.number": ["'number' must be a whole number."]
    }
    not_json = client.post(
        f"/api/v1/games/{game['id']}/moves",
        headers={**auth(token), "Content-Type": "application/json"},
        data="{not json",
    )
    assert not_json.status_code == 400 and not_json.get_json()["message"]
    bad_seat = client.post(
        "/api/v1/games", json={"kind": "factor-multiple", "seats": [{"robot": 1}, {"open": True}]}
    )
    assert bad_seat.status_code == 400 and "seats.0" in bad_seat.get_json()["errors"]["json"]
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["ply"] == 0


def test_401_without_token_or_with_an_unknown_one(client):
    game = create(client)
    body = {"move": {"type": "say", "number": 4}, "ply": 0}
    assert client.post(f"/api/v1/games/{game['id']}/moves", json=body).status_code == 401
    response = client.post(f"/api/v1/games/{game['id']}/moves", json=body, headers=auth("nope"))
    assert response.status_code == 401
    assert response.get_json()["message"] == "That token does not belong to any seat."


def test_403_with_a_token_of_another_game(client):
    game, other = create(client), create(client)
    response = move(client, game, other["tokens"]["0"], {"type": "say", "number": 4})
    assert response.status_code == 403


def test_404_unknown_game_and_kind(client):
    assert client.get("/api/v1/games/nope").status_code == 404  # not an id's shape: no route
    assert client.get("/api/v1/games/0123456789ab/moves").status_code == 404
    assert client.get("/api/v1/kinds/chess/rules").status_code == 404
    response = client.post(
        "/api/v1/games/0123456789ab/moves",
        headers=auth("x"),
        json={"move": {"type": "say", "number": 4}, "ply": 0},
    )
    assert response.status_code == 404 and "no game" in response.get_json()["message"]


def test_409_not_your_turn_stale_ply_and_finished_game(client):
    game = create(client, first=0)
    tokens = game["tokens"]
    wrong_seat = move(client, game, tokens["1"], {"type": "say", "number": 4})
    assert wrong_seat.status_code == 409
    assert wrong_seat.get_json()["message"] == "It is not your turn."
    assert move(client, game, tokens["0"], {"type": "say", "number": 4}).status_code == 201
    stale = move(client, game, tokens["1"], {"type": "say", "number": 8}, ply=0)
    assert stale.status_code == 409 and "moved on" in stale.get_json()["message"]
    resigned = client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(tokens["1"]))
    assert resigned.status_code == 201
    assert resigned.get_json()["result"] == {"winner": 0, "reason": "resign", "scores": None}
    after = move(client, resigned.get_json(), tokens["1"], {"type": "say", "number": 8})
    assert after.status_code == 409 and after.get_json()["message"] == "The game is over."


def test_413_body_too_large(client):
    game = create(client)
    response = client.post(
        f"/api/v1/games/{game['id']}/moves",
        headers={**auth(game["tokens"]["0"]), "Content-Type": "application/json"},
        data='{"pad": "' + "x" * 70_000 + '"}',
    )
    assert response.status_code == 413 and response.get_json()["message"]


def test_422_illegal_move_says_why_and_changes_nothing(client):
    game = create(client, first=0)
    response = move(client, game, game["tokens"]["0"], {"type": "say", "number": 7})
    assert response.status_code == 422
    assert response.get_json()["message"] == "The first number must be even."
    after = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert after["ply"] == 0 and after["version"] == game["version"]


def test_422_unknown_option_out_of_range_and_unknown_bot_name_the_field(client):
    for body, field in (
        ({"options": {"size": 3}}, "options.size"),
        ({"options": {"n": 5}}, "options.n"),
        ({"seats": [{"bot": "godlike"}, {"open": True}]}, "seats.0.bot"),
        (
            {"time_control": {"type": "fischer", "initial_s": -1, "increment_s": 0}},
            "time_control.initial_s",
        ),
    ):
        response = client.post(
            "/api/v1/games",
            json={"kind": "factor-multiple", "seats": [{"open": True}, {"open": True}], **body},
        )
        assert response.status_code == 422, body
        assert field in response.get_json()["errors"]["json"]
    unknown = client.post("/api/v1/games", json={"kind": "chess", "seats": [{"open": True}] * 2})
    assert unknown.status_code == 422 and "kind" in unknown.get_json()["errors"]["json"]


def test_join_takes_the_first_open_seat_then_the_game_starts(client):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"open": True}], first=0)
    assert game["status"] == "waiting"
    early = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4})
    assert early.status_code == 409
    joined = client.post(f"/api/v1/games/{game['id']}/join", json={"name": "Bo"})
    assert joined.status_code == 201
    body = joined.get_json()
    assert body["seat"] == 1 and body["status"] == "active" and body["seats"][1]["name"] == "Bo"
    full = client.post(f"/api/v1/games/{game['id']}/join", json={"name": "Cy"})
    assert full.status_code == 409
    played = move(client, body, game["tokens"]["0"], {"type": "say", "number": 4})
    assert played.status_code == 201
    reply = move(client, played.get_json(), body["token"], {"type": "say", "number": 8})
    assert reply.status_code == 201


def test_list_filters_by_status_and_kind_newest_first_paginated(client):
    ids = [create(client, seats=[{"human": {"name": "A"}}, {"open": True}])["id"] for _ in range(3)]
    active = create(client)["id"]
    waiting = client.get("/api/v1/games?status=waiting&kind=factor-multiple").get_json()
    assert [g["id"] for g in waiting] == ids[::-1]
    page = client.get("/api/v1/games?page=1&page_size=2")
    assert [g["id"] for g in page.get_json()] == [active, ids[2]]
    assert '"total": 4' in page.headers["X-Pagination"]
    assert client.get("/api/v1/games?status=lost").status_code == 400
    client.post(f"/api/v1/games/{ids[0]}/join", json={"name": "B"})
    assert {g["id"] for g in client.get("/api/v1/games?status=active").get_json()} == {
        active,
        ids[0],
    }


def test_legal_moves_of_the_seat_to_move(client):
    game = create(client, first=1, options={"n": 10})
    listing = client.get(f"/api/v1/games/{game['id']}/legal-moves").get_json()
    assert listing["seat"] == 1 and listing["complete"] is True
    assert [m["number"] for m in listing["moves"]] == [2, 4, 6, 8, 10]


def test_two_threads_on_the_same_ply_exactly_one_lands(app):
    for _ in range(5):
        client = app.test_client()
        game = create(client, first=0)
        token = game["tokens"]["0"]
        statuses = []
        barrier = threading.Barrier(2)

        def submit(number):
            c = app.test_client()
            barrier.wait()
            statuses.append(move(c, game, token, {"type": "say", "number": number}).status_code)

        threads = [threading.Thread(target=submit, args=(k,)) for k in (4, 6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(statuses) == [201, 409]
        assert len(client.get(f"/api/v1/games/{game['id']}/moves").get_json()) == 1


def test_kinds_lists_every_registered_game_with_options_bots_and_time_controls(client):
    from api.games import GAMES

    kinds = {k["kind"]: k for k in client.get("/api/v1/kinds").get_json()}
    assert set(kinds) == set(GAMES)
    fm = kinds["factor-multiple"]
    assert {o["name"]: (o["default"], o.get("min"), o.get("max")) for o in fm["options"]} == {
        "n": (100, 10, 1000),
        "even_start": (True, None, None),
    }
    assert {"random", "greedy"} <= {b["level"] for b in fm["bots"]}
    assert set(fm["time_controls"]) >= {"none", "fischer", "byoyomi", "correspondence"}


def test_kinds_lists_each_games_moves_with_their_schemas(client):
    """What a client needs to play a game it has never seen: its move types, each named as its
    schema in the OpenAPI document, with the sentence its declaration carries."""
    from api.games import GAMES

    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    for kind in client.get("/api/v1/kinds").get_json():
        game = GAMES[kind["kind"]]
        assert [m["type"] for m in kind["moves"]] == [m.move_type for m in game.moves]
        for listed, declared in zip(kind["moves"], game.moves, strict=True):
            assert schemas[listed["schema"]]["properties"]["type"]["enum"] == [listed["type"]]
            # the move's own docstring, not the one dataclasses make up from its fields
            assert listed["description"] and not listed["description"].startswith(
                f"{declared.__name__}("
            ), listed
    ploid = next(k for k in client.get("/api/v1/kinds").get_json() if k["kind"] == "ploid")
    assert [(m["type"], m["server_only"]) for m in ploid["moves"]] == [
        ("place", False),
        ("pass", True),
    ]


def test_rules_page_is_served_from_seeds(client):
    response = client.get("/api/v1/kinds/factor-multiple/rules")
    assert response.status_code == 200
    assert "factor" in response.get_json()["text"].lower()


def test_docs_and_openapi_are_served_without_a_cdn(client):
    spec = client.get("/api/v1/openapi.json").get_json()
    assert "/api/v1/games/{game_id}/moves" in spec["paths"]
    page = client.get("/docs").get_data(as_text=True)
    assert "/docs/assets/swagger-ui-bundle.js" in page and "//cdn" not in page
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200


def test_health_reports_redis(client):
    body = client.get("/api/v1/health").get_json()
    assert body["web"] == "ok" and body["redis"] == "ok"


def test_an_invite_only_seat_stays_out_of_the_lobby_until_taken(client):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"open": True, "listed": False}])
    assert game["status"] == "waiting" and game["seats"][1]["listed"] is False
    assert client.get("/api/v1/games?status=waiting").get_json() == []
    assert client.post(f"/api/v1/games/{game['id']}/join", json={"name": "Bo"}).status_code == 201
    assert [g["id"] for g in client.get("/api/v1/games?status=active").get_json()] == [game["id"]]
    bad = client.post(
        "/api/v1/games",
        json={"kind": "factor-multiple", "seats": [{"open": True, "listed": "no"}, {"open": True}]},
    )
    assert bad.status_code == 400 and "seats.0.listed" in bad.get_json()["errors"]["json"]


def test_429_too_many_requests_with_retry_after(redis_url, redis_client):
    from api.web import create_app

    app = create_app(
        {"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_APPLICATION": "3 per minute"}
    )
    client = app.test_client()
    statuses = [client.get("/api/v1/kinds").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    refused = client.get("/api/v1/kinds")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert refused.get_json()["message"] == "Too many requests: slow down and try again shortly."


def test_positions_give_the_server_state_after_every_ply(client):
    game = create(client, first=0)
    tokens = game["tokens"]
    for i, number in enumerate(SEED_GAME[:4]):
        game = move(client, game, tokens[str(i % 2)], {"type": "say", "number": number}).get_json()
    positions = client.get(f"/api/v1/games/{game['id']}/positions").get_json()
    assert [p["ply"] for p in positions] == [0, 1, 2, 3, 4]
    assert positions[0]["move"] is None and positions[0]["state"]["said"] == []
    assert [p["state"]["said"] for p in positions[1:]] == [list(SEED_GAME[:k]) for k in range(1, 5)]
    assert [p["move"]["number"] for p in positions[1:]] == list(SEED_GAME[:4])
    assert [p["to_move"] for p in positions] == [0, 1, 0, 1, 0]
    assert positions[-1]["state"] == game["state"]
    tail = client.get(f"/api/v1/games/{game['id']}/positions?from=3").get_json()
    assert tail == positions[3:]
    assert client.get(f"/api/v1/games/{game['id']}/positions?from=9").get_json() == []
    assert client.get(f"/api/v1/games/{game['id']}/positions?from=-1").status_code == 400
    assert client.get("/api/v1/games/nosuchgame/positions").status_code == 404


def test_a_client_may_run_only_so_many_games_between_bots(client, store, monkeypatch):
    from api.games import Outcome
    from api.play import service
    from api.store.games import Change

    monkeypatch.setattr(service, "MAX_BOT_GAMES_PER_CLIENT", 2)
    bots = {"kind": "factor-multiple", "seats": [{"bot": "greedy"}, {"bot": "random"}]}
    first, _ = (client.post("/api/v1/games", json=bots).get_json() for _ in range(2))
    refused = client.post("/api/v1/games", json=bots)
    assert refused.status_code == 429 and "2 games between bots" in refused.get_json()["message"]
    assert refused.headers["Retry-After"]
    assert (
        client.post(
            "/api/v1/games",
            json={
                "kind": "factor-multiple",
                "seats": [{"human": {"name": "Ada"}}, {"bot": "greedy"}],
            },
        ).status_code
        == 201
    )  # not a bot game

    def abort(record):
        record.finish(Outcome(None, "aborted"))
        return Change(record)

    store.update(first["id"], abort)
    assert client.post("/api/v1/games", json=bots).status_code == 201


def _everything(redis_client) -> dict:
    """Every key's value (a stream's entries without their time-made ids; RQ's job hashes,
    which carry the enqueueing time, aside)."""
    out = {}
    for key in sorted(redis_client.keys("*")):
        if key.startswith(b"rq:job:"):
            continue
        out[key] = {
            "string": lambda: redis_client.get(key),
            "list": lambda: redis_client.lrange(key, 0, -1),
            "hash": lambda: redis_client.hgetall(key),
            "set": lambda: redis_client.smembers(key),
            "zset": lambda: redis_client.zrange(key, 0, -1, withscores=True),
            "stream": lambda: [fields for _, fields in redis_client.xrange(key)],
        }[redis_client.type(key).decode()]()
    return out


def test_every_refused_move_changes_nothing_and_says_why(client, redis_client):
    say = {"type": "say"}
    game = create(client, first=0)
    url = f"/api/v1/games/{game['id']}/moves"
    mover, other = auth(game["tokens"]["0"]), auth(game["tokens"]["1"])
    elsewhere = create(client, first=0)["tokens"]["0"]
    stored = _everything(redis_client)
    refused = [  # each: the request, its status
        (url, mover, {"move": {**say, "number": 3}, "ply": 0}, 422),  # odd: illegal
        (url, mover, {"move": {"type": "say"}, "ply": 0}, 400),  # no number
        (url, mover, {"move": {**say, "number": 4}}, 400),  # no ply
        (url, mover, {"move": {**say, "number": 4}, "ply": 3}, 409),  # moved on
        (url, other, {"move": {**say, "number": 4}, "ply": 0}, 409),  # not its turn
        (url, {}, {"move": {**say, "number": 4}, "ply": 0}, 401),
        (url, auth("nosuchtoken"), {"move": {**say, "number": 4}, "ply": 0}, 401),
        (url, auth(elsewhere), {"move": {**say, "number": 4}, "ply": 0}, 403),
        (url, auth("pp.nosuch"), {"move": {**say, "number": 4}, "ply": 0}, 401),
        ("/api/v1/games/nosuchgame/moves", mover, {"move": {**say, "number": 4}, "ply": 0}, 404),
    ]
    for path, headers, body, status in refused:
        response = client.post(path, headers=headers, json=body)
        assert response.status_code == status, (body, response.get_json())
        assert "message" in response.get_json()
    broken = client.post(
        url, headers={**mover, "Content-Type": "application/json"}, data=b'{"move": '
    )
    assert broken.status_code == 400 and "JSON" in broken.get_json()["message"]
    assert _everything(redis_client) == stored


def test_a_move_after_the_flag_fell_is_refused_and_ends_the_game_on_time(client):
    game = create(
        client, first=0, time_control={"type": "fischer", "initial_s": 1, "increment_s": 0}
    )
    url = f"/api/v1/games/{game['id']}/moves"
    assert move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).status_code == 201
    time.sleep(1.1)  # (seat 1's second runs out)
    response = client.post(
        url,
        headers=auth(game["tokens"]["1"]),
        json={"move": {"type": "say", "number": 8}, "ply": 1},
    )
    assert response.status_code == 409 and "time ran out" in response.get_json()["message"]
    ended = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert ended["status"] == "finished" and ended["result"]["reason"] == "time"


def test_a_move_read_before_another_change_landed_is_decided_on_the_game_as_stored(
    app, client, store, monkeypatch
):
    """Another change lands between the move's read (token and game in one script) and its
    write: the move is decided again on the game as it then is (here: refused, the game over)."""
    from api.play import service

    game = create(client, first=0)
    real = service.seat_and_read

    def read_then_other_resigns(*args, **kwargs):
        found = real(*args, **kwargs)
        service.resign(store, app.extensions["postplay"]["followups"], game["id"], 1)
        monkeypatch.setattr(service, "seat_and_read", real)
        return found

    monkeypatch.setattr(service, "seat_and_read", read_then_other_resigns)
    response = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4})
    assert response.status_code == 409 and response.get_json()["message"] == "The game is over."
    record = store.load(game["id"])
    assert record.ply == 0 and record.result.reason == "resign"
