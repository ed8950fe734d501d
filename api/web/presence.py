"""Presence at a game: a signed-in account reading a game (`GET /api/v1/games/{id}`), a poll
answered 304 included, is marked present there for POSTPLAY_PRESENT_S seconds, so that push and
e-mail keep quiet about a game the player is looking at (`api.notify.fanout`). A WSGI middleware
outside the one that answers polls before Flask, so every way of answering counts; it costs a
signed-in read one Redis script (the token's account, and one SET with a TTL) and an anonymous
one nothing. Reading the list of one's games (`GET /api/v1/me/games`) marks the account present
at all of them in the script that already reads the token (`AccountStore.token_with_games`)."""

from __future__ import annotations

import logging
import re

import redis

from api.notify.fanout import present_s
from api.players.accounts import is_account_token
from api.store.notices import NoticeStore
from api.web.auth import bearer_of

log = logging.getLogger(__name__)
READS = re.compile(r"/api/v1/games/([^/]+)")


class PresenceMarks:
    def __init__(self, app, notices: NoticeStore):
        self.app, self.notices = app, notices

    def __call__(self, environ, start_response):
        if environ["REQUEST_METHOD"] == "GET":
            match = READS.fullmatch(environ.get("PATH_INFO", ""))
            if match is not None:
                token = bearer_of(environ.get("HTTP_AUTHORIZATION", ""))
                if is_account_token(token):
                    try:
                        self.notices.seen_by_token(token, match[1], present_s())
                    except redis.RedisError:  # the read itself says Redis is away
                        log.debug("presence not marked", exc_info=True)
        return self.app(environ, start_response)
