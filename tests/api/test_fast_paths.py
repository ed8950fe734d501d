"""The hot requests do the least Redis work that answers them, counted with Redis' own command
statistics: a poll with a matching ETag reads the version alone (no document leaves Redis), a
poll of an account's games reads its versions in one script, and a move by seat token is one
read script (document, token, seat hashes, the opponent's conditional moves) and one write
script. A game's matching poll is answered before Flask (api/web/fast_paths.py), with the
headers the app's own 304 has."""

from __future__ import annotations

import flask
import pytest
from redis.connection import AbstractConnection

from api.store import keys
from tests.api.helpers import auth, create, move, requests_counted
from tests.api.test_accounts import new_game, sign_up


@pytest.fixture
def round_trips(monkeypatch):
    """How many round trips to Redis `action` makes (a pipeline sends its commands at once),
    and how many bytes Redis sent back: (trips, bytes); `.sent`, the commands as sent."""
    sent = []
    original = AbstractConnection.send_packed_command

    def counting(self, command, check_health=True):
        sent.append(command)
        return original(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counting)

    def received(redis_client, action) -> int:
        before = redis_client.info("stats")["total_net_output_bytes"]
        action()
        return redis_client.info("stats")["total_net_output_bytes"] - before

    def measure(redis_client, action) -> tuple[int, int]:
        info_itself = received(redis_client, lambda: None)  # INFO's own reply is counted
        del sent[:]
        got = received(redis_client, action)
        return len(sent) - 2, got - info_itself  # (less the two INFOs)

    measure.sent = sent
    return measure


@pytest.fixture
def uncopied(redis_url, app):
    """A client of an app whose processes keep no copy of the games' versions (see
    tests/api/test_version_cache.py for the copy): each poll reads Redis."""
    from api.web import create_app

    return create_app({**app.config, "VERSION_CACHE": False}).test_client()


def test_a_matching_poll_reads_only_the_version(uncopied, redis_client, round_trips):
    client = uncopied
    game = create(client, kind="partition")  # a document of well over a kilobyte
    url = f"/api/v1/games/{game['id']}"
    etag = client.get(url).headers["ETag"]
    poll = {"If-None-Match": etag}
    assert client.get(url, headers=poll).status_code == 304  # (the script is loaded now)
    trips, received = round_trips(redis_client, lambda: client.get(url, headers=poll))
    assert trips == 1 and received < 100, (trips, received)  # the version, not the document
    moved = client.post(f"{url}/resign", headers=auth(game["tokens"]["0"]))
    assert moved.status_code == 201
    after = client.get(url, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] == moved.headers["ETag"] != etag
    assert after.get_json()["version"] == game["version"] + 1


def test_a_poll_of_an_unknown_game_with_an_etag_is_still_404(client):
    response = client.get("/api/v1/games/nosuchgame", headers={"If-None-Match": '"abc"'})
    assert response.status_code == 404


def test_a_matching_poll_of_my_games_reads_their_versions_in_one_script(
    client, redis_client, round_trips
):
    token = sign_up(client, "Poller")["token"]
    games = [
        new_game(client, token, [{"me": True}, {"human": {"name": f"P{i}"}}]) for i in range(3)
    ]
    first = client.get("/api/v1/me/games", headers=auth(token))
    poll = {**auth(token), "If-None-Match": first.headers["ETag"]}
    for _ in range(2):  # the app's own 304, then the fast path's (its script is loaded now)
        assert client.get("/api/v1/me/games", headers=poll).status_code == 304
    trips, received = round_trips(
        redis_client, lambda: client.get("/api/v1/me/games", headers=poll)
    )
    # one script: the account token's entry, its account, its last use, the games' versions
    assert trips == 1 and received < 1500, (trips, received)
    other = client.get("/api/v1/me/games?status=active", headers=poll)
    assert other.status_code == 200 and other.headers["ETag"] != first.headers["ETag"]
    move(client, games[1], token, {"type": "say", "number": 4})
    assert client.get("/api/v1/me/games", headers=poll).status_code == 200
    newer = client.get("/api/v1/me/games", headers=auth(token))
    new_game(client, token, [{"me": True}, {"human": {"name": "Late"}}])
    assert (
        client.get(
            "/api/v1/me/games", headers={**auth(token), "If-None-Match": newer.headers["ETag"]}
        ).status_code
        == 200
    )


