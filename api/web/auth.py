"""The secrets a request carries: seat tokens, playtest owner tokens and account tokens, all as
`Authorization: Bearer <token>` (never a cookie, so no other site can send them for a player).
An account token starts with "pp." (see `api.players.accounts`), which no other token does."""

from __future__ import annotations

from typing import Literal, overload

from flask import current_app, request

from api.notify.fanout import present_s
from api.record.errors import NoToken
from api.players.accounts import Principal, authenticate, authenticate_with_games, is_account_token


def bearer_token() -> str | None:
    """The token of the request's `Authorization: Bearer <token>`, or None."""
    return bearer_of(request.headers.get("Authorization", ""))


def bearer_of(authorization: str) -> str | None:
    """The token of an `Authorization` header's value `Bearer <token>`, or None."""
    scheme, _, token = authorization.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


@overload
def account(required: Literal[True] = True) -> Principal: ...


@overload
def account(required: bool) -> Principal | None: ...


def account(required: bool = True) -> Principal | None:
    """The account the request's token speaks for; None when it carries no account token (and
    none is `required`: else NoToken)."""
    token = _account_token(required)
    if token is None:
        return None
    return authenticate(current_app.extensions["postplay"]["accounts"], token)


def account_with_games() -> tuple[Principal, list[list]]:
    """`account()`, and [game id, version] of each of its games, newest first, in one round
    trip to Redis (the script that answers the poll of `GET /me/games` before Flask)."""
    return authenticate_with_games(
        current_app.extensions["postplay"]["accounts"], _account_token(), present_s()
    )


@overload
def _account_token(required: Literal[True] = True) -> str: ...


@overload
def _account_token(required: bool) -> str | None: ...


def _account_token(required: bool = True) -> str | None:
    """The request's account token; None when it carries none (and none is `required`: else
    NoToken)."""
    token = bearer_token()
    if is_account_token(token):
        return token
    if required:
        raise NoToken(
            "This needs your account's token: send 'Authorization: Bearer <token>' "
            "(sign in for one)."
        )
    return None
