"""The follow-up jobs a change calls for, put on the RQ queue: a bot's move when a bot is to
move, and a check at the deadline of the turn that just started. Jobs carry what they expect
(the ply, the deadline), so a stale or duplicated job is a no-op."""
from __future__ import annotations

from datetime import datetime, timezone

import redis
from rq import Queue

from api import clocks
from api.play import bot_to_move, load_state

QUEUE = "postplay"


class RQFollowups:
    def __init__(self, client: redis.Redis):
        self.queue = Queue(QUEUE, connection=client)

    def after_change(self, doc: dict) -> None:
        if doc["status"] != "active":
            return
        if bot_to_move(doc) is not None:
            self.queue.enqueue("worker.jobs.bot_move", doc["id"], doc["ply"],
                               job_id=f"bot-{doc['id']}-{doc['ply']}", result_ttl=60,
                               failure_ttl=86400)
        deadline = clocks.deadline_ts(doc, load_state(doc).to_move)
        if deadline is not None:
            self.queue.enqueue_at(datetime.fromtimestamp(deadline, timezone.utc),
                                  "worker.jobs.deadline", doc["id"], deadline,
                                  job_id=f"deadline-{doc['id']}-{deadline:.3f}", result_ttl=60,
                                  failure_ttl=86400)
