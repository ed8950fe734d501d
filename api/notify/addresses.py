"""Where a webhook may be sent: http(s) URLs whose host resolves only to public addresses, so
nobody can point the server at its own network (loopback, private ranges, link-local cloud
metadata...), unless POSTPLAY_WEBHOOK_ALLOW_PRIVATE=1 (the test suite and local development).

The check runs when an endpoint is registered and again before every delivery, and the delivery
connects to the very address it checked (`Target`), so a name that resolves elsewhere in between
(DNS rebinding) cannot slip a private address in. Written with the standard library
(`ipaddress.is_global`, `socket.getaddrinfo`): the pinning is a few lines no HTTP library offers.
"""
from __future__ import annotations

import dataclasses
import ipaddress
import os
import socket
from urllib.parse import urlsplit, urlunsplit

SCHEMES = {"http": 80, "https": 443}
MAX_URL = 2000


class AddressRefused(ValueError):
    """The URL is not one a webhook may be sent to; `message` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclasses.dataclass(frozen=True)
class Target:
    """Where one delivery goes: `url` names the checked address itself, `host` is the header
    (and, over https, the name the certificate must carry)."""

    url: str
    host: str
    hostname: str
    address: str


def private_allowed() -> bool:
    return os.environ.get("POSTPLAY_WEBHOOK_ALLOW_PRIVATE", "") == "1"


def check_url(url: str) -> None:
    """Refuse (AddressRefused) a URL that is not http(s), or has no host, or carries
    credentials; the address check is `target`'s."""
    if len(url) > MAX_URL:
        raise AddressRefused(f"A webhook URL is at most {MAX_URL} characters.")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- a port out of range raises here
    except ValueError:
        raise AddressRefused("That is not a URL.") from None
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise AddressRefused("A webhook URL must be http:// or https:// with a host.")
    if parts.username is not None or parts.password is not None:
        raise AddressRefused("A webhook URL may not hold a user name or password.")


def target(url: str, allow_private: bool | None = None) -> Target:
    """The address to deliver `url` to: its host resolved now, refused (AddressRefused) when it
    cannot be resolved or any address it resolves to is not public (unless private ones are
    allowed)."""
    check_url(url)
    allow = private_allowed() if allow_private is None else allow_private
    parts = urlsplit(url)
    port = parts.port or SCHEMES[parts.scheme]
    addresses = _resolve(parts.hostname, port)
    refused = [a for a in addresses if not (allow or _public(a))]
    if refused:
        named = "" if parts.hostname.strip("[]") == str(refused[0]) else f" ({refused[0]})"
        raise AddressRefused(f"{parts.hostname}{named} is a private, loopback or link-local "
                             f"address: webhooks go only to public addresses.")
    address = addresses[0]
    netloc = f"[{address}]:{port}" if address.version == 6 else f"{address}:{port}"
    return Target(urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, "")),
                  parts.netloc, parts.hostname, str(address))


def _resolve(hostname: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        infos = socket.getaddrinfo(hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise AddressRefused(f"The host {hostname} cannot be found.") from None
    # an IPv6 address may carry a zone ("fe80::1%eth0"): the address is what is checked
    return list(dict.fromkeys(ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos))


def _public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:127.0.0.1 is loopback
    return address.is_global and not address.is_multicast
