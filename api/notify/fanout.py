"""The fan-out of the outbox to the channels that reach a person away from the board: for each
event of the outbox, for the account it concerns, the channels its `settings.notify` chose for
that event (`push`, `email`, `inbox`; `DEFAULTS` when it chose none), less push and e-mail while
the account is present at the game and `settings.quiet_when_present` holds (the inbox still
records it). Each (event, account, channel) becomes one durable delivery, owed in the same
sorted set and claimed with the same lease as webhook deliveries (`api.store.webhooks`), so a
worker killed mid-send leaves it to another once the lease ends: at most one repeat, under the
same notification id, never a loss. Push owes one delivery per device subscribed.

A channel is sent by its sender in `SENDERS` (a channel with none registered is skipped):

    sender(client: redis.Redis, delivery: dict) -> None

called on a worker with its own Redis client, once per attempt. Returning means delivered; it
raises `api.notify.outcome.Retry(message)` to be tried again with backoff (within the webhooks'
retry window) or `GiveUp(message)` to be dropped; anything else it raises is logged and retried.
`delivery` holds `id` (the delivery's), `msg` (the notification's id, the same for every channel
and on every repeat: a Message-ID or push topic is made from it), `account` (its id), `channel`,
`target` (the push subscription's id; None for the others), `type` (the event), `game` (its
id), `ts` (when it happened), `title` (the game's title, "Ploid"), `text` (a line for a person:
"Your move against Ada (Ploid)"), `url` (the game's page, on POSTPLAY_PUBLIC_URL when set),
`body` (the webhook body: JSON `{"type", "timestamp", "data": the game object}`), `first_ts` and
`attempts`, and whatever else the event carried (a reminder's `minutes` and `deadline`). The
`email` sender is `api.notify.mail.send_now`'s; e-mail is never owed here for `turn` (turns go
in the daily digest) or `reminder` (mailed with the due check that fires it): `api.notify.digests`
sends those, reading the same settings.
"""

from __future__ import annotations

import json
import logging
import os
import smtplib
import time
from collections.abc import Callable

import redis

from api.clocks import iso
from api.games import GAMES
from api.notify import inbox, mail, push
from api.notify.outcome import GiveUp, Retry
from api.store import keys
from api.store.notices import NoticeStore
from api.store.webhooks import Claimed, WebhookStore

log = logging.getLogger(__name__)

EVENTS = (
    "turn",
    "challenge",
    "draw-offer",
    "takeback",
    "chat",
    "game-over",
    "reminder",
    "tournament",
)
CHANNELS = ("push", "email", "inbox")
DEFAULTS = {
    event: ["push", "inbox"]
    + (["email"] if event in ("turn", "challenge", "reminder", "tournament") else [])
    for event in EVENTS
}
MAILED_ELSEWHERE = {"turn", "reminder"}  # the daily digest; the reminder's own due check
QUIETED = {"push", "email"}  # not sent while the account is present
PRESENT_S = 120
LOG_KEPT = 50

Sender = Callable[[redis.Redis, dict], None]
# the fields of an outbox event a delivery has under names of its own
OWN = {"id", "type", "account", "game", "ts", "body"}


def send_email(client: redis.Redis, delivery: dict) -> None:
    """The `email` channel's sender: the event mailed at once (`api.notify.mail.send_now`,
    which sends nothing when e-mail is off, the address is not verified or the kind is
    unsubscribed), under a Message-ID made from the notification's id."""
    event = {
        "type": delivery["type"],
        "account": delivery["account"],
        "game": delivery["game"],
        "body": delivery["body"],
        **{k: delivery[k] for k in ("minutes", "deadline") if k in delivery},
    }
    try:
        mail.send_now(client, delivery["account"], event, delivery["msg"])
    except (smtplib.SMTPException, OSError) as failed:
        raise Retry(f"The mail server failed: {failed.__class__.__name__}: {failed}") from None


SENDERS: dict[str, Sender] = {"push": push.send, "inbox": inbox.send, "email": send_email}


def present_s() -> int:
    return int(os.environ.get("POSTPLAY_PRESENT_S", PRESENT_S))


def sender(channel: str) -> Sender | None:
    return SENDERS.get(channel)


def chosen(settings: dict, event: str) -> list[str]:
    """The channels the account's settings choose for `event`: a list, or `true` (the
    defaults), or `false` (none, and no webhook either)."""
    picked = settings.get("notify", {}).get(event, True)
    if picked is True:
        return list(DEFAULTS.get(event, ["inbox"]))
    return [] if picked is False else list(picked)


