"""The follow-up jobs a change calls for, put on the RQ queues: a bot's move when a bot is to
move, a check at the deadline of the turn that just started, and a check of each of the game's
background rules once it counts. Jobs carry what they expect (the ply, the deadline), so a stale
or duplicated job is a no-op. The jobs themselves run in `worker.jobs`."""
from __future__ import annotations

import time
from datetime import datetime, timezone

import redis
from rq import Queue

from api.games import get_game
from api.play.record import GameRecord
from api.play.service import bot_to_move
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

    def after_change(self, record: GameRecord) -> None:
        if record.to_move is None:
            return
        if bot_to_move(record) is not None:
            self.queue.enqueue("worker.jobs.bot_move", record.id, record.ply,
                               job_id=f"bot-{record.id}-{record.ply}", result_ttl=60,
                               failure_ttl=86400)
        deadline = record.deadline()
        if deadline is not None:
            self.schedule_deadline(record.id, deadline)
        for rule in get_game(record.kind).background_rules:
            start = rule.starts_at(record.options, record.first_move_ts)
            if start is not None:
                self.schedule_rule_check(record, rule.name, start)

    def request_analysis(self, game_id: str, ply: int) -> None:
        """Analyse the position on a worker; repeated requests meanwhile add nothing."""
        job_id = f"analysis-{game_id}-{ply}"
        if self.queue.connection.set(keys.pending_key(job_id), 1, nx=True, ex=ANALYSIS_WAIT_S):
            self.queue.enqueue("worker.jobs.analyse", game_id, ply, job_id=job_id,
                               result_ttl=60, failure_ttl=3600)

    def schedule_rule_check(self, record: GameRecord, rule: str, start: float) -> None:
        """Check a background rule when it starts counting, then after every turn."""
        if time.time() < start:
            self.clock_queue.enqueue_at(datetime.fromtimestamp(start, timezone.utc),
                                        "worker.jobs.check_rule", record.id, rule,
                                        job_id=f"{rule}-{record.id}-start",
                                        result_ttl=60, failure_ttl=86400)
        else:
            self.clock_queue.enqueue("worker.jobs.check_rule", record.id, rule,
                                     job_id=f"{rule}-{record.id}-{record.ply}",
                                     result_ttl=60, failure_ttl=86400)

    def schedule_deadline(self, game_id: str, deadline: float, attempt: int = 0) -> None:
        """Check the game at `deadline`: one job per deadline (its id collapses repeats of the
        same turn's deadline). RQ drops the fraction of a second, so the job may run up to a
        second early; it then waits out the rest."""
        self.clock_queue.enqueue_at(datetime.fromtimestamp(deadline, timezone.utc),
                                    "worker.jobs.deadline", game_id, deadline, attempt,
                                    job_id=f"deadline-{game_id}-{int(deadline * 1000)}-{attempt}",
                                    result_ttl=60, failure_ttl=86400)
