"""The worker process: an RQ worker on the queues of its role, whose work-horses die with it, the
background thread that runs due checks, sends the heartbeat and reconciles
(`api.play.background`), the thread that delivers webhooks (`api.notify.delivery`) and the one
that sends e-mail (`api.notify.mail`)."""
from __future__ import annotations

import ctypes
import logging
import os
import signal
import threading
import time

import redis
from rq import Queue, Worker
from rq.job import Job

from api import metrics
from api.followups import PLAYER_QUEUES, QUEUES
from api.notify.delivery import Notifier
from api.notify.mail import Mailer
from api.play.background import Background
from api.store.connection import RedisConfig

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
RESTART_S = 1.0
ROLES = {"all": QUEUES, "players": PLAYER_QUEUES}


class PostplayWorker(Worker):
    """RQ's forking worker, except that a horse is killed when its worker dies: RQ puts each
    horse in a process group of its own, so a worker killed with SIGKILL would leave it thinking
    on (its move is then made again by the reconciler, so it would only burn a core)."""

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
            took = time.perf_counter() - started
            try:
                status = job.get_status(refresh=True)
            except redis.RedisError:  # Redis went away meanwhile: the time is still worth having
                status = None
            metrics.JOB_SECONDS.labels(job.func_name.rpartition(".")[2],
                                       status.value if status else "unknown").observe(took)


def work(config: RedisConfig, role: str = "all", metrics_port: int | None = None) -> None:
    """Run a worker until it is told to stop (SIGINT/SIGTERM, as RQ handles them); with
    `metrics_port`, its metrics are served there (a worker on a host with no web process)."""
    if metrics_port is not None:
        from prometheus_client import start_http_server

        start_http_server(metrics_port, registry=metrics.process_registry())
    client = config.connect()
    queues = [Queue(name, connection=client) for name in ROLES[role]]
    worker = _started(queues, client)
    stop = threading.Event()
    # its own connection pool: a thread holding the worker's pool lock at a fork would leave the
    # horse's copy of that lock held for ever
    background = Background(config.connect(), worker.name)
    thread = threading.Thread(target=background.run, args=(stop,), name="background",
                              daemon=True)
    thread.start()
    notifier = Notifier(config.connect(), worker.name)
    deliveries = threading.Thread(target=notifier.run, args=(stop,), name="webhooks",
                                  daemon=True)
    deliveries.start()
    mailer = threading.Thread(target=Mailer(config.connect()).run, args=(stop,), name="mail",
                              daemon=True)
    mailer.start()
    try:
        while True:
            try:
                worker.work()
            except redis.RedisError:  # in its teardown, Redis still away
                log.warning("the RQ worker stopped on a Redis error", exc_info=True)
            if worker._stop_requested:  # SIGINT/SIGTERM, as RQ handles them
                break
            # RQ waits out an outage only while it waits for a job: one met elsewhere in its
            # loop (a failover) stops it, so it starts again, under a new name the heartbeat
            # follows, rather than leave the process alive with no worker in it
            log.warning("the RQ worker stopped; starting it again in %.0f s", RESTART_S)
            time.sleep(RESTART_S)
            worker = _started(queues, client)
            background.name = worker.name
    finally:
        stop.set()
        thread.join(timeout=5)
        deliveries.join(timeout=5)
        mailer.join(timeout=5)


def _started(queues: list[Queue], client: redis.Redis) -> PostplayWorker:
    """A new RQ worker, made once Redis answers: a new worker names itself to Redis, which may
    be away (a failover under way, the sentinels not yet agreed on a new master)."""
    while True:
        try:
            return PostplayWorker(queues, connection=client)
        except redis.RedisError:
            log.warning("Redis does not answer; trying again in %.0f s", RESTART_S)
            time.sleep(RESTART_S)
