"""An account's webhook endpoints: register one (its URL checked, its secret made and shown once),
list them (a disabled one says so, and why), delete one, read its delivery log. Every call needs
the token's `webhooks` scope. The secret follows the Standard Webhooks form, `whsec_` and the
base64 of 24 random bytes, which every Standard Webhooks library takes as it is."""

from __future__ import annotations

import base64
import secrets
import time
import uuid

from api.clocks import iso
from api.notify.addresses import AddressRefused, target
from api.notify.chat_apps import FORMATS
from api.notify.events import Event
from api.record.errors import BadField, NotFound
from api.players.accounts import Principal
from api.store.webhooks import WebhookStore

MAX_ENDPOINTS = 10


def register(
    store: WebhookStore,
    who: Principal,
    url: str,
    events: list[str],
    now: float | None = None,
    fmt: str = "standard",
) -> tuple[dict, str]:
    """A new endpoint for `events` at `url`, posted in `fmt` ("standard", or a chat app's:
    "discord", "slack"): its view and its secret (shown only now)."""
    who.require("webhooks")
    try:
        target(url)
    except AddressRefused as refused:
        raise BadField("url", refused.message) from None
    unknown = sorted(set(events) - {e.value for e in Event})
    if unknown or not events:
        raise BadField("events", f"The events are {', '.join(e.value for e in Event)}.")
    if fmt not in FORMATS:
        raise BadField("format", f"The formats are {', '.join(FORMATS)}.")
    if store.count(who.id) >= MAX_ENDPOINTS:
        raise BadField("url", f"An account has at most {MAX_ENDPOINTS} webhooks: delete one first.")
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()
    endpoint = {
        "id": uuid.uuid4().hex[:12],
        "url": url,
        "events": list(dict.fromkeys(events)),
        "secret": secret,
        "created_ts": time.time() if now is None else now,
        "format": fmt,
    }
    store.add(who.id, endpoint)
    return view({**endpoint, "disabled": None}), secret


def listing(store: WebhookStore, who: Principal) -> list[dict]:
    who.require("webhooks")
    return [view(e) for e in store.endpoints(who.id)]


def remove(store: WebhookStore, who: Principal, endpoint_id: str) -> None:
    who.require("webhooks")
    if not store.remove(who.id, endpoint_id):
        raise NotFound(f"You have no webhook {endpoint_id!r}.")


def deliveries(store: WebhookStore, who: Principal, endpoint_id: str) -> list[dict]:
    """The endpoint's recent attempts, newest first."""
    who.require("webhooks")
    if store.endpoint(who.id, endpoint_id) is None:
        raise NotFound(f"You have no webhook {endpoint_id!r}.")
    return store.log(who.id, endpoint_id)


def disabled(store: WebhookStore, account_id: str) -> list[dict]:
    """The account's endpoints the workers disabled: what `GET /me` tells the account."""
    return [view(e) for e in store.endpoints(account_id) if e["disabled"]]


def view(endpoint: dict) -> dict:
    """An endpoint as the API shows it: never its secret."""
    off = endpoint["disabled"]
    return {
        "id": endpoint["id"],
        "url": endpoint["url"],
        "events": endpoint["events"],
        "format": endpoint.get("format", "standard"),
        "created_at": iso(endpoint["created_ts"]),
        "disabled": off is not None,
        "disabled_at": None if off is None else iso(off["at"]),
        "disabled_reason": None if off is None else off["reason"],
    }