def test_a_move_by_seat_token_is_two_reads_and_one_write(uncopied, redis_client, round_trips):
    client = uncopied
    warm = create(client, first=0)  # this thread's connection made, the scripts loaded
    assert move(client, warm, warm["tokens"]["0"], {"type": "say", "number": 4}).status_code == 201
    game = create(client, first=0)
    moved = []
    trips, _ = round_trips(
        redis_client,
        lambda: moved.append(move(client, game, game["tokens"]["0"], {"type": "say", "number": 4})),
    )
    assert moved[0].status_code == 201
    # one script reads the document, the token's index entry, the seat hashes and the opponent's
    # conditional moves (kept beside the game, never in it: api/play/correspondence); one script
    # writes
    assert trips == 2, trips
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["ply"] == 1


def test_a_move_answered_by_a_conditional_reply_is_still_two_round_trips(
    uncopied, redis_client, round_trips
):
    client = uncopied
    warm = create(client, first=0)
    assert move(client, warm, warm["tokens"]["0"], {"type": "say", "number": 4}).status_code == 201
    game = create(client, first=0)
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    game = move(client, game, ada, {"type": "say", "number": 4}).get_json()
    tree = [{"if": {"type": "say", "number": 2}, "then": {"type": "say", "number": 6}}]
    set_ = client.put(
        f"/api/v1/games/{game['id']}/conditional",
        headers=auth(ada),
        json={"ply": game["ply"], "tree": tree},
    )
    assert set_.status_code == 200, set_.get_json()
    moved = []
    trips, _ = round_trips(
        redis_client, lambda: moved.append(move(client, game, bo, {"type": "say", "number": 2}))
    )
    assert moved[0].status_code == 201
    # the opponent's tree came with the read script's answer: the reply costs no trip
    assert moved[0].get_json()["ply"] == 3 and trips == 2, (moved[0].get_json()["ply"], trips)


def test_a_move_by_account_token_reads_the_opponents_tree_with_the_game(
    uncopied, redis_client, round_trips
):
    client = uncopied
    token = sign_up(client, "Fast_Ada")["token"]
    seats = [{"me": True}, {"human": {"name": "Bo"}}]
    warm = new_game(client, token, seats)
    assert move(client, warm, token, {"type": "say", "number": 4}).status_code == 201
    game = new_game(client, token, seats)
    moved = []
    round_trips(
        redis_client,
        lambda: moved.append(move(client, game, token, {"type": "say", "number": 4})),
    )
    assert moved[0].status_code == 201

    def naming(key: str) -> list[bytes]:  # the commands with `key` as one of their arguments
        whole = f"\r\n{key}\r\n".encode()
        return [c for c in map(_packed, round_trips.sent) if whole in c]

    document, tree = keys.game_key(game["id"]), keys.conditional_key(game["id"], 1)
    # one command reads the document and the tree (the write script names both too, as guards)
    assert len(naming(tree)) == 2 and naming(tree) == naming(document), naming(tree)


def _packed(command) -> bytes:
    return b"".join(command) if isinstance(command, list) else bytes(command)


@pytest.fixture
def dispatched(app):
    """The requests that reached Flask's dispatch (the fast path answers before it)."""
    seen = []

    def record(sender, **extra):
        seen.append(flask.request.path)

    flask.request_started.connect(record, app)
    yield seen
    flask.request_started.disconnect(record, app)


