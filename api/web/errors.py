"""Errors as the API promises them: flask-smorest's body `{code, status, message, errors?}` with a
`message` a player can read; 400 for a malformed body (naming the field), never a bare 500."""

from __future__ import annotations

import logging
from typing import Callable, NoReturn

import flask_smorest
import marshmallow as ma
import redis
from flask import current_app, g, request
from flask_smorest import abort as smorest_abort
from webargs.core import missing
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable

from api.clocks import BadTimeControl
from api.games import BadOption, IllegalMove, MalformedMove, UnknownField
from api.record import errors as refusals
from api.web.fast_paths import etag_of
from api.web.input_bounds import MAX_PAGE, BadJson

log = logging.getLogger(__name__)

# what a view refuses with a clear message: bad moves, options and time controls are ValueErrors
DOMAIN_ERRORS = (refusals.Refusal, ValueError)
# the play service's refusals and the HTTP status of each (the first class that matches wins)
STATUS_OF = (
    (refusals.NotFound, 404),
    (refusals.NoToken, 401),
    (refusals.OtherGamesToken, 403),
    (refusals.Forbidden, 403),
    (refusals.Conflict, 409),
    (refusals.NotOffered, 422),
    (refusals.NotEligible, 422),
    (refusals.Busy, 429),
    (refusals.Overloaded, 503),
)
# what redis-py raises when Redis cannot answer at all (down, unreachable, still loading its data,
# a replica without its primary): the service is unavailable, not broken
REDIS_UNREACHABLE = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    redis.exceptions.MasterDownError,
)
REDIS_RETRY_AFTER_S = 5


# flask-smorest's `abort`, which always raises, typed as never returning (the library leaves it
# unannotated, so the type checker would read on past it)
abort: Callable[..., NoReturn] = smorest_abort


class Unacceptable(str):
    """A validation message for a value that is well formed but not allowed (a name with a
    control character): the request is a 422 when every message is one of these."""


class BodyParser(FlaskParser):
    """Malformed input is a 400 naming the field; JSON is read through the app's bounded loader
    (api/web/input_bounds.py), so a body too deep or with too long a number is a 400 too."""

    DEFAULT_VALIDATION_STATUS = 400

    def load_json(self, req, schema):
        if not is_json_request(req):
            return missing
        data = req.get_data(cache=True)
        if not data.strip():
            return missing
        try:
            return current_app.json.loads(data)
        except BadJson as exc:
            abort(400, message=exc.message)

    def handle_error(self, error, req, schema, *, error_status_code, error_headers):
        messages = list(_leaves(error.messages))
        if messages and all(isinstance(m, Unacceptable) for m in messages):
            error_status_code = 422
        super().handle_error(
            error, req, schema, error_status_code=error_status_code, error_headers=error_headers
        )


class PageParser(FlaskParser):
    """A page or page size out of range is well formed but not served: 422 naming it."""

    DEFAULT_VALIDATION_STATUS = 422


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = BodyParser()
    PAGINATION_ARGUMENTS_PARSER = PageParser()

    def paginate(self, pager=None, **kwargs):
        """flask-smorest's pagination, with `page` bounded by MAX_PAGE too (in the document as
        well: the parameters' schema is the one the wrapper reads)."""
        decorate = super().paginate(pager, **kwargs)

        def decorator(func):
            wrapper = decorate(func)
            page = wrapper._apidoc["pagination"]["parameters"]["schema"]._declared_fields["page"]
            page.validators = [ma.validate.Range(min=1, max=MAX_PAGE)]
            return wrapper

        return decorator

    def set_etag(self, etag_data, etag_schema=None):
        """flask-smorest's, the ETag kept for a 304 to carry (flask-smorest's 304 carries none,
        where RFC 9110 asks for the ETag a 200 would have carried)."""
        if etag_schema is None:
            g.etag = etag_of(etag_data)
        super().set_etag(etag_data, etag_schema)


def _not_modified_etag() -> str | None:
    """The ETag of a 304: the one the view set, else the one the request sent (a 304 says it
    matched), when it sent only one."""
    etag = g.get("etag")
    if etag is None:
        sent = request.if_none_match.as_set()
        etag = next(iter(sent)) if len(sent) == 1 else None
    return etag


class ErrorSchema(ma.Schema):
    """The error body, as `PostplayApi.handle_http_exception` makes it (documentation only)."""

    code = ma.fields.Integer(required=True, metadata={"description": "The HTTP status."})
    status = ma.fields.String(required=True, metadata={"description": "Its name."})
    message = ma.fields.String(
        required=True, metadata={"description": "A sentence a player can read."}
    )
    words = ma.fields.String(
        metadata={
            "description": "On a refused move (422): the move in the game's notation, as the "
            "move list would show it (`places a stick between B1 and C1`)."
        }
    )
    errors = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.List(ma.fields.String())),
        metadata={
            "description": "Where the request is at fault (`json`, `query`), then the "
            "field's dotted path (`move.row`), then its messages."
        },
    )


