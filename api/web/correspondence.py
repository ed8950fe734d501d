"""Correspondence tools: a seat's conditional moves and private notes, and the explore board."""

from __future__ import annotations

import functools
from typing import cast

import marshmallow as ma
from flask import request
from flask.views import MethodView
from marshmallow import fields, validate

from api.games import Game
from api.play import correspondence, explore
from api.web.contract import operation
from api.web.errors import Blueprint
from api.web.game_shapes import (
    KindsField,
    MoveField,
    MovesField,
    StateField,
    kind_name,
    per_kind,
)
from api.web.games import _ctx, _seat
from api.web.schemas import StrictSchema

blp = Blueprint(
    "correspondence",
    __name__,
    url_prefix="/api/v1",
    description="Correspondence tools: conditional moves and private notes (their "
    "seat's alone), and the explore board.",
)

# a tree of a thousand moves takes more than the body of any other request
TREE_BODY_BYTES = 256 * 1024


@blp.before_request
def _room_for_a_tree() -> None:
    if request.endpoint == "correspondence.Conditional" and request.method == "PUT":
        request.max_content_length = TREE_BODY_BYTES


@functools.cache
def node_schema(game: type[Game] | None = None) -> type[StrictSchema]:
    """A conditional tree's node, its moves of every kind (what the server reads: the game's
    engine checks them) or, as the document shows it once per kind, of `game` alone."""
    kind = None if game is None else game.slug
    name = "ConditionalNodeSchema"
    declared = {
        "if_": MovesField(
            "player",
            kind,
            data_key="if",
            attribute="if",
            required=True,
            metadata={
                "description": "Your opponent's move (a list: their whole turn of several actions)."
            },
        ),
        "then": MovesField(
            "player",
            kind,
            required=True,
            metadata={
                "description": "Your answer, played by the server in the same write (a list: "
                "your whole turn of several actions)."
            },
        ),
        "next": fields.List(
            fields.Nested(lambda: node_schema(game)()),
            metadata={
                "description": "The branches that stand for your opponent's move after `then`."
            },
        ),
    }
    return cast(
        "type[StrictSchema]",
        StrictSchema.from_dict(declared, name=name if game is None else kind_name(game, name)),
    )


class ConditionalBodySchema(StrictSchema):
    ply = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0),
        metadata={"description": "The game's ply as you saw it, after your move."},
    )
    tree = KindsField(
        fields.List(fields.Nested(node_schema())),
        node_schema,
        required=True,
        metadata={
            "description": f"At most {correspondence.MAX_NODES} nodes, "
            f"{correspondence.MAX_LEVELS} levels deep, of the game's kind; [] drops the tree."
        },
    )


class ConditionalSchema(ma.Schema):
    kind = fields.String(metadata={"description": "The game's kind."})
    ply = fields.Integer(required=True, metadata={"description": "The ply the tree's top answers."})
    tree = fields.List(fields.Nested(node_schema()))


def _tree_of_kind(game: type[Game]) -> dict[str, fields.Field]:
    return {"tree": fields.List(fields.Nested(node_schema(game)), required=True)}


# a tree typed per kind (its moves the kind's): a oneOf on `kind` in the document
ConditionalOfKind = per_kind(ConditionalSchema, _tree_of_kind)


class NotesSchema(StrictSchema):
    text = fields.String(
        required=True,
        metadata={"description": f"Plain text, at most {correspondence.MAX_NOTES:,} characters."},
    )


class ExploreBodySchema(StrictSchema):
    options = fields.Dict(
        load_default=None,
        metadata={
            "description": "Starting from a new game's position: its options (seat 0 first)."
        },
    )
    state = StateField(
        load_default=None,
        metadata={"description": "Starting from this state, as a game object's `state` shows it."},
    )
    game_id = fields.String(
        load_default=None,
        validate=validate.Length(max=40),
        metadata={"description": "Starting from this game's position at `ply`."},
    )
    ply = fields.Integer(
        load_default=None,
        strict=True,
        validate=validate.Range(min=0),
        metadata={
            "description": "With `game_id`: the ply to start at (its current one by default)."
        },
    )
    moves = fields.List(
        MoveField("player"),
        required=True,
        metadata={"description": f"At most {explore.MAX_MOVES} moves, played in order."},
    )


