"""What every worker does besides its RQ jobs, in a thread of its own, so that nothing a game is
owed is lost when a process dies:

- **due checks** (turn deadlines, the reminders before them, background rules, the accounts'
  daily e-mails) are claimed from one sorted set that every
  worker polls, run in this thread (no fork per check), and released when done; a worker that
  dies mid-check leaves its claim to run out, and another worker takes the check over;
- **a heartbeat**, so /health counts only live workers, and the reconciler knows whose jobs are
  gone with them;
- **the reconciler**, run by one elected worker at a time: it finds the games where a bot is to
  move and no job will move it (its job failed, or died with its worker, or was never enqueued
  because Redis failed after the write) and enqueues that bot's move again; likewise the rated
  games that ended and whose rating job will not run, the finished games whose puzzle mining
  will not run, and the tournaments with a step owed and no check due to make it.

Checks and jobs carry what they expect (the deadline, the ply), so one run twice acts once.
"""

from __future__ import annotations

import logging
import os
import threading
import time

import redis
from rq import Queue
from rq.job import Job, JobStatus

from api import metrics
from api.followups import RQFollowups, bot_job_id, mining_job_id, mining_on, ratings_job_id
from api.events import service as events
from api.notify import digests
from api.notify.events import GAME_EVENTS
from api.play import service, vacation
from api.playtests.storage import REPORTS
from api.store.accounts import AccountStore
from api.store import keys
from api.store.games import DueCheck, GameStore
from api.store.mail import MailStore
from api.store.playtests import PlaytestStore
from api.store.puzzles import PuzzleStore
from api.store.ratings import RatingStore
from api.store.sweeps import SweepStore
from api.store.tournaments import TournamentStore

log = logging.getLogger(__name__)

