"""Playtests in Redis: the spec, one record per game played and one status per chunk, plus the
chunk jobs on the RQ queue and the sample games stored as real games to replay.

The spec, the chunk statuses and the chunk jobs are written in one transaction, so no chunk is
ever without its job. Game records are keyed by game index, so a chunk played twice (a retry)
overwrites rather than double counts, and `done` is simply how many records there are. A chunk
whose job failed or vanished without saying so is found through RQ when the playtest is read.
"""

from __future__ import annotations

import builtins
import dataclasses
import enum
import os
import hashlib
import hmac
import json
import time
import uuid
from typing import Callable

import redis
from rq import Callback, Queue
from rq.job import Job, JobStatus

from api.clocks import iso
from api.record.errors import Busy
from api.followups import PLAYTEST_QUEUE
from api.store.games import GameStore, hash_token
from api.store.keys import client_playtests_key, playtest_key
from api.store.replies import text

CHUNK_JOB = "worker.playtests.run_chunk"
CHUNK_FAILED = "worker.playtests.chunk_failed"
MOVES_PER_GAME_ALLOWANCE = 400  # for the chunk job's timeout: moves a game may take at full budget
JOB_TIMEOUT_SLACK_S = 600
RESULT_TTL_S = 86400


def max_running_per_client() -> int:
    """Playtests one client may have running at once: each holds a worker for minutes to hours."""
    return int(os.environ.get("POSTPLAY_MAX_PLAYTESTS_PER_CLIENT", "2"))


FAILURE_TTL_S = 7 * 86400


class ChunkStatus(str, enum.Enum):
    QUEUED = "queued"
    RUNNING = "running"
    FINISHED = "finished"
    FAILED = "failed"
    CANCELLED = "cancelled"


OVER = {ChunkStatus.FINISHED.value, ChunkStatus.FAILED.value, ChunkStatus.CANCELLED.value}
RUNNING_STATUSES = ("running", "cancelling")  # a playtest's statuses while a chunk may still play


def chunk_job_id(playtest_id: str, chunk: int) -> str:
    return f"playtest-{playtest_id}-{chunk}"


def sample_game_id(playtest_id: str, index: int) -> str:
    """The id a sample game is stored under: fixed, so a chunk played again stores it once."""
    return hashlib.sha256(f"{playtest_id}:{index}".encode()).hexdigest()[:12]


@dataclasses.dataclass(frozen=True)
class Reports:
    """What the playtests service computes over what the stores keep, given from above
    (`api.playtests.reports.REPORTS`): a playtest's report from its spec and game records, and a
    sweep's view from its document, its playtests' views and, once none runs, their records."""

    playtest: Callable[[dict, list[dict]], dict]
    sweep: Callable[[dict, list[dict], list[list[dict]] | None], dict]


