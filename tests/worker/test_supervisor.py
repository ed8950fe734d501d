"""`postplay run` supervises: a worker killed with kill -9 is restarted while the web server goes on
serving, and Ctrl-C stops everything; its embedded Redis wants a password, and what it keeps
is this user's alone."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import redis
import requests

from api.store.embedded import free_port
from tests.worker.conftest import alive, children, wait_for


def _workers(run_pid: int) -> list[int]:
    workers = []
    for pid in children(run_pid):
        try:
            if b"api.cli\x00worker" in Path(f"/proc/{pid}/cmdline").read_bytes():
                workers.append(pid)
        except FileNotFoundError:  # it ended (the killed worker, reaped) since it was listed
            pass
    return workers


def test_a_killed_worker_is_restarted_and_ctrl_c_stops_everything(redis_url, redis_client):
    port = free_port()
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        "POSTPLAY_WORKERS": "2",
        "POSTPLAY_RATELIMIT": "off",
    }
    run = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "run"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
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
        again = wait_for(
            lambda: len(w := _workers(run.pid)) == 2 and first[0] not in w and w, timeout_s=15
        )
        assert again and first[1] in again
        assert run.poll() is None
        pieces += again
    finally:
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=30)
    assert run.returncode == 0
    assert b"was killed by SIGKILL; restarting" in err
    assert not [pid for pid in pieces if alive(pid)]


def test_the_embedded_redis_wants_its_password_and_var_is_this_users_alone(tmp_path):
    """`postplay run` with no REDIS_URL: its Redis refuses a client without the password, which
    the workers and the web have (the health check counts both workers); var/ and everything
    in it, the append-only file included, can be read by this user alone."""
    var, port, redis_port = tmp_path / "var", free_port(), free_port()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "REDIS_SENTINELS", "PROMETHEUS_MULTIPROC_DIR")
    }
    env.update(
        {
            "POSTPLAY_VAR": str(var),
            "WEB_CONCURRENCY": "1",
            "POSTPLAY_WORKERS": "2",
            "POSTPLAY_RATELIMIT": "off",
        }
    )
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "api.cli",
            "run",
            "--port",
            str(port),
            "--redis-port",
            str(redis_port),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    base, password = f"http://127.0.0.1:{port}/api/v1", None
    try:

        def workers() -> int:
            try:
                return requests.get(f"{base}/health", timeout=2).json()["workers"]
            except (requests.RequestException, ValueError):
                return 0

        assert wait_for(lambda: workers() == 2, timeout_s=60, step_s=0.2)
        created = requests.post(
            f"{base}/games",
            timeout=10,
            json={
                "kind": "factor-multiple",
                "seats": [{"human": {"name": "A"}}, {"bot": "random"}],
            },
        )
        assert created.status_code == 201
        with pytest.raises(redis.AuthenticationError):
            redis.Redis(port=redis_port).ping()
        password = (var / "redis" / "password").read_text().strip()
        assert len(password) >= 32
        assert redis.Redis(port=redis_port, password=password).dbsize() > 0
        assert wait_for(lambda: (var / "redis" / "appendonly.aof").stat().st_size > 0, timeout_s=5)
        modes = {
            str(path.relative_to(var)): stat.S_IMODE(path.stat().st_mode)
            for path in [var, *var.rglob("*")]
        }
        files = {name for name in modes if (var / name).is_file()}
        assert {
            "redis/password",
            "redis/redis.conf",
            "redis/redis.log",
            "redis/appendonly.aof",
        } <= files
        assert any(name.startswith("metrics/") for name in files)  # the web's and workers'
        assert {
            name: mode
            for name, mode in modes.items()
            if mode != (0o600 if name in files else 0o700)
        } == {}
    finally:
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)  # (each worker may take its 10 s to stop)
    assert password and password not in out.decode() + err.decode()  # nor printed
