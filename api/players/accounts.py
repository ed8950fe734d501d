"""Accounts: sign-up, sign-in (a token per device), sign-out, recovery codes, password change,
deletion, settings, and personal API tokens with scopes. Passwords are argon2id hashes
(`api.players.passwords`); tokens and recovery codes are random, so a SHA-256 of each is all that
is kept.

A wrong password and an unknown name fail alike, in about the same time. Failed checks are
counted as OWASP's authentication guidance asks, so that guessing is slowed without locking the
owner out: per (name, address) and per address; per name only to hold back addresses that have
already failed for it; recovery codes apart from passwords; a signed-in account's password (to
change it or delete the account) per account and per address.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
import time
import uuid
from typing import TypeGuard

from api.record.errors import BadField, Busy, Conflict, Forbidden, NoToken, NotFound, Overloaded
from api.players import passwords
from api.store.accounts import AccountStore, NameTaken

SCOPES = ("read", "play", "challenge", "webhooks")
USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
# the server's bot levels' accounts (api/players/ratings.py): their names are longer, and no
# one may sign up with one
BOT_PREFIX = "bot-"
FOUND_NAME = re.compile(r"[A-Za-z0-9_-]{3,40}")
RECOVERY_CODES = 10
TOKEN_PREFIX = "pp."  # '.' is never in a seat token (token_urlsafe), so the two never mix
# reminder_minutes, digest_hour and timezone: the reminders before a deadline and the daily
# e-mail (api.notify.digests), read with these defaults from accounts made before them
DEFAULT_SETTINGS = {
    "allow_takebacks": True,
    "notify": {},
    "bot": False,
    "reminder_minutes": [1440, 60],
    "digest_hour": 8,
    "timezone": "UTC",
    "quiet_when_present": True,
}
# failed checks in a window that starts with the first failure, then that check waits until the
# window ends (a 429 with Retry-After): each limit counts one kind of check on its own
FAILURE_WINDOW_S = 15 * 60
MAX_PAIR_FAILURES = 5  # one name from one address
MAX_CLIENT_FAILURES = 20  # one address, whatever the names: many players may share one NAT
# one name from every address: past this, an address that has failed for the name waits, and an
# address that has not is still served, so a name under attack is never locked for its owner
MAX_NAME_FAILURES = 10
MAX_ACCOUNT_FAILURES = 5  # a signed-in account's password, asked again to change it or delete


class WrongCredentials(NoToken):
    """The same refusal for a wrong password, an unknown name or a spent recovery code."""


class MissingScope(Forbidden):
    """The token is good but lacks the scope the request needs."""


@dataclasses.dataclass(frozen=True)
class Principal:
    """Who a request's account token speaks for, and what it may do."""

    account: dict
    token: dict

    @property
    def id(self) -> str:
        return self.account["id"]

    @property
    def username(self) -> str:
        return self.account["username"]

    def require(self, scope: str) -> None:
        if scope not in self.token["scopes"]:
            raise MissingScope(f"This token lacks the {scope!r} scope this needs.")

    def require_session(self) -> None:
        if self.token["kind"] != "session":
            raise MissingScope("This needs a sign-in token, not a personal API token.")


def is_account_token(token: str | None) -> TypeGuard[str]:
    return token is not None and token.startswith(TOKEN_PREFIX)


def sign_up(
    store: AccountStore, username: str, password: str, now: float | None = None
) -> tuple[dict, str, list[str]]:
    """A new account, a sign-in token for this device, and its ten recovery codes (shown once)."""
    now = time.time() if now is None else now
    _check_username(username)
    passwords.check_new(password, "password", (username,))
    account = {
        "id": uuid.uuid4().hex[:16],
        "username": username,
        "created_ts": now,
        "password_hash": passwords.hash_password(password),
        "settings": dict(DEFAULT_SETTINGS),
        "deleted": False,
    }
    codes = new_recovery_codes()
    try:
        store.create(account, [_normal_code(c) for c in codes])
    except NameTaken:
        raise Conflict(f"The name {username!r} is taken.") from None
    return account, _issue(store, account, "session", SCOPES, "sign-up", now), codes


