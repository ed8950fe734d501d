"""Fixtures: a real Redis server for the session (the embedded one, or the server at REDIS_URL,
database 15), flushed around each test; the Flask `app` and `client`; real RQ workers in burst
mode."""

from __future__ import annotations

import importlib
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from rq import Queue, SimpleWorker
from rq.registry import FinishedJobRegistry

from api.bots import ANALYSERS, BOTS
from api.followups import QUEUES
from api.games import GAMES
from api.notify.events import GAME_EVENTS
from api.play.background import Background
from api.store.embedded import start_redis
from api.store.games import GameStore

TEST_DB = 15
# locust's players: run by `make loadtest` only (importing locust patches the whole process)
collect_ignore = ["benchmarks/locustfile.py", "nim"]  # nim/: registered by the `nim` fixture alone


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    given = os.environ.get("REDIS_URL")
    if given:
        parts = urlsplit(given)
        yield urlunsplit(parts._replace(path=f"/{TEST_DB}"))
        return
    proc, url = start_redis(tmp_path_factory.mktemp("redis"), appendonly=False)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def redis_client(redis_url):
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    yield client
    client.flushdb()


@pytest.fixture
def store(redis_client) -> GameStore:
    return GameStore(redis_client, GAME_EVENTS)


@pytest.fixture
def app(redis_url, redis_client, monkeypatch):
    from api.web import create_app

    monkeypatch.setenv("POSTPLAY_BOT_BUDGET_S", "0.05")
    # finished games are mined for puzzles only where a test asks (tests/worker/test_learn.py)
    monkeypatch.setenv("POSTPLAY_PUZZLE_MINING", "off")
    # the suite starts many playtests from one address; one test checks the limit itself
    monkeypatch.setenv("POSTPLAY_MAX_PLAYTESTS_PER_CLIENT", "1000")
    monkeypatch.setenv("POSTPLAY_MAX_SWEEPS_PER_CLIENT", "1000")
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": False})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def run_jobs(redis_client, monkeypatch):
    """Run queued jobs with a real RQ worker in burst mode until the queue is empty."""
    monkeypatch.setenv("POSTPLAY_BOT_BUDGET_S", "0.05")
    monkeypatch.setenv("POSTPLAY_PUZZLE_MINING", "off")

    def run(with_due_checks: bool = False) -> int:
        """Returns how many jobs finished. With `with_due_checks`, the checks due by now
        (deadlines, background rules) run first, as a worker's background thread runs them."""
        if with_due_checks:
            Background(redis_client, "test-burst").run_due(time.time())
        queues = [Queue(name, connection=redis_client) for name in QUEUES]
        registries = [FinishedJobRegistry(queue=queue) for queue in queues]
        before = sum(r.count for r in registries)
        SimpleWorker(queues, connection=redis_client).work(burst=True)
        return sum(r.count for r in registries) - before

    return run


NIM = Path(__file__).parent / "nim"


@pytest.fixture
def nim():
    """Nim (tests/nim/), the suite's sixth game, registered as docs/adding-a-game.md registers a
    game: its engine and bots modules imported (the registry line). Taken out again after the
    test, so that no other test sees it."""
    modules = ("tests.nim.game", "tests.nim.bots")
    for name in modules:
        importlib.import_module(name)
    yield GAMES["nim"]
    GAMES.pop("nim")
    BOTS.pop("nim", None)
    ANALYSERS.pop("nim", None)
    for name in modules:
        sys.modules.pop(name)


@pytest.fixture
def nim_client(nim, app):
    """A client of an app made with Nim registered (so /kinds and the OpenAPI document have it),
    reading its rules pages where Nim's is."""
    app.config["SEEDS_DIR"] = str(NIM)
    return app.test_client()
