"""Moves answered before Flask (api/web/fast_moves.py): the same answer, byte for byte, and the
same writes to Redis as the app's own route makes for the same move from the same store; and
every move it cannot make exactly as the app would reaches the app untouched."""
from __future__ import annotations

import time

import flask
import pytest

from api.games import GAMES
from api.play import chat, service
from api.store import keys, version_cache
from api.store.games import MOVE_FROM_COPY
from api.web.fast_moves import MoveAnswers
from tests.api.helpers import auth, create, move, requests_counted
from tests.api.test_accounts import new_game, sign_up
from tests.api.test_fast_paths import dispatched, round_trips  # noqa: F401 (fixtures)
from tests.api.test_outage import own_redis  # noqa: F401 (a fixture)

SAY = {"type": "say"}
CHAIN = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]  # n=1000: the tenth move ends the game
N1000 = {"n": 1000, "even_start": False}


@pytest.fixture(autouse=True)
def each_read_hears(monkeypatch):
    """The copy applies what its connection heard at each read (a move reads it as it stands for
    FRESH_S after that, tests/api/test_version_cache.py): these tests count round trips."""
    monkeypatch.setattr(version_cache, "FRESH_S", 0.0)


def fast_path(app) -> MoveAnswers:
    layer = app.wsgi_app
    while not isinstance(layer, MoveAnswers):
        layer = getattr(layer, "app", None) or layer.application  # (WhiteNoise's name for it)
    return layer


def everything(redis_client) -> dict:
    """Every key's value (a stream's entries without their time-made ids; RQ's job hashes,
    which carry the enqueueing time, aside)."""
    out = {}
    for key in sorted(redis_client.keys("*")):
        kind = redis_client.type(key).decode()
        if key.startswith(b"rq:job:"):
            continue
        out[key] = {
            "string": lambda: redis_client.get(key),
            "list": lambda: redis_client.lrange(key, 0, -1),
            "hash": lambda: redis_client.hgetall(key),
            "set": lambda: redis_client.smembers(key),
            "zset": lambda: redis_client.zrange(key, 0, -1, withscores=True),
            "stream": lambda: [fields for _, fields in redis_client.xrange(key)],
        }[kind]()
    return out


@pytest.fixture
def both_ways(app, client, redis_client, monkeypatch, dispatched):
    """`post(path, headers, body)`: the move made by the fast path, then, from the store as it
    was, by the app's route, at the same frozen time: each answer (status, headers, bytes) and
    what it left in Redis. The store is left as the fast path left it."""
    answers = fast_path(app)

    def post(path, headers, body):
        now = time.time()
        monkeypatch.setattr(time, "time", lambda: now)
        before = [(key, redis_client.dump(key)) for key in redis_client.keys("*")]
        results = []
        for by_app in (True, False):
            if by_app:
                learnt, answers.headers = answers.headers, {}  # nothing learnt: the app's
            seen = len(dispatched)
            response = client.post(path, headers=headers, json=body)
            if by_app:
                answers.headers = learnt
                assert len(dispatched) == seen + 1
                after = everything(redis_client)
                redis_client.flushdb()
                for key, dumped in before:
                    redis_client.restore(key, 0, dumped)
            else:
                assert len(dispatched) == seen, "the app answered"
            results.append((response.status, dict(response.headers), response.get_data(),
                            after if by_app else everything(redis_client)))
        monkeypatch.undo()
        return results

    # the route's headers learnt from one move the app answers (as the first one always is)
    warm = create(client, first=0)
    assert move(client, warm, warm["tokens"]["0"], {**SAY, "number": 4}).status_code == 201
    return post


def assert_same(results):
    (app_status, app_headers, app_body, app_store), (status, headers, body, store) = results
    assert status == app_status == "201 CREATED"
    assert headers == app_headers
    assert body == app_body
    assert store == app_store


