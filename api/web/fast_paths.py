"""The one request answered before Flask: a poll of a game whose ETag still matches.

`GET /api/v1/games/{id}` with If-None-Match is what every open board sends every few seconds,
and nearly always it is answered 304. Routing, the request context, flask-smorest's ETag
machinery and the extensions' hooks cost several times the one Redis read that answer needs, so
this WSGI middleware answers it from the game's version alone (`GameStore.version`, the same ETag
the view sets) and hands everything else to the app untouched: any other request, a poll whose
ETag no longer matches, an unknown game, an unreachable Redis (which the app answers 503).

The 304 carries the headers the app's own 304 for this route carried (CORS, the security
policy), learnt from the first poll the app answers 304, for each scheme the request came over
(HSTS goes only over https; a deployment forcing https redirects plain http, so learns nothing
for it and keeps sending those polls to the app). It is counted in the request metrics like any
other. It is not counted against the client's rate limit: refusing it (429) would cost the
server more than answering it.
"""
from __future__ import annotations

import hashlib
import json
import re
import time

import redis
from werkzeug.http import parse_etags

from api import metrics
from api.store.games import GameStore

POLLED = re.compile(r"/api/v1/games/([^/]+)")
ROUTE = "/api/v1/games/<game_id>"  # the Flask rule, as the request metrics name it
# a header of one answer only, never learnt: the ETag is made per game, the rest per request
PER_ANSWER = {"etag", "date", "retry-after", "x-ratelimit-limit", "x-ratelimit-remaining",
              "x-ratelimit-reset", "content-length"}


def version_etag(game_id: str, version: int) -> str:
    """A game's ETag: made as flask-smorest's `set_etag` makes it from {id, version}."""
    data = json.dumps({"id": game_id, "version": version}, sort_keys=True)
    return hashlib.sha1(data.encode()).hexdigest()


class PollAnswers:
    """WSGI middleware over the Flask app: a matching poll of a game answered 304 here."""

    def __init__(self, app, store: GameStore):
        self.app, self.store = app, store
        self.headers: dict[tuple, list[tuple[str, str]]] = {}  # the learnt 304 headers, by scheme

    def __call__(self, environ, start_response):
        match = POLLED.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or environ["REQUEST_METHOD"] != "GET" or \
                "HTTP_IF_NONE_MATCH" not in environ:
            return self.app(environ, start_response)
        started = time.perf_counter()
        scheme = (environ["wsgi.url_scheme"], environ.get("HTTP_X_FORWARDED_PROTO"))
        headers = self.headers.get(scheme)
        etag = headers is not None and self._matching(match[1], environ["HTTP_IF_NONE_MATCH"])
        if etag:
            start_response("304 NOT MODIFIED", [*headers, ("ETag", f'"{etag}"')])
            metrics.REQUESTS.labels(ROUTE, "GET", "304").inc()
            metrics.REQUEST_SECONDS.labels(ROUTE, "GET").observe(time.perf_counter() - started)
            return []
        return self.app(environ, self._learning(scheme, start_response))

    def _matching(self, game_id: str, if_none_match: str) -> str | None:
        """The game's ETag when If-None-Match has it, else None."""
        try:
            version = self.store.version(game_id)
        except redis.RedisError:  # the app meets the outage itself, and says so
            return None
        if version is None:
            return None
        etag = version_etag(game_id, version)
        return etag if etag in parse_etags(if_none_match) else None

    def _learning(self, scheme: tuple, start_response):
        def learn(status, headers, exc_info=None):
            if status.startswith("304"):
                self.headers[scheme] = [(name, value) for name, value in headers
                                        if name.lower() not in PER_ANSWER]
            return start_response(status, headers, exc_info)
        return learn
