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
# deadline checks have their own queue, which every worker serves first
CLOCK_QUEUE = "postplay-clocks"
QUEUES = (CLOCK_QUEUE, QUEUE)


class RQFollowups:
    def __init__(self, client: redis.Redis):
        self.queue = Queue(QUEUE, connection=client)
        self.clock_queue = Queue(CLOCK_QUEUE, connection=client)

    def after_change(self, doc: dict) -> None:
        if doc["status"] != "active":
            return
        if bot_to_move(doc) is not None:
            self.queue.enqueue("worker.jobs.bot_move", doc["id"], doc["ply"],
                               job_id=f"bot-{doc['id']}-{doc['ply']}", result_ttl=60,
                               failure_ttl=86400)
        deadline = clocks.deadline_ts(doc, load_state(doc).to_move)
        if deadline is not None:
            self.schedule_deadline(doc["id"], deadline)

    def schedule_deadline(self, game_id: str, deadline: float, attempt: int = 0) -> None:
        """Check the game at `deadline`: one job per deadline (its id collapses repeats of the
        same turn's deadline). RQ drops the fraction of a second, so the job may run up to a
        second early; it then waits out the rest."""
        self.clock_queue.enqueue_at(datetime.fromtimestamp(deadline, timezone.utc),
                                    "worker.jobs.deadline", game_id, deadline, attempt,
                                    job_id=f"deadline-{game_id}-{int(deadline * 1000)}-{attempt}",
                                    result_ttl=60, failure_ttl=86400)
