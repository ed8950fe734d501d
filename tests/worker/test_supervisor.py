"""`postplay run` supervises: a worker killed with kill -9 is restarted while the web server goes on
serving, and Ctrl-C stops everything."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import requests

from api.store.embedded import free_port
from tests.worker.conftest import alive, children, wait_for


def _workers(run_pid: int) -> list[int]:
    return [pid for pid in children(run_pid)
            if b"api.cli\x00worker" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def test_a_killed_worker_is_restarted_and_ctrl_c_stops_everything(redis_url, redis_client):
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(port), "WEB_CONCURRENCY": "1",
           "POSTPLAY_WORKERS": "2", "POSTPLAY_RATELIMIT": "off"}
    run = subprocess.Popen([sys.executable, "-m", "api.cli", "run"], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    health = f"http://127.0.0.1:{port}/api/v1/health"

    def live_workers() -> int:
        try:
            return requests.get(health, timeout=2).json()["workers"]
        except requests.RequestException:
            return 0

    pieces: list[int] = []
    try:
        assert wait_for(lambda: live_workers() == 2, timeout_s=30, step_s=0.2)
        pieces += children(run.pid)  # the workers and the web server
        first = _workers(run.pid)
        assert len(first) == 2
        os.kill(first[0], signal.SIGKILL)
        assert requests.get(health, timeout=2).status_code == 200  # the web server goes on
        again = wait_for(lambda: len(w := _workers(run.pid)) == 2 and first[0] not in w and w,
                         timeout_s=15)
        assert again and first[1] in again
        assert run.poll() is None
        pieces += again
    finally:
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=30)
    assert run.returncode == 0
    assert b"was killed by SIGKILL; restarting" in err
    assert not [pid for pid in pieces if alive(pid)]
