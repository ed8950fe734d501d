"""GET /leaderboards/{kind}: the best rated accounts of a game, provisional ratings marked."""

from __future__ import annotations

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from flask_smorest import abort
from marshmallow import fields, validate

from api.games import GAMES
from api.players import ratings
from api.web.contract import operation
from api.web.errors import Blueprint

blp = Blueprint(
    "ratings",
    __name__,
    url_prefix="/api/v1/leaderboards",
    description="Leaderboards: Glicko-2 ratings per game, the server's bots included.",
)


class LeaderboardArgsSchema(ma.Schema):
    limit = fields.Integer(
        load_default=50,
        validate=validate.Range(min=1, max=ratings.MAX_LEADERBOARD),
        metadata={"description": "How many (default 50)."},
    )


class LeaderRowSchema(ma.Schema):
    rank = fields.Integer()
    username = fields.String()
    bot = fields.Boolean(
        metadata={
            "description": "An account run by a program (the server's bot levels among them)."
        }
    )
    rating = fields.Integer()
    rd = fields.Float(metadata={"description": "Rating deviation: how unsure the rating is."})
    volatility = fields.Float()
    games = fields.Integer(metadata={"description": "Rated games (ladder games included)."})
    provisional = fields.Boolean(metadata={"description": "RD above 110: shown as 1620?"})


class LeaderboardSchema(ma.Schema):
    kind = fields.String()
    players = fields.List(fields.Nested(LeaderRowSchema))


@blp.route("/<kind>")
class Leaderboard(MethodView):
    @operation("getLeaderboard", refuses=(404,))
    @blp.arguments(LeaderboardArgsSchema, location="query")
    @blp.response(200, LeaderboardSchema)
    def get(self, args: dict, kind: str):
        """The best rated accounts of a game, best first (provisional ones marked)"""
        if kind not in GAMES:
            abort(404, message=f"There is no game {kind!r}.")
        ext = current_app.extensions["postplay"]
        return {
            "kind": kind,
            "players": ratings.leaderboard(ext["ratings"], ext["accounts"], kind, args["limit"]),
        }
