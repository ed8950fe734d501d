"""An account's e-mail address: set it (a verification mail is owed, its link valid a day),
remove it, verify it from the link, and the one-click unsubscribe of each kind of mail. The
account keeps `email: {"address", "verified", "off": [kinds unsubscribed]}`; nothing here sends
a mail: each is owed to the workers (`api.notify.mail`).
"""

from __future__ import annotations

import re
import time
import uuid
from email.errors import HeaderParseError
from email.headerregistry import Address

from api.notify import mail
from api.notify.digests import schedule_digest
from api.record.errors import BadField, NotFound
from api.players.accounts import Principal
from api.store.accounts import AccountStore
from api.store.mail import MailStore

MAX_ADDRESS = 254  # RFC 5321's longest path, less its brackets
# a dot in the domain: mail to a bare host name goes nowhere a player reads
DOMAIN = re.compile(
    r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*"
    r"[A-Za-z0-9])?)+"
)


def check_address(address: str) -> str:
    """The address as given, or BadField("address") when it is not one a mail can go to."""
    message = "That is not an e-mail address (name@example.org)."
    if len(address) > MAX_ADDRESS or any(c.isspace() or ord(c) < 32 for c in address):
        raise BadField("address", message)
    try:
        parsed = Address(addr_spec=address)
    except (ValueError, IndexError, HeaderParseError):
        raise BadField("address", message) from None
    if not parsed.username or not DOMAIN.fullmatch(parsed.domain) or parsed.addr_spec != address:
        raise BadField("address", message)
    return address


def set_address(
    accounts: AccountStore, mails: MailStore, who: Principal, address: str, now: float | None = None
) -> dict:
    """Give the account `address`, not yet verified, and owe it the verification mail; the
    account."""
    who.require_session()
    check_address(address)
    now = time.time() if now is None else now
    account = {**who.account, "email": {"address": address, "verified": False, "off": []}}
    accounts.save(account)
    link = f"{mail.public_url()}/#/email/verify/" + mail.verify_token(
        mails.secret(), who.id, address
    )
    mails.owe(
        {
            "id": f"verify-{uuid.uuid4().hex}",
            "kind": "verify",
            "account": who.id,
            "to": address,
            "data": {"link": link},
            "attempts": 0,
        },
        now,
    )
    schedule_digest(mails, account, now)
    return account


def remove_address(accounts: AccountStore, mails: MailStore, who: Principal) -> None:
    who.require_session()
    if not who.account.get("email"):
        raise NotFound("This account has no e-mail address.")
    account = {**who.account, "email": None}
    accounts.save(account)
    schedule_digest(mails, account, time.time())


def verify(accounts: AccountStore, mails: MailStore, token: str, now: float | None = None) -> None:
    """Mark the address the link was sent to verified, while the account still has it."""
    try:
        account_id, address = mail.read_verify_token(mails.secret(), token)
    except mail.BadLink as bad:
        raise BadField("token", bad.message) from None
    account = accounts.load(account_id)
    email = None if account is None or account["deleted"] else account.get("email")
    if email is None or email["address"] != address:
        raise BadField("token", "This link is for an address the account no longer has.")
    assert account is not None  # else there is no address
    account = {**account, "email": {**email, "verified": True}}
    accounts.save(account)
    schedule_digest(mails, account, time.time() if now is None else now)


def unsubscribe(accounts: AccountStore, mails: MailStore, token: str) -> None:
    """Switch the link's kind of mail off for its account (a verification's link forgets the
    address), while the account still has the address the mail went to."""
    try:
        account_id, kind, address = mail.read_unsubscribe_token(mails.secret(), token)
    except mail.BadLink as bad:
        raise BadField("token", bad.message) from None
    account = accounts.load(account_id)
    email = None if account is None or account["deleted"] else account.get("email")
    if email is None or email["address"] != address:
        return  # the address is gone already: nothing goes to it
    assert account is not None  # else there is no address
    if kind == mail.UNVERIFIED:
        if not email["verified"]:
            accounts.save({**account, "email": None})
        return
    if kind not in email["off"]:
        accounts.save({**account, "email": {**email, "off": [*email["off"], kind]}})


def view(account: dict) -> dict | None:
    """The address as `GET /me` shows it."""
    email = account.get("email")
    return (
        None
        if not email
        else {"address": email["address"], "verified": email["verified"], "off": email["off"]}
    )