TICK_S = 0.1  # how often a worker looks for due checks: the most a deadline fires late, idle
LEASE_S = 10.0  # a claimed check's lease: how long a dead worker's check waits to be taken over
HEARTBEAT_S = 2.0
HEARTBEAT_TTL_S = 10  # a worker silent for longer counts as dead (health asks <= 30 s)
RECONCILE_S = 3.0
GRACE_S = 2.0  # a bot to move for less long is left to the job its change enqueued
GC_S = 600.0  # how often the elected worker collects what the retention rules let go
PLAYTEST_KEPT_S = float(os.environ.get("POSTPLAY_PLAYTEST_RETENTION_DAYS", "30")) * 86400
MAX_ATTEMPTS = 5  # enqueues of one bot move by the reconciler before it gives up and says so
# a job will still run when it is waiting in its queue, scheduled or deferred, or started by a
# worker that is still alive
WAITING = {JobStatus.SCHEDULED, JobStatus.DEFERRED}
RELEASE_LOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
"""


class Background:
    def __init__(self, client: redis.Redis, worker_name: str):
        self.redis = client
        self.name = worker_name
        self.store = GameStore(client, GAME_EVENTS)
        self.ratings = RatingStore(client)
        self.accounts = AccountStore(client)
        self.followups = RQFollowups(client)
        self.mails = MailStore(client)
        self.tournaments = TournamentStore(client)

    def run(self, stop: threading.Event) -> None:
        """Until `stop` is set: checks as they fall due, a heartbeat, and reconciling when
        elected. A Redis outage is waited out."""
        next_beat = next_reconcile = next_gc = 0.0
        while not stop.is_set():
            now = time.time()
            try:
                if now >= next_beat:
                    self.beat(now)
                    next_beat = now + HEARTBEAT_S
                self.run_due(now, stop)
                if now >= next_reconcile:
                    if self.elected():
                        self.reconcile(now)
                        if now >= next_gc:
                            collect_garbage(self.redis, now)
                            next_gc = now + GC_S
                    next_reconcile = now + RECONCILE_S
            except redis.RedisError:
                log.warning(
                    "Redis is unreachable; the worker's background thread waits", exc_info=True
                )
                stop.wait(1.0)
            stop.wait(TICK_S)
        self.redis.srem(keys.workers_key(), self.name)
        self.redis.delete(keys.worker_key(self.name))
        # the reconciler's lock, if held, goes to another worker now rather than when it expires
        self.redis.eval(RELEASE_LOCK, 1, keys.reconciler_key(), self.name)

    def beat(self, now: float) -> None:
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(keys.worker_key(self.name), repr(now), ex=HEARTBEAT_TTL_S)
            pipe.sadd(keys.workers_key(), self.name)
            pipe.execute()

    def run_due(self, now: float, stop: threading.Event | None = None) -> int:
        """Run every check due by `now` that this worker can claim; how many ran. Once `stop` is
        set, the checks not yet run are handed back."""
        claimed_at = time.monotonic()
        claimed = self.store.claim_due(now, LEASE_S)
        for ran, check in enumerate(claimed):
            if stop is not None and stop.is_set():
                for left in claimed[ran:]:
                    self.store.hand_back_due(left)
                return ran
            # how late it runs: late when claimed, and later still behind the checks before it
            metrics.DUE_LATENESS.labels(check.check.partition(":")[0]).observe(
                max(0.0, now - check.due) + time.monotonic() - claimed_at
            )
            try:
                self.run_check(check, now)
            except Exception:  # a bug in one check must not stop the others: its lease runs out
                log.exception("check %s failed; it will be tried again", check.member)
                continue
            self.store.release_due(check)
        return len(claimed)

    def run_check(self, check: DueCheck, now: float) -> None:
        if check.check == "deadline":
            vacation.end_on_time(
                self.store, self.accounts, self.followups, check.game_id, check.due, now
            )
        elif check.check == "abandoned":
            service.abort_abandoned(self.store, self.followups, check.game_id, now)
        elif check.check == "reminder":
            digests.run_reminders(self.accounts, self.store, self.mails, check.game_id, now)
        elif check.check == "digest":  # an account's check: its "game id" is the account's
            digests.run_digest(self.accounts, self.store, self.mails, check.game_id, now)
        elif check.check == events.STEP:  # a tournament's check: its "game id" is the event's
            events.advance(self.tournaments, self.store, self.followups, check.game_id, now)
        elif check.check.startswith("rule:"):
            service.check_background_rule(
                self.store, self.followups, check.game_id, check.check.removeprefix("rule:"), now
            )

    def elected(self) -> bool:
        """Whether this worker holds the reconciler's lock (taking it when it is free)."""
        lock, ttl_ms = keys.reconciler_key(), int(RECONCILE_S * 2 * 1000)
        if self.redis.set(lock, self.name, nx=True, px=ttl_ms):
            return True
        if self.redis.get(lock) == self.name.encode():
            self.redis.pexpire(lock, ttl_ms)
            return True
        return False

    def reconcile(self, now: float) -> list[str]:
        """Enqueue again every bot move, rating job and finished game's mining that no job will
        make; the games it did that for."""
        again = []
        for record in self.store.load_many(self.store.bots_to_move(now - GRACE_S)):
            if record.bot_to_act is not None and self.lost("bot move", bot_job_id(record)):
                self.followups.enqueue_bot_move(record)
                again.append(record.id)
        for game_id in self.ratings.due(now - GRACE_S):
            if self.lost("rating job", ratings_job_id(game_id)):
                self.followups.enqueue_ratings(game_id)
                again.append(game_id)
        if mining_on():
            for game_id in PuzzleStore(self.redis).mining_owed(now - GRACE_S):
                if self.lost("mining job", mining_job_id(game_id)):
                    self.followups.enqueue_mining(game_id, again=True)
                    again.append(game_id)
        again += events.stalled(self.tournaments, self.store, now)
        return again

    def lost(self, what: str, job_id: str) -> bool:
        """Whether job `job_id` will not run and is to be enqueued again (counted: after
        MAX_ATTEMPTS the reconciler gives up on it and says so)."""
        if self.job_will_run(job_id):
            return False
        attempts = self.redis.incr(keys.attempts_key(job_id))
        self.redis.expire(keys.attempts_key(job_id), 86400)
        if attempts > MAX_ATTEMPTS:
            if attempts == MAX_ATTEMPTS + 1:
                log.error("%s %s failed %d times; giving up on it", what, job_id, MAX_ATTEMPTS)
            return False
        log.warning("%s %s was lost; enqueued again (attempt %d)", what, job_id, attempts)
        return True

    def job_will_run(self, job_id: str) -> bool:
        job = Job.fetch_many([job_id], connection=self.redis)[0]
        if job is None:
            return False
        status = job.get_status(refresh=False)
        if status == JobStatus.QUEUED:
            # still "queued" once a worker took it, until its horse marks it started: a worker
            # killed between the two leaves it in no queue at all
            return Queue(job.origin, connection=self.redis).get_job_position(job_id) is not None
        if status == JobStatus.STARTED:
            return bool(job.worker_name and self.redis.exists(keys.worker_key(job.worker_name)))
        return status in WAITING


def collect_garbage(client: redis.Redis, now: float) -> dict[str, int]:
    """Delete what the retention rules let go: games that ended with no move made, a week after
    (lobby games nobody joined, untimed games never started: their abort is a due check), and
    playtests and sweeps older than POSTPLAY_PLAYTEST_RETENTION_DAYS, with their sample games.
    How many of each went."""
    games = GameStore(client, GAME_EVENTS)
    deleted = {"games": 0, "playtests": 0, "sweeps": 0}
    while batch := games.deletable(now):
        deleted["games"] += sum(games.delete(game_id) for game_id in batch)
    playtests = PlaytestStore(client, REPORTS)
    while batch := playtests.ended_before(now - PLAYTEST_KEPT_S):
        for playtest_id in batch:
            playtests.delete(playtest_id, games)
        deleted["playtests"] += len(batch)
    sweeps = SweepStore(client, REPORTS)
    while batch := sweeps.ended_before(now - PLAYTEST_KEPT_S):
        for sweep_id in batch:
            sweeps.delete(sweep_id, games)
        deleted["sweeps"] += len(batch)
    return deleted