def deliveries(client: redis.Redis, account: dict, event: dict, now: float) -> list[dict]:
    """The channel deliveries one outbox event calls for, for its account."""
    channels = [
        c
        for c in chosen(account["settings"], event["type"])
        if not (c == "email" and event["type"] in MAILED_ELSEWHERE) and sender(c) is not None
    ]
    if not channels:
        return []
    notices = NoticeStore(client)
    if account["settings"].get("quiet_when_present", True) and notices.present(
        account["id"], event["game"]
    ):
        channels = [c for c in channels if c not in QUIETED]
    body = json.loads(event["body"])
    title, text = describe(event["type"], body["data"], account["username"], event.get("minutes"))
    common = {
        "msg": event["id"],
        "account": account["id"],
        "type": event["type"],
        "game": event["game"],
        "ts": event["ts"],
        "title": title,
        "text": text,
        "url": game_url(event["game"]),
        "body": event["body"],
        "first_ts": now,
        "attempts": 0,
        **{k: v for k, v in event.items() if k not in OWN},
    }
    owed = []
    for channel in channels:
        if channel == "push":
            owed += [
                {
                    **common,
                    "id": f"{event['id']}.push.{s['id']}",
                    "channel": "push",
                    "target": s["id"],
                }
                for s in notices.subscriptions(account["id"])
            ]
        else:
            owed.append(
                {**common, "id": f"{event['id']}.{channel}", "channel": channel, "target": None}
            )
    return owed


def game_url(game_id: str | None) -> str:
    """The game's page; the site's home for news with no game (a tournament started)."""
    base = os.environ.get("POSTPLAY_PUBLIC_URL", "").rstrip("/")
    return f"{base}/#/game/{game_id}" if game_id else f"{base}/#/"


def describe(event: str, game: dict, username: str, minutes: int | None = None) -> tuple[str, str]:
    """The game's title and a line telling `username` of `event` (a reminder `minutes` before
    the deadline)."""
    kind = GAMES.get(game["kind"])
    title = kind.title if kind is not None else game["kind"]
    if "seats" not in game:  # a tournament's own news: its data is the tournament, no game
        return title, mail.tournament_news(game)
    seats = game["seats"]
    mine = next(
        (
            i
            for i, s in enumerate(seats)
            if username.lower()
            in (str(s.get("player", "")).lower(), str(s.get("invited", "")).lower())
        ),
        None,
    )
    others = [s for i, s in enumerate(seats) if i != mine]
    opponent = others[0].get("player") or others[0].get("name") if others else "nobody"
    against = f"against {opponent} ({title})"
    result = game.get("result") or {}
    lines = {
        "turn": f"Your move {against}",
        "challenge": f"{opponent} challenges you to {title}",
        "draw-offer": f"{opponent} offers a draw ({title})",
        "takeback": f"{opponent} asks to take back a move ({title})",
        "chat": f"{opponent} wrote in your game {against}",
        "reminder": (
            f"{_left(minutes)} left for your move {against}"
            if minutes
            else f"Your clock is running {against}"
        ),
        "tournament": (
            f"A game of {game['tournament']['name']} {against}"
            if game.get("tournament")
            else f"A tournament game {against}"
        ),
        "game-over": (
            f"You won {against}"
            if result.get("winner") == mine and mine is not None
            else f"Your game {against} is over"
            if result.get("winner") is None
            else f"You lost {against}"
        ),
    }
    return title, lines.get(event, f"News of your game {against}")


def _left(minutes: int) -> str:
    if minutes % 1440 == 0:
        return f"{minutes // 1440} day{'s' if minutes > 1440 else ''}"
    if minutes % 60 == 0:
        return f"{minutes // 60} hour{'s' if minutes > 60 else ''}"
    return f"{minutes} minute{'s' if minutes > 1 else ''}"


def attempt(store: WebhookStore, client: redis.Redis, claimed: Claimed, policy) -> None:
    """One attempt at a claimed channel delivery, by its sender; then done, owed again, or
    dropped, logged in the account's log of that channel."""
    delivery = claimed.delivery
    send = sender(delivery["channel"])
    started, error, retry = time.time(), None, False
    if send is None:
        error = f"No sender for {delivery['channel']}."
    else:
        try:
            send(client, delivery)
        except GiveUp as failed:
            error = failed.message
        except Retry as failed:
            error, retry = failed.message, True
        except Exception as failed:  # a bug: logged, and tried again as a failure would be
            log.exception("%s delivery %s failed", delivery["channel"], delivery["id"])
            error, retry = f"{failed.__class__.__name__}: {failed}", True
    now = time.time()
    attempts = delivery["attempts"] = delivery["attempts"] + 1
    next_at = policy.next_attempt(delivery["first_ts"], attempts, now) if retry else None
    outcome = "delivered" if error is None else "retrying" if next_at else "failed"
    entry = {
        "id": delivery["msg"],
        "channel": delivery["channel"],
        "type": delivery["type"],
        "game": delivery["game"],
        "attempt": attempts,
        "at": iso(started),
        "latency_ms": round((now - started) * 1000, 1),
        "error": error,
        "outcome": outcome,
    }
    store.settle(
        claimed,
        entry,
        next_at,
        log_key=keys.notify_log_key(delivery["account"], delivery["channel"]),
        log_kept=LOG_KEPT,
    )
