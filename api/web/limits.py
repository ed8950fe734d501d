"""Rate limits: one budget per client across every endpoint, stricter limits on what costs the
server most (or floods other players: chat), and the client's address as the trusted proxies report it.

The limiter keeps its counts in Redis, so every web process shares them. When Redis cannot be
reached the limiter lets requests through (it fails open): the request then meets the outage
itself and is answered 503, which is the truth, rather than 500 from the limiter.
"""

from __future__ import annotations

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from werkzeug.middleware.proxy_fix import ProxyFix

from api.store.connection import RedisConfig

# The stricter limits, each on one endpoint and method, with the config key of its limit string.
# Failed sign-ins are also counted per account name by the accounts service, so that guessing
# one account's password from many addresses is slowed too.
STRICT_LIMITS = (
    ("games.Games", "POST", "LIMIT_NEW_GAME"),
    ("playtests.Playtests", "POST", "LIMIT_NEW_PLAYTEST"),
    ("sweeps.Sweeps", "POST", "LIMIT_NEW_PLAYTEST"),
    ("accounts.Accounts", "POST", "LIMIT_NEW_ACCOUNT"),
    ("accounts.Session", "POST", "LIMIT_SIGN_IN"),
    ("accounts.Recover", "POST", "LIMIT_SIGN_IN"),
    ("in_game.Chat", "POST", "LIMIT_CHAT"),
    ("correspondence.Explore", "POST", "LIMIT_EXPLORE"),
    ("in_game.Import", "POST", "LIMIT_NEW_GAME"),
    ("games.Rematch", "POST", "LIMIT_NEW_GAME"),
)
# endpoints that spend one budget together: a rematch is a new game, as POST /games makes
SHARED_SCOPES = {"games.Games": "new-game", "games.Rematch": "new-game"}


class SchemeAsTheProxiesSayIt:
    """WSGI middleware inside ProxyFix: X-Forwarded-Proto taken out once ProxyFix has read it
    (or, with no trusted proxy, unread), so that the scheme is `wsgi.url_scheme` alone, as the
    trusted proxies report it. flask-talisman would believe the header from anyone, and a client
    could then skip the redirect to https, or key the 304 answers' learnt headers by whatever it
    sends."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        environ.pop("HTTP_X_FORWARDED_PROTO", None)
        return self.app(environ, start_response)


def init_limits(app: Flask, redis_config: RedisConfig, redis_timeout_s: float) -> Limiter | None:
    """Trust X-Forwarded-For and -Proto through `TRUSTED_PROXIES` proxies, then limit per client
    address."""
    proxies = int(app.config["TRUSTED_PROXIES"])
    # middleware as Flask documents it (replacing the method: mypy refuses without the ignore)
    app.wsgi_app = SchemeAsTheProxiesSayIt(app.wsgi_app)  # type: ignore[method-assign]
    if proxies:
        # each trusted proxy appends the address it saw; one more would be the client's own lie
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies
        )
    if not app.config.get("RATELIMIT_ENABLED", True):
        return None
    uri, options = redis_config.limiter_storage()
    app.config.setdefault("RATELIMIT_STORAGE_URI", uri)
    app.config.setdefault(
        "RATELIMIT_STORAGE_OPTIONS",
        {**options, "socket_connect_timeout": redis_timeout_s, "socket_timeout": redis_timeout_s},
    )
    limiter = Limiter(
        get_remote_address,
        app=app,
        application_limits=[lambda: app.config["RATELIMIT_APPLICATION"]],
        # a browser's CORS preflight is not a request of its own: it should not halve the budget
        application_limits_exempt_when=lambda: request.method == "OPTIONS",
        headers_enabled=True,
        swallow_errors=True,
    )
    # a load balancer's or supervisor's health checks come from one address, often: they must
    # neither spend that address's budget nor be refused (they would mark the host down)
    limiter.exempt(app.view_functions["system.Health"])
    for endpoint, method, setting in STRICT_LIMITS:
        limit = lambda setting=setting: app.config[setting]
        shared = SHARED_SCOPES.get(endpoint)
        # flask-limiter types its decorators as giving a view that may be async (Awaitable)
        app.view_functions[endpoint] = (  # type: ignore[assignment]
            limiter.shared_limit(limit, shared, methods=[method])
            if shared
            else limiter.limit(limit, methods=[method], scope=endpoint)
        )(app.view_functions[endpoint])
    return limiter
