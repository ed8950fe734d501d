"""E-mail, sent by the workers only: the SMTP server (`Smtp`, from POSTPLAY_SMTP_URL and
POSTPLAY_EMAIL_FROM; either unset, e-mail is off), the messages (`email.message.EmailMessage`,
plain text, each with one-click unsubscribe per RFC 8058), the signed links in them, and the
`Mailer` every worker runs in a thread of its own, sending the mails owed (`api.store.mail`).

What is owed is a doc `{"id", "kind", "account", "data", "attempts"}` (and `"to"` for a
verification); its id makes the Message-ID, so a worker killed mid-send leaves the mail claimed
until its lease runs out and another worker sends it again under the same Message-ID: at most
one repeat, never a loss. Only a verification is ever sent to an address not yet verified,
and only to the address the account still has.

For the fan-out of events to channels (one sender per channel), `send_now(redis_conn,
account_id, event, message_id)` sends one outbox event (`challenge`, `reminder`, `tournament`)
by e-mail at once, on the worker that calls it: nothing when e-mail is off, the account has no
verified address or switched that kind of mail off; `smtplib.SMTPException` or `OSError` when
the server failed, for the caller to retry under the same `message_id`.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import smtplib
import ssl
import threading
import time
from email.errors import HeaderParseError
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

import redis
from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer

from api.games import get_game
from api.store.accounts import AccountStore
from api.store.mail import ClaimedMail, MailStore

log = logging.getLogger(__name__)

VERIFY_S = 24 * 3600  # a verification link is good for this long
# how long the SMTP server may keep us waiting on one step (POSTPLAY_SMTP_TIMEOUT_S, which
# the tests shorten); a mail's lease outlasts a whole conversation
TIMEOUT_S = float(os.environ.get("POSTPLAY_SMTP_TIMEOUT_S", "20"))
LEASE_S = 2 * TIMEOUT_S + 5.0
RETRY_BASE_S = 30.0
RETRY_MAX_S = 3600.0
TICK_S = 0.2
# the kinds of mail, each but the verification one a kind an account can switch off; the event
# each tells of (the digest tells of turns)
KINDS = {
    "digest": "turn",
    "challenge": "challenge",
    "reminder": "reminder",
    "tournament": "tournament",
}
UNVERIFIED = "address"  # the verification mail's unsubscribe: forget the address


class EmailOff(RuntimeError):
    """POSTPLAY_SMTP_URL or POSTPLAY_EMAIL_FROM is not set."""


class BadLink(ValueError):
    """A verification or unsubscribe token that is not ours, or has expired; `message` says
    which."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclasses.dataclass(frozen=True)
class Smtp:
    """Where mail goes: `smtp://[user:password@]host[:port][?starttls=1]` or `smtps://...`."""

    host: str
    port: int
    tls: bool  # smtps: TLS from the first byte
    starttls: bool
    user: str | None
    password: str | None
    sender: str

    @classmethod
    def from_env(cls) -> "Smtp | None":
        url, sender = os.environ.get("POSTPLAY_SMTP_URL"), os.environ.get("POSTPLAY_EMAIL_FROM")
        return cls.parse(url, sender) if url and sender else None

    @classmethod
    def parse(cls, url: str, sender: str) -> "Smtp":
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("POSTPLAY_SMTP_URL is smtp://host[:port] or smtps://host[:port].")
        tls = parts.scheme == "smtps"
        starttls = parse_qs(parts.query).get("starttls", ["0"])[0] in ("1", "true")
        return cls(
            parts.hostname,
            parts.port or (465 if tls else 587 if starttls else 25),
            tls,
            starttls,
            unquote(parts.username) if parts.username else None,
            unquote(parts.password) if parts.password else None,
            sender,
        )

    def send(self, message: EmailMessage) -> None:
        """One SMTP conversation that hands `message` over; raises when the server refuses."""
        context = ssl.create_default_context()
        server: smtplib.SMTP
        if self.tls:
            server = smtplib.SMTP_SSL(self.host, self.port, timeout=TIMEOUT_S, context=context)
        else:
            server = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT_S)
        with server:
            if self.starttls:
                server.starttls(context=context)
            if self.user is not None:
                server.login(self.user, self.password or "")
            server.send_message(message)


def enabled() -> bool:
    return Smtp.from_env() is not None


def public_url() -> str:
    """The base of links in mails: POSTPLAY_PUBLIC_URL."""
    return os.environ.get("POSTPLAY_PUBLIC_URL", "http://localhost:8000").rstrip("/")


# -- signed links ----------------------------------------------------------------------------


def verify_token(secret: bytes, account_id: str, address: str) -> str:
    return URLSafeTimedSerializer(secret, salt="email-verify").dumps([account_id, address])


def read_verify_token(secret: bytes, token: str) -> tuple[str, str]:
    """(account id, address) of a verification token; BadLink when it is not one, or older
    than a day."""
    try:
        account_id, address = URLSafeTimedSerializer(secret, salt="email-verify").loads(
            token, max_age=VERIFY_S
        )
    except SignatureExpired:
        raise BadLink("This verification link has expired: ask for a new one.") from None
    except (BadSignature, ValueError, TypeError):
        raise BadLink("This is not a verification link of this server.") from None
    return account_id, address


