"""Each web process's copy of the game versions its polls read (api/store/version_cache.py): a
repeated poll is answered without Redis; a write by any process, a script's included, is seen
by the next poll; a write during a read leaves nothing kept; with Redis stopped nothing is
answered from the copy, and once Redis is back the copy starts again from what Redis holds.
And its copy of the game documents lately written, by any process, which moves are made from
(tests/api/test_fast_moves.py)."""
from __future__ import annotations

import time

import pytest
from redis.connection import AbstractConnection

from api.followups import RQFollowups
from api.play import service
from api.record import Seat
from api.store import version_cache
from api.store.keys import game_key
from api.store.version_cache import VersionCache
from tests.api.helpers import auth, create, move
from tests.api.test_outage import own_redis  # noqa: F401 (a fixture)


@pytest.fixture
def sent(monkeypatch):
    """The commands every Redis connection of this process sends, as they are sent."""
    commands = []
    original = AbstractConnection.send_packed_command

    def counting(self, command, check_health=True):
        commands.append(b"".join(command) if isinstance(command, list) else command)
        return original(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counting)
    return commands


def _learnt(client, url: str) -> str:
    """The game's ETag, with the app's 304 headers learnt (the fast path answers from then)."""
    etag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    return etag


def test_a_repeated_poll_is_answered_without_asking_redis(client, sent):
    game = create(client)
    url = f"/api/v1/games/{game['id']}"
    etag = _learnt(client, url)
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304  # read, kept
    del sent[:]
    for _ in range(5):
        assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert not [c for c in sent if b"EVALSHA" in c or b"GET" in c], sent  # at most a PING


