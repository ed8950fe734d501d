"""Each web process's copy of the game versions its polls read (api/store/version_cache.py): a
repeated poll reads no version from Redis; a write by any process, a script's included, is seen
by the next poll, even when Redis' message naming it reaches the poller's process late; a write
during a read leaves nothing kept; with Redis stopped nothing is answered from the copy, and
once Redis is back the copy starts again from what Redis holds."""

from __future__ import annotations

import queue
import socket
import threading
import time
from urllib.parse import urlsplit, urlunsplit

import pytest
from redis.connection import AbstractConnection

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
    # a PING each, sent after the poll arrived, and no version read
    assert [c for c in sent if b"PING" in c] and not [
        c for c in sent if b"EVALSHA" in c or b"GET" in c
    ], sent


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
    moved = move(
        other, game, game["tokens"][str(game["to_move"])], {"type": "say", "number": 98}, 0
    )
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


def test_with_redis_stopped_nothing_is_answered_from_the_copy_and_after_it_starts_again(own_redis):  # noqa: F811
    from api.web import create_app

    start, procs = own_redis
    url = start()
    client = create_app(
        {"TESTING": True, "REDIS_URL": url, "RATELIMIT_ENABLED": False}
    ).test_client()
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


class SlowReplies:
    """A TCP proxy to Redis that passes what clients send at once and what Redis answers
    `delay_s` late, in order: a network, or a loaded process, where a message from Redis
    (an invalidation) arrives well after Redis sent it."""

    def __init__(self, redis_url: str, delay_s: float):
        parts = urlsplit(redis_url)
        self.target = (parts.hostname, parts.port)
        self.delay_s = delay_s
        self.listener = socket.create_server(("127.0.0.1", 0))
        host, port = self.listener.getsockname()
        credentials = parts.netloc.rpartition("@")[0]  # the embedded Redis' password, if any
        netloc = f"{credentials}@{host}:{port}" if credentials else f"{host}:{port}"
        self.url = urlunsplit(parts._replace(netloc=netloc))
        self.sockets = [self.listener]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            due: queue.Queue = queue.Queue()
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._late, args=(upstream, due), daemon=True).start()
            threading.Thread(target=self._send_due, args=(due, client), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass

    def _late(self, source: socket.socket, due: queue.Queue) -> None:
        try:
            while data := source.recv(65536):
                due.put((time.monotonic() + self.delay_s, data))
        except OSError:
            pass
        due.put((0.0, b""))

    @staticmethod
    def _send_due(due: queue.Queue, sink: socket.socket) -> None:
        try:
            while True:
                at, data = due.get()
                if not data:
                    return
                time.sleep(max(0.0, at - time.monotonic()))
                sink.sendall(data)
        except OSError:
            pass

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


@pytest.fixture
def slow_replies(redis_url):
    proxy = SlowReplies(redis_url, delay_s=0.15)
    yield proxy
    proxy.close()


def test_a_poll_sent_after_a_move_was_acknowledged_never_hears_304_for_the_version_before(
    client, app, slow_replies
):
    """Read-your-writes across web processes: the poller's process hears Redis late (through
    SlowReplies), so the invalidation of the move made through another process arrives after
    the move's 201 and after the poll is sent; the poll is still answered 200 with the move's
    version, because the copy is brought up to date by a PING sent after the poll arrived."""
    from api.web import create_app

    poller = create_app({**app.config, "REDIS_URL": slow_replies.url}).test_client()
    game = create(client, first=0)
    url = f"/api/v1/games/{game['id']}"
    etag = _learnt(poller, url)
    for _ in range(2):  # answered from the poller's copy of the version
        assert poller.get(url, headers={"If-None-Match": etag}).status_code == 304
    for ply, number in enumerate([4, 8]):
        moved = move(client, game, game["tokens"][str(ply)], {"type": "say", "number": number}, ply)
        assert moved.status_code == 201  # acknowledged: every poll from now on must see it
        after = poller.get(url, headers={"If-None-Match": etag})
        assert after.status_code == 200, "a 304 for the version before an acknowledged move"
        assert after.headers["ETag"] == moved.headers["ETag"] != etag
        assert after.get_json()["version"] == moved.get_json()["version"]
        etag = after.headers["ETag"]
        current = poller.get(url, headers={"If-None-Match": etag})
        assert current.status_code == 304 and current.headers["ETag"] == etag
