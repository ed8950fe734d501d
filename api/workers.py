"""The worker process: an RQ worker on the queues of its role, whose work-horses die with it, the
background thread that runs due checks, sends the heartbeat and reconciles
(`api.play.background`), and the thread that delivers webhooks (`api.notify.delivery`)."""
from __future__ import annotations

import ctypes
import os
import signal
import threading

import redis
from rq import Queue, Worker

from api.followups import PLAYER_QUEUES, QUEUES
from api.notify.delivery import Notifier
from api.play.background import Background

PR_SET_PDEATHSIG = 1
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


def work(redis_url: str, role: str = "all") -> None:
    """Run a worker until it is told to stop (SIGINT/SIGTERM, as RQ handles them)."""
    client = redis.Redis.from_url(redis_url)
    queues = [Queue(name, connection=client) for name in ROLES[role]]
    worker = PostplayWorker(queues, connection=client)
    stop = threading.Event()
    # its own connection pool: a thread holding the worker's pool lock at a fork would leave the
    # horse's copy of that lock held for ever
    background = Background(redis.Redis.from_url(redis_url), worker.name)
    thread = threading.Thread(target=background.run, args=(stop,), name="background",
                              daemon=True)
    thread.start()
    notifier = Notifier(redis.Redis.from_url(redis_url), worker.name)
    deliveries = threading.Thread(target=notifier.run, args=(stop,), name="webhooks",
                                  daemon=True)
    deliveries.start()
    try:
        worker.work()
    finally:
        stop.set()
        thread.join(timeout=5)
        deliveries.join(timeout=5)
