"""A running game's full GET answered before Flask (api/web/fast_games.py): the app's answer, byte
for byte, from the process' copy of the game while it holds the stored version, with no round
trip to Redis; everything it cannot answer as the app would reaches the app."""
from __future__ import annotations

import time

import flask
import pytest

from api.games import GAMES
from api.store import keys, version_cache
from api.web.fast_games import GameAnswers
from tests.api.helpers import create, move, requests_counted
from tests.api.test_fast_moves import CHAIN, N1000, SAY
from tests.api.test_fast_paths import dispatched, round_trips  # noqa: F401 (fixtures)
from tests.api.test_outage import own_redis  # noqa: F401 (a fixture)


def fast_path(app) -> GameAnswers:
    layer = app.wsgi_app
    while not isinstance(layer, GameAnswers):
        layer = getattr(layer, "app", None) or layer.application  # (WhiteNoise's name for it)
    return layer


@pytest.fixture
def both_ways(app, client, dispatched, monkeypatch):
    """`get(path, headers)`: the GET answered by the app (nothing learnt), then by the fast
    path, at the same frozen time (a clock's time left is reckoned to now): each answer's
    (status, headers, bytes)."""
    answers = fast_path(app)

    def get(path, headers=None):
        now = time.time()
        monkeypatch.setattr(time, "time", lambda: now)
        results = []
        for by_app in (True, False):
            if by_app:
                learnt, answers.headers = answers.headers, {}
            seen = len(dispatched)
            response = client.get(path, headers=headers or {})
            if by_app:
                answers.headers = learnt
                assert len(dispatched) == seen + 1
            else:
                assert len(dispatched) == seen, "the app answered"
            results.append((response.status, dict(response.headers), response.get_data()))
        monkeypatch.setattr(time, "time", original)
        return results

    original = time.time

    warm = create(client)  # the route's headers learnt from one GET the app answers
    assert client.get(f"/api/v1/games/{warm['id']}").status_code == 200
    return get


def assert_same(results):
    assert results[0] == results[1]
    assert results[1][0] == "200 OK"


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_kinds_game_is_answered_as_the_app_does(client, both_ways, kind):
    game = create(client, kind=kind)
    url = f"/api/v1/games/{game['id']}"
    assert_same(both_ways(url))
    legal = client.get(f"{url}/legal-moves").get_json()
    assert move(client, game, game["tokens"][str(legal["seat"])], legal["moves"][0],
                legal["ply"]).status_code == 201
    results = both_ways(url)
    assert_same(results)
    assert flask.json.loads(results[1][2])["ply"] == 1


@pytest.mark.parametrize("encoding", ["br", "gzip", "identity"])
def test_a_compressed_answer_is_the_apps_too(client, both_ways, encoding):
    game = create(client, kind="partition", first=0)  # a document of over a kilobyte
    results = both_ways(f"/api/v1/games/{game['id']}",
                        {"Accept-Encoding": encoding, "Origin": "https://another.example"})
    assert_same(results)
    assert results[1][1].get("Content-Encoding") == {"br": "br", "gzip": "gzip"}.get(encoding)


def test_an_etag_that_no_longer_matches_is_answered_with_the_game(client, both_ways):
    game = create(client, first=0)
    url = f"/api/v1/games/{game['id']}"
    assert_same(both_ways(url, {"If-None-Match": '"an-old-version"'}))


def test_a_game_the_copy_holds_is_answered_without_a_round_trip(
        client, both_ways, redis_client, round_trips, monkeypatch):
    monkeypatch.setattr(version_cache, "PING_S", 3600.0)  # (no PING of the copy's connection)
    game = create(client, first=0)
    url = f"/api/v1/games/{game['id']}"
    assert client.get(url).status_code == 200  # read from Redis, and kept
    got = []
    trips, _ = round_trips(redis_client, lambda: got.append(client.get(url)))
    assert trips == 0 and got[0].status_code == 200
    assert got[0].get_json()["id"] == game["id"]


