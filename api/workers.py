"""The worker process: an RQ worker on the queues of its role, whose work-horses die with it, the
background thread that runs due checks, sends the heartbeat and reconciles
(`api.play.background`), the thread that delivers webhooks (`api.notify.delivery`) and the one
that sends e-mail (`api.notify.mail`).

Asked to stop (SIGTERM or SIGINT), it takes no new job; the job under way has STOP_GRACE_S to
finish, after which its horse is killed and the job handed back to its queue, for another
worker to run; then the threads hand back what they have claimed, within THREADS_STOP_S. The
process is gone within 10 s of the signal (systemd and Kubernetes wait 30 s by default): should
Redis not answer (away, or a failover not yet settled), it exits STOP_LIMIT_S after the signal
whatever it still waits for, and what it held is found again as after a kill -9."""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import threading
import time

import redis
from rq import Queue, Worker
from rq.job import Job, JobStatus

from api import metrics
from api.followups import PLAYER_QUEUES, QUEUES
from api.learn import service as learn
from api.notify.delivery import Notifier
from api.notify.mail import Mailer
from api.play.background import Background
from api.store.connection import RedisConfig
from api.store.puzzles import PuzzleStore

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
RESTART_S = 1.0
STOP_GRACE_S = 4.0  # how long the job under way may go on after a stop was asked for
THREADS_STOP_S = 2.0  # the threads' share of it, once the job is done or handed back
# (4 + 2 leave a loaded machine 3 s of STOP_LIMIT_S for the horse's end, the hand-back and
# RQ's teardown)
STOP_LIMIT_S = 9.0  # after the signal, the process exits whatever it still waits for
ROLES = {"all": QUEUES, "players": PLAYER_QUEUES}


class PostplayWorker(Worker):
    """RQ's forking worker, except that a horse is killed when its worker dies: RQ puts each
    horse in a process group of its own, so a worker killed with SIGKILL would leave it thinking
    on (its move is then made again by the reconciler, so it would only burn a core); and that a
    stop is kept in `stopping` and bounded by STOP_GRACE_S (see the module docstring)."""

    def __init__(self, *args, stopping: threading.Event | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.stopping = stopping or threading.Event()
        self.handing_back = False

    def request_stop(self, signum, frame):
        """RQ's warm stop, noted: RQ 3 ends an idle worker's `work()` with no public trace of
        why, and the loop in `work` below must tell a stop from a failure it restarts after."""
        if not self.stopping.is_set():
            self.stopping.set()
            timer = threading.Timer(STOP_GRACE_S, self.hand_back)
            timer.daemon = True
            timer.start()
        super().request_stop(signum, frame)

    def dequeue_job_and_maintain_ttl(self, timeout, max_idle_time=None):
        """RQ's wait for a job, not begun once a stop was asked for: a signal that came during
        RQ's bootstrap, before its own handlers were installed, was noted only in `stopping`
        (`_note_stops`), and RQ's loop ends when no job is given."""
        if self.stopping.is_set():
            return None
        return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)

    def teardown(self):
        """RQ's, on connections that owe no reply. A stop while idle raises out of RQ's wait
        for a job, in the middle of reading its BLPOP's reply; redis-py's Sentinel-managed
        connection (unlike a plain one) is then put back in the pool still connected, and the
        teardown's next command on it would wait behind that BLPOP, up to `dequeue_timeout`
        (minutes): a worker asked to stop under Sentinel, as after a failover, lived on."""
        if not self.is_horse:
            self.connection.connection_pool.disconnect(inuse_connections=False)
        super().teardown()

    def hand_back(self) -> None:
        """End the job under way (its horse), so that `execute_job` hands it back."""
        if self.horse_pid:
            self.handing_back = True
            self.kill_horse()

    def setup_work_horse_signals(self):
        """The horse ignores SIGTERM as RQ's ignores SIGINT: its worker decides when it ends
        (systemd sends SIGTERM to the whole group)."""
        super().setup_work_horse_signals()
        signal.signal(signal.SIGTERM, signal.SIG_IGN)

    def main_work_horse(self, job, queue):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):  # not Linux: the horse may outlive a killed worker
            pass
        if os.getppid() != self.pid:  # the worker died before the line above took effect
            os._exit(1)
        super().main_work_horse(job, queue)

    def execute_job(self, job: Job, queue: Queue):
        """Time the job here, in the worker, which lives on: its horse lives for one job."""
        started = time.perf_counter()
        try:
            return super().execute_job(job, queue)
        finally:
            if self.handing_back:
                _hand_back(job)
            took = time.perf_counter() - started
            try:
                status = job.get_status(refresh=True)
            except redis.RedisError:  # Redis went away meanwhile: the time is still worth having
                status = None
            func_name = job.func_name
            assert func_name is not None  # a job this worker runs names its function
            metrics.JOB_SECONDS.labels(
                func_name.rpartition(".")[2], status.value if status else "unknown"
            ).observe(took)