def test_a_whole_game_of_moves_is_answered_and_stored_as_the_app_does(client, both_ways):
    game = create(client, first=0, options=N1000)
    tokens = game["tokens"]
    for ply, number in enumerate(CHAIN):
        results = both_ways(f"/api/v1/games/{game['id']}/moves", auth(tokens[str(ply % 2)]),
                            {"move": {**SAY, "number": number}, "ply": ply})
        assert_same(results)
    ended = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert ended["status"] == "finished" and ended["ply"] == len(CHAIN)  # (archived, too)
    assert len(client.get(f"/api/v1/games/{game['id']}/moves").get_json()) == len(CHAIN)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_kinds_move_is_answered_as_the_app_does(client, both_ways, kind):
    """(The route's schema dumps each kind's game object unchanged: the fast path sends it as
    the view makes it.)"""
    game = create(client, kind=kind)
    for _ in range(3):
        legal = client.get(f"/api/v1/games/{game['id']}/legal-moves").get_json()
        if not legal["moves"]:
            break
        results = both_ways(f"/api/v1/games/{game['id']}/moves",
                            auth(game["tokens"][str(legal["seat"])]),
                            {"move": legal["moves"][0], "ply": legal["ply"]})
        assert_same(results)


@pytest.mark.parametrize("encoding", ["br", "gzip", "gzip, deflate, br", "identity"])
def test_a_compressed_answer_is_the_apps_too(client, both_ways, encoding):
    game = create(client, kind="partition", first=0)  # a document of over a kilobyte
    legal = client.get(f"/api/v1/games/{game['id']}/legal-moves").get_json()["moves"][0]
    results = both_ways(f"/api/v1/games/{game['id']}/moves",
                        {**auth(game["tokens"]["0"]), "Accept-Encoding": encoding,
                         "Origin": "https://another-client.example"},  # (CORS as the app's)
                        {"move": legal, "ply": 0})
    assert_same(results)
    assert results[1][1].get("Content-Encoding") == {
        "br": "br", "gzip": "gzip", "gzip, deflate, br": "br"}.get(encoding)


def test_a_move_against_a_bot_owes_the_worker_the_same_job(client, both_ways, run_jobs,
                                                           dispatched):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"bot": "random"}], first=0)
    results = both_ways(f"/api/v1/games/{game['id']}/moves", auth(game["tokens"]["0"]),
                        {"move": {**SAY, "number": 4}, "ply": 0})
    assert_same(results)
    assert any(key.startswith(b"rq:queue:") for key in results[1][3])
    assert run_jobs() >= 1
    replied = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert replied["ply"] == 2 and replied["to_move"] == 0


def test_a_move_on_the_clock_sets_the_same_deadline(client, both_ways, store):
    game = create(client, first=0, time_control={"type": "fischer", "initial_s": 300,
                                                 "increment_s": 5})
    results = both_ways(f"/api/v1/games/{game['id']}/moves", auth(game["tokens"]["0"]),
                        {"move": {**SAY, "number": 4}, "ply": 0})
    assert_same(results)
    deadline = store.load(game["id"]).deadline()
    due = dict(results[1][3][keys.due_key().encode()])
    assert deadline is not None and due[f"{game['id']}|deadline".encode()] == deadline


def test_a_move_by_an_account_token_is_the_apps_too(client, both_ways):
    token = sign_up(client, "Quick")["token"]
    game = new_game(client, token, [{"me": True}, {"human": {"name": "Bo"}}])
    results = both_ways(f"/api/v1/games/{game['id']}/moves", auth(token),
                        {"move": {**SAY, "number": 4}, "ply": game["ply"]})
    assert_same(results)


