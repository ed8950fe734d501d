"""GET /health: the web process, Redis and the workers."""
from __future__ import annotations

import redis
from flask import current_app
from flask.views import MethodView
from rq import Queue, Worker

from api.followups import QUEUES
from api.web.errors import Blueprint, redis_unreachable
from api.web.schemas import HealthSchema

blp = Blueprint("system", __name__, url_prefix="/api/v1", description="Service health.")


@blp.route("/health")
class Health(MethodView):
    @blp.response(200, HealthSchema)
    @blp.alt_response(503, description="Redis cannot be reached: nothing can be read or changed "
                                       "until it is back (the error body, with Retry-After).")
    def get(self):
        """Web, Redis and worker status"""
        client = current_app.extensions["postplay"]["redis"]
        try:
            client.ping()
            workers = Worker.count(connection=client)
            queued = sum(Queue(name, connection=client).count for name in QUEUES)
        except redis.RedisError as exc:
            raise redis_unreachable() from exc
        return {"web": "ok", "redis": "ok", "workers": workers, "queued": queued,
                "status": "ok" if workers else "degraded"}
