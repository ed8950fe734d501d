"""GET /health: the web process, Redis and the workers."""

from __future__ import annotations

import time
from datetime import timezone

import redis
from flask import current_app
from flask.views import MethodView
from rq import Queue
from rq.job import Job

from api.followups import QUEUES
from api.store.workers import live_workers
from api.web.contract import operation
from api.web.errors import Blueprint, redis_unreachable
from api.web.schemas import HealthSchema

blp = Blueprint("system", __name__, url_prefix="/api/v1", description="Service health.")


@blp.route("/health")
class Health(MethodView):
    @operation("getHealth")
    @blp.response(200, HealthSchema)
    @blp.alt_response(
        503,
        description="Redis cannot be reached: nothing can be read or changed "
        "until it is back (the error body, with Retry-After).",
    )
    def get(self):
        """Web, Redis and worker status"""
        client = current_app.extensions["postplay"]["redis"]
        try:
            client.ping()
            workers = live_workers(client)
            queues = {name: _queue_health(Queue(name, connection=client)) for name in QUEUES}
        except redis.RedisError as exc:
            raise redis_unreachable() from exc
        return {
            "web": "ok",
            "redis": "ok",
            "workers": workers,
            "queued": sum(q["depth"] for q in queues.values()),
            "queues": queues,
            "status": "ok" if workers else "degraded",
        }


def _queue_health(queue: Queue) -> dict:
    """How many jobs wait in `queue`, and for how long the oldest of them has waited."""
    depth = queue.count
    oldest = queue.get_job_ids(0, 1)
    job = Job.fetch_many(oldest, connection=queue.connection)[0] if oldest else None
    if job is None or job.enqueued_at is None:
        return {"depth": depth, "oldest_waiting_s": None}
    waited = (
        time.time()
        - job.enqueued_at.replace(tzinfo=job.enqueued_at.tzinfo or timezone.utc).timestamp()
    )
    return {"depth": depth, "oldest_waiting_s": round(waited, 3)}
