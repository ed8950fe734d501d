"""A real `postplay worker` process (RQ worker with its scheduler) against the test Redis."""
from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest


@pytest.fixture
def start_worker(redis_url, redis_client):
    procs: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        env = {**os.environ, "REDIS_URL": redis_url, "POSTPLAY_BOT_BUDGET_S": "0.05"}
        proc = subprocess.Popen([sys.executable, "-m", "api.cli", "worker"], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