def unsubscribe_token(secret: bytes, account_id: str, kind: str, address: str) -> str:
    return URLSafeSerializer(secret, salt="email-unsubscribe").dumps([account_id, kind, address])


def read_unsubscribe_token(secret: bytes, token: str) -> tuple[str, str, str]:
    """(account id, kind, address) of an unsubscribe token; BadLink when it is not one."""
    try:
        account_id, kind, address = URLSafeSerializer(secret, salt="email-unsubscribe").loads(token)
    except (BadSignature, ValueError, TypeError):
        raise BadLink("This is not an unsubscribe link of this server.") from None
    return account_id, kind, address


# -- who gets what ---------------------------------------------------------------------------


def wants(account: dict, kind: str) -> bool:
    """Whether the account is to be sent a mail of `kind` ("digest", "challenge", "reminder",
    "tournament"): it has a verified address, has not unsubscribed from the kind, and its
    `settings.notify` does not switch e-mail off for the event the kind tells of (a list of
    channels without "email", or false)."""
    email = account.get("email")
    if account.get("deleted") or not email or not email["verified"] or kind in email["off"]:
        return False
    chosen = account["settings"].get("notify", {}).get(KINDS[kind])
    return chosen is not False and (not isinstance(chosen, list) or "email" in chosen)


def address_of(account: dict, mail: dict) -> str | None:
    """Where an owed mail goes now: a verification to the address it was made for, while the
    account still has it unverified; any other mail to the account's verified address, while it
    wants that kind. None: the mail is not to be sent."""
    email = account.get("email") if not account.get("deleted") else None
    if email is None:
        return None
    if mail["kind"] == "verify":
        return (
            email["address"] if email["address"] == mail["to"] and not email["verified"] else None
        )
    return email["address"] if wants(account, mail["kind"]) else None


# -- the messages ----------------------------------------------------------------------------


def game_link(game_id: str | None) -> str:
    """The game's page; the site's home for a mail with no game (a tournament started)."""
    return f"{public_url()}/#/game/{game_id}" if game_id else f"{public_url()}/#/"


def opponent(game: dict, account_name: str) -> str:
    """The name of the first seat of a game object (as the API shows it) that is not
    `account_name`'s."""
    names = [
        s.get("player") or s.get("name") or s.get("invited") or "an open seat"
        for s in game.get("seats", [])
    ]
    others = [n for n in names if n != account_name]
    return others[0] if others else "your opponent"


def title(game: dict) -> str:
    """The title of a game object's kind."""
    try:
        return get_game(game["kind"]).title
    except KeyError:
        return game["kind"]


def tournament_news(data: dict) -> str:
    """A line telling of a tournament `event` with no game of its own (`api.events.service`:
    data `{"id", "kind", "name", "status", "tournament": {"id", "name", "event"}}`)."""
    named = data.get("tournament", {}).get("name") or data.get("name") or "Your tournament"
    what = data.get("tournament", {}).get("event")
    return {
        "started": f"{named} has started",
        "finished": f"{named} is over",
        "cancelled": f"{named} was cancelled",
    }.get(what, f"News of {named}")


def compose(kind: str, account: dict, data: dict) -> tuple[str, str]:
    """The subject and plain text of a mail of `kind` to `account`."""
    name = account["username"]
    if kind == "verify":
        return (
            "Confirm your e-mail address for Postplay",
            f"Hello {name},\n\nTo have Postplay e-mail you, confirm this address by opening "
            f"this link within 24 hours:\n\n{data['link']}\n\nIf you did not ask for this, "
            f"ignore this mail: nothing more will be sent to you.\n",
        )
    if kind == "digest":
        lines = [
            f"- {title(g)} against {opponent(g, name)}: "
            f"{'no deadline' if not g.get('deadline') else 'deadline ' + g['deadline']}\n"
            f"  {game_link(g['id'])}"
            for g in data["games"]
        ]
        count = len(data["games"])
        return (
            f"Your move in {count} game{'s' if count != 1 else ''} on Postplay",
            f"Hello {name},\n\nThese games wait for your move:\n\n" + "\n".join(lines) + "\n",
        )
    game = data["game"]
    if kind == "tournament" and "seats" not in game:  # its data is the tournament, no game
        news = tournament_news(game)
        return (news, f"Hello {name},\n\n{news} ({title(game)}).\n\n{game_link(None)}\n")
    named, other, link = title(game), opponent(game, name), game_link(game["id"])
    if kind == "reminder":
        left = _duration(data["minutes"])
        return (
            f"{left} left in {named} against {other}",
            f"Hello {name},\n\nYour time to move in {named} against {other} runs out in "
            f"{left} (at {data['deadline']}).\n\n{link}\n",
        )
    if kind == "challenge":
        return (
            f"{other} challenges you to {named}",
            f"Hello {name},\n\n{other} challenges you to a game of {named}.\n\n{link}\n",
        )
    cup = game.get("tournament", {}).get("name", "a tournament")
    return (
        f"Your game of {cup} against {other}",
        f"Hello {name},\n\nYou are paired against {other} in {cup} ({named}).\n\n{link}\n",
    )