def test_a_write_by_another_process_is_seen_at_once(app, client, both_ways, redis_client,
                                                     monkeypatch):
    """The version comes from the copy that Redis keeps true: a move made elsewhere is in the
    next answer, read again from Redis when the copy's document is behind that version."""
    from api.web import create_app

    monkeypatch.setattr(version_cache, "FRESH_S", 0.0)
    other = create_app(dict(app.config)).test_client()  # its own Redis connections and copy
    game = create(client, first=0, options=N1000)
    url, key = f"/api/v1/games/{game['id']}", keys.game_key(game["id"])
    for ply, number in enumerate(CHAIN[:4]):
        assert client.get(url).get_json()["ply"] == ply
        before = redis_client.get(key)
        assert move(other, game, game["tokens"][str(ply % 2)], {**SAY, "number": number},
                    ply).status_code == 201
    copy = fast_path(app).games.copy
    copy.document(key)  # what the copy heard, applied; then its document as if the last
    copy.keep(key, before)  # write were still to come
    assert client.get(url).get_json()["ply"] == 4
    assert_same(both_ways(url))


def test_what_it_cannot_answer_is_the_apps(client, both_ways, dispatched):
    game = create(client, first=0, options=N1000)
    url = f"/api/v1/games/{game['id']}"
    gone = client.get("/api/v1/games/nosuchgame")
    assert gone.status_code == 404 and "message" in gone.get_json()
    assert client.get(f"{url}?x=1").status_code == 200
    assert client.head(url).status_code == 200
    # a matching ETag before the poll's fast path has learnt the app's 304: the app's 304
    etag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert dispatched.count("/api/v1/games/nosuchgame") == 1 and dispatched.count(url) == 3
    for ply, number in enumerate(CHAIN):
        assert move(client, game, game["tokens"][str(ply % 2)], {**SAY, "number": number},
                    ply).status_code == 201
    ended = client.get(url)  # a finished game: the app's (its schema narrows rating changes)
    assert ended.status_code == 200 and ended.get_json()["status"] == "finished"
    assert dispatched.count(url) == 4


def test_a_fast_answer_is_counted_in_the_metrics(client, both_ways, dispatched):
    game = create(client)
    counted = requests_counted(client, "GET", "/api/v1/games/<game_id>", "200")
    seen = len(dispatched)
    assert client.get(f"/api/v1/games/{game['id']}").status_code == 200
    assert len(dispatched) == seen
    assert requests_counted(client, "GET", "/api/v1/games/<game_id>", "200") == counted + 1


def test_fast_answers_spend_the_clients_budget_as_the_apps_do(redis_url, redis_client):
    from api.web import create_app

    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": True,
                      "RATELIMIT_APPLICATION": "20 per minute"})
    client = app.test_client()
    seen = []
    flask.request_started.connect(lambda sender, **extra: seen.append(flask.request.path), app,
                                  weak=False)
    game = create(client)  # 1 spent
    url = f"/api/v1/games/{game['id']}"
    answers = [client.get(url) for _ in range(19)]
    # 19 left at the first: the app's (learnt); then the fast path's down to 16 left (the
    # client near its limit), then the app's again, which refuses the 21st
    assert [a.status_code for a in answers] == [200] * 19
    assert seen.count(url) == 19 - 3
    assert [a.headers["X-RateLimit-Remaining"] for a in answers] == [
        str(n) for n in range(18, -1, -1)]
    for answer in answers:
        assert {k for k, _ in answer.headers} == {k for k, _ in answers[0].headers}
    assert client.get(url).status_code == 429


def test_a_game_while_redis_is_down_is_the_apps_503(own_redis):
    from api.web import create_app

    start, procs = own_redis
    app = create_app({"TESTING": True, "REDIS_URL": start(), "RATELIMIT_ENABLED": False})
    client = app.test_client()
    seen = []
    flask.request_started.connect(lambda sender, **extra: seen.append(flask.request.path), app,
                                  weak=False)
    game = create(client)
    url = f"/api/v1/games/{game['id']}"
    assert [client.get(url).status_code for _ in range(2)] == [200, 200]
    assert seen.count(url) == 1  # the app's (learnt), then the fast path's
    procs[0].terminate()
    procs[0].wait(timeout=10)
    down = client.get(url)
    assert down.status_code == 503 and "Redis" in down.get_json()["message"]
    assert seen.count(url) == 2
