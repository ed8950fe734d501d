"""What operators use, outside the API's document: `/metrics` (Prometheus' text format, every
request counted and timed per route and status) and rq-dashboard at `/rq`. Each may need a token:
POSTPLAY_METRICS_TOKEN for `/metrics` (a scraper sends `Authorization: Bearer <token>`), and
POSTPLAY_RQ_DASHBOARD_TOKEN, without which the dashboard is not mounted at all (a browser sends it
as the password of HTTP basic authentication, any user name)."""

from __future__ import annotations

import base64
import hmac
import re
import time

import redis
from flask import Flask, Response, current_app, g, request
from flask_smorest import abort
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from api import metrics
from api.followups import QUEUES
from api.web.errors import redis_unreachable

DASHBOARD_PREFIX = "/rq"
# a rule's converters ("<id:game_id>") left out of its series name ("<game_id>")
_CONVERTER = re.compile(r"<\w+:")


def init_operations(app: Flask) -> None:
    app.before_request(_start_timer)
    app.after_request(_count)
    app.add_url_rule("/metrics", "metrics", _metrics)
    token = app.config.get("RQ_DASHBOARD_TOKEN")
    if token:
        # middleware as Flask documents it (replacing the method: mypy refuses without the ignore)
        app.wsgi_app = DispatcherMiddleware(  # type: ignore[method-assign]
            app.wsgi_app,
            {DASHBOARD_PREFIX: _dashboard(app.config["RQ_DASHBOARD_REDIS_URL"], token)},
        )


def _start_timer() -> None:
    g.started = time.perf_counter()


def _count(response: Response) -> Response:
    # the rule, not the path: one series per route however many games there are
    route = (
        _CONVERTER.sub("<", request.url_rule.rule) if request.url_rule is not None else "unmatched"
    )
    metrics.REQUESTS.labels(route, request.method, str(response.status_code)).inc()
    started = g.get("started")
    if started is not None:
        metrics.REQUEST_SECONDS.labels(route, request.method).observe(time.perf_counter() - started)
    return response


def _metrics():
    expected = current_app.config.get("METRICS_TOKEN")
    if expected and not _bearer_is(expected):
        abort(
            401,
            message="/metrics needs the operators' token: send 'Authorization: Bearer "
            "<POSTPLAY_METRICS_TOKEN>'.",
        )
    try:
        body, content_type = metrics.exposition(current_app.extensions["postplay"]["redis"], QUEUES)
    except redis.RedisError as exc:
        raise redis_unreachable() from exc
    return Response(body, content_type=content_type)


def _bearer_is(expected: str) -> bool:
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), expected.encode()
    )


def _dashboard(redis_url: str, token: str) -> Flask:
    """rq-dashboard as an app of its own: its pages carry inline scripts, which the main app's
    policy forbids, so it gets a policy of its own and nothing of the API's."""
    import rq_dashboard

    dash = Flask("rq_dashboard")
    dash.config.from_object(rq_dashboard.default_settings)
    dash.config["RQ_DASHBOARD_REDIS_URL"] = redis_url
    dash.register_blueprint(rq_dashboard.blueprint)
    rq_dashboard.web.setup_rq_connection(dash)

    @dash.before_request
    def require_token():
        if not _basic_password_is(token):
            return Response(
                "The queues' dashboard needs the operators' token (as the "
                "password, any user name).",
                401,
                {"WWW-Authenticate": 'Basic realm="postplay queues"'},
            )
        return None

    @dash.after_request
    def headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' "
            "'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'"
        )
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        return response

    return dash


def _basic_password_is(expected: str) -> bool:
    scheme, _, encoded = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return _bearer_is(expected)
    try:
        _, _, password = base64.b64decode(encoded.strip()).decode().partition(":")
    except (ValueError, UnicodeDecodeError):
        return False
    return hmac.compare_digest(password.encode(), expected.encode())