def sign_in(
    store: AccountStore, username: str, password: str, client: str, now: float | None = None
) -> tuple[dict, str]:
    """A sign-in token for this device; WrongCredentials alike for a wrong name or password."""
    now = time.time() if now is None else now
    counters = _guesses("password", username, client)
    _hold_back(store, counters, "Too many failed sign-ins")
    account = store.find(username) if USERNAME.fullmatch(username) else None
    if (
        account is None
        or account["deleted"]
        or not passwords.verify(account["password_hash"], password)
    ):
        if account is None or account["deleted"]:
            passwords.verify(None, password)  # the same work as for a real account
        store.count_failures(counters, FAILURE_WINDOW_S)
        raise WrongCredentials("Wrong username or password.")
    _rehash_if_needed(store, account, password)
    return account, _issue(store, account, "session", SCOPES, "sign-in", now)


def recover(
    store: AccountStore,
    username: str,
    code: str,
    new_password: str,
    client: str,
    now: float | None = None,
) -> tuple[dict, str]:
    """Spend a recovery code to set a new password: every other token is signed out."""
    now = time.time() if now is None else now
    # counted apart from passwords: failed sign-ins never hold back a recovery code
    counters = _guesses("recovery", username, client)
    _hold_back(store, counters, "Too many wrong recovery codes")
    passwords.check_new(new_password, "new_password", (username,))
    account = store.find(username) if USERNAME.fullmatch(username) else None
    if (
        account is None
        or account["deleted"]
        or not store.spend_recovery_code(account["id"], _normal_code(code))
    ):
        store.count_failures(counters, FAILURE_WINDOW_S)
        raise WrongCredentials("Wrong username or recovery code.")
    account = {**account, "password_hash": passwords.hash_password(new_password)}
    store.save(account)
    store.revoke_all(account["id"])
    return account, _issue(store, account, "session", SCOPES, "recovery", now)


def authenticate(store: AccountStore, token: str, now: float | None = None) -> Principal:
    """Who an account token speaks for; NoToken when it is unknown or revoked."""
    entry = store.token(token)
    account = None if entry is None else store.load(entry["account"])
    who = _principal(entry, account)
    store.used(who.token, time.time() if now is None else now)
    return who


def authenticate_with_games(
    store: AccountStore, token: str, present_s: int = 0
) -> tuple[Principal, list[list]]:
    """`authenticate`, and [game id, version] of each of the account's games, newest first, in
    one round trip to Redis (the poll of `GET /me/games`), which marks the account present at
    its games for `present_s` seconds (`api.notify.fanout`)."""
    found = store.token_with_games(token, time.time(), present_s)
    entry, account, versions = found if found is not None else (None, None, [])
    return _principal(entry, account), versions


def _principal(entry: dict | None, account: dict | None) -> Principal:
    if entry is None or account is None or account["deleted"]:
        raise NoToken("That token is not valid (it may have been signed out or revoked).")
    return Principal(account, entry)


def sign_out(store: AccountStore, who: Principal) -> None:
    store.revoke(who.id, who.token["id"])


def change_password(
    store: AccountStore, who: Principal, password: str, new_password: str, client: str
) -> None:
    """A new password; every other sign-in of the account is signed out."""
    who.require_session()
    _confirm_password(store, who, password, client)
    passwords.check_new(new_password, "new_password", (who.username,))
    store.save({**who.account, "password_hash": passwords.hash_password(new_password)})
    store.revoke_all(who.id, kind="session", keep=who.token["id"])


def delete_account(store: AccountStore, who: Principal, password: str, client: str) -> None:
    """Delete the account: its credentials go, its games stay (its name shows as deleted)."""
    who.require_session()
    _confirm_password(store, who, password, client)
    store.delete(who.account)


def update_settings(store: AccountStore, who: Principal, changes: dict) -> dict:
    who.require_session()
    settings = who.account["settings"]
    if "notify" in changes:  # per event: an event not named keeps its channels
        changes = {**changes, "notify": {**settings.get("notify", {}), **changes["notify"]}}
    account = {**who.account, "settings": {**settings, **changes}}
    store.save(account)
    return account


