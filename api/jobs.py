"""The follow-up jobs a change calls for, put on the RQ queue: a bot's move when a bot is to
move, and a check at the deadline of the turn that just started. Jobs carry what they expect
(the ply, the deadline), so a stale or duplicated job is a no-op."""
from __future__ import annotations

import time
from datetime import datetime, timezone

import redis
from rq import Queue

from api import clocks, timeout_rule
from api.play import bot_to_move, load_state
from api.store import keys

QUEUE = "postplay"
# deadline checks have their own queue, which every worker serves first, and bot-vs-bot
# playtests theirs, served last, so that no player waits behind a batch
CLOCK_QUEUE = "postplay-clocks"
PLAYTEST_QUEUE = "postplay-playtests"
QUEUES = (CLOCK_QUEUE, QUEUE, PLAYTEST_QUEUE)
# how long a requested analysis may take before a new request asks again
ANALYSIS_WAIT_S = 120


class RQFollowups:
    def __init__(self, client: redis.Redis):
        self.queue = Queue(QUEUE, connection=client)
        self.clock_queue = Queue(CLOCK_QUEUE, connection=client)

    def after_change(self, doc: dict) -> None:
        if doc["status"] != "active":
            return
        mover = load_state(doc).to_move
        if bot_to_move(doc, mover) is not None:
            self.queue.enqueue("worker.jobs.bot_move", doc["id"], doc["ply"],
                               job_id=f"bot-{doc['id']}-{doc['ply']}", result_ttl=60,
                               failure_ttl=86400)
        deadline = clocks.deadline_ts(doc, mover)
        if deadline is not None:
            self.schedule_deadline(doc["id"], deadline)
        rule_start = timeout_rule.starts_at(doc)
        if rule_start is not None:
            self.schedule_timeout_rule(doc, rule_start)

    def request_analysis(self, game_id: str, ply: int) -> None:
        """Analyse the position on a worker; repeated requests meanwhile add nothing."""
        job_id = f"analysis-{game_id}-{ply}"
        if self.queue.connection.set(keys.pending_key(job_id), 1, nx=True, ex=ANALYSIS_WAIT_S):
            self.queue.enqueue("worker.jobs.analyse", game_id, ply, job_id=job_id,
                               result_ttl=60, failure_ttl=3600)

    def schedule_timeout_rule(self, doc: dict, rule_start: float) -> None:
        """Evaluate the timeout rule when it starts counting, then after every turn."""
        if time.time() < rule_start:
            self.clock_queue.enqueue_at(datetime.fromtimestamp(rule_start, timezone.utc),
                                        "worker.jobs.timeout_rule", doc["id"],
                                        job_id=f"timeout-rule-{doc['id']}-start",
                                        result_ttl=60, failure_ttl=86400)
        else:
            self.clock_queue.enqueue("worker.jobs.timeout_rule", doc["id"],
                                     job_id=f"timeout-rule-{doc['id']}-{doc['ply']}",
                                     result_ttl=60, failure_ttl=86400)

    def schedule_deadline(self, game_id: str, deadline: float, attempt: int = 0) -> None:
        """Check the game at `deadline`: one job per deadline (its id collapses repeats of the
        same turn's deadline). RQ drops the fraction of a second, so the job may run up to a
        second early; it then waits out the rest."""
        self.clock_queue.enqueue_at(datetime.fromtimestamp(deadline, timezone.utc),
                                    "worker.jobs.deadline", game_id, deadline, attempt,
                                    job_id=f"deadline-{game_id}-{int(deadline * 1000)}-{attempt}",
                                    result_ttl=60, failure_ttl=86400)
