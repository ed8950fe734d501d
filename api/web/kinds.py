"""GET /kinds and GET /kinds/{kind}/rules: straight from the game and bot registries."""

from __future__ import annotations

import inspect
from pathlib import Path

from flask import current_app
from flask.views import MethodView
from flask_smorest import abort

from api import clocks
from api.bots import levels
from api.games import GAMES
from api.players.ratings import bot_table
from api.record.reasons import reasons_of
from api.web.contract import operation
from api.web.errors import REDIS_UNREACHABLE, Blueprint
from api.web.rules_pages import to_html
from api.web.schemas import KindSchema, RulesSchema

blp = Blueprint(
    "kinds",
    __name__,
    url_prefix="/api/v1/kinds",
    description="The games, their options, moves, bots and time controls, and their rules.",
)


def describe(slug: str) -> dict:
    game = GAMES[slug]
    return {
        **game.describe(),
        "bots": [{"level": b.level, "line": b.line} for b in levels(slug).values()],
        "time_controls": {
            kind: {
                name: {"min": lo, "max": hi} for name, (lo, hi) in clocks.bounds(variant).items()
            }
            for kind, variant in clocks.VARIANTS.items()
        },
        "moves": [
            {
                "type": move.move_type,
                "schema": move.shape().name,
                "description": inspect.cleandoc(move.__doc__ or ""),
                "server_only": move.server_only,
            }
            for move in game.moves
        ],
        "reasons": reasons_of(game),
    }


@blp.route("")
class Kinds(MethodView):
    @operation("listKinds")
    @blp.response(200, KindSchema(many=True))
    def get(self):
        """The games"""
        return [describe(slug) for slug in GAMES]


@blp.route("/<kind>/rules")
class Rules(MethodView):
    @operation("getRules", refuses=(404,))
    @blp.response(200, RulesSchema)
    def get(self, kind: str):
        """A game's rules, as Postplay tells them (Markdown, and as HTML), ending with its bot
        levels' current ratings and game counts"""
        if kind not in GAMES:
            abort(404, message=f"There is no game {kind!r}.")
        path = Path(current_app.config["SEEDS_DIR"]) / f"{kind}.md"
        if not path.is_file():
            abort(404, message=f"The rules page for {kind!r} is not written yet.")
        text = path.read_text()
        # the bots' ratings as they stand now: they move with every rated game, so a table
        # generated into seeds/ would be stale at once; with Redis down the rules still stand
        try:
            text += bot_table(current_app.extensions["postplay"]["ratings"], kind)
        except REDIS_UNREACHABLE:
            pass
        return {"kind": kind, "format": "markdown", "text": text, "html": to_html(text)}