def test_what_the_fast_path_cannot_make_goes_to_the_app_and_changes_nothing(
        client, both_ways, dispatched, redis_client):
    game = create(client, first=0)
    url = f"/api/v1/games/{game['id']}/moves"
    mover, other = auth(game["tokens"]["0"]), auth(game["tokens"]["1"])
    elsewhere = create(client, first=0)["tokens"]["0"]
    stored = everything(redis_client)
    refused = [  # each: the request, the app's status
        (url, mover, {"move": {**SAY, "number": 3}, "ply": 0}, 422),  # odd: illegal
        (url, mover, {"move": {"type": "say"}, "ply": 0}, 400),  # no number
        (url, mover, {"move": {**SAY, "number": 4}}, 400),  # no ply
        (url, mover, {"move": {**SAY, "number": 4}, "ply": 3}, 409),  # moved on
        (url, other, {"move": {**SAY, "number": 4}, "ply": 0}, 409),  # not its turn
        (url, {}, {"move": {**SAY, "number": 4}, "ply": 0}, 401),
        (url, auth("nosuchtoken"), {"move": {**SAY, "number": 4}, "ply": 0}, 401),
        (url, auth(elsewhere), {"move": {**SAY, "number": 4}, "ply": 0}, 403),
        (url, auth("pp.nosuch"), {"move": {**SAY, "number": 4}, "ply": 0}, 401),
        ("/api/v1/games/nosuchgame/moves", mover, {"move": {**SAY, "number": 4}, "ply": 0},
         404),
    ]
    for path, headers, body, status in refused:
        seen = len(dispatched)
        response = client.post(path, headers=headers, json=body)
        assert response.status_code == status, (body, response.get_json())
        assert "message" in response.get_json()
        assert len(dispatched) == seen + 1  # the app's answer, in its words
    broken = client.post(url, headers={**mover, "Content-Type": "application/json"},
                         data=b'{"move": ')
    assert broken.status_code == 400 and "JSON" in broken.get_json()["message"]
    assert everything(redis_client) == stored  # no refusal changed anything


def test_a_move_after_the_flag_fell_is_the_apps_to_refuse_and_end_on_time(client, both_ways,
                                                                          dispatched):
    game = create(client, first=0, time_control={"type": "fischer", "initial_s": 1,
                                                 "increment_s": 0})
    url = f"/api/v1/games/{game['id']}/moves"
    assert move(client, game, game["tokens"]["0"], {**SAY, "number": 4}).status_code == 201
    assert dispatched[-1] != url
    time.sleep(1.1)
    response = client.post(url, headers=auth(game["tokens"]["1"]),
                           json={"move": {**SAY, "number": 8}, "ply": 1})
    assert response.status_code == 409 and "time ran out" in response.get_json()["message"]
    assert dispatched[-1] == url
    ended = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert ended["status"] == "finished" and ended["result"]["reason"] == "time"


def test_a_stale_read_writes_nothing_and_goes_to_the_app(app, client, both_ways, store,
                                                         dispatched, monkeypatch):
    """Another change lands between the fast path's read and its write: the app makes the move
    from the game as it then is (here: refuses it, the game having moved on). (Without the
    process' copy of the game, which the move would be made from, the read not needed.)"""
    monkeypatch.setattr(fast_path(app).games, "copy", None)
    game = create(client, first=0)
    real = service.seat_and_read

    def read_then_other_moves(*args, **kwargs):
        found = real(*args, **kwargs)
        service.resign(store, fast_path(app).followups, game["id"], 1)  # lands first
        monkeypatch.setattr(service, "seat_and_read", real)
        return found

    monkeypatch.setattr(service, "seat_and_read", read_then_other_moves)
    response = move(client, game, game["tokens"]["0"], {**SAY, "number": 4})
    assert response.status_code == 409 and response.get_json()["message"] == "The game is over."
    assert dispatched[-1] == f"/api/v1/games/{game['id']}/moves"
    record = store.load(game["id"])
    assert record.ply == 0 and record.result.reason == "resign"


