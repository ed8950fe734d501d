"""Webhook delivery, on the workers only: every worker runs a `Notifier` in a thread of its own
(never in a web request, and not in the thread that keeps the clocks, so a slow receiver cannot
make a deadline late). It

- fans each outbox entry out into one delivery per endpoint of the account told that wants the
  event (and whose account has not switched the event off in `settings.notify`), and one per
  channel the account chose for it (push, e-mail, inbox: `api.notify.fanout`), and
- makes the deliveries that are due, a few at once, each claimed with a lease: signed per the
  Standard Webhooks specification (`standardwebhooks`), sent to the address checked just before
  (`api.notify.addresses`), a 2xx within the timeout counting as delivered. A failed attempt is
  tried again after an exponentially growing delay, for as long as the retry window (24 hours
  from the first attempt) lasts; then the endpoint is disabled and the account told (the
  endpoint's `disabled`, shown in its list and in `GET /me`). An endpoint whose `format` is
  "discord" or "slack" is posted that service's JSON instead, unsigned (`api.notify.chat_apps`).

A worker killed mid-delivery leaves the delivery claimed until its lease runs out; another then
makes it, under the same webhook-id, so the receiver sees it at least once.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from datetime import datetime, timezone

import redis
import requests
from requests.adapters import HTTPAdapter
from standardwebhooks import Webhook

from api import metrics
from api.clocks import iso
from api.notify.chat_apps import chat_body
from api.notify.addresses import AddressRefused, Target, target
from api.store.accounts import AccountStore
from api.store.webhooks import Claimed, WebhookStore

log = logging.getLogger(__name__)

OUTBOX_BATCH = 100
RECLAIM_S = 5.0  # how often a worker looks for outbox entries a dead worker read
OUTBOX_IDLE_MS = 10_000  # an entry read this long ago and not fanned out is a dead worker's
USER_AGENT = "Postplay-Webhooks/1"


@dataclasses.dataclass(frozen=True)
class Policy:
    """How deliveries are made and retried; every figure can be set in the environment
    (POSTPLAY_WEBHOOK_TIMEOUT_S, _RETRY_BASE_S, _RETRY_MAX_S, _RETRY_WINDOW_S, _THREADS), which
    is how the tests compress the 24 hours; POSTPLAY_WEBHOOK_CA_BUNDLE names the certificates
    https endpoints are checked against (default: the system's)."""

    timeout_s: float = 5.0
    retry_base_s: float = 5.0  # the first retry's delay; each next one doubles it...
    retry_max_s: float = 4 * 3600.0  # ...up to this
    window_s: float = 24 * 3600.0  # retries stop this long after the first attempt
    threads: int = 4  # deliveries one worker makes at once
    ca_bundle: str | None = None

    @classmethod
    def from_env(cls) -> "Policy":
        def number(name: str, default: float) -> float:
            return float(os.environ.get(f"POSTPLAY_WEBHOOK_{name}", default))

        base = cls()
        return cls(
            number("TIMEOUT_S", base.timeout_s),
            number("RETRY_BASE_S", base.retry_base_s),
            number("RETRY_MAX_S", base.retry_max_s),
            number("RETRY_WINDOW_S", base.window_s),
            int(number("THREADS", base.threads)),
            os.environ.get("POSTPLAY_WEBHOOK_CA_BUNDLE") or None,
        )

    @property
    def lease_s(self) -> float:
        """How long a claimed delivery is this worker's: longer than any one attempt."""
        return 2 * self.timeout_s + 5.0

    @property
    def kept_s(self) -> int:
        """How long a delivery owed is kept at most: the window, and a day to spare."""
        return int(self.window_s + 86400)

    def next_attempt(self, first_ts: float, attempts: int, now: float) -> float | None:
        """When to try again after the `attempts`-th failed attempt; None once past the
        window."""
        at = now + min(self.retry_base_s * 2 ** (attempts - 1), self.retry_max_s)
        return at if at <= first_ts + self.window_s else None


def sign(secret: str, msg_id: str, body: str, at: float) -> dict[str, str]:
    """The Standard Webhooks headers of one attempt at `at` (each attempt is signed anew, so its
    timestamp is fresh; the webhook-id stays the message's)."""
    stamp = datetime.fromtimestamp(int(at), timezone.utc)
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(at)),
        "webhook-signature": Webhook(secret).sign(msg_id, stamp, body),
    }