def test_a_matching_poll_is_answered_before_flask_with_the_apps_own_headers(client, dispatched):
    game = create(client)
    url = f"/api/v1/games/{game['id']}"
    etag = client.get(url).headers["ETag"]
    by_app = client.get(url, headers={"If-None-Match": etag})  # the app's: its headers learnt
    assert by_app.status_code == 304 and dispatched.count(url) == 2
    assert by_app.headers["ETag"] == etag
    counted = requests_counted(client, "GET", "/api/v1/games/<game_id>", "304")
    fast = client.get(url, headers={"If-None-Match": etag})
    assert fast.status_code == 304 and fast.data == b""
    assert dispatched.count(url) == 2  # Flask never saw it
    assert dict(fast.headers) == dict(by_app.headers)  # its ETag included
    assert requests_counted(client, "GET", "/api/v1/games/<game_id>", "304") == counted + 1
    # an ETag among others matches, as in flask-smorest's check
    assert client.get(url, headers={"If-None-Match": f'"x", {etag}'}).status_code == 304
    assert dispatched.count(url) == 2


def test_a_poll_the_fast_path_cannot_answer_goes_to_the_app(client, dispatched):
    game = create(client)
    url = f"/api/v1/games/{game['id']}"
    etag = client.get(url).headers["ETag"]
    client.get(url, headers={"If-None-Match": etag})
    stale = client.get(url, headers={"If-None-Match": '"not-this-version"'})
    assert stale.status_code == 200 and stale.get_json()["id"] == game["id"]
    gone = client.get("/api/v1/games/nosuchgame", headers={"If-None-Match": etag})
    assert gone.status_code == 404 and "message" in gone.get_json()
    head = client.head(url, headers={"If-None-Match": etag})
    assert head.status_code == 304
    # (the stale poll and the HEAD are the app's)
    assert dispatched.count(url) == 4 and dispatched.count("/api/v1/games/nosuchgame") == 1


def test_a_matching_poll_of_my_games_is_answered_before_flask_while_the_token_holds(
    client, dispatched
):
    token = sign_up(client, "FastPoller")["token"]
    new_game(client, token, [{"me": True}, {"human": {"name": "Bo"}}])
    url = "/api/v1/me/games"
    etag = client.get(url, headers=auth(token)).headers["ETag"]
    poll = {**auth(token), "If-None-Match": etag}
    by_app = client.get(url, headers=poll)
    assert by_app.status_code == 304 and dispatched.count(url) == 2
    fast = client.get(url, headers=poll)
    assert fast.status_code == 304 and fast.headers["ETag"] == etag
    assert dict(fast.headers) == dict(by_app.headers)  # its ETag included
    assert dispatched.count(url) == 2
    # a token used only by polls the fast path answers has its use noted all the same
    reader = client.post(
        "/api/v1/me/tokens",
        headers=auth(token),
        json={"description": "watcher", "scopes": ["read"]},
    ).get_json()
    assert client.get(url, headers={**poll, **auth(reader["token"])}).status_code == 304
    assert dispatched.count(url) == 2
    tokens = {t["id"]: t for t in client.get("/api/v1/me/tokens", headers=auth(token)).get_json()}
    assert tokens[reader["id"]]["last_used_at"] is not None
    # a query, another token's poll, a revoked token: the app's, in its words
    assert client.get(f"{url}?status=active", headers=poll).status_code == 200
    assert client.get(url, headers={**poll, "Authorization": "Bearer pp.nosuch"}).status_code == 401
    assert client.delete("/api/v1/session", headers=auth(token)).status_code == 204
    signed_out = client.get(url, headers=poll)
    assert signed_out.status_code == 401 and "message" in signed_out.get_json()
    assert dispatched.count(url) == 5


def test_a_poll_of_my_games_without_the_read_scope_is_refused_by_the_app(client):
    token = sign_up(client, "NoReader")["token"]
    personal = client.post(
        "/api/v1/me/tokens", headers=auth(token), json={"description": "bot", "scopes": ["play"]}
    ).get_json()
    poll = {**auth(personal["token"]), "If-None-Match": '"anything"'}
    for _ in range(2):  # the second after the route's headers are learnt
        refused = client.get("/api/v1/me/games", headers=poll)
        assert refused.status_code == 403 and "'read'" in refused.get_json()["message"]
    etag = client.get("/api/v1/me/games", headers=auth(token)).headers["ETag"]
    assert (
        client.get("/api/v1/me/games", headers={**auth(token), "If-None-Match": etag}).status_code
        == 304
    )
    poll["If-None-Match"] = etag
    assert client.get("/api/v1/me/games", headers=poll).status_code == 403
