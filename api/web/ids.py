"""The ids a path may carry, matched at the route: `/games/<id:game_id>` and the like. A path
whose id has another shape (`<id>:moves`, a slash, 1,000 characters) matches no route and is a
404 before any view, so no id reaches Redis but one that names the resource's own key."""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api
from werkzeug.routing import BaseConverter

from api.players.accounts import FOUND_NAME
from api.store.keys import ID_PATTERN


class IdConverter(BaseConverter):
    """A game's, playtest's, sweep's, webhook's or token's id."""

    regex = ID_PATTERN


class NameConverter(BaseConverter):
    """An account's user name, as profiles look it up."""

    regex = FOUND_NAME.pattern


def init_ids(app: Flask, api: Api) -> None:
    """Register the converters, before the blueprints name them; the document gives each path
    parameter its pattern."""
    for name, converter in (("id", IdConverter), ("name", NameConverter)):
        app.url_map.converters[name] = converter
        api.register_converter(converter, lambda c: {"type": "string", "pattern": f"^{c.regex}$"})
