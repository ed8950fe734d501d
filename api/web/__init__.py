"""The Flask app factory: `create_app(test_config=None)`."""
from __future__ import annotations

import os
from pathlib import Path

import redis
from flask import Flask, send_from_directory
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from swagger_ui_bundle import swagger_ui_path

from api.followups import RQFollowups
from api.store.games import GameStore
from api.web.errors import PostplayApi
from api.web.game_shapes import ShapesPlugin
from api.web.limits import MAX_BODY_BYTES, BoundedChunkedBody, BoundedJSONProvider

ROOT = Path(__file__).resolve().parents[2]


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(__name__, static_folder=str(ROOT / "web"), static_url_path="/static")
    app.json = BoundedJSONProvider(app)
    app.wsgi_app = BoundedChunkedBody(app.wsgi_app, MAX_BODY_BYTES)
    app.config.from_mapping(
        REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        SEEDS_DIR=str(ROOT / "seeds"),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        API_TITLE="Postplay",
        API_VERSION="v1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="api/v1/openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",
        API_SPEC_OPTIONS={"info": {"description": (
            "Play five small abstract number games by correspondence: against friends, against "
            "bots that think on the workers, or from any client. Every game's moves and states are "
            "in this document's schemas and in the project's docs/api.md; errors carry a "
            "`message` a player can read.")}},
        RATELIMIT_ENABLED=os.environ.get("POSTPLAY_RATELIMIT", "on") != "off",
        RATELIMIT_DEFAULT=os.environ.get("POSTPLAY_RATELIMIT_DEFAULT", "600 per minute"),
        RATELIMIT_HEADERS_ENABLED=True,
    )
    if test_config:
        app.config.update(test_config)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config["REDIS_URL"])

    client = redis.Redis.from_url(app.config["REDIS_URL"])
    app.extensions["postplay"] = {"redis": client, "store": GameStore(client),
                                  "followups": RQFollowups(client)}
    Limiter(get_remote_address, app=app)

    api = PostplayApi(app, spec_kwargs={"marshmallow_plugin": ShapesPlugin()})
    from api.web import games, kinds, playtests, system

    for module in (kinds, games, playtests, system):
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
        return send_from_directory(swagger_ui_path, name)

    return app