class PinnedHttps(HTTPAdapter):
    """https to the address checked, while TLS (its SNI and the certificate check) uses the
    name the URL gave."""

    def __init__(self, hostname: str):
        self.hostname = hostname
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(
            *args, server_hostname=self.hostname, assert_hostname=self.hostname, **kwargs
        )


def send(to: Target, headers: dict[str, str], body: str, policy: Policy) -> int:
    """POST `body` to the checked address; the response's status (its body is not read)."""
    headers = {
        **headers,
        "Host": to.host,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
    }
    with requests.Session() as session:
        session.trust_env = False  # no proxy from the environment: the address is the one checked
        session.mount("https://", PinnedHttps(to.hostname))
        response = session.post(
            to.url,
            data=body.encode(),
            headers=headers,
            stream=True,
            timeout=policy.timeout_s,
            allow_redirects=False,
            verify=policy.ca_bundle or True,
        )
        response.close()
        return response.status_code


class Notifier:
    """One worker's webhook deliveries: `run` until stopped, or `step` by step (tests)."""

    def __init__(self, client: redis.Redis, name: str, policy: Policy | None = None):
        from api.notify import fanout  # (here: its push sender uses this module's Policy)

        self.name = name
        self.policy = policy or Policy.from_env()
        self.client, self.fanout = client, fanout
        self.store = WebhookStore(client)
        self.accounts = AccountStore(client)
        self.pool = ThreadPoolExecutor(self.policy.threads, thread_name_prefix="webhook")
        self.running: dict[Future, Claimed] = {}  # the attempts not yet over, and their claims
        self.next_reclaim = 0.0

    def run(self, stop: threading.Event) -> None:
        """Until `stop` is set; a Redis outage is waited out."""
        started = 0
        while not stop.is_set():
            try:
                # waiting on the outbox only when the last step found nothing to send, and on
                # the attempts while every thread has one: deliveries owed go out back to back
                if len(self.running) >= self.policy.threads:
                    wait(self.running, timeout=0.1, return_when=FIRST_COMPLETED)
                started = self.step(time.time(), block_ms=None if started else 100)
            except redis.RedisError:
                log.warning("Redis is unreachable; webhook deliveries wait", exc_info=True)
                stop.wait(1.0)
        self.close()

    def close(self) -> None:
        """Hand back the deliveries claimed and not yet started, and wait for those under way
        (each bounded by the policy's timeout)."""
        for future, claimed in list(self.running.items()):
            if future.cancel():
                self.store.hand_back(claimed, time.time())
        self.pool.shutdown(wait=True)

    def step(self, now: float, block_ms: int | None = None) -> int:
        """Fan out the outbox's new entries (waiting up to `block_ms` for one), then start the
        deliveries due; how many were started."""
        try:
            return self._step(now, block_ms)
        except redis.ResponseError as exc:
            if "NOGROUP" not in str(exc):
                raise
            self.store.ensure_group()  # a new Redis, or one flushed: the outbox starts afresh
            return self._step(now, block_ms)

    def _step(self, now: float, block_ms: int | None) -> int:
        entries = []
        if now >= self.next_reclaim:
            entries += self.store.reclaim_outbox(self.name, OUTBOX_IDLE_MS, OUTBOX_BATCH)
            self.next_reclaim = now + RECLAIM_S
        entries += self.store.read_outbox(self.name, OUTBOX_BATCH, block_ms)
        for entry_id, event in entries:
            if entry_id is None:
                continue  # (an entry deleted under a claim, as Redis 6.2 answers it)
            deliveries = [] if event is None else self.deliveries_for(event, time.time())
            self.store.fan_out(entry_id, deliveries, time.time(), self.policy.kept_s)
        self.running = {f: c for f, c in self.running.items() if not f.done()}
        claimed = self.store.claim_due(
            time.time(), self.policy.lease_s, self.policy.threads - len(self.running)
        )
        for one in claimed:
            self.running[self.pool.submit(self.attempt, one)] = one
        return len(claimed)

    def wait(self) -> None:
        """Until the attempts started so far are over (tests, the benchmark)."""
        for future in list(self.running):
            future.result()

    def deliveries_for(self, event: dict, now: float) -> list[dict]:
        """The deliveries one event calls for: one per endpoint of the account told that is
        enabled and wants this event, unless the account switched the event off."""
        account = self.accounts.load(event["account"])
        if account is None or account.get("deleted"):
            return []
        if account["settings"].get("notify", {}).get(event["type"]) is False:
            return []
        return [
            {
                "id": f"{event['id']}.{e['id']}",
                "msg": event["id"],
                "account": account["id"],
                "endpoint": e["id"],
                "type": event["type"],
                "game": event["game"],
                "body": event["body"],
                "first_ts": now,
                "attempts": 0,
            }
            for e in self.store.endpoints(account["id"])
            if e["disabled"] is None and event["type"] in e["events"]
        ] + self.fanout.deliveries(self.client, account, event, now)

    def attempt(self, claimed: Claimed) -> None:
        """One attempt at a claimed delivery, logged; then done, owed again, or given up on."""
        try:
            if claimed.delivery.get("channel"):  # push, e-mail, inbox: `api.notify.fanout`
                self.fanout.attempt(self.store, self.client, claimed, self.policy)
            else:
                self._attempt(claimed)
        except Exception:  # a bug must not kill the pool's thread: the lease runs out, and retries
            log.exception("webhook delivery %s failed", claimed.delivery["id"])

    def _attempt(self, claimed: Claimed) -> None:
        delivery = claimed.delivery
        endpoint = self.store.endpoint(delivery["account"], delivery["endpoint"])
        if endpoint is None or endpoint["disabled"] is not None:
            self.store.drop(claimed)
            return
        started, status, error = time.time(), None, None
        fmt = endpoint.get("format", "standard")
        try:
            to = target(endpoint["url"])
            if fmt == "standard":
                status = send(
                    to,
                    sign(endpoint["secret"], delivery["msg"], delivery["body"], started),
                    delivery["body"],
                    self.policy,
                )
            else:  # a chat app's incoming webhook: its own JSON, unsigned
                account = self.accounts.load(delivery["account"]) or {"username": ""}
                status = send(
                    to,
                    {},
                    chat_body(fmt, account["username"], json.loads(delivery["body"])),
                    self.policy,
                )
            if not 200 <= status < 300:
                error = f"The endpoint answered HTTP {status}."
        except AddressRefused as refused:
            error = refused.message
        except requests.Timeout:
            error = f"No answer within {self.policy.timeout_s:g} s."
        except requests.RequestException as failed:
            error = f"Could not deliver: {failed.__class__.__name__}: {failed}"
        now = time.time()
        attempts = delivery["attempts"] = delivery["attempts"] + 1  # the doc owed again says so
        entry = {
            "webhook_id": delivery["msg"],
            "type": delivery["type"],
            "game": delivery["game"],
            "attempt": attempts,
            "at": iso(started),
            "status": status,
            "latency_ms": round((now - started) * 1000, 1),
            "error": error,
        }
        next_at = (
            None if error is None else self.policy.next_attempt(delivery["first_ts"], attempts, now)
        )
        outcome = "delivered" if error is None else "retrying" if next_at is not None else "failed"
        metrics.WEBHOOK_DELIVERIES.labels(event=delivery["type"], outcome=outcome).inc()
        if error is None:
            self.store.settle(claimed, {**entry, "outcome": outcome})
            return
        if next_at is not None:
            self.store.settle(
                claimed, {**entry, "outcome": outcome, "next_attempt_at": iso(next_at)}, next_at
            )
            return
        if self.store.settle(claimed, {**entry, "outcome": outcome}):
            hours = self.policy.window_s / 3600
            self.store.disable(
                delivery["account"],
                delivery["endpoint"],
                now,
                f"Deliveries kept failing for {hours:g} hours (last: {error}); "
                f"delete this webhook and register it again to resume.",
            )