class PostplayApi(flask_smorest.Api):
    ERROR_SCHEMA = ErrorSchema

    def _register_error_handlers(self):
        super()._register_error_handlers()
        self._app.register_error_handler(Exception, self.handle_unexpected)

    def handle_unexpected(self, error: Exception):
        if isinstance(error, HTTPException):
            return self.handle_http_exception(error)
        if isinstance(error, REDIS_UNREACHABLE):
            log.warning("Redis cannot be reached: %s", error)
            return self.handle_http_exception(redis_unreachable())
        if isinstance(error, DOMAIN_ERRORS):  # a refusal a view let through: its 4xx
            try:
                refuse(error)
            except HTTPException as answer:
                return self.handle_http_exception(answer)
            except Exception:  # a ValueError that is no refusal: a bug, below
                pass
        log.exception("unexpected error")
        return self.handle_http_exception(InternalServerError())

    def handle_http_exception(self, error):
        if error.code == 304:  # a poll's answer (set_etag raises it): no body, so none to make
            etag = _not_modified_etag()
            return "", 304, {} if etag is None else {"ETag": f'"{etag}"'}
        payload, code, headers = super().handle_http_exception(error)
        if isinstance(payload.get("errors"), dict):
            payload["errors"] = {where: _flatten(tree) for where, tree in payload["errors"].items()}
        if "message" not in payload:
            payload["message"] = _first_message(payload.get("errors")) or error.description
        words = getattr(error, "data", {}).get("words")
        if words:  # a refused move's words (`refuse`)
            payload["words"] = words
        if code == 429:
            if not getattr(error, "data", {}).get("message"):  # the rate limiter's own
                payload["message"] = "Too many requests: slow down and try again shortly."
            retry = getattr(error, "retry_after", None)
            headers = dict(headers or {})
            headers.setdefault("Retry-After", str(int(retry or 60)))
        return payload, code, headers


def redis_unreachable() -> ServiceUnavailable:
    """The 503 of an outage: a message a player can read, and when to try again."""
    error = ServiceUnavailable()
    # flask-smorest's handler reads the `data` it sets on werkzeug's exceptions, which werkzeug
    # does not declare
    error.data = {  # type: ignore[attr-defined]
        "message": "The game store (Redis) cannot be reached just now: nothing can be read or "
        "changed. Try again in a few seconds.",
        "headers": {"Retry-After": str(REDIS_RETRY_AFTER_S)},
    }
    return error


# the domain errors that name a field, and their status
FIELD_ERRORS = (
    (MalformedMove, 400),
    ((BadOption, BadTimeControl, UnknownField, refusals.BadField), 422),
)


def status_of(cls: type[Exception]) -> int:
    """The status `refuse` answers an error of class `cls` with (KeyError for none: a bug)."""
    for classes, status in (*FIELD_ERRORS, (IllegalMove, 422), *STATUS_OF):
        if issubclass(cls, classes):
            return status
    raise KeyError(f"{cls.__name__} is no refusal: it would be a 500")


def refuse(exc: Exception):
    """Turn a domain error into the API's response (this never returns)."""
    for classes, status in FIELD_ERRORS:
        if isinstance(exc, classes):
            abort(status, message=exc.message, errors={"json": {exc.field: [exc.message]}})
    if isinstance(exc, IllegalMove):
        abort(422, message=exc.message, **({"words": exc.words} if exc.words else {}))
    for cls, status in STATUS_OF:
        if isinstance(exc, cls):
            retry = getattr(exc, "retry_after_s", None)
            abort(
                status,
                message=exc.message,
                **({"headers": {"Retry-After": str(max(1, retry))}} if retry else {}),
            )
    raise exc


def _leaves(tree):
    """Every message in webargs' nested errors."""
    if isinstance(tree, dict):
        for sub in tree.values():
            yield from _leaves(sub)
    elif isinstance(tree, list):
        for sub in tree:
            yield from _leaves(sub)
    else:
        yield tree


def _flatten(tree, path: tuple[str, ...] = ()) -> dict[str, list]:
    """webargs' nested errors as one level keyed by the field's dotted path (`seats.0.bot`), the
    form the engines' own errors take (`move.row`)."""
    if not isinstance(tree, dict):
        return {".".join(path): tree}
    flat: dict[str, list] = {}
    for key, sub in tree.items():
        flat.update(_flatten(sub, path if key == "_schema" else (*path, str(key))))
    return flat


def _first_message(errors) -> str | None:
    """'Field ply: Missing data for required field.' from the flattened errors."""
    for fields in (errors or {}).values():
        for field, messages in fields.items():
            message = str(messages[0]) if isinstance(messages, list) and messages else None
            if message:
                return f"Field {field}: {message}" if field else message
    return None
