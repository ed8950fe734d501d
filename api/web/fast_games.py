"""Games answered before Flask: `GET /api/v1/games/{id}` without a matching ETag.

A board that has just heard its game changed (its poll's ETag no longer matched) asks for the
whole game, and so does every page that opens one. The answer is the game object, nothing but the
stored document serialised; the framework around it (routing, the request context, flask-smorest's
response and ETag machinery, the extensions' hooks) cost about twenty times what that takes. This
WSGI middleware answers it from the process' copy of the game (api/store/version_cache.py): the
game's version, from the copy of the versions (kept true by Redis' invalidations, as a 304 poll
reads it), and the document, from the copy of the documents when it is that version, else read
from Redis, as the app reads it, and kept. The game object is made by the view's own function and
serialised by the app's JSON provider (the route's schema dumps it unchanged: its fields are all
declared), with the ETag the view sets, compressed by flask-compress's own function, with the
headers the app's own 200 for that route carried, counted against the client's rate limit and in
the request metrics as the app would (api/web/fast_paths.py, `AnsweredBeforeFlask`).

It hands everything else to the app untouched: another request, a query string, a process keeping
no copy, an unknown game, a finished game, an If-None-Match that matches (a 304: the app's until
PollAnswers has learnt its headers), an unreachable Redis, a client near its rate limit.
tests/api/test_fast_games.py compares the answers with the app's, byte for byte.
"""
from __future__ import annotations

import re
import time

import redis
from flask import Flask
from werkzeug.http import parse_etags

from api.record import GameRecord, Status
from api.store.games import GameStore
from api.store.keys import game_key
from api.store.version_cache import VersionCache
from api.web.fast_paths import AnsweredBeforeFlask, etag_of, game_etag_data
from api.web.games import public

ROUTE = "/api/v1/games/<game_id>"
PATH = re.compile(r"/api/v1/games/([^/]+)")


class GameAnswers(AnsweredBeforeFlask):
    """WSGI middleware over the Flask app's own: a running game's full GET answered here."""

    def __init__(self, app, flask_app: Flask, games: GameStore, copy: VersionCache | None):
        super().__init__(app, flask_app, ROUTE, "GET", "200")
        self.games, self.copy = games, copy

    def __call__(self, environ, start_response):
        if self.copy is None or environ["REQUEST_METHOD"] != "GET" or \
                environ.get("QUERY_STRING"):
            return self.app(environ, start_response)
        match = PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None:
            return self.app(environ, start_response)
        started = time.perf_counter()
        if self.learnt(environ) is not None:
            answer = self._answer(environ, match[1])
            if answer is not None:
                return self.send(environ, start_response, answer, started)
        return self.to_app(environ, start_response)

    def _answer(self, environ, game_id: str) -> tuple[bytes, str, list] | None:
        """The game object's bytes, its ETag, and the rate-limit and encoding headers (None: the
        app's to answer)."""
        try:
            record = self._record(game_id)
        except redis.RedisError:  # the app says so, in its words (503)
            return None
        if record is None or record.status is Status.FINISHED:
            return None  # (a finished game's rating changes are narrowed by the route's schema)
        etag = etag_of(game_etag_data(record.id, record.version))
        if etag in parse_etags(environ.get("HTTP_IF_NONE_MATCH")):
            return None  # a 304, which PollAnswers answers once it has learnt the app's
        window = self._window(environ)
        if window is False:
            return None
        limit_headers = self._counted(window)
        data, encoded = self._compressed(environ, self.flask_app.json.body(public(record)))
        return data, etag, limit_headers + encoded

    def _record(self, game_id: str) -> GameRecord | None:
        """The game as stored now (None: no such game)."""
        version = self.copy.get(game_key(game_id), lambda: self.games.version(game_id))
        return None if version is None else self.games.load_current(game_id, version)