def test_a_move_from_a_stale_copy_is_made_from_the_game_as_stored(
        app, client, both_ways, store, redis_client, round_trips, monkeypatch):
    """The process' copy of the game is not the stored document (another process changed the
    game, and the copy has not heard yet): the move made from the copy writes nothing, and the
    same round trip reads the game, which the move is then made from: the same answer and the
    same writes as without a copy, in the two round trips a move takes without one."""
    game = create(client, first=0, options=N1000)
    path, mover = f"/api/v1/games/{game['id']}/moves", auth(game["tokens"]["0"])
    key, copy = keys.game_key(game["id"]), fast_path(app).games.copy
    first = copy.document(key)
    assert first is not None and first == redis_client.get(key)  # kept as written
    chat.post(store, game["id"], 1, "good luck")  # another process: the game, not its ply
    assert copy.document(key) == redis_client.get(key) != first  # heard
    monkeypatch.setattr(version_cache, "PING_S", 3600.0)  # (no PING of the copy's connection)
    redis_client.script_load(MOVE_FROM_COPY)  # (as a process' first such move does)
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now)
    snapshot = [(k, redis_client.dump(k)) for k in redis_client.keys("*")]
    answers = []
    for stale in (False, True):
        redis_client.flushdb()
        for k, dumped in snapshot:
            redis_client.restore(k, 0, dumped)
        copy.document(key)  # (the flush heard: nothing kept)
        if stale:
            copy.keep(key, first)  # as if the chat's document were still to come
        moved = []
        trips, _ = round_trips(redis_client, lambda: moved.append(client.post(
            path, headers=mover, json={"move": {**SAY, "number": 4}, "ply": 0})))
        assert trips == 2, trips  # stale: the move from the copy, refused; then the write
        answers.append((moved[0].status, dict(moved[0].headers), moved[0].get_data(),
                        everything(redis_client)))
    assert answers[0][0] == "201 CREATED" and answers[1] == answers[0]
    stored = store.load(game["id"])
    assert stored.ply == 1 and len(store.chat(game["id"])) == 1


def test_a_move_after_another_processs_is_made_from_the_copy_that_heard_it(
        app, client, both_ways, redis_client, round_trips, monkeypatch):
    """Two web processes take turns making a game's moves: each hears the other's writes, and
    makes its move from its copy in one round trip; one whose copy has not heard the last write
    yet makes it from the stored game, in two."""
    from api.web import create_app

    other = create_app(dict(app.config)).test_client()  # its own Redis connections and copy
    monkeypatch.setattr(version_cache, "PING_S", 3600.0)  # (no PING of the copies' connections)
    redis_client.script_load(MOVE_FROM_COPY)  # (as a process' first such move does)
    game = create(client, first=0, options=N1000)
    key = keys.game_key(game["id"])
    own_copy = fast_path(app).games.copy
    for ply, number in enumerate(CHAIN[:2]):  # (the other app's first: its route's, learnt)
        assert move(client if ply % 2 else other, game, game["tokens"][str(ply % 2)],
                    {**SAY, "number": number}, ply).status_code == 201
    trips = []
    for ply, number in enumerate(CHAIN[2:6], start=2):
        by = client if ply % 2 else other
        if ply == 5:  # this process' copy as if the other's last write were still to come
            own_copy.document(key)
            own_copy.keep(key, before)
        before = redis_client.get(key)
        moved = []
        trips.append(round_trips(redis_client, lambda: moved.append(move(
            by, game, game["tokens"][str(ply % 2)], {**SAY, "number": number}, ply)))[0])
        assert moved[0].status_code == 201 and moved[0].get_json()["ply"] == ply + 1
    assert trips == [1, 1, 1, 2], trips
    assert [e["move"]["number"] for e in client.get(
        f"/api/v1/games/{game['id']}/moves").get_json()] == CHAIN[:6]


def test_a_fast_move_is_counted_in_the_metrics(client, both_ways, dispatched):
    game = create(client, first=0)
    counted = requests_counted(client, "POST", "/api/v1/games/<game_id>/moves", "201")
    seen = len(dispatched)
    assert move(client, game, game["tokens"]["0"], {**SAY, "number": 4}).status_code == 201
    assert len(dispatched) == seen
    assert requests_counted(client, "POST", "/api/v1/games/<game_id>/moves", "201") == counted + 1


@pytest.fixture
def limited(redis_url, redis_client):
    from api.web import create_app

    def make(limit: str):
        app = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": True,
                          "RATELIMIT_APPLICATION": limit})
        return app, app.test_client()

    return make