class PlaytestStore:
    def __init__(self, client: redis.Redis, reports: Reports):
        self.redis, self.reports = client, reports
        self.queue = Queue(PLAYTEST_QUEUE, connection=client)

    def start(
        self,
        spec: dict,
        owner_token: str | None = None,
        now: float | None = None,
        client: str | None = None,
        owner_account: dict | None = None,
    ) -> dict:
        """Store a checked spec (`api.playtests.check_request`) and enqueue one job per chunk.
        Its owner, who alone may cancel it over HTTP, is an account (`owner_account`, with its
        `id` and `username`) or the holder of `owner_token`, kept only as a hash; a playtest
        with neither (started from the command line) is cancelled where it runs. With `client`,
        it counts among that client's playtests running (Busy past the limit)."""
        limit = max_running_per_client()
        if client is not None and self.running_of(client) >= limit:
            raise Busy(
                f"You have {limit} playtests running; start another when one of them "
                f"ends (or cancel one)."
            )
        doc = self.new_doc(spec, owner_token, owner_account, now)
        with self.redis.pipeline(transaction=True) as pipe:
            self.stage(pipe, doc)
            if client is not None:
                pipe.sadd(client_playtests_key(hash_token(client)), doc["id"])
            self.queue.enqueue_many(self.chunk_jobs(doc), pipeline=pipe)
            pipe.execute()
        return doc

    @staticmethod
    def new_doc(
        spec: dict,
        owner_token: str | None = None,
        owner_account: dict | None = None,
        now: float | None = None,
    ) -> dict:
        """A new playtest's (or sweep's) stored document: the spec, an id, when, and its owner."""
        now = time.time() if now is None else now
        return {
            "id": uuid.uuid4().hex[:12],
            **spec,
            "created_at": iso(now),
            "created_ts": now,
            "owner_hash": None if owner_token is None else hash_token(owner_token),
            "owner_account": owner_account and owner_account["id"],
            "owner_name": owner_account and owner_account["username"],
        }

    @staticmethod
    def stage(pipe: redis.client.Pipeline, doc: dict, listed: bool = True) -> None:
        """Write a new playtest into `pipe` with every chunk queued (its jobs are the caller's:
        `chunk_jobs`); `listed` puts it in the list of playtests, which also retention reads."""
        queued = json.dumps({"status": ChunkStatus.QUEUED.value, "error": None})
        pipe.set(playtest_key(doc["id"]), json.dumps(doc))
        pipe.hset(
            playtest_key(doc["id"], "chunks"),
            mapping={str(i): queued for i in range(len(doc["chunks"]))},
        )
        if listed:
            pipe.zadd(playtest_key(), {doc["id"]: doc["created_ts"]})

    @staticmethod
    def chunk_jobs(doc: dict) -> list:
        """The RQ job of every chunk of a new playtest, for `Queue.enqueue_many`, in order."""
        pid = doc["id"]
        return [
            Queue.prepare_data(
                CHUNK_JOB,
                args=(pid, i),
                job_id=chunk_job_id(pid, i),
                timeout=_job_timeout(doc, stop - start),
                result_ttl=RESULT_TTL_S,
                failure_ttl=FAILURE_TTL_S,
                on_failure=Callback(CHUNK_FAILED),
            )
            for i, (start, stop) in enumerate(doc["chunks"])
        ]

    def running_of(self, client: str) -> int:
        """How many of `client`'s playtests still run (those that ended are dropped here)."""
        return running_in(self.redis, client_playtests_key(hash_token(client)), self._runs)

    def load(self, playtest_id: str) -> dict | None:
        raw = self.redis.get(playtest_key(playtest_id))
        return None if raw is None else json.loads(raw)

    def view(self, playtest_id: str, with_report: bool = True) -> dict | None:
        """The playtest as the API shows it: spec, status, progress per chunk, and once no chunk
        runs any more, the report over the games played."""
        return self.view_with_records(playtest_id, with_report)[0]

    def view_with_records(
        self, playtest_id: str, with_report: bool = True
    ) -> tuple[dict | None, list[dict] | None]:
        """The view and, `with_report`, the game records (`api.playtests.record_of`) it reports
        on: what a sweep compares."""
        doc = self.load(playtest_id)
        if doc is None:
            return None, None
        games_key = playtest_key(playtest_id, "games")
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(playtest_key(playtest_id, "chunks"))
            (pipe.hvals if with_report else pipe.hkeys)(games_key)
            pipe.exists(playtest_key(playtest_id, "cancelled"))
            raw_chunks, raw_games, cancelled = pipe.execute()
        chunks = self._settle(
            playtest_id,
            [json.loads(raw_chunks[str(i).encode()]) for i in range(len(doc["chunks"]))],
        )
        records = [json.loads(r) for r in raw_games] if with_report else None
        indexes = (
            [r["index"] for r in records] if records is not None else [int(i) for i in raw_games]
        )
        status = _status(chunks, bool(cancelled))
        over = status not in RUNNING_STATUSES
        return {
            **{
                k: doc[k]
                for k in (
                    "id",
                    "kind",
                    "options",
                    "bots",
                    "games",
                    "seed",
                    "budget_s",
                    "chunk_games",
                    "samples",
                    "created_at",
                )
            },
            "status": status,
            "done": len(indexes),
            "total": doc["games"],
            "chunks": [
                {
                    "index": i,
                    "first_game": start,
                    "games": stop - start,
                    "done": sum(start <= g < stop for g in indexes),
                    **chunk,
                }
                for i, ((start, stop), chunk) in enumerate(zip(doc["chunks"], chunks))
            ],
            "report": self.reports.playtest(doc, records) if over and records is not None else None,
            "sweep": doc.get("sweep"),
            "owner": doc.get("owner_name"),
        }, records

    def list(self, offset: int, limit: int) -> tuple[list[dict], int]:
        """A page of playtests, newest first, without their reports, and how many there are."""
        ids = [text(i) for i in self.redis.zrevrange(playtest_key(), offset, offset + limit - 1)]
        views = [self.view(pid, with_report=False) for pid in ids]
        return [v for v in views if v is not None], self.redis.zcard(playtest_key())

    def is_owner(self, playtest_id: str, token: str, account_id: str | None = None) -> bool:
        """Whether the playtest is the account's, or `token` the owner token it was started
        with."""
        doc = self.load(playtest_id)
        return doc is not None and owns(doc, token, account_id)

    def cancel(self, playtest_id: str) -> None:
        """Ask the batch to stop: queued chunks are cancelled now, a running chunk stops after
        the game it is playing (what it played is kept)."""
        self.redis.set(playtest_key(playtest_id, "cancelled"), "1")
        raw = self.redis.hgetall(playtest_key(playtest_id, "chunks"))
        for field, value in raw.items():
            if json.loads(value)["status"] != ChunkStatus.QUEUED.value:
                continue
            chunk = int(field)
            job = Job.fetch_many([chunk_job_id(playtest_id, chunk)], connection=self.redis)[0]
            if job is not None and job.get_status(refresh=False) == JobStatus.QUEUED:
                job.cancel()
            self.end_chunk(playtest_id, chunk, ChunkStatus.CANCELLED)

    def ended_before(self, before: float, limit: int = 100) -> builtins.list[str]:
        """Playtests created before `before` that no longer run, oldest first."""
        return ended_in(self.redis, playtest_key(), before, limit, self._runs)

    def _runs(self, playtest_id: str) -> bool:
        view = self.view(playtest_id, with_report=False)
        return view is not None and view["status"] in RUNNING_STATUSES

    def delete(self, playtest_id: str, games: GameStore) -> None:
        """Remove a playtest with its records and its sample games."""
        doc = self.load(playtest_id)
        if doc is not None:
            for index in range(doc["samples"]):
                games.delete(sample_game_id(playtest_id, index))
            jobs = Job.fetch_many(
                [chunk_job_id(playtest_id, i) for i in range(len(doc["chunks"]))],
                connection=self.redis,
            )
            for job in filter(None, jobs):
                job.delete()
        self.redis.delete(
            *(playtest_key(playtest_id, part) for part in (None, "games", "chunks", "cancelled"))
        )
        self.redis.zrem(playtest_key(), playtest_id)

    def is_cancelled(self, playtest_id: str) -> bool:
        return bool(self.redis.exists(playtest_key(playtest_id, "cancelled")))

    def begin_chunk(self, playtest_id: str, chunk: int) -> bool:
        """Mark the chunk running; False (and the chunk cancelled) when the batch was cancelled."""
        if self.is_cancelled(playtest_id):
            self.end_chunk(playtest_id, chunk, ChunkStatus.CANCELLED)
            return False
        self._set_chunk(playtest_id, chunk, ChunkStatus.RUNNING, None)
        return True

    def end_chunk(
        self, playtest_id: str, chunk: int, status: ChunkStatus, error: str | None = None
    ) -> None:
        self._set_chunk(playtest_id, chunk, status, error)

    def has_game(self, playtest_id: str, index: int) -> bool:
        return bool(self.redis.hexists(playtest_key(playtest_id, "games"), str(index)))

    def add_game(self, playtest_id: str, record: dict) -> None:
        self.redis.hset(
            playtest_key(playtest_id, "games"), str(record["index"]), json.dumps(record)
        )

    def _set_chunk(
        self, playtest_id: str, chunk: int, status: ChunkStatus, error: str | None
    ) -> None:
        self.redis.hset(
            playtest_key(playtest_id, "chunks"),
            str(chunk),
            json.dumps({"status": status.value, "error": error}),
        )

    def _settle(self, playtest_id: str, chunks: builtins.list[dict]) -> builtins.list[dict]:
        """Chunks not over by their own record, checked against their RQ jobs: a job that failed,
        was stopped or cancelled, or is gone, ends its chunk (and that is recorded)."""
        pending = [i for i, c in enumerate(chunks) if c["status"] not in OVER]
        if not pending:
            return chunks
        jobs = Job.fetch_many(
            [chunk_job_id(playtest_id, i) for i in pending], connection=self.redis
        )
        # read again after the jobs: a job records its chunk before it ends, so one that ended
        # since the chunks were read has its own record by now, and that record stands
        again = self.redis.hmget(playtest_key(playtest_id, "chunks"), [str(i) for i in pending])
        for i, job, raw in zip(pending, jobs, again):
            recorded = json.loads(raw) if raw else chunks[i]
            if recorded["status"] in OVER:
                chunks[i] = recorded
                continue
            ended = _ended(job)
            if ended is not None:
                self.end_chunk(playtest_id, i, *ended)
                chunks[i] = {"status": ended[0].value, "error": ended[1]}
        return chunks


