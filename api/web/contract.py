"""The API's contract for client authors, beside the routes: each operation's stable id, the
tokens it accepts and every status it can answer, declared on the view by `operation(...)`; the
security schemes those tokens are; and what every operation answers alike (`ContractPlugin`).

    @blp.route("/<game_id>/moves")
    class Moves(MethodView):
        @operation("makeMove", auth=("seat", "account:play"),
                   refuses=(NotFound, NoToken, OtherGamesToken, Forbidden, Conflict,
                            MalformedMove, IllegalMove))
        @blp.etag
        ...

`refuses` names the refusals (api/record/errors.py, the engines' errors) or the bare statuses
(`abort(409)`) the view and what it calls can raise; each becomes a documented response with the
error schema, its status from `api.web.errors.status_of`. tests/api/test_openapi.py reads the code
of every view and of the functions it calls, finds what they raise, and fails when a status is
missing here, so the document keeps up with the code.
"""

from __future__ import annotations

import copy
import http
from typing import Callable, Iterable

from apispec import BasePlugin

from api.players.accounts import SCOPES
from api.web.errors import REDIS_RETRY_AFTER_S, status_of

# what each account scope lets a token do (api/players/accounts.py SCOPES), and the pseudo-scope
# of the calls a personal API token may not make
SCOPE_WORDS = {
    "read": "Read the account, its games, challenges and vacation.",
    "play": "Play the account's seats: create, join, move, resign, offers, chat, playtests.",
    "challenge": "Challenge players, accept and decline challenges.",
    "webhooks": "Register, list and delete the account's webhooks.",
    "session": "A sign-in token (POST /session or /accounts): personal API tokens cannot, "
    "whatever their scopes (tokens, password, e-mail).",
}
assert set(SCOPES) <= SCOPE_WORDS.keys(), "every account scope needs its words here"

SECURITY_SCHEMES = {
    "seatToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "A seat's token, handed out once by createGame (`tokens`), joinGame "
        "(`token`) or rematch: `Authorization: Bearer <token>`. It plays that "
        "one seat of that one game.",
    },
    "accountToken": {
        "type": "oauth2",
        "description": "An account's token (it starts with `pp.`), sent as `Authorization: "
        "Bearer <token>`: a sign-in token from signIn or signUp (every scope), "
        "or a personal API token from createToken with the scopes chosen. "
        "signIn takes a JSON body `{username, password}`, not a form.",
        "flows": {"password": {"tokenUrl": "/api/v1/session", "scopes": SCOPE_WORDS}},
    },
    "ownerToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "A playtest's or sweep's owner token, handed out once when it was "
        "started without an account token: `Authorization: Bearer <token>`.",
    },
}


def _requirement(accepted: str) -> dict[str, list[str]]:
    """'seat' -> {"seatToken": []}, 'account:play' -> {"accountToken": ["play"]}."""
    scheme, _, scope = accepted.partition(":")
    name = f"{scheme}Token"
    if name not in SECURITY_SCHEMES:
        raise ValueError(f"no security scheme {name!r}")
    return {name: [scope] if scope else []}


def operation(
    operation_id: str,
    *,
    auth: Iterable[str] = (),
    anonymous: bool = False,
    refuses: Iterable[type[Exception] | int] = (),
) -> Callable:
    """Declare a view's operationId, the tokens it accepts (`auth`: "seat", "owner",
    "account:<scope>"; none for a public call; `anonymous` when it also serves a request with no
    token) and what it refuses (error classes or statuses), as its document says them. The
    view itself is returned as it is: only its documentation changes."""
    auth = tuple(auth)
    security = [_requirement(a) for a in auth] + ([{}] if anonymous and auth else [])
    statuses = sorted({r if isinstance(r, int) else status_of(r) for r in refuses})

    def decorate(view):
        doc = copy.deepcopy(getattr(view, "_apidoc", {}))
        doc.setdefault("manual_doc", {}).update(operationId=operation_id, security=security)
        responses = doc.setdefault("response", {}).setdefault("responses", {})
        if doc.get("arguments"):  # a well-formed value refused naming its field (BodyParser)
            statuses_here = {*statuses, 400, 422}
        else:
            statuses_here = set(statuses)
        for status in sorted(statuses_here):
            if status not in responses:
                responses[status] = [http.HTTPStatus(status).name]
        view._apidoc = doc
        view._contract = {"operation_id": operation_id, "statuses": statuses_here}
        return view

    return decorate


class ContractPlugin(BasePlugin):
    """What every operation answers alike, added to each: 429 when a client sends too much
    (with Retry-After), 503 when Redis cannot be reached (with Retry-After), and the ETag a 304
    carries."""

    def init_spec(self, spec):
        super().init_spec(spec)
        self.spec = spec
        retry = {
            "description": "Seconds to wait before asking again.",
            "schema": {"type": "integer", "minimum": 0},
        }
        spec.components.header("RETRY_AFTER", retry)
        for name, scheme in SECURITY_SCHEMES.items():
            spec.components.security_scheme(name, scheme)
        error = {"$ref": "#/components/schemas/Error"}
        spec.components.response(
            "RATE_LIMITED",
            {
                "description": "Too many requests from this client: slow down, try again after "
                "Retry-After seconds.",
                "headers": {"Retry-After": {"$ref": "#/components/headers/RETRY_AFTER"}},
                "content": {"application/json": {"schema": error}},
            },
        )
        spec.components.response(
            "REDIS_UNREACHABLE",
            {
                "description": "The game store (Redis) cannot be reached: nothing can be read or "
                f"changed. Try again after Retry-After seconds ({REDIS_RETRY_AFTER_S}).",
                "headers": {"Retry-After": {"$ref": "#/components/headers/RETRY_AFTER"}},
                "content": {"application/json": {"schema": error}},
            },
        )
        spec.components.response(
            "NOT_MODIFIED_ETAG",
            {
                "description": "Not Modified: the If-None-Match sent holds the current ETag; no "
                "body.",
                "headers": {
                    "ETag": {
                        "description": "The ETag a 200 would carry.",
                        "schema": {"type": "string"},
                    }
                },
            },
        )

    def operation_helper(self, path=None, operations=None, **kwargs):
        for operation_doc in (operations or {}).values():
            responses = operation_doc.setdefault("responses", {})
            keys = {str(k): k for k in responses}
            if "304" in keys:
                responses[keys["304"]] = "NOT_MODIFIED_ETAG"
            if "429" not in keys:
                responses["429"] = "RATE_LIMITED"
            if "503" not in keys:
                responses["503"] = "REDIS_UNREACHABLE"
