"""Moves answered before Flask: `POST /api/v1/games/{id}/moves` that the play service accepts.

A move is the request that changes games, and the framework around it (routing, the request
context, webargs, flask-smorest's response and ETag machinery, the extensions' hooks) cost about
as much as the move itself. This WSGI middleware makes the move through the same functions as
the route (the body read by the app's bounded JSON loader and checked by the route's schema,
`service.move_by_token`, the game object serialised by the app's JSON provider, the ETag made as
the view makes it, compressed by flask-compress's own function) and answers 201 with the headers
the app's own 201 for that route carried, learnt from its first one for each scheme (as
`api.web.fast_paths.PollAnswers` learns a 304's). It counts the answer in the request metrics
and against the client's rate limit as the app would.

A move by seat token is made, where it can be, from the process' copy of the game's document
and written in one round trip, by a script that writes only while the copy is the stored game
and the token the seat's to move (api/store/games.py, `update_from_copy`); otherwise that
round trip reads what a move without a copy reads, and the move is made from it.

It hands everything else to the app untouched, the body put back as read: another request, a
chunked or non-JSON body, one the schema refuses, an unknown game or token, a refusal, a game
that changed after it was read or whose mover's time ran out (the app ends it on time), an
unreachable Redis, a client near its rate limit. A refusal writes nothing, so the app refuses
the same move in its own words. (A Redis error once the move's write was sent leaves unknown
whether it landed, and NotReplicated says it reached the master alone: the app then answers
what it finds, the game moved on or the move made, where its own route would have said 503.)

The route's schema dumps a game object unchanged when a move can answer it (every field of the
view is declared; rating changes, which the schema narrows, come only after the game): the
object is sent as the view makes it, and tests/api/test_fast_moves.py compares the bytes with
the app's for every kind.
"""
from __future__ import annotations

import io
import re
import time

import marshmallow as ma
import redis
from flask import Flask
from werkzeug.http import parse_options_header

from api.play import service as play
from api.record.errors import Refusal
from api.players.accounts import authenticate, is_account_token
from api.store.accounts import AccountStore
from api.store.games import GameStore
from api.web.auth import bearer_of
from api.web.fast_paths import AnsweredBeforeFlask, etag_of, game_etag_data
from api.web.games import public
from api.web.input_bounds import MAX_BODY_BYTES, BadJson, load_json
from api.web.schemas import MoveBodySchema

ROUTE = "/api/v1/games/<game_id>/moves"
PATH = re.compile(r"/api/v1/games/([^/]+)/moves")
# what the service refuses, or cannot do from the game as read: nothing was written
HANDED_OVER = (Refusal, ValueError, LookupError, ma.ValidationError, redis.RedisError)


class MoveAnswers(AnsweredBeforeFlask):
    """WSGI middleware over the Flask app's own: accepted moves answered here."""

    def __init__(self, app, flask_app: Flask, games: GameStore, accounts: AccountStore,
                 followups: play.Followups):
        super().__init__(app, flask_app, ROUTE, "POST", "201")
        self.games, self.accounts, self.followups = games, accounts, followups
        self.body_schema = MoveBodySchema()

    def __call__(self, environ, start_response):
        if environ["REQUEST_METHOD"] != "POST" or environ.get("QUERY_STRING"):
            return self.app(environ, start_response)
        match = PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None:
            return self.app(environ, start_response)
        started = time.perf_counter()
        body = self._body(environ) if self.learnt(environ) is not None else None
        if body is not None:
            answer = self._answer(environ, match[1], body)
            if answer is not None:
                return self.send(environ, start_response, answer, started)
            environ["wsgi.input"] = io.BytesIO(body)  # the app reads the body as it came
        return self.to_app(environ, start_response)

    @staticmethod
    def _body(environ) -> bytes | None:
        """The request's JSON body as sent (None: not one to read here)."""
        mimetype, _ = parse_options_header(environ.get("CONTENT_TYPE", ""))
        if mimetype != "application/json" or "HTTP_TRANSFER_ENCODING" in environ:
            return None
        try:
            length = int(environ.get("CONTENT_LENGTH") or "")
        except ValueError:
            return None
        if not 0 < length <= MAX_BODY_BYTES:
            return None
        return environ["wsgi.input"].read(length)  # (one cut short is the app's 400)

    def _answer(self, environ, game_id: str, body: bytes) -> tuple[bytes, str, list] | None:
        """The move made: the answer's body, ETag, and its rate-limit and encoding headers
        (None: the app's to answer)."""
        try:
            parsed = self.body_schema.load(load_json(body))
        except (BadJson, ma.ValidationError):
            return None
        window = self._window(environ)
        if window is False:
            return None
        token = bearer_of(environ.get("HTTP_AUTHORIZATION", ""))
        try:
            who = authenticate(self.accounts, token) if is_account_token(token) else None
            record = play.move_by_token(self.games, self.followups, game_id, token, who,
                                        parsed["move"], parsed["ply"], only_from_read=True)
        except HANDED_OVER:
            return None
        limit_headers = self._counted(window)
        data = self.flask_app.json.body(public(record))
        data, encoded = self._compressed(environ, data)
        return data, etag_of(game_etag_data(record.id, record.version)), limit_headers + encoded