class ExplorePositionSchema(ma.Schema):
    ply = fields.Integer()
    state = StateField(metadata={"description": "The state, as the game object's `state`."})
    to_move = fields.Integer(allow_none=True)
    move = MoveField(
        "played",
        allow_none=True,
        metadata={"description": "The move that led here; null at the start."},
    )
    words = fields.String(
        allow_none=True,
        metadata={"description": "That move in the game's notation; null at the start."},
    )


class ExploreOutcomeSchema(ma.Schema):
    winner = fields.Integer(allow_none=True)
    reason = fields.String()
    scores = fields.List(fields.Integer(), allow_none=True)


class ExploreSchema(ma.Schema):
    positions = fields.List(
        fields.Nested(ExplorePositionSchema),
        metadata={
            "description": "The start, then the position after every ply (the server's passes "
            "included), as a game's /positions shows them."
        },
    )
    legal_moves = fields.List(
        MoveField("listed"), metadata={"description": "The legal moves in the last position."}
    )
    complete = fields.Boolean(metadata={"description": "Whether `legal_moves` lists them all."})
    note = fields.String(allow_none=True)
    outcome = fields.Nested(ExploreOutcomeSchema, allow_none=True)


@blp.route("/games/<id:game_id>/conditional")
class Conditional(MethodView):
    @operation("getConditionalMoves", auth=("seat", "account:play"), refuses=(401, 403, 404))
    @blp.response(200, ConditionalOfKind)
    def get(self, game_id: str):
        """Your conditional moves in this game (your seat's token): yours alone"""
        return correspondence.get_tree(_ctx()[0], game_id, _seat(game_id))

    @operation(
        "setConditionalMoves", auth=("seat", "account:play"), refuses=(400, 401, 403, 404, 409, 422)
    )
    @blp.arguments(ConditionalBodySchema)
    @blp.response(200, ConditionalOfKind)
    def put(self, body: dict, game_id: str):
        """Set your conditional moves after your move: if your opponent plays an `if`, the
        server answers its `then` at once; any other move drops them"""
        seat = _seat(game_id)  # 404 for an unknown game, then 401 or 403
        return correspondence.set_tree(_ctx()[0], game_id, seat, body["ply"], body["tree"])

    @operation("dropConditionalMoves", auth=("seat", "account:play"), refuses=(401, 403, 404))
    @blp.response(204)
    def delete(self, game_id: str):
        """Drop your conditional moves"""
        correspondence.drop_tree(_ctx()[0], game_id, _seat(game_id))


@blp.route("/games/<id:game_id>/notes")
class Notes(MethodView):
    @operation("getNotes", auth=("seat", "account:play"), refuses=(401, 403, 404))
    @blp.response(200, NotesSchema)
    def get(self, game_id: str):
        """Your private notes on this game (your seat's token): never shown to anyone else"""
        return correspondence.get_notes(_ctx()[0], game_id, _seat(game_id))

    @operation("setNotes", auth=("seat", "account:play"), refuses=(400, 401, 403, 404, 422))
    @blp.arguments(NotesSchema)
    @blp.response(200, NotesSchema)
    def put(self, body: dict, game_id: str):
        """Replace your private notes (empty text removes them); your export keeps them"""
        seat = _seat(game_id)
        return correspondence.set_notes(_ctx()[0], game_id, seat, body["text"])


@blp.route("/kinds/<kind>/explore")
class Explore(MethodView):
    @operation("explore", refuses=(400, 404, 409, 422))
    @blp.arguments(ExploreBodySchema)
    @blp.response(200, ExploreSchema)
    def post(self, body: dict, kind: str):
        """Try moves from a position without touching any game: the positions, the legal
        moves and the outcome (no verdict, no bot move)"""
        return explore.explore(
            _ctx()[0],
            kind,
            body["moves"],
            body["options"],
            body["state"],
            body["game_id"],
            body["ply"],
        )
