"""Whole-game analyses in Redis: the result kept by what was analysed, so that identical records
(imported copies of one game) share one analysis, and each client's budget: how many it has
queued or running, and the CPU seconds its analyses used this clock hour."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json

import redis

from api.store import keys

HOUR_S = 3600


class Begun(str, enum.Enum):
    QUEUED = "queued"  # the client's new analysis: the caller enqueues its job
    SHARED = "shared"  # the same record is being analysed already: nothing to enqueue
    BUSY = "busy"  # the client has as many analyses queued or running as it may
    SPENT = "spent"  # the client's analyses used this hour's CPU allowance


@dataclasses.dataclass(frozen=True)
class Budget:
    running: int  # analyses one client may have queued or running
    cpu_s_per_hour: float  # CPU seconds of analysis one client may use per clock hour
    claim_s: int  # how long a queued or running analysis holds its place


# KEYS: owner, running, cpu; ARGV: digest, client, now, max running, cpu allowance, claim s
BEGIN = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 'shared' end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[3])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 'busy' end
if tonumber(redis.call('GET', KEYS[3]) or '0') >= tonumber(ARGV[5]) then return 'spent' end
redis.call('ZADD', KEYS[2], tonumber(ARGV[3]) + tonumber(ARGV[6]), ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[6])
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[6])
return 'queued'
"""


def digest(kind: str, options: dict, first: int, seed: int, moves: list[dict]) -> str:
    """What a whole-game analysis depends on, hashed: the game's setup and its moves."""
    played = [[entry["seat"], entry["move"]] for entry in moves]
    text = json.dumps([kind, options, first, seed, played], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class AnalysisStore:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._begin = client.register_script(BEGIN)

    def cached(self, digest_: str) -> dict | None:
        raw = self.redis.get(keys.moves_analysis_key(digest_))
        return None if raw is None else json.loads(raw)

    def cache(self, digest_: str, analysis: dict, ttl_s: int = 86400) -> None:
        self.redis.set(keys.moves_analysis_key(digest_), json.dumps(analysis), ex=ttl_s)

    def begin(self, digest_: str, client: str, now: float, budget: Budget) -> Begun:
        """Take a place in `client`'s budget for the analysis of `digest_`, unless it is under
        way already (for anyone) or the budget is used up."""
        return Begun(
            self._begin(
                keys=[
                    keys.analysis_owner_key(digest_),
                    keys.analyses_running_key(client),
                    keys.analysis_cpu_key(client, int(now // HOUR_S)),
                ],
                args=[
                    digest_,
                    client,
                    repr(now),
                    budget.running,
                    repr(budget.cpu_s_per_hour),
                    budget.claim_s,
                ],
            ).decode()
        )

    def end(self, digest_: str, client: str, cpu_s: float, now: float) -> None:
        """The analysis is done (or found nothing to do): free its place, charge its CPU."""
        cpu = keys.analysis_cpu_key(client, int(now // HOUR_S))
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.zrem(keys.analyses_running_key(client), digest_)
            pipe.delete(keys.analysis_owner_key(digest_))
            pipe.incrbyfloat(cpu, cpu_s)
            pipe.expire(cpu, 2 * HOUR_S)
            pipe.execute()
