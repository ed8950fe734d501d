"""Each process's copy of the game versions it has read, kept true by Redis itself.

A board polls its game every few seconds and nearly always hears "not modified": the answer
(api/web/fast_paths.py) needs only the game's version, and a round trip to Redis for it costs
more than the rest of the answer. So a process keeps the versions it has read, and Redis tells
it the name of every game key written, by any process: client tracking in broadcast mode
(`CLIENT TRACKING ON BCAST PREFIX pp:game:`, Redis >= 6) on a connection of the process' own,
which receives an `invalidate` message naming each key as it is written. Before a version is
answered from the copy, the messages that connection has received are applied, so a write
acknowledged to anyone before the read began has (but for the microseconds between Redis
sending the writer's answer and this connection's message) been applied too.

The same connection keeps the documents of the games the process has lately read or written,
or that any process has written since (`document`, `keep`): every game write publishes its new
document (api/store/keys.py, `documents_channel`), and a move by seat token is made from the
copy in one round trip whose script checks that the copy is still the stored document
(api/store/games.py, `update_from_copy`). Nothing depends on the copy being true: a stale one
costs the read it would have saved. Redis drops a subscriber that lets more than its pubsub
output buffer limit pile up (by default 8 MB for a minute: thousands of writes while the process
answers nothing); the next use finds the connection closed and tracks again, the copy emptied.

Whenever that connection is not tracking (not yet made, Redis away, a failover), nothing is
answered from the copy: each read goes to Redis, as without it. A connection that has gone
quiet is asked for a PING every `PING_S`, so one to a master that vanished without closing it
(a network partition, a failover) is given up within about that time.

Written here rather than taken from redis-py: its client-side cache needs Redis >= 7.4 (the
embedded server is 6.2), answers only plain commands' replies (a version is read by a script),
and keeps no pending mark across a read (see `get`); its parser's push-handler hook is used.
"""
from __future__ import annotations

import os
import threading
import time
from typing import Callable

import redis

from api.store.keys import documents_channel, game_key

MAX_ENTRIES = 100_000  # then the copy starts again (an int and a key each: a few MB)
MAX_DOCUMENTS = 5_000  # the oldest kept goes first (a few kilobytes each: ten-odd MB at most)
PING_S = 1.0
RETRY_S = 1.0  # after a failed attempt to track, the reads go to Redis for this long
FRESH_S = 0.005  # a move reads the copy as it stands this long after the messages were applied


class _Pending:
    """The mark a read leaves while it asks Redis: a write meanwhile removes it, and the read
    then keeps nothing (it may have read the version before that write)."""


