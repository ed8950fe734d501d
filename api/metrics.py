"""The service's Prometheus metrics (prometheus-client), one object each, for any module to count
with: the web's requests, the workers' jobs and due checks, webhook deliveries. What Redis
already knows (queue depths, games by status, live workers) is read when `/metrics` is scraped
(`StoreCollector`), not counted here.

Under gunicorn (and `postplay run`'s workers) PROMETHEUS_MULTIPROC_DIR is set, so every process
writes its counts to files there and one scrape sums them (`exposition`). Count in long-lived
processes (a web process, a worker or its background thread): an RQ work-horse lives for one
job, and each one that counts leaves a file of its own behind.

    from api import metrics
    metrics.WEBHOOK_DELIVERIES.labels(event="your_turn", outcome="delivered").inc()
"""

from __future__ import annotations

import os

import redis
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from api.record import Status
from api.store import keys
from api.store.workers import live_workers

# from a 304 (a millisecond) to a slow sign-in (argon2, a quarter second) and a stalled Redis
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# a bot's move takes its think budget (a second by default); a playtest chunk, minutes
JOB_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)
# a due check runs within a tick (0.1 s) of its time while the workers keep up
LATENESS_BUCKETS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0)

REQUESTS = Counter(
    "postplay_http_requests",
    "HTTP requests answered, per route and status",
    ["route", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    "postplay_http_request_duration_seconds",
    "Time to answer an HTTP request, per route",
    ["route", "method"],
    buckets=LATENCY_BUCKETS,
)
JOB_SECONDS = Histogram(
    "postplay_job_duration_seconds",
    "Time an RQ job took on a worker (its work-horse included), per job type and how it ended",
    ["job", "status"],
    buckets=JOB_BUCKETS,
)
DUE_LATENESS = Histogram(
    "postplay_due_check_lateness_seconds",
    "How long after it fell due a check (a deadline, an abandoned game, a background rule) ran",
    ["check"],
    buckets=LATENESS_BUCKETS,
)
WEBHOOK_DELIVERIES = Counter(
    "postplay_webhook_deliveries",
    "Webhook deliveries attempted, per event and outcome",
    ["event", "outcome"],
)


def multiprocess_dir() -> str | None:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def clean_multiprocess_dir(path: str) -> None:
    """Empty (or make) the directory the processes about to start will count in: the files of
    an earlier run's processes would be summed with theirs."""
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):
        if name.endswith(".db"):
            os.remove(os.path.join(path, name))


class StoreCollector:
    """What Redis knows, read at each scrape: queue depths, games by status, live workers, and
    the due checks pending."""

    def __init__(self, client: redis.Redis, queues: tuple[str, ...]):
        self.redis = client
        self.queues = queues

    def collect(self):
        from rq import Queue

        statuses = [s.value for s in Status]
        with self.redis.pipeline(transaction=False) as pipe:
            for status in statuses:
                pipe.zcard(keys.lobby_key(status))
            pipe.zcard(keys.due_key())
            counts = pipe.execute()
        games = GaugeMetricFamily("postplay_games", "Games stored, by status", labels=["status"])
        for status, count in zip(statuses, counts):
            games.add_metric([status], count)
        yield games
        yield GaugeMetricFamily(
            "postplay_due_checks",
            "Checks the workers owe the games (deadlines, background rules, abandoned games)",
            value=counts[-1],
        )
        depth = GaugeMetricFamily(
            "postplay_queue_depth", "Jobs waiting in each RQ queue", labels=["queue"]
        )
        for name in self.queues:
            depth.add_metric([name], Queue(name, connection=self.redis).count)
        yield depth
        yield GaugeMetricFamily(
            "postplay_workers", "Workers whose heartbeat is fresh", value=live_workers(self.redis)
        )


def process_registry() -> CollectorRegistry:
    """The counts of this process, or of every process sharing PROMETHEUS_MULTIPROC_DIR."""
    if multiprocess_dir() is None:
        return REGISTRY
    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    return registry


def exposition(client: redis.Redis, queues: tuple[str, ...]) -> tuple[bytes, str]:
    """The whole scrape (the processes' counts, then what Redis knows) and its content type."""
    store = CollectorRegistry(auto_describe=False)
    store.register(StoreCollector(client, queues))
    return generate_latest(process_registry()) + generate_latest(store), CONTENT_TYPE_LATEST
