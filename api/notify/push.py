"""Web Push (RFC 8030, payloads encrypted per RFC 8291, the server identified by VAPID per RFC
8292), with pywebpush and py-vapid: the server's key pair, an account's subscriptions (one per
device: add, list, remove) and the `push` channel's sender, run by the workers' deliveries
(`api.notify.fanout`).

The key pair is POSTPLAY_VAPID_PRIVATE_KEY (PEM, or the base64url of the raw 32-byte key or of
its DER) when set, else the one the first process made and kept in Redis. A subscription's
endpoint must be https on a public address: the webhook rules (`api.notify.addresses`), so
POSTPLAY_WEBHOOK_ALLOW_PRIVATE=1 lifts both (and then http, for a local push service, too). The
address is checked again before every push and the connection made to the address checked.

A push goes with the Topic header (RFC 8030 §5.4) made from its notification's id, so a push
repeated after a worker died mid-send replaces the first at the push service, and the service
worker shows it under the same tag. The push service answering 404 or 410 means the
subscription is gone: it is removed. 429 and 5xx (or no answer) are retried with backoff, as
webhooks are; any other answer gives up on that push.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import time
import uuid
from urllib.parse import urlsplit

import redis
import requests
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import WebPusher

from api.clocks import iso
from api.notify.addresses import AddressRefused, check_url, private_allowed, target
from api.notify.delivery import PinnedHttps, Policy
from api.notify.outcome import GiveUp, Retry
from api.players.accounts import Principal
from api.record.errors import BadField, NotFound
from api.store.notices import NoticeStore

MAX_SUBSCRIPTIONS = 10
TTL_S = 7 * 86400  # how long the push service keeps a push for a device that is away
SUBJECT = "mailto:postplay@localhost"  # `sub` with neither POSTPLAY_VAPID_SUBJECT nor an https URL


def vapid(store: NoticeStore) -> Vapid:
    """The server's VAPID key pair."""
    given = os.environ.get("POSTPLAY_VAPID_PRIVATE_KEY", "").strip()
    if given:
        return _vapid_of(given)
    return _vapid_of(store.vapid_pem(_new_pem))


@functools.lru_cache(maxsize=4)
def _vapid_of(text: str) -> Vapid:
    if "BEGIN" in text:
        return Vapid.from_pem(text.encode())
    return Vapid.from_string(text)


def _new_pem() -> str:
    made = Vapid()
    made.generate_keys()
    return made.private_pem().decode()


def public_key(store: NoticeStore) -> str:
    """The public key as `PushManager.subscribe` takes it: base64url of the uncompressed point."""
    raw = vapid(store).public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


# -- subscriptions ------------------------------------------------------------------------------


def subscribe(
    store: NoticeStore, who: Principal, subscription: dict, device: str, now: float | None = None
) -> dict:
    """Keep a device's subscription (the same endpoint again replaces it); its view."""
    who.require("read")
    endpoint = subscription["endpoint"]
    _check_endpoint(endpoint)
    for name in ("p256dh", "auth"):
        try:
            decoded = base64.urlsafe_b64decode(subscription["keys"][name] + "==")
        except (ValueError, TypeError):
            decoded = b""
        if len(decoded) != (65 if name == "p256dh" else 16):
            raise BadField(
                f"subscription.keys.{name}", "That is not the key PushSubscription.toJSON() gives."
            )
    existing = {s["endpoint"]: s for s in store.subscriptions(who.id)}
    if endpoint not in existing and len(existing) >= MAX_SUBSCRIPTIONS:
        raise BadField(
            "subscription",
            f"An account has at most {MAX_SUBSCRIPTIONS} devices with push: remove one first.",
        )
    kept = {
        "id": existing[endpoint]["id"] if endpoint in existing else uuid.uuid4().hex[:12],
        "device": device,
        "endpoint": endpoint,
        "keys": {"p256dh": subscription["keys"]["p256dh"], "auth": subscription["keys"]["auth"]},
        "created_ts": time.time() if now is None else now,
    }
    store.add_subscription(who.id, kept)
    return view(kept)


