"""Sweeps in Redis: the sweep's spec with its variants' playtest ids; the playtests themselves are
ordinary ones (`api.store.playtests`), kept out of the list of playtests and marked with their
sweep.

Every variant's playtest, its chunk statuses and every chunk job are written in one transaction
with the sweep, so no variant is ever without its jobs. The jobs are queued round-robin, chunk 0
of every variant, then chunk 1 of every variant, and so on: the variants advance together, and a
sweep cancelled half way still compares them on the same games.
"""

from __future__ import annotations

import builtins
import itertools
import json
import os
import time

import redis

from api.record.errors import Busy
from api.store.games import GameStore, hash_token
from api.store.keys import client_sweeps_key, sweep_key
from api.store.playtests import RUNNING_STATUSES, PlaytestStore, Reports, ended_in, owns, running_in
from api.store.replies import text


KEPT_VIEW_S = 86400


def max_running_per_client() -> int:
    """Sweeps one client may have running at once: each is up to 24 playtests."""
    return int(os.environ.get("POSTPLAY_MAX_SWEEPS_PER_CLIENT", "1"))


class SweepStore:
    def __init__(self, client: redis.Redis, reports: Reports):
        self.redis, self.reports = client, reports
        self.playtests = PlaytestStore(client, reports)

    def start(
        self,
        spec: dict,
        owner_token: str | None = None,
        owner_account: dict | None = None,
        now: float | None = None,
        client: str | None = None,
    ) -> dict:
        """Store a checked spec (`api.playtests.sweeps.check_request`): a playtest per variant,
        owned as the sweep is (see `PlaytestStore.start`), and every chunk job. With `client`,
        it counts among that client's sweeps running (Busy past the limit)."""
        now = time.time() if now is None else now
        limit = max_running_per_client()
        if client is not None and self.running_of(client) >= limit:
            raise Busy(
                f"You have {limit} sweep{'s' if limit != 1 else ''} running; start "
                f"another when it ends (or cancel it)."
            )
        doc = PlaytestStore.new_doc(spec, owner_token, owner_account, now)
        sweep_id = doc["id"]
        docs = [
            PlaytestStore.new_doc(
                {**v["spec"], "sweep": {"id": sweep_id, "variant": v["index"]}},
                owner_token,
                owner_account,
                now,
            )
            for v in spec["variants"]
        ]
        doc["variants"] = [
            {
                "index": v["index"],
                "values": v["values"],
                "label": v["label"],
                "playtest_id": d["id"],
            }
            for v, d in zip(spec["variants"], docs)
        ]
        jobs = [
            job
            for round_ in itertools.zip_longest(*map(PlaytestStore.chunk_jobs, docs))
            for job in round_
            if job is not None
        ]
        with self.redis.pipeline(transaction=True) as pipe:
            for playtest in docs:
                PlaytestStore.stage(pipe, playtest, listed=False)
            pipe.set(sweep_key(sweep_id), json.dumps(doc))
            pipe.zadd(sweep_key(), {sweep_id: now})
            if client is not None:
                pipe.sadd(client_sweeps_key(hash_token(client)), sweep_id)
            self.playtests.queue.enqueue_many(jobs, pipeline=pipe)
            pipe.execute()
        return doc

    def load(self, sweep_id: str) -> dict | None:
        raw = self.redis.get(sweep_key(sweep_id))
        return None if raw is None else json.loads(raw)

    def view(self, sweep_id: str, with_reports: bool = True) -> dict | None:
        """The sweep as the API shows it (`Reports.sweep`): progress per variant,
        and once none runs, `with_reports`, each variant's report and the comparison. A sweep
        that is over never changes again: that view is computed once and kept."""
        if with_reports and (kept := self.redis.get(sweep_key(sweep_id, "view"))) is not None:
            return json.loads(kept)
        doc = self.load(sweep_id)
        if doc is None:
            return None
        ids = [v["playtest_id"] for v in doc["variants"]]
        total = doc["games_per_variant"]
        light = [self._playtest(pid, False, total)[0] for pid in ids]
        if not with_reports or status_of([p["status"] for p in light]) in RUNNING_STATUSES:
            return self.reports.sweep(doc, light, None)
        full = [self._playtest(pid, True, total) for pid in ids]
        # (a playtest's records come with its report: never None here)
        view = self.reports.sweep(doc, [p for p, _ in full], [records or [] for _, records in full])
        # kept a day, not for ever: a read racing the sweep's deletion leaves no key behind
        self.redis.set(sweep_key(sweep_id, "view"), json.dumps(view), ex=KEPT_VIEW_S)
        return view

    def list(self, offset: int, limit: int) -> tuple[list[dict], int]:
        """A page of sweeps, newest first, without reports or comparison, and how many there
        are."""
        ids = [text(i) for i in self.redis.zrevrange(sweep_key(), offset, offset + limit - 1)]
        views = [self.view(sid, with_reports=False) for sid in ids]
        return [v for v in views if v is not None], self.redis.zcard(sweep_key())

    def is_owner(self, sweep_id: str, token: str, account_id: str | None = None) -> bool:
        doc = self.load(sweep_id)
        return doc is not None and owns(doc, token, account_id)

    def cancel(self, sweep_id: str) -> None:
        """Cancel every variant's playtest that still runs (see `PlaytestStore.cancel`)."""
        doc = self.load(sweep_id)
        assert doc is not None  # a sweep is cancelled once its view was found
        for variant in doc["variants"]:
            playtest = self.playtests.view(variant["playtest_id"], with_report=False)
            if playtest is not None and playtest["status"] in RUNNING_STATUSES:
                self.playtests.cancel(variant["playtest_id"])

    def running_of(self, client: str) -> int:
        """How many of `client`'s sweeps still run (those that ended are dropped here)."""
        return running_in(self.redis, client_sweeps_key(hash_token(client)), self._runs)

    def ended_before(self, before: float, limit: int = 100) -> builtins.list[str]:
        """Sweeps created before `before` that no longer run, oldest first."""
        return ended_in(self.redis, sweep_key(), before, limit, self._runs)

    def _runs(self, sweep_id: str) -> bool:
        view = self.view(sweep_id, with_reports=False)
        return view is not None and view["status"] in RUNNING_STATUSES

    def delete(self, sweep_id: str, games: GameStore) -> None:
        """Remove a sweep with its playtests and their sample games."""
        doc = self.load(sweep_id)
        for variant in doc["variants"] if doc else ():
            self.playtests.delete(variant["playtest_id"], games)
        self.redis.delete(sweep_key(sweep_id), sweep_key(sweep_id, "view"))
        self.redis.zrem(sweep_key(), sweep_id)

    def _playtest(
        self, playtest_id: str, with_report: bool, total: int
    ) -> tuple[dict, builtins.list[dict] | None]:
        """A variant's playtest view and records; a playtest gone (deleted by hand) is shown
        failed with nothing played rather than breaking the sweep."""
        view, records = self.playtests.view_with_records(playtest_id, with_report)
        if view is None:
            return {
                "id": playtest_id,
                "status": "failed",
                "done": 0,
                "total": total,
                "report": None,
            }, []
        return view, records


def status_of(statuses: list[str]) -> str:
    """A sweep's status from its playtests': running (or cancelling) while one runs, then
    cancelled if one was, failed if one failed, else finished.

    >>> status_of(["finished", "running"]), status_of(["finished", "cancelled", "failed"])
    ('running', 'cancelled')
    """
    if set(RUNNING_STATUSES).intersection(statuses):
        return "cancelling" if "cancelling" in statuses else "running"
    for ending in ("cancelled", "failed"):
        if ending in statuses:
            return ending
    return "finished"
