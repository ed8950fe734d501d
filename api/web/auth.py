"""The secrets a request carries: seat tokens and playtest owner tokens, both as
`Authorization: Bearer <token>` (never a cookie, so no other site can send them for a player)."""
from __future__ import annotations

from flask import request


def bearer_token() -> str | None:
    """The token of `Authorization: Bearer <token>`, or None."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None
