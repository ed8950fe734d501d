"""Each process's copy of the game versions it has read, kept true by Redis itself.

A board polls its game every few seconds and nearly always hears "not modified": the answer
(api/web/fast_paths.py) needs only the game's version. So a process keeps the versions it has
read, and Redis tells it the name of every game key written, by any process: client tracking in
broadcast mode (`CLIENT TRACKING ON BCAST PREFIX pp:game:`, Redis >= 6) on a connection of the
process' own, which receives an `invalidate` message naming each key as it is written.

A version is answered from the copy only after a PING on that connection, sent after the read
was asked for, has been answered: Redis queues a write's invalidation on the tracking connection
before that write's answer goes to its writer, and answers commands on one connection in order,
so the PONG comes after the invalidation of every write acknowledged to anyone before the read
began, in any process. (Without it, a poll sent just after a move's 201 could be answered from
the copy before the invalidation had been read: a 304 for the version before the move.) Reads
that wait while another thread's PING is out share the next one, so many polls at once cost one
round trip, a short one that reads no document.

Whenever that connection is not tracking (not yet made, Redis away, a failover), nothing is
answered from the copy: each read goes to Redis, as without it.

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

from api.store.keys import game_key

MAX_ENTRIES = 100_000  # then the copy starts again (an int and a key each: a few MB)
RETRY_S = 1.0  # after a failed attempt to track, the reads go to Redis for this long


class _Pending:
    """The mark a read leaves while it asks Redis: a write meanwhile removes it, and the read
    then keeps nothing (it may have read the version before that write)."""


class VersionCache:
    """Versions by key, read through `get`, forgotten as Redis names their keys written."""

    def __init__(self, client: redis.Redis, prefix: str = game_key("")):
        self.client, self.prefix = client, prefix
        self.values: dict[str, int | _Pending] = {}
        self.lock = threading.Lock()  # the connection's round trips and the copy's marks
        # tracking, while not None
        self.connection: redis.connection.AbstractConnection | None = None
        self.pid = os.getpid()  # a process made by fork starts its own copy
        self.retry_at = 0.0
        # PINGs sent and answered on the connection, counted (each is sent, and answered, under
        # the lock): a read may use the copy once a PING sent after it began has been answered
        self.pings_sent = self.pings_answered = 0

    def get(self, key: str, read: Callable[[], int | None]) -> int | None:
        """The version at `key`: from the copy when tracking, else `read()` from Redis (kept
        in the copy when no write of the key was announced meanwhile)."""
        after = self.pings_sent  # (read before the lock: a PING counted later was sent later)
        with self.lock:
            if not self._tracking(after):
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

    def _tracking(self, after: int) -> bool:
        """Whether the copy holds: the tracking connection is up, and a PING sent after the
        `after`th has been answered, every invalidation received before its PONG applied (the
        connection made, or made again, here; called under the lock)."""
        if self.pid != os.getpid():  # the parent's connection is the parent's
            self.pid, self.connection = os.getpid(), None
        try:
            if self.connection is None:
                if time.monotonic() < self.retry_at:
                    return False
                self._track()
            if self.pings_answered <= after:
                assert self.connection is not None  # kept, or just made by `_track`
                self.pings_sent += 1
                self.connection.send_command("PING")
                while (
                    self.connection.read_response(push_request=True, disconnect_on_error=False)
                    is None
                ):
                    pass  # an invalidation, applied by the parser's handler (which answers None)
                self.pings_answered = self.pings_sent
            return True
        except (redis.RedisError, OSError):
            self._drop()
            self.retry_at = time.monotonic() + RETRY_S
            return False

    def _track(self) -> None:
        pool = self.client.connection_pool
        # RESP3: the invalidations arrive on the connection that asked for them
        connection = pool.connection_class(**{**pool.connection_kwargs, "protocol": 3})
        self.values.clear()  # whatever was kept before this connection tracked is unknown
        self.connection = connection
        connection.connect()
        connection._parser.set_invalidation_push_handler(self._invalidated)
        connection.send_command("CLIENT", "TRACKING", "ON", "BCAST", "PREFIX", self.prefix)
        connection.read_response()

    def _invalidated(self, message: list) -> None:
        """An `invalidate` push: the keys written, or None when every key was (FLUSHALL)."""
        named = message[1]
        if named is None:
            self.values.clear()
            return
        for key in named:
            self.values.pop(key.decode() if isinstance(key, bytes) else key, None)

    def _drop(self) -> None:
        connection, self.connection = self.connection, None
        self.values.clear()
        if connection is not None:
            connection.disconnect()