class VersionCache:
    """Versions by key, read through `get`, forgotten as Redis names their keys written."""

    def __init__(self, client: redis.Redis, prefix: str = game_key("")):
        self.client, self.prefix = client, prefix
        self.values: dict[str, int | _Pending] = {}
        self.documents: dict[str, bytes] = {}  # oldest kept first
        self.lock = threading.Lock()  # the connection's reads and the copy's marks
        self.connection = None  # tracking, while not None
        self.pid = os.getpid()  # a process made by fork starts its own copy
        self.pinged = self.retry_at = self.applied_at = 0.0

    def get(self, key: str, read: Callable[[], int | None]) -> int | None:
        """The version at `key`: from the copy when tracking, else `read()` from Redis (kept
        in the copy when no write of the key was announced meanwhile)."""
        with self.lock:
            if not self._tracking():
                mark = None
            else:
                value = self.values.get(key)
                if isinstance(value, int):
                    return value
                if len(self.values) >= MAX_ENTRIES:
                    self.values.clear()
                mark = self.values[key] = _Pending()
        value = read()
        if mark is not None:
            with self.lock:
                if self.values.get(key) is mark:
                    if value is None:  # no such game: nothing to keep
                        del self.values[key]
                    else:
                        self.values[key] = value
        return value

    def document(self, key: str) -> bytes | None:
        """The document at `key` as this process last read, wrote or heard it written (None:
        none kept, or the connection is not tracking).

        It is for a move, whose script checks it against the stored document, so a copy a
        little behind costs a round trip, never a wrong move. So the messages the connection
        received are applied first only when no thread did so within FRESH_S and no other
        thread is doing it; otherwise the copy is read as it stands. (With several threads
        moving, each move reading the connection, or waiting on another's read, cost more CPU
        in switches between threads than the move itself; a game's next move seldom comes
        within milliseconds of its last.)"""
        if time.monotonic() - self.applied_at < FRESH_S or not self.lock.acquire(blocking=False):
            return self.documents.get(key) if self._usable() else None
        try:
            return self.documents.get(key) if self._tracking() else None
        finally:
            self.lock.release()

    def keep(self, key: str, document: bytes | None) -> None:
        """`document`, just read or written at `key`, kept (None: nothing is, any more) while
        the connection tracks. (Without first applying what it has received, unlike a read of
        the copy: a move's own write is published back to it, and is read with what comes
        next rather than on its own. Nor while another thread applies it: that publication
        keeps it then.)"""
        if self.lock.acquire(blocking=False):
            try:
                if self._usable():
                    self._keep(key, document)
            finally:
                self.lock.release()

    def _usable(self) -> bool:
        """Whether the copy is this process' and tracked (read without the lock: a dictionary's
        single reads and writes are atomic)."""
        return self.connection is not None and self.pid == os.getpid()

    def _keep(self, key: str, document: bytes | None) -> None:
        self.documents.pop(key, None)
        if document is not None:
            self.documents[key] = document
            if len(self.documents) > MAX_DOCUMENTS:
                del self.documents[next(iter(self.documents))]

    def _tracking(self) -> bool:
        """Whether the copy holds: the tracking connection is up, with every message it has
        received applied (made, or made again, here; called under the lock)."""
        if self.pid != os.getpid():  # the parent's connection is the parent's
            self.pid, self.connection = os.getpid(), None
        try:
            if self.connection is None:
                if time.monotonic() < self.retry_at:
                    return False
                self._track()
            while self.connection.can_read(timeout=0):
                self.connection.read_response(push_request=True, disconnect_on_error=False)
            if time.monotonic() - self.pinged > PING_S:
                self.connection.send_command("PING")
                while self.connection.read_response(push_request=True,
                                                    disconnect_on_error=False) is None:
                    pass  # an invalidation, applied by the parser's handler (which answers None)
                self.pinged = time.monotonic()
            self.applied_at = time.monotonic()
            return True
        except (redis.RedisError, OSError):
            self._drop()
            self.retry_at = time.monotonic() + RETRY_S
            return False

    def _track(self) -> None:
        pool = self.client.connection_pool
        # RESP3: the invalidations arrive on the connection that asked for them
        connection = pool.connection_class(**{**pool.connection_kwargs, "protocol": 3})
        self._forget()  # whatever was kept before this connection tracked is unknown
        self.connection = connection
        connection.connect()
        connection._parser.set_invalidation_push_handler(self._invalidated)
        connection._parser.set_pubsub_push_handler(self._published)
        connection.send_command("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", self.prefix)
        connection.read_response()
        connection.send_command("SUBSCRIBE", documents_channel())
        connection.read_response(push_request=True)  # (its confirmation is a push)
        self.pinged = time.monotonic()

    def _invalidated(self, message: list) -> None:
        """An `invalidate` push: the keys written, or None when every key was (FLUSHALL)."""
        named = message[1]
        if named is None:
            self._forget()
            return
        for key in named:
            self.values.pop(key.decode() if isinstance(key, bytes) else key, None)

    def _published(self, message: list) -> None:
        """A push of the subscription: a document published (or the subscription confirmed)."""
        if message[0] in (b"message", "message"):
            key, _, document = message[2].partition(b"\n")
            self._keep(key.decode(), document or None)

    def _forget(self) -> None:
        self.values.clear()
        self.documents.clear()

    def _drop(self) -> None:
        connection, self.connection = self.connection, None
        self._forget()
        if connection is not None:
            connection.disconnect()
