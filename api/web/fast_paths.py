"""The requests answered before Flask: polls whose ETag still matches.

`GET /api/v1/games/{id}` and `GET /api/v1/me/games` with If-None-Match are what every open
board and every signed-in page send, over and over, and nearly always they are answered 304.
Routing, the request context, flask-smorest's ETag machinery and the extensions' hooks cost
several times the Redis reads that answer needs, so this WSGI middleware answers them from those
reads alone (a game's version, from this process' copy of the versions, brought up to date with
Redis by a round trip made after the poll arrived, api/store/version_cache.py; the account's
token and its games' versions, in one script), making the ETag as the view makes it, and hands
everything else to the app untouched: any other request, a poll whose ETag no longer matches or
that has a query, an unknown game, a token the app would refuse, an unreachable Redis (which the
app answers 503). So a poll sent after a move was acknowledged, to any web process, never hears
304 for the version before that move.

A 304 carries the headers the app's own 304 for that route carried (CORS, the security policy),
learnt from the first poll the app answers 304, for each scheme the request came over (HSTS goes
only over https; a deployment forcing https redirects plain http, so learns nothing for it and
keeps sending those polls to the app). It is counted in the request metrics like any other. It
is not counted against the client's rate limit: refusing it (429) would cost the server more
than answering it.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from typing import Callable

import redis
from werkzeug.http import parse_etags

from api import metrics
from api.record.errors import Refusal
from api.notify.fanout import present_s
from api.players.accounts import authenticate_with_games, is_account_token
from api.store.accounts import AccountStore
from api.store.games import GameStore
from api.store.keys import ID_PATTERN, game_key
from api.store.version_cache import VersionCache
from api.web.auth import bearer_of

# a header of one answer only, never learnt: the ETag is made per poll, the rest per request
PER_ANSWER = {
    "etag",
    "date",
    "retry-after",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "content-length",
}


def etag_of(data) -> str:
    """An ETag made as flask-smorest's `set_etag` makes it from `data`."""
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()


def game_etag_data(game_id: str, version: int) -> dict:
    """What a game's ETag is made of (its view sets it from this too)."""
    return {"id": game_id, "version": version}


def my_games_etag_data(versions: list[list], status: str | None) -> dict:
    """What the ETag of an account's games is made of (its view sets it from this too)."""
    return {"games": versions, "status": status}


def learning(learnt: dict, key: tuple, start_response):
    """The app's `start_response`, remembering in `learnt[key]` the headers of a 304, less those
    of one answer only."""

    def learn(status_line, headers, exc_info=None):
        if status_line.startswith("304"):
            learnt[key] = [
                (name, value) for name, value in headers if name.lower() not in PER_ANSWER
            ]
        return start_response(status_line, headers, exc_info)

    return learn


class PollAnswers:
    """WSGI middleware over the Flask app: matching polls answered 304 here."""

    def __init__(
        self, app, games: GameStore, accounts: AccountStore, versions: VersionCache | None = None
    ):
        self.app, self.games, self.accounts = app, games, accounts
        self.versions = versions  # this process' copy of the games' versions, if it keeps one
        # each polled path, the Flask rule the request metrics name it by, its current ETag
        self.polls: list[tuple[re.Pattern, str, Callable[[re.Match, dict], str | None]]] = [
            (re.compile(rf"/api/v1/games/({ID_PATTERN})"), "/api/v1/games/<game_id>", self._game),
            (re.compile(r"/api/v1/me/games"), "/api/v1/me/games", self._my_games),
        ]
        # learnt, by route and whether over https: at most 2 × len(self.polls) entries
        self.headers: dict[tuple[str, bool], list[tuple[str, str]]] = {}
        self.metrics = {
            route: (
                metrics.REQUESTS.labels(route, "GET", "304"),
                metrics.REQUEST_SECONDS.labels(route, "GET"),
            )
            for _, route, _ in self.polls
        }

    def __call__(self, environ, start_response):
        if (
            environ["REQUEST_METHOD"] != "GET"
            or "HTTP_IF_NONE_MATCH" not in environ
            or environ.get("QUERY_STRING")
        ):
            return self.app(environ, start_response)
        path = environ.get("PATH_INFO", "")
        for pattern, route, current_etag in self.polls:
            match = pattern.fullmatch(path)
            if match is not None:
                return self._answer(environ, start_response, route, match, current_etag)
        return self.app(environ, start_response)

    def _answer(self, environ, start_response, route, match, current_etag):
        started = time.perf_counter()
        # two schemes a route, whatever a request sends: the trusted proxies' word is the scheme
        # (api/web/limits.py), and a client's X-Forwarded-Proto is gone before it gets here
        learnt = (route, environ["wsgi.url_scheme"] == "https")
        headers = self.headers.get(learnt)
        if headers is not None:
            try:
                etag = current_etag(match, environ)
            except (redis.RedisError, Refusal):  # the app says what is wrong, in its words
                etag = None
            if etag is not None and etag in parse_etags(environ["HTTP_IF_NONE_MATCH"]):
                start_response("304 NOT MODIFIED", [*headers, ("ETag", f'"{etag}"')])
                counted, timed = self.metrics[route]
                counted.inc()
                timed.observe(time.perf_counter() - started)
                return []
        return self.app(environ, learning(self.headers, learnt, start_response))

    def _game(self, match: re.Match, environ: dict) -> str | None:
        game_id = match[1]
        if self.versions is None:
            version = self.games.version(game_id)
        else:
            version = self.versions.get(game_key(game_id), lambda: self.games.version(game_id))
        return None if version is None else etag_of(game_etag_data(game_id, version))

    def _my_games(self, match: re.Match, environ: dict) -> str | None:
        token = bearer_of(environ.get("HTTP_AUTHORIZATION", ""))
        if not is_account_token(token):
            return None
        # as the view's `account()` authenticates, and its games' versions, in one round trip
        who, versions = authenticate_with_games(self.accounts, token, present_s())
        who.require("read")
        return etag_of(my_games_etag_data(versions, None))