def create_personal_token(
    store: AccountStore,
    who: Principal,
    description: str,
    scopes: list[str],
    now: float | None = None,
) -> tuple[dict, str]:
    """A personal API token with `scopes` (shown once) and its entry."""
    who.require_session()
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown:
        raise BadField(
            "scopes", f"Unknown scope {unknown[0]!r}; the scopes are {', '.join(SCOPES)}."
        )
    token = _issue(
        store,
        who.account,
        "personal",
        tuple(dict.fromkeys(scopes)),
        description,
        time.time() if now is None else now,
    )
    entry = store.token(token)
    assert entry is not None  # issued just above
    return entry, token


def revoke_token(store: AccountStore, who: Principal, token_id: str) -> None:
    who.require_session()
    if not store.revoke(who.id, token_id):
        raise NotFound(f"You have no token {token_id!r}.")


def profile(store: AccountStore, username: str) -> dict:
    account = store.find(username) if FOUND_NAME.fullmatch(username) else None
    if account is None or account["deleted"]:
        raise NotFound(f"There is no player {username!r}.")
    return account


def new_recovery_codes() -> list[str]:
    return [f"{secrets.token_hex(3)}-{secrets.token_hex(3)}" for _ in range(RECOVERY_CODES)]


def _issue(
    store: AccountStore, account: dict, kind: str, scopes, description: str, now: float
) -> str:
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    store.add_token(
        token,
        {
            "id": uuid.uuid4().hex[:12],
            "account": account["id"],
            "kind": kind,
            "scopes": list(scopes),
            "description": description,
            "created_ts": now,
        },
    )
    return token


def _guesses(check: str, username: str, client: str) -> list[str]:
    """The counters of one kind of `check` from `client` at `username`: the pair, the address,
    the name (in the order `_hold_back` reads them)."""
    name = username.lower()
    return [f"{check}:pair:{name}:{client}", f"{check}:client:{client}", f"{check}:name:{name}"]


def _hold_back(store: AccountStore, counters: list[str], what: str) -> None:
    """Busy (429, with the seconds until it lifts) when the pair or the address has failed too
    often, or the name has and this address is among those that failed for it."""
    (pair, pair_left), (by_client, client_left), (by_name, name_left) = store.failures(counters)
    waits = []
    if pair >= MAX_PAIR_FAILURES:
        waits.append(pair_left)
    elif pair and by_name >= MAX_NAME_FAILURES:
        waits.append(min(pair_left, name_left))
    if by_client >= MAX_CLIENT_FAILURES:
        waits.append(client_left)
    _wait(what, waits)


def _confirm_password(store: AccountStore, who: Principal, password: str, client: str) -> None:
    """WrongCredentials unless `password` is the signed-in account's, counted per account and
    per address (the address's count is the one sign-in keeps)."""
    counters = [f"password:account:{who.id}", f"password:client:{client}"]
    (by_account, account_left), (by_client, client_left) = store.failures(counters)
    _wait(
        "Too many wrong passwords",
        [
            left
            for count, limit, left in (
                (by_account, MAX_ACCOUNT_FAILURES, account_left),
                (by_client, MAX_CLIENT_FAILURES, client_left),
            )
            if count >= limit
        ],
    )
    if not passwords.verify(who.account["password_hash"], password):
        store.count_failures(counters, FAILURE_WINDOW_S)
        raise WrongCredentials("Wrong password.")


def _wait(what: str, waits: list[int]) -> None:
    """Busy until the longest of `waits` (seconds) has passed, if there are any."""
    if waits:
        wait_s = max(1, *waits)
        minutes = -(-wait_s // 60)
        raise Busy(
            f"{what}: wait {minutes} minute{'s' if minutes != 1 else ''} and try again.", wait_s
        )


def _rehash_if_needed(store: AccountStore, account: dict, password: str) -> None:
    """argon2's parameters were raised since this hash was made: store a new one."""
    if passwords.needs_rehash(account["password_hash"]):
        try:
            store.save({**account, "password_hash": passwords.hash_password(password)})
        except Overloaded:  # the sign-in stands; the next one rehashes
            pass


def _check_username(username: str) -> None:
    if not USERNAME.fullmatch(username):
        raise BadField("username", "A username is 3 to 20 letters, digits, '_' or '-'.")
    if username.lower().startswith(BOT_PREFIX):
        raise BadField(
            "username", f"Names starting with {BOT_PREFIX!r} are kept for the server's bots."
        )


def _normal_code(code: str) -> str:
    return re.sub(r"[\s-]", "", code).lower()
