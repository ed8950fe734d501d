"""The workers' heartbeats in Redis, as /health and /metrics count them (each worker's background
thread writes its own: `api.play.background`)."""

from __future__ import annotations

import redis

from api.store import keys
from api.store.replies import text


def live_workers(client: redis.Redis) -> int:
    """Workers whose heartbeat is fresh; the names of dead ones are dropped on the way."""
    names = [text(n) for n in client.smembers(keys.workers_key())]
    with client.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.exists(keys.worker_key(name))
        flags = pipe.execute()
    dead = [n for n, flag in zip(names, flags) if not flag]
    if dead:
        client.srem(keys.workers_key(), *dead)
    return len(names) - len(dead)