def test_fast_moves_spend_the_clients_budget_as_the_apps_do(limited):
    app, client = limited("40 per minute")
    seen = []
    flask.request_started.connect(lambda sender, **extra: seen.append(flask.request.path), app,
                                  weak=False)
    game = create(client, first=0, options=N1000)  # 1 spent
    tokens = game["tokens"]
    answers = []
    for ply, number in enumerate(CHAIN[:9]):
        answers.append(client.post(f"/api/v1/games/{game['id']}/moves",
                                   headers=auth(tokens[str(ply % 2)]),
                                   json={"move": {**SAY, "number": number}, "ply": ply}))
    assert [a.status_code for a in answers] == [201] * 9
    assert seen.count(f"/api/v1/games/{game['id']}/moves") == 1  # the first one, learnt
    assert [int(a.headers["X-RateLimit-Remaining"]) for a in answers] == list(range(38, 29, -1))
    for answer in answers:
        assert {k for k, _ in answer.headers} == {k for k, _ in answers[0].headers}  # the app's
        assert answer.headers["X-RateLimit-Limit"] == "40"
        assert int(answer.headers["Retry-After"]) > 0
        # the window's end, as Redis gives its time left: in whole seconds, read at each request
        assert abs(int(answer.headers["X-RateLimit-Reset"])
                   - int(answers[0].headers["X-RateLimit-Reset"])) <= 1
    # a refused move is counted once, by the app
    refused = client.post(f"/api/v1/games/{game['id']}/moves", headers=auth(tokens["1"]),
                          json={"move": {**SAY, "number": 3}, "ply": 9})
    assert refused.status_code == 422 and refused.headers["X-RateLimit-Remaining"] == "29"


def test_a_client_near_its_limit_is_the_apps_to_count_and_refuse(limited):
    app, client = limited("20 per minute")
    seen = []
    flask.request_started.connect(lambda sender, **extra: seen.append(flask.request.path), app,
                                  weak=False)
    game = create(client, first=0, options=N1000)
    tokens = game["tokens"]
    statuses = []
    for ply, number in enumerate(CHAIN):
        statuses.append(client.post(f"/api/v1/games/{game['id']}/moves",
                                    headers=auth(tokens[str(ply % 2)]),
                                    json={"move": {**SAY, "number": number}, "ply": ply}))
    url = f"/api/v1/games/{game['id']}/moves"
    # 20 - 1 (the game) = 19 left at the first move: the app's (learnt); 18 left: the fast
    # path's, down to 16 left; then the app's again
    assert [s.status_code for s in statuses] == [201] * 10
    assert seen.count(url) == 10 - 3
    assert [s.headers["X-RateLimit-Remaining"] for s in statuses] == [
        str(n) for n in range(18, 8, -1)]
    while client.get("/api/v1/kinds").status_code == 200:
        pass
    refused = client.post(url, headers=auth(tokens["0"]),
                          json={"move": {**SAY, "number": 4}, "ply": 10})
    assert refused.status_code == 429


def test_a_move_while_redis_is_down_is_the_apps_503(own_redis):
    from api.web import create_app

    start, procs = own_redis
    app = create_app({"TESTING": True, "REDIS_URL": start(), "RATELIMIT_ENABLED": True,
                      "RATELIMIT_APPLICATION": "600 per minute"})
    client = app.test_client()
    seen = []
    flask.request_started.connect(lambda sender, **extra: seen.append(flask.request.path), app,
                                  weak=False)
    game = create(client, first=0, options=N1000)
    url = f"/api/v1/games/{game['id']}/moves"
    for ply, number in enumerate(CHAIN[:2]):  # the app's (learnt), then the fast path's
        assert move(client, game, game["tokens"][str(ply % 2)], {**SAY, "number": number},
                    ply).status_code == 201
    assert seen.count(url) == 1
    procs[0].terminate()
    procs[0].wait(timeout=10)
    down = move(client, game, game["tokens"]["0"], {**SAY, "number": 4}, 2)
    assert down.status_code == 503 and "Redis" in down.get_json()["message"]
    assert seen.count(url) == 2