def _check_endpoint(endpoint: str) -> None:
    try:
        check_url(endpoint)
        if urlsplit(endpoint).scheme != "https" and not private_allowed():
            raise AddressRefused("A push endpoint must be https://.")
        target(endpoint)
    except AddressRefused as refused:
        raise BadField(
            "subscription.endpoint",
            refused.message.replace("webhooks go", "push goes").replace(
                "webhook URL", "push endpoint"
            ),
        ) from None


def listing(store: NoticeStore, who: Principal) -> list[dict]:
    who.require("read")
    return [view(s) for s in store.subscriptions(who.id)]


def unsubscribe(store: NoticeStore, who: Principal, subscription_id: str) -> None:
    who.require("read")
    if not store.remove_subscription(who.id, subscription_id):
        raise NotFound(f"You have no push subscription {subscription_id!r}.")


def view(subscription: dict) -> dict:
    """A subscription as the API shows it: its id, device and when; not its keys."""
    return {
        "id": subscription["id"],
        "device": subscription["device"],
        "created_at": iso(subscription["created_ts"]),
    }


# -- sending ------------------------------------------------------------------------------------


def topic(notification_id: str) -> str:
    """The push's Topic: at most 32 characters of the base64url alphabet, one per notification."""
    digest = hashlib.sha256(notification_id.encode()).digest()[:24]
    return base64.urlsafe_b64encode(digest).decode()


def payload(delivery: dict) -> bytes:
    """What the service worker gets, decrypted: `{"id", "type", "game", "title", "body", "url"}`."""
    return json.dumps(
        {
            "id": delivery["msg"],
            "type": delivery["type"],
            "game": delivery["game"],
            "title": delivery["title"],
            "body": delivery["text"],
            "url": delivery["url"],
        },
        separators=(",", ":"),
    ).encode()


def subject() -> str:
    """The VAPID `sub` claim: how a push service reaches the operator."""
    public = os.environ.get("POSTPLAY_PUBLIC_URL", "")
    return os.environ.get("POSTPLAY_VAPID_SUBJECT") or (
        public.rstrip("/") if public.startswith("https://") else SUBJECT
    )


def push(keys: Vapid, subscription: dict, data: bytes, push_topic: str, policy: Policy) -> int:
    """Encrypt `data` for the subscription and POST it to the address its endpoint was checked to
    have, signed with VAPID; the push service's status."""
    to = target(subscription["endpoint"])
    parts = urlsplit(subscription["endpoint"])
    claims = {
        "sub": subject(),
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 3600,
    }
    headers = {**keys.sign(claims), "Host": to.host, "Topic": push_topic, "Urgency": "normal"}
    with requests.Session() as session:
        session.trust_env = False  # no proxy from the environment: the address is the one checked
        session.mount("https://", PinnedHttps(to.hostname))
        response = WebPusher(
            {"endpoint": to.url, "keys": subscription["keys"]}, requests_session=session
        ).send(data, headers, ttl=TTL_S, timeout=policy.timeout_s)
        response.close()
        return response.status_code


def send(client: redis.Redis, delivery: dict) -> None:
    """The `push` channel's sender (the signature `api.notify.fanout` describes)."""
    store, policy = NoticeStore(client), Policy.from_env()
    subscription = store.subscription(delivery["account"], delivery["target"])
    if subscription is None:
        raise GiveUp("The subscription was removed.")
    try:
        status = push(vapid(store), subscription, payload(delivery), topic(delivery["msg"]), policy)
    except AddressRefused as refused:
        raise Retry(refused.message) from None
    except requests.Timeout:
        raise Retry(f"No answer within {policy.timeout_s:g} s.") from None
    except requests.RequestException as failed:
        raise Retry(f"Could not push: {failed.__class__.__name__}: {failed}") from None
    if status in (404, 410):
        store.remove_subscription(delivery["account"], delivery["target"])
        raise GiveUp(f"The push service answered HTTP {status}: the subscription is gone.")
    if status == 429 or status >= 500:
        raise Retry(f"The push service answered HTTP {status}.")
    if not 200 <= status < 300:
        raise GiveUp(f"The push service answered HTTP {status}.")