def message(smtp: Smtp, secret: bytes, account: dict, mail: dict, to: str) -> EmailMessage:
    """The mail as sent: plain text, its Message-ID made from its id, and its one-click
    unsubscribe link (RFC 8058) for its kind (a verification's forgets the address)."""
    subject, text = compose(mail["kind"], account, mail["data"])
    kind = UNVERIFIED if mail["kind"] == "verify" else mail["kind"]
    link = f"{public_url()}/api/v1/email/unsubscribe?" + urlencode(
        {"token": unsubscribe_token(secret, account["id"], kind, to)}
    )
    out = EmailMessage()
    out["From"] = smtp.sender
    out["To"] = to
    out["Subject"] = subject
    out["Date"] = formatdate(localtime=False, usegmt=True)
    out["Message-ID"] = f"<{mail['id']}@{_domain(smtp.sender)}>"
    out["List-Unsubscribe"] = f"<{link}>"
    out["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    out["Auto-Submitted"] = "auto-generated"
    out.set_content(text + f"\nTo stop mails like this one: {link}\n")
    return out


def _domain(sender: str) -> str:
    try:
        return Address(addr_spec=sender.rpartition("<")[2].rstrip(">").strip()).domain or "postplay"
    except (ValueError, IndexError, HeaderParseError):
        return "postplay"


def _duration(minutes: int) -> str:
    if minutes % 1440 == 0:
        days = minutes // 1440
        return f"{days} day{'s' if days != 1 else ''}"
    if minutes % 60 == 0:
        hours = minutes // 60
        return f"{hours} hour{'s' if hours != 1 else ''}"
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


# -- sending ---------------------------------------------------------------------------------


def event_mail(event: dict, message_id: str) -> dict | None:
    """The mail an outbox event calls for (None: the event is not mailed one by one)."""
    kind = {"challenge": "challenge", "reminder": "reminder", "tournament": "tournament"}.get(
        event["type"]
    )
    if kind is None:
        return None
    data = {"game": json.loads(event["body"])["data"]}
    if kind == "reminder":
        data.update(minutes=event["minutes"], deadline=event["deadline"])
    return {
        "id": message_id,
        "kind": kind,
        "account": event["account"],
        "data": data,
        "attempts": 0,
    }


def send_now(redis_conn: redis.Redis, account_id: str, event: dict, message_id: str) -> None:
    """Send one outbox event to the account by e-mail, at once (the fan-out's "email" sender;
    see the module's docstring)."""
    smtp = Smtp.from_env()
    mail = event_mail(event, message_id)
    account = AccountStore(redis_conn).load(account_id)
    if smtp is None or mail is None or account is None:
        return
    to = address_of(account, mail)
    if to is not None:
        smtp.send(message(smtp, MailStore(redis_conn).secret(), account, mail, to))


class Mailer:
    """One worker's sending of the mails owed: `run` until stopped, or `step` (tests)."""

    def __init__(self, client: redis.Redis, smtp: Smtp | None = None):
        self.store = MailStore(client)
        self.accounts = AccountStore(client)
        self.smtp = smtp or Smtp.from_env()

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self.step(time.time(), stop)
            except redis.RedisError:
                log.warning("Redis is unreachable; mail waits", exc_info=True)
                stop.wait(1.0)
            stop.wait(TICK_S)

    def step(self, now: float, stop: threading.Event | None = None) -> int:
        """Send the mails due by `now`, one at a time; how many were sent. Once `stop` is set,
        the mails not yet tried are handed back, due now."""
        if self.smtp is None:
            return 0  # e-mail is off: what is owed waits (and expires)
        sent = 0
        for claimed in self.store.claim_due(now, LEASE_S, 10):
            if stop is not None and stop.is_set():
                self.store.settle(claimed, time.time())
                continue
            try:
                sent += self.attempt(claimed)
            except Exception:  # a bug must not stop the others: the lease runs out, and retries
                log.exception("mail %s failed", claimed.mail["id"])
        return sent

    def attempt(self, claimed: ClaimedMail) -> bool:
        mail = claimed.mail
        account = self.accounts.load(mail["account"])
        to = None if account is None or self.smtp is None else address_of(account, mail)
        if to is None:
            self.store.settle(claimed)
            return False
        assert account is not None and self.smtp is not None  # else there is no `to`
        try:
            self.smtp.send(message(self.smtp, self.store.secret(), account, mail, to))
        except (smtplib.SMTPException, OSError) as failed:
            mail["attempts"] += 1
            delay = min(RETRY_BASE_S * 2 ** (mail["attempts"] - 1), RETRY_MAX_S)
            log.warning("mail %s not sent (%s); again in %.0f s", mail["id"], failed, delay)
            self.store.settle(claimed, time.time() + delay)
            return False
        self.store.settle(claimed)
        return True