def test_a_write_by_another_process_is_seen_by_the_next_poll(client, run_jobs):
    # the bot's answer is written by an RQ worker, through a Redis connection of its own
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"bot": "greedy"}], first=0)
    url = f"/api/v1/games/{game['id']}"
    mine = move(client, game, game["tokens"]["0"], {"type": "say", "number": 98}, 0)
    assert mine.status_code == 201
    etag = _learnt(client, url)
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304  # kept
    assert run_jobs() >= 1
    after = client.get(url, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.get_json()["ply"] == 2


def test_a_move_through_another_web_process_is_seen_by_the_next_poll(client, app):
    from api.web import create_app

    game = create(client)
    url = f"/api/v1/games/{game['id']}"
    etag = _learnt(client, url)
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304  # kept
    other = create_app(dict(app.config)).test_client()  # its own Redis connections and copy
    moved = move(other, game, game["tokens"][str(game["to_move"])],
                 {"type": "say", "number": 98}, 0)
    assert moved.status_code == 201  # its write script: the document and the history
    after = client.get(url, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] == moved.headers["ETag"]


def test_a_write_while_a_version_is_read_leaves_nothing_kept(redis_client):
    cache = VersionCache(redis_client)
    key = game_key("racing")
    redis_client.set(key, "v1")
    reads = []

    def read_then_written():
        reads.append(1)
        redis_client.set(key, "v2")  # written after the version was read, before it is kept
        return 1

    assert cache.get(key, read_then_written) == 1
    assert cache.get(key, lambda: reads.append(2) or 2) == 2  # asked Redis again
    assert cache.get(key, lambda: reads.append(3) or 3) == 2  # and kept that
    assert reads == [1, 2]


def test_with_redis_stopped_nothing_is_answered_from_the_copy_and_after_it_starts_again(
        own_redis):  # noqa: F811
    from api.web import create_app

    start, procs = own_redis
    url = start()
    client = create_app({"TESTING": True, "REDIS_URL": url,
                         "RATELIMIT_ENABLED": False}).test_client()
    game = create(client, first=0)
    path = f"/api/v1/games/{game['id']}"
    etag = _learnt(client, path)
    assert client.get(path, headers={"If-None-Match": etag}).status_code == 304  # kept
    port = int(url.rsplit(":", 1)[1].split("/")[0])

    procs[0].terminate()
    procs[0].wait(timeout=10)
    down = client.get(path, headers={"If-None-Match": etag})
    assert down.status_code == 503 and "Redis" in down.get_json()["message"]

    start(port)  # the same data (append-only), on the same port
    moved = None
    for _ in range(50):  # until the app's connections are made again
        moved = move(client, game, game["tokens"]["0"], {"type": "say", "number": 98}, 0)
        if moved.status_code != 503:
            break
        time.sleep(0.1)
    assert moved.status_code == 201
    # the copy kept before the stop is gone: the poll with the old ETag sees the move
    after = client.get(path, headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.get_json()["version"] == game["version"] + 1
    fresh = after.headers["ETag"]
    assert client.get(path, headers={"If-None-Match": fresh}).status_code == 304
    assert client.post(f"{path}/resign", headers=auth(game["tokens"]["1"])).status_code == 201
    assert client.get(path, headers={"If-None-Match": fresh}).status_code == 200


def test_the_documents_written_are_heard_and_the_oldest_kept_goes_first(redis_client, store,
                                                                        monkeypatch):
    """Every game write publishes its document: a process' copy holds the games lately written
    by any process (here another store's, without a copy), up to its bound."""
    monkeypatch.setattr(version_cache, "MAX_DOCUMENTS", 3)
    monkeypatch.setattr(version_cache, "FRESH_S", 0.0)  # each read applies what was heard
    cache, followups = VersionCache(redis_client), RQFollowups(redis_client)
    assert cache.document(game_key("none")) is None  # (tracking from here)
    ids = []
    for _ in range(4):
        record, tokens = service.create_game(store, followups, "factor-multiple", None,
                                             [Seat.human("A"), Seat.human("B")], 0)
        ids.append(record.id)
    assert cache.document(game_key(ids[0])) is None  # the oldest, gone
    for game_id in ids[1:]:
        assert cache.document(game_key(game_id)) == redis_client.get(game_key(game_id))
    service.resign(store, followups, ids[3], 0)  # over: archived, no move made from it
    assert cache.document(game_key(ids[3])) is None
    cache.keep(game_key(ids[1]), b"{}")  # as this process read or wrote it
    assert cache.document(game_key(ids[1])) == b"{}"


def test_a_document_is_read_as_it_stands_within_fresh_s_of_applying_what_was_heard(
        redis_client, store, monkeypatch):
    """For moves (whose script checks the copy against Redis), the connection is read at most
    every FRESH_S: within it a later write is not yet in the copy; after it, it is."""
    # each read of the connection ends with a PING answered: Redis sends its answer after the
    # write's message, so that message has arrived by then (without it, a loaded machine can
    # read the connection in the microseconds before the message comes, and fail)
    monkeypatch.setattr(version_cache, "PING_S", 0.0)
    monkeypatch.setattr(version_cache, "FRESH_S", 3600.0)
    cache, followups = VersionCache(redis_client), RQFollowups(redis_client)
    assert cache.document(game_key("none")) is None  # tracking, and what it heard applied
    record, tokens = service.create_game(store, followups, "factor-multiple", None,
                                         [Seat.human("A"), Seat.human("B")], 0)
    key = game_key(record.id)
    assert cache.document(key) is None  # published after the copy was last brought up to date
    monkeypatch.setattr(version_cache, "FRESH_S", 0.0)
    created = cache.document(key)
    assert created == redis_client.get(key)
    monkeypatch.setattr(version_cache, "FRESH_S", 3600.0)
    service.move_by_token(store, followups, record.id, tokens["0"], None,
                          {"type": "say", "number": 4}, 0)
    assert cache.document(key) == created  # behind: the move's write not yet applied
    monkeypatch.setattr(version_cache, "FRESH_S", 0.0)
    assert cache.document(key) == redis_client.get(key) != created
