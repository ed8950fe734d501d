"""The inbox: every notification of the last 30 days, newest first, what is unread counted
(`GET /me` shows `unread`), marked read by id or all at once. Its sender (the `inbox` channel of
`api.notify.fanout`) keeps a notification once, however often its delivery is repeated."""

from __future__ import annotations

import time

import redis

from api.clocks import iso
from api.players.accounts import Principal
from api.store.notices import INBOX_KEPT_S, NoticeStore


def send(client: redis.Redis, delivery: dict) -> None:
    """The `inbox` channel's sender."""
    NoticeStore(client).record(
        delivery["account"],
        {
            "id": delivery["msg"],
            "type": delivery["type"],
            "game": delivery["game"],
            "title": delivery["title"],
            "text": delivery["text"],
            "url": delivery["url"],
            "ts": delivery["ts"],
        },
        time.time(),
    )


def listing(
    store: NoticeStore, who: Principal, unread_only: bool, now: float | None = None
) -> list[dict]:
    who.require("read")
    since = (time.time() if now is None else now) - INBOX_KEPT_S
    return [view(item) for item in store.inbox(who.id, since, unread_only)]


def mark_read(store: NoticeStore, who: Principal, ids: list[str] | None) -> None:
    who.require("read")
    store.mark_read(who.id, ids)


def view(item: dict) -> dict:
    return {
        "id": item["id"],
        "type": item["type"],
        "game": item["game"],
        "title": item["title"],
        "text": item["text"],
        "url": item["url"],
        "at": iso(item["ts"]),
        "read": item["read"],
    }
