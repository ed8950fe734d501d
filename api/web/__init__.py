"""The Flask app factory: `create_app(test_config=None)`."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, send_from_directory
from swagger_ui_bundle import swagger_ui_path

from api.followups import RQFollowups
from api.notify.events import GAME_EVENTS
from api.store.accounts import AccountStore
from api.store.connection import RedisConfig
from api.store.games import GameStore
from api.store.ratings import RatingStore
from api.store.version_cache import VersionCache
from api.store.mail import MailStore
from api.store.notices import NoticeStore
from api.store.puzzles import PuzzleStore
from api.store.webhooks import WebhookStore
from api.web.contract import ContractPlugin
from api.web.errors import PostplayApi
from api.web.fast_paths import PollAnswers
from api.web.presence import PresenceMarks
from api.web.game_shapes import ShapesPlugin
from api.web.headers import init_headers
from api.web.ids import init_ids
from api.web.input_bounds import MAX_BODY_BYTES, BoundedChunkedBody, BoundedJSONProvider
from api.web.limits import init_limits
from api.web.shell import init_shell
from api.web.static_files import init_static_files
from api.web.operations import init_operations

ROOT = Path(__file__).resolve().parents[2]
# how long a request waits on Redis: down or unreachable, it is answered 503 instead of hanging
REDIS_TIMEOUT_S = 2.0
# Swagger UI's files change only with the installed package: a day in the browser's cache is safe.
# The client's own files (and index.html) are not fingerprinted, and its modules must change
# together, so they keep `no-cache`: revalidated every time, a 304 while unchanged (its icons
# excepted: api/web/shell.py; web/ itself is served by api/web/static_files.py).
DOCS_ASSETS_MAX_AGE_S = 86400


def _on(name: str, default: str) -> bool:
    return os.environ.get(name, default).lower() not in ("off", "0", "false", "no")


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, static_folder=str(ROOT / "web"), static_url_path="/static")
    app.json = BoundedJSONProvider(app)
    # middleware as Flask documents it (replacing the method: mypy refuses without the ignore)
    app.wsgi_app = BoundedChunkedBody(app.wsgi_app, MAX_BODY_BYTES)  # type: ignore[method-assign]
    app.config.from_mapping(
        REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        # Redis Sentinel (host:port,host:port) and the service it watches: see api/store/connection
        REDIS_SENTINELS=os.environ.get("REDIS_SENTINELS", ""),
        REDIS_SERVICE=os.environ.get("REDIS_SERVICE", ""),
        POSTPLAY_REDIS_WAIT_REPLICAS=os.environ.get("POSTPLAY_REDIS_WAIT_REPLICAS", ""),
        POSTPLAY_REDIS_WAIT_MS=os.environ.get("POSTPLAY_REDIS_WAIT_MS", ""),
        POSTPLAY_REDIS_MAX_CONNECTIONS=os.environ.get("POSTPLAY_REDIS_MAX_CONNECTIONS", ""),
        METRICS_TOKEN=os.environ.get("POSTPLAY_METRICS_TOKEN", ""),
        RQ_DASHBOARD_TOKEN=os.environ.get("POSTPLAY_RQ_DASHBOARD_TOKEN", ""),
        SEEDS_DIR=str(ROOT / "seeds"),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        API_TITLE="Postplay",
        API_VERSION="v1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="api/v1/openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",
        # offline, and without sending the document to a validator on another site
        OPENAPI_SWAGGER_UI_CONFIG={"validatorUrl": None},
        API_SPEC_OPTIONS={
            "servers": [{"url": "/", "description": "This server."}],
            "info": {
                "license": {"name": "MIT", "url": "https://spdx.org/licenses/MIT.html"},
                "description": (
                    "Play small abstract number games by correspondence: against friends, against "
                    "bots that think on the workers, or from any client. Every game's moves and states are "
                    "in this document's schemas (GET /kinds names each game's moves) and in the "
                    "project's docs/api.md; errors carry a "
                    "`message` a player can read."
                ),
            },
        },
        RATELIMIT_ENABLED=_on("POSTPLAY_RATELIMIT", "on"),
        # one budget per client, shared by every endpoint
        RATELIMIT_APPLICATION=os.environ.get("POSTPLAY_RATELIMIT_DEFAULT", "600 per minute"),
        LIMIT_NEW_GAME=os.environ.get("POSTPLAY_RATELIMIT_NEW_GAME", "30 per minute"),
        LIMIT_NEW_PLAYTEST=os.environ.get("POSTPLAY_RATELIMIT_NEW_PLAYTEST", "20 per hour"),
        LIMIT_NEW_ACCOUNT=os.environ.get("POSTPLAY_RATELIMIT_NEW_ACCOUNT", "10 per hour"),
        LIMIT_SIGN_IN=os.environ.get("POSTPLAY_RATELIMIT_SIGN_IN", "30 per hour"),
        LIMIT_CHAT=os.environ.get("POSTPLAY_RATELIMIT_CHAT", "20 per minute"),
        LIMIT_EXPLORE=os.environ.get("POSTPLAY_RATELIMIT_EXPLORE", "120 per minute"),
        TRUSTED_PROXIES=int(os.environ.get("POSTPLAY_TRUSTED_PROXIES", "0")),
        FORCE_HTTPS=_on("POSTPLAY_FORCE_HTTPS", "off"),
        # each web process keeps the game versions its polls read, Redis naming those written
        VERSION_CACHE=_on("POSTPLAY_VERSION_CACHE", "on"),
    )
    if test_config:
        app.config.update(test_config)

    redis_config = RedisConfig.from_mapping(app.config)
    client = redis_config.connect(REDIS_TIMEOUT_S)
    app.config.setdefault("RQ_DASHBOARD_REDIS_URL", redis_config.dashboard_url())
    app.extensions["postplay"] = {
        "redis": client,
        "store": GameStore(client, GAME_EVENTS),
        "accounts": AccountStore(client),
        "ratings": RatingStore(client),
        "followups": RQFollowups(client),
        "webhooks": WebhookStore(client),
        "mails": MailStore(client),
        "notices": NoticeStore(client),
        "puzzles": PuzzleStore(client),
    }

    api = PostplayApi(
        app, spec_kwargs={"marshmallow_plugin": ShapesPlugin(), "extra_plugins": [ContractPlugin()]}
    )
    init_ids(app, api)
    from api.web import (
        accounts,
        correspondence,
        email,
        events,
        games,
        in_game,
        kinds,
        learn,
        notices,
        playtests,
        ratings,
        sweeps,
        system,
        webhooks,
    )

    for module in (
        kinds,
        games,
        in_game,
        correspondence,
        accounts,
        email,
        ratings,
        webhooks,
        notices,
        playtests,
        sweeps,
        events,
        system,
        learn,
    ):
        api.register_blueprint(module.blp)

    @app.get("/")
    def index():
        return send_from_directory(ROOT / "web", "index.html")

    @app.get("/rules-assets/<path:name>")
    def rules_asset(name: str):
        """Pictures the rules pages show (seeds/*.svg)."""
        return send_from_directory(app.config["SEEDS_DIR"], name)

    @app.get("/docs/assets/<path:name>")
    def swagger_assets(name: str):
        return send_from_directory(swagger_ui_path, name, max_age=DOCS_ASSETS_MAX_AGE_S)

    # inside the proxy's and the dashboard's middleware: it sees the scheme as the proxy reports it
    stores = app.extensions["postplay"]
    # the process' copy of the games' versions (None: every poll reads Redis)
    versions = VersionCache(client) if app.config["VERSION_CACHE"] else None
    # middleware as Flask documents it (replacing the method: mypy refuses without the ignore)
    app.wsgi_app = PollAnswers(  # type: ignore[method-assign]
        app.wsgi_app, stores["store"], stores["accounts"], versions
    )
    app.wsgi_app = PresenceMarks(app.wsgi_app, stores["notices"])  # type: ignore[method-assign]
    init_shell(app)
    init_operations(app)
    init_limits(app, redis_config, REDIS_TIMEOUT_S)
    init_headers(app)
    init_static_files(app)
    return app