def running_in(client: redis.Redis, key: str, runs: Callable[[str], bool]) -> int:
    """How many of the ids in set `key` (a client's playtests or sweeps) still run by `runs`;
    those that ended are dropped from the set."""
    ids = [text(i) for i in client.smembers(key)]
    ended = [i for i in ids if not runs(i)]
    if ended:
        client.srem(key, *ended)
    return len(ids) - len(ended)


def ended_in(
    client: redis.Redis, index: str, before: float, limit: int, runs: Callable[[str], bool]
) -> list[str]:
    """The ids of sorted set `index` (by creation time) created before `before` that no longer
    run by `runs`, oldest first: what retention may delete."""
    ids = [text(i) for i in client.zrangebyscore(index, "-inf", repr(before), start=0, num=limit)]
    return [i for i in ids if not runs(i)]


def owns(doc: dict, token: str, account_id: str | None) -> bool:
    """Whether a playtest's or sweep's document is account `account_id`'s, or `token` its
    owner token (compared by hash, in constant time)."""
    if account_id is not None and doc.get("owner_account") == account_id:
        return True
    owner_hash = doc.get("owner_hash")
    return bool(owner_hash and hmac.compare_digest(owner_hash, hash_token(token)))


def _job_timeout(doc: dict, games: int) -> int:
    return int(JOB_TIMEOUT_SLACK_S + games * MOVES_PER_GAME_ALLOWANCE * doc["budget_s"])


def _ended(job: Job | None) -> tuple[ChunkStatus, str | None] | None:
    """How a chunk ended by its RQ job, when the chunk did not record it itself."""
    if job is None:
        return ChunkStatus.FAILED, "Its worker job is gone (expired or deleted) before it ended."
    status = job.get_status(refresh=False)
    if status == JobStatus.CANCELED:
        return ChunkStatus.CANCELLED, None
    if status in (JobStatus.FAILED, JobStatus.STOPPED):
        result = job.latest_result()
        detail = result.exc_string.strip().splitlines()[-1] if result and result.exc_string else ""
        return ChunkStatus.FAILED, f"Its worker job {status.value}. {detail}".strip()
    if status == JobStatus.FINISHED:
        return ChunkStatus.FAILED, "Its worker job ended without recording the chunk."
    return None


def _status(chunks: list[dict], cancelled: bool) -> str:
    """running | cancelling while a chunk may still play; then cancelled, failed or finished."""
    statuses = {c["status"] for c in chunks}
    if statuses - OVER:
        return "cancelling" if cancelled else "running"
    if ChunkStatus.CANCELLED.value in statuses:
        return "cancelled"
    if ChunkStatus.FAILED.value in statuses:
        return "failed"
    return "finished"
