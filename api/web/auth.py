"""The secrets a request carries: seat tokens, playtest owner tokens and account tokens, all as
`Authorization: Bearer <token>` (never a cookie, so no other site can send them for a player).
An account token starts with "pp." (see `api.players.accounts`), which no other token does."""
from __future__ import annotations

from flask import current_app, request

from api.play.errors import NoToken
from api.players.accounts import Principal, authenticate, is_account_token


def bearer_token() -> str | None:
    """The token of the request's `Authorization: Bearer <token>`, or None."""
    return bearer_of(request.headers.get("Authorization", ""))


def bearer_of(authorization: str) -> str | None:
    """The token of an `Authorization` header's value `Bearer <token>`, or None."""
    scheme, _, token = authorization.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def account(required: bool = True) -> Principal | None:
    """The account the request's token speaks for; None when it carries no account token (and
    none is `required`: else NoToken)."""
    token = bearer_token()
    if not is_account_token(token):
        if required:
            raise NoToken("This needs your account's token: send 'Authorization: Bearer "
                          "<token>' (sign in for one).")
        return None
    return authenticate(current_app.extensions["postplay"]["accounts"], token)
