"""Where a webhook may be sent: http(s) URLs whose host resolves only to public addresses, so
nobody can point the server at its own network (loopback, private ranges, link-local cloud
metadata...), unless POSTPLAY_WEBHOOK_ALLOW_PRIVATE=1 (the test suite and local development).
An IPv6 address that carries an IPv4 one (IPv4-mapped or -compatible, NAT64, 6to4, Teredo) is
judged by that IPv4 address too, and site-local and local-use NAT64 addresses are never public
(`is_public`): `is_global` alone counts them as public.

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
    hostname = parts.hostname
    assert hostname is not None  # check_url refused a URL without a host
    addresses = _resolve(hostname, port)
    refused = [a for a in addresses if not (allow or is_public(a))]
    if refused:
        named = "" if hostname.strip("[]") == str(refused[0]) else f" ({refused[0]})"
        raise AddressRefused(
            f"{hostname}{named} is a private, loopback or link-local "
            f"address: webhooks go only to public addresses."
        )
    address = addresses[0]
    netloc = f"[{address}]:{port}" if address.version == 6 else f"{address}:{port}"
    return Target(
        urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, "")),
        parts.netloc,
        hostname,
        str(address),
    )


def _resolve(hostname: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        infos = socket.getaddrinfo(hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise AddressRefused(f"The host {hostname} cannot be found.") from None
    # an IPv6 address may carry a zone ("fe80::1%eth0"): the address is what is checked
    return list(
        dict.fromkeys(ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos)
    )


# IPv6 forms that carry an IPv4 address in their last 32 bits, and reach that address:
# IPv4-compatible (::a.b.c.d, deprecated), IPv4-translated (SIIT, ::ffff:0:a.b.c.d, RFC 2765)
# and the well-known NAT64 prefix (RFC 6052). IPv4-mapped, 6to4 and Teredo are the standard library's.
_EMBEDDING_LAST_32 = tuple(
    ipaddress.ip_network(n) for n in ("::/96", "::ffff:0:0:0/96", "64:ff9b::/96")
)
# never public, whatever `is_global` says: site-local (deprecated, fec0::/10, the standard library's
# `is_site_local`) and NAT64's local-use prefix (RFC 8215), whose IPv4 sits where the network's
# own prefix length puts it and reaches that network's IPv4
_NEVER_PUBLIC = (ipaddress.ip_network("64:ff9b:1::/48"),)


def embedded_ipv4(address: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries and leads to (none for most)."""
    if address.ipv4_mapped is not None:
        return [address.ipv4_mapped]
    if address.sixtofour is not None:
        return [address.sixtofour]
    if address.teredo is not None:
        return list(address.teredo)  # the Teredo server's and the client's
    if any(address in network for network in _EMBEDDING_LAST_32):
        return [ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)]
    return []


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether a webhook (or a push message) may go to `address`: a global unicast address, and
    so is every IPv4 address it embeds."""
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped  # ::ffff:a.b.c.d is a.b.c.d itself
    if not (address.is_global and not address.is_multicast):
        return False
    if address.version == 4:
        return True
    if address.is_site_local or any(address in network for network in _NEVER_PUBLIC):
        return False
    # the embedded IPv4 decides, so 64:ff9b::808:808 (8.8.8.8 through NAT64) stays public
    return all(v4.is_global and not v4.is_multicast for v4 in embedded_ipv4(address))
