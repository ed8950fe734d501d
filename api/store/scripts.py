"""Lua scripts run on a connection of the calling thread's own: the scripts of the requests players
send most (a move, the polls that find nothing new).

redis-py's client takes a connection from its pool and gives it back for every command, checking
the process and polling the socket on the way, and wraps the call in its retry and observability
machinery. On this 2-core machine that cost a move about 80–110 µs of the 460–505 it took in
the web process (in process, one thread, the same moves either way; docs/deploy.md has what it
did to the move's rate under gunicorn). So each thread here keeps one connection, made as the
pool makes its own (under Sentinel it asks the sentinels for the master whenever it connects),
and runs EVALSHA on it with redis-py's own `send_command` and `read_response`, which encode,
parse and raise as the client does.

What the client does besides, this does too: a script Redis does not know (it restarted, a new
master) is loaded and run again; a connection that fails is dropped, and one that had served
before is taken to have gone stale (Redis restarted, a failover, an idle client killed): the
script is run once more on a new one, as redis-py's retry does (every script run here is safe to
run twice: it writes only while what it read still holds, or writes the same again). A process
made by fork makes its own.
"""
from __future__ import annotations

import os
import threading
import weakref

import redis
from redis.commands.core import Script


# each pool's connections, one a thread: every store of a client shares them (a job makes its
# stores anew, and a thread would otherwise hold a connection for each). No lock: setdefault is
# one step of the underlying dict, and a lock held by another thread at a fork would be held
# for ever in the child (RQ forks a work-horse for each job beside the worker's own threads).
_LOCALS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class ThreadScripts:
    """`run(script, keys, args)`: the script's answer, on the calling thread's own connection."""

    def __init__(self, client: redis.Redis):
        self.pool = client.connection_pool
        self.local = _LOCALS.setdefault(self.pool, threading.local())

    def run(self, script: Script, keys: list, args: list):
        connection, made = self._connection()
        try:
            return self._run(connection, script, keys, args)
        except redis.ConnectionError:
            if made:  # a connection just made failed: Redis is away, or refuses it
                raise
            return self._run(self._connection()[0], script, keys, args)  # (a new one)

    def _run(self, connection, script: Script, keys: list, args: list):
        try:
            try:
                return _evalsha(connection, script, keys, args)
            except redis.exceptions.NoScriptError:
                connection.send_command("SCRIPT", "LOAD", script.script)
                connection.read_response()
                return _evalsha(connection, script, keys, args)
        except redis.ResponseError:  # an answer read whole: the connection is as it was
            raise
        except BaseException:  # anything else may leave an answer half read
            self._drop()
            raise

    def _connection(self) -> tuple[redis.connection.AbstractConnection, bool]:
        """This thread's connection, and whether it was made just now."""
        local = self.local
        if getattr(local, "pid", None) == os.getpid():
            return local.connection, False
        # none yet, or the parent's (a process made by fork)
        connection = self.pool.connection_class(**self.pool.connection_kwargs)
        # (now: a command sent unconnected would connect without asking the sentinels)
        connection.connect()
        local.connection, local.pid = connection, os.getpid()
        return connection, True

    def _drop(self) -> None:
        connection, self.local.pid = self.local.connection, None
        connection.disconnect()


def _evalsha(connection, script: Script, keys: list, args: list):
    connection.send_command("EVALSHA", script.sha, len(keys), *keys, *args)
    return connection.read_response()