def _hand_back(job: Job) -> None:
    """Put a job whose horse was killed by a stop back at the front of its queue, unless RQ's
    retry already put it back. Jobs carry what they expect (the ply), so one that had got as far
    as its write does nothing the second time."""
    status = job.get_status(refresh=True)
    if status == JobStatus.FAILED:
        job.requeue(at_front=True)
    log.warning(
        "stopping: job %s handed back to %s (%s)",
        job.id,
        job.origin,
        "requeued" if status == JobStatus.FAILED else status,
    )


def work(config: RedisConfig, role: str = "all", metrics_port: int | None = None) -> None:
    """Run a worker until it is told to stop (SIGINT/SIGTERM: see the module docstring); with
    `metrics_port`, its metrics are served there (a worker on a host with no web process)."""
    if metrics_port is not None:
        from prometheus_client import start_http_server

        start_http_server(metrics_port, registry=metrics.process_registry())
    client = config.connect()
    queues = [Queue(name, connection=client) for name in ROLES[role]]
    stopping = threading.Event()
    _note_stops(stopping)  # until RQ's own handlers are in place, and between two RQ workers
    limit = threading.Thread(target=_exit_in_time, args=(stopping,), name="stop-limit", daemon=True)
    limit.start()
    worker = _started(queues, client, stopping)
    if worker is None:
        return
    stop = threading.Event()
    # its own connection pool: a thread holding the worker's pool lock at a fork would leave the
    # horse's copy of that lock held for ever
    background = Background(config.connect(), worker.name)
    thread = threading.Thread(target=background.run, args=(stop,), name="background", daemon=True)
    thread.start()
    notifier = Notifier(config.connect(), worker.name)
    deliveries = threading.Thread(target=notifier.run, args=(stop,), name="webhooks", daemon=True)
    deliveries.start()
    mailer = threading.Thread(
        target=Mailer(config.connect()).run, args=(stop,), name="mail", daemon=True
    )
    mailer.start()
    learner = threading.Thread(
        target=keep_puzzles, args=(config.connect(), stop), name="puzzles", daemon=True
    )
    learner.start()
    try:
        while True:
            try:
                worker.work()
            except redis.RedisError:  # in its teardown, Redis still away
                log.warning("the RQ worker stopped on a Redis error", exc_info=True)
            _note_stops(stopping)
            if stopping.is_set():
                break
            # RQ waits out an outage only while it waits for a job: one met elsewhere in its
            # loop (a failover) stops it, so it starts again, under a new name the heartbeat
            # follows, rather than leave the process alive with no worker in it
            log.warning("the RQ worker stopped; starting it again in %.0f s", RESTART_S)
            if stopping.wait(RESTART_S):
                break
            worker = _started(queues, client, stopping)
            if worker is None:
                break
            background.name = worker.name
    finally:
        # the threads go on until the job is done or handed back: the heartbeat tells the
        # reconciler that the job's worker lives
        stop.set()
        deadline = time.monotonic() + THREADS_STOP_S
        for each in (thread, deliveries, mailer):
            each.join(timeout=max(0.0, deadline - time.monotonic()))
        if any(each.is_alive() for each in (thread, deliveries, mailer)):
            # a delivery or mail still under way: its lease runs out and another worker makes
            # it (webhooks and mails carry ids that make a second sending known as such)
            log.warning("stopping: a delivery is still under way; exiting without it")
            logging.shutdown()
            os._exit(0)


PUZZLES_TICK_S = 30.0


def keep_puzzles(client: redis.Redis, stop: threading.Event) -> None:
    """Load the shipped puzzles on the first start, then choose each day's puzzles as the day
    begins (UTC): set once, whichever worker gets there first."""
    store = PuzzleStore(client)
    while not stop.is_set():
        try:
            learn.load_seeds(store)
            learn.choose_dailies(store)
        except redis.RedisError:
            log.warning("the daily puzzles wait for Redis", exc_info=True)
        stop.wait(PUZZLES_TICK_S)


def _exit_in_time(stopping: threading.Event) -> None:
    """Once a stop is asked for, exit STOP_LIMIT_S later if the process still lives: a Redis
    that does not answer keeps RQ's teardown and the hand-backs in redis-py's retries for longer
    than systemd waits. Leases then run out for another worker, and the reconciler finds a bot
    move handed back to no one, as after a kill -9."""
    stopping.wait()
    time.sleep(STOP_LIMIT_S)
    log.warning("stopping: Redis still holds up the stop after %.0f s; exiting", STOP_LIMIT_S)
    logging.shutdown()
    os._exit(0)


def _note_stops(stopping: threading.Event) -> None:
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())


def _started(
    queues: list[Queue], client: redis.Redis, stopping: threading.Event
) -> PostplayWorker | None:
    """A new RQ worker, made once Redis answers (None: asked to stop meanwhile): a new worker
    names itself to Redis, which may be away (a failover under way, the sentinels not yet agreed
    on a new master)."""
    while not stopping.is_set():
        try:
            return PostplayWorker(queues, connection=client, stopping=stopping)
        except redis.RedisError:
            log.warning("Redis does not answer; trying again in %.0f s", RESTART_S)
            stopping.wait(RESTART_S)
    return None
