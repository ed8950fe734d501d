"""Real `postplay worker` processes (an RQ worker and its background thread) against the test
Redis, and a look at their work-horses."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


@pytest.fixture
def start_worker(redis_url, redis_client):
    procs: list[subprocess.Popen] = []

    def start(
        budget_s: float = 0.05, role: str = "all", url: str | None = None
    ) -> subprocess.Popen:
        """A worker; on the Redis at `url` (a proxy before the test's) when given."""
        env = {**os.environ, "REDIS_URL": url or redis_url, "POSTPLAY_BOT_BUDGET_S": str(budget_s)}
        # POSTPLAY_TEST_WORKER_LOGS=DIR keeps each worker's log there, to see why a test failed
        logs = os.environ.get("POSTPLAY_TEST_WORKER_LOGS")
        out = open(Path(logs) / f"worker-{len(procs)}.log", "w") if logs else subprocess.DEVNULL
        proc = subprocess.Popen(
            [sys.executable, "-m", "api.cli", "worker", "--role", role],
            env=env,
            stdout=out,
            stderr=out,
        )
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def children(pid: int) -> list[int]:
    """The live child processes of `pid` (a worker's work-horse), from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_for(predicate, timeout_s: float, step_s: float = 0.05):
    """Poll `predicate` until it returns something truthy; that value, or None at the timeout."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(step_s)
    return None
