"""The one way every process connects to Redis: the server at REDIS_URL, or the master that Redis
Sentinel names (REDIS_SENTINELS=host:port,host:port and REDIS_SERVICE), through redis-py's
`Sentinel`. A client from here also says how many replicas a write players are told succeeded
must reach (`durability`): one by default under Sentinel, so a failover loses none of them.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from urllib.parse import urlsplit

import redis
from redis.sentinel import Sentinel

DEFAULT_SERVICE = "postplay"
# how long a write waits for its replicas before it is refused (503): a replica on the same
# network confirms within a millisecond or two
DEFAULT_WAIT_MS = 1000
# the connections a process keeps to Redis at most: a request that finds them all busy waits
# for one (up to the client's timeout) rather than failing at once, as redis-py's own pool does
# past its cap (100 in the redis-py this project locks: under the load test, a burst of slow
# requests under gevent was answered 503, "Too many connections")
DEFAULT_MAX_CONNECTIONS = 100


class Client(redis.Redis):
    """redis.Redis, knowing how many replicas must confirm a write (0: none asked)."""

    wait_replicas: int = 0
    wait_ms: int = DEFAULT_WAIT_MS


def durability(client: redis.Redis) -> tuple[int, int]:
    """(replicas, timeout in ms) a write through `client` must be confirmed by."""
    return getattr(client, "wait_replicas", 0), getattr(client, "wait_ms", DEFAULT_WAIT_MS)


@dataclasses.dataclass(frozen=True)
class RedisConfig:
    """Where Redis is: a URL, or sentinels and the service they watch (the URL's database and
    password still apply). The password in the URL (`redis://:PASSWORD@host:port/db`, as the
    embedded Redis' URL carries it) reaches every client made from here: the app's, the
    workers', the rate limiter's and rq-dashboard's."""

    url: str
    sentinels: tuple[tuple[str, int], ...] = ()
    service: str = DEFAULT_SERVICE
    wait_replicas: int = 0
    wait_ms: int = DEFAULT_WAIT_MS
    max_connections: int = DEFAULT_MAX_CONNECTIONS

    @classmethod
    def from_mapping(cls, config: Mapping[str, str]) -> "RedisConfig":
        """From the environment's names (REDIS_URL, REDIS_SENTINELS, REDIS_SERVICE,
        POSTPLAY_REDIS_WAIT_REPLICAS, POSTPLAY_REDIS_WAIT_MS, POSTPLAY_REDIS_MAX_CONNECTIONS)
        in `config`."""
        sentinels = tuple(
            _host_port(part)
            for part in (config.get("REDIS_SENTINELS") or "").split(",")
            if part.strip()
        )
        replicas = config.get("POSTPLAY_REDIS_WAIT_REPLICAS")
        return cls(
            url=config.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
            sentinels=sentinels,
            service=config.get("REDIS_SERVICE") or DEFAULT_SERVICE,
            wait_replicas=int(replicas) if replicas else (1 if sentinels else 0),
            wait_ms=int(config.get("POSTPLAY_REDIS_WAIT_MS") or DEFAULT_WAIT_MS),
            max_connections=int(
                config.get("POSTPLAY_REDIS_MAX_CONNECTIONS") or DEFAULT_MAX_CONNECTIONS
            ),
        )

    @classmethod
    def from_env(cls) -> "RedisConfig":
        return cls.from_mapping(os.environ)

    def connect(self, timeout_s: float | None = None) -> Client:
        """A client of the master; with sentinels, it asks them where the master is whenever
        it (re)connects, so a failover is followed by itself. At most `max_connections` at
        once: past them a command waits up to `timeout_s` for one to come free (under
        Sentinel, whose pool cannot wait, it fails as the store being out of reach)."""
        timeouts = {"socket_timeout": timeout_s, "socket_connect_timeout": timeout_s}
        if self.sentinels:
            sentinel = Sentinel(list(self.sentinels), sentinel_kwargs=timeouts, **timeouts)
            client = sentinel.master_for(
                self.service,
                redis_class=Client,
                db=self._db(),
                password=urlsplit(self.url).password,
                max_connections=self.max_connections,
                **timeouts,
            )
        else:
            pool = redis.BlockingConnectionPool.from_url(
                self.url, max_connections=self.max_connections, timeout=timeout_s, **timeouts
            )
            client = Client.from_pool(pool)
        client.wait_replicas, client.wait_ms = self.wait_replicas, self.wait_ms
        return client

    def limiter_storage(self) -> tuple[str, dict]:
        """The same Redis as a URI of the `limits` library (flask-limiter's storage) and the
        options it needs: redis+sentinel://host:port,host:port/service under Sentinel."""
        if not self.sentinels:
            return self.url, {}
        return (
            f"redis+sentinel://{self._hosts()}/{self.service}",
            {"db": self._db(), "password": urlsplit(self.url).password},
        )

    def dashboard_url(self) -> str:
        """The same Redis as rq-dashboard names it (Redis-Sentinel-Url's form under Sentinel,
        where a password is the master's, as here)."""
        if not self.sentinels:
            return self.url
        password = urlsplit(self.url).password
        auth = f":{password}@" if password else ""
        return f"redis+sentinel://{auth}{self._hosts()}/{self.service}/{self._db()}"

    def _hosts(self) -> str:
        return ",".join(f"{host}:{port}" for host, port in self.sentinels)

    def _db(self) -> int:
        return int(urlsplit(self.url).path.strip("/") or 0)


def connect(timeout_s: float | None = None) -> Client:
    """A client of the Redis the environment names."""
    return RedisConfig.from_env().connect(timeout_s)


def _host_port(text: str) -> tuple[str, int]:
    host, _, port = text.strip().rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"REDIS_SENTINELS: {text.strip()!r} is not host:port")
    return host, int(port)
