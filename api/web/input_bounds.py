"""Bounds on what a request may carry, so no input can reach past the schemas into a 500: the
body's size (chunked bodies included) and the time it may take to arrive, the JSON's nesting
depth and the size of its integers, and the page a list may ask for."""

from __future__ import annotations

import io
import os
import re
from typing import Any, cast

from flask import Response
from flask.json.provider import DefaultJSONProvider

from api import jsontext
from api.concurrency import TimedOut, deadline

MAX_BODY_BYTES = 64 * 1024
MAX_JSON_DEPTH = 32
MAX_INT_DIGITS = 100
MAX_PAGE = 1_000_000
# a body (at most MAX_BODY_BYTES) arrives within this many seconds of its request's headers, or
# the request is answered 408: 64 KiB in 30 s is 17 kbit/s, slower than any phone's link
BODY_TIMEOUT_S = float(os.environ.get("POSTPLAY_BODY_TIMEOUT_S", "30"))

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class BadJson(ValueError):
    """The body is not JSON the API reads; `message` says why, for the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def load_json(text: str | bytes) -> Any:
    """The body's JSON, refused (BadJson) when it is invalid, nested deeper than MAX_JSON_DEPTH,
    holds a whole number of more than MAX_INT_DIGITS digits, or NaN or Infinity (not JSON)."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise BadJson("The body is not UTF-8 text.") from None
    if _depth(text) > MAX_JSON_DEPTH:
        raise BadJson(f"The JSON body is nested more than {MAX_JSON_DEPTH} levels deep.")
    try:
        return jsontext.loads(text, parse_int=_whole, parse_constant=_no_constant)
    except BadJson:
        raise
    except (ValueError, RecursionError):
        raise BadJson("The body is not valid JSON.") from None


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, reading request bodies through `load_json`, its compact answers (`body`)
    written by orjson (api/jsontext.py): the keys sorted and Flask's `default` for what JSON has
    no type for, as before; other characters than ASCII as UTF-8. (Its `dumps`, which nothing
    on the answers' path calls, stays the standard library's.)"""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return load_json(s)

    def body(self, obj: Any) -> bytes:
        """The body `response(obj)` sends."""
        if (self.compact is None and self._app.debug) or self.compact is False:
            return f"{super().dumps(obj, indent=2)}\n".encode()
        return jsontext.dumps(obj, self.sort_keys, self.default) + b"\n"

    def response(self, *args: Any, **kwargs: Any) -> Response:
        # Flask types the provider's app as its sansio base, whose response class takes no
        # body; the app it is given is a Flask, whose response class is flask.Response
        response_class = cast("type[Response]", self._app.response_class)
        return response_class(
            self.body(self._prepare_response_obj(args, kwargs)), mimetype=self.mimetype
        )


class BoundedChunkedBody:
    """WSGI middleware: a body is read here, whole, within `timeout_s` of its headers (under the
    gevent worker: api/concurrency.py), or answered 408 and its connection closed, so a client
    sending it byte by byte holds nothing for long. A chunked body (which has no Content-Length)
    is read up to one byte past MAX_BODY_BYTES, and handed on as a plain body with its length,
    so Werkzeug's MAX_CONTENT_LENGTH check answers an oversized one with 413. (Werkzeug reads a
    chunked stream only up to the limit and stops there without an error: the body was cut
    short, and its JSON was a 400, or even valid.) A Content-Length over the limit is left to
    that check, unread."""

    def __init__(self, app, limit: int = MAX_BODY_BYTES, timeout_s: float = BODY_TIMEOUT_S):
        self.app = app
        self.limit = limit
        self.timeout_s = timeout_s

    def __call__(self, environ, start_response):
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        length = environ.get("CONTENT_LENGTH", "")
        if chunked and environ.get("wsgi.input_terminated"):
            size = self.limit + 1
        elif length.isdigit() and 0 < int(length) <= self.limit:
            size = int(length)
        else:
            return self.app(environ, start_response)
        try:
            with deadline(self.timeout_s):
                body = environ["wsgi.input"].read(size)
        except TimedOut:
            return _timed_out(start_response, self.timeout_s)
        environ["wsgi.input"] = io.BytesIO(body)
        if chunked:
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)


def _timed_out(start_response, timeout_s: float) -> list[bytes]:
    """The 408 of a body that did not arrive in time, in the API's words and shape."""
    body = (
        jsontext.dumps(
            {
                "code": 408,
                "status": "Request Timeout",
                "message": (
                    f"The request's body did not arrive within {timeout_s:g} s of its headers."
                ),
            }
        )
        + b"\n"
    )
    start_response(
        "408 REQUEST TIMEOUT",
        [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
        ],
    )
    return [body]


def _depth(text: str) -> int:
    """How deep arrays and objects nest, brackets inside strings aside."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub('""', text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise BadJson(f"A number in the body has more than {MAX_INT_DIGITS} digits.")
    return int(digits)


def _no_constant(name: str):
    raise BadJson(f"{name} is not a JSON value.")
