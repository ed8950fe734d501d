"""The game resources: create, join, list, read, history, legal moves, move, resign."""
from __future__ import annotations

from flask import current_app, request
from flask.views import MethodView
from flask_smorest import abort

from api import analysis, play
from api.web.errors import DOMAIN_ERRORS, Blueprint, refuse
from api.web.game_shapes import per_kind
from api.web.schemas import (AnalysisArgsSchema, AnalysisSchema, GameCreateSchema,
                             GameListArgsSchema, GameSchema,
                             GameWithTokenSchema, GameWithTokensSchema, HistoryEntrySchema,
                             JoinSchema, LegalMovesSchema, MoveBodySchema)

# game objects typed per kind (their state too): a oneOf on `kind` in the document
GameOfKind, GameWithTokensOfKind, GameWithTokenOfKind = (
    per_kind(GameSchema), per_kind(GameWithTokensSchema), per_kind(GameWithTokenSchema))

blp = Blueprint("games", __name__, url_prefix="/api/v1/games",
                description="Games: create, join, read, move, resign.")


def _ctx():
    ext = current_app.extensions["postplay"]
    return ext["store"], ext["followups"]


def _load(game_id: str) -> dict:
    doc = _ctx()[0].load(game_id)
    if doc is None:
        abort(404, message=f"There is no game {game_id!r}.")
    return doc


def _seat(game_id: str) -> int:
    header = request.headers.get("Authorization", "")
    token = header[7:].strip() if header.lower().startswith("bearer ") else None
    try:
        return play.seat_of(_ctx()[0], game_id, token)
    except play.PlayError as exc:
        refuse(exc)


def _game_response(doc: dict) -> dict:
    """The game object, with its version as the ETag (304 on a matching If-None-Match)."""
    blp.set_etag({"id": doc["id"], "version": doc["version"]})
    return play.public(doc)


@blp.route("")
class Games(MethodView):
    @blp.etag
    @blp.arguments(GameCreateSchema)
    @blp.response(201, GameWithTokensOfKind)
    def post(self, body: dict):
        """Create a game"""
        store, followups = _ctx()
        try:
            doc, tokens = play.create_game(store, followups, body["kind"], body["options"],
                                           body["seats"], body["first"], body["time_control"])
        except DOMAIN_ERRORS as exc:
            refuse(exc)
        return {**_game_response(doc), "tokens": tokens}

    @blp.arguments(GameListArgsSchema, location="query")
    @blp.response(200, GameOfKind(many=True))
    @blp.paginate()
    def get(self, args: dict, pagination_parameters):
        """List games, newest first (filter by status and kind; paginated)"""
        docs, total = _ctx()[0].list(args.get("status"), args.get("kind"),
                                     pagination_parameters.first_item,
                                     pagination_parameters.page_size)
        pagination_parameters.item_count = total
        return [play.public(doc) for doc in docs]


@blp.route("/<game_id>")
class GameResource(MethodView):
    @blp.etag
    @blp.response(200, GameOfKind)
    def get(self, game_id: str):
        """A game (send If-None-Match with the ETag you have: 304 when nothing changed)"""
        return _game_response(_load(game_id))


@blp.route("/<game_id>/join")
class Join(MethodView):
    @blp.etag
    @blp.arguments(JoinSchema)
    @blp.response(201, GameWithTokenOfKind)
    def post(self, body: dict, game_id: str):
        """Take the first open seat"""
        store, followups = _ctx()
        try:
            doc, token, seat = play.join(store, followups, game_id, body["name"].strip())
        except play.PlayError as exc:
            refuse(exc)
        return {**_game_response(doc), "token": token, "seat": seat}


@blp.route("/<game_id>/moves")
class Moves(MethodView):
    @blp.response(200, HistoryEntrySchema(many=True))
    def get(self, game_id: str):
        """The history, passes and the server's own moves included"""
        _load(game_id)
        return _ctx()[0].moves(game_id)

    @blp.etag
    @blp.arguments(MoveBodySchema)
    @blp.response(201, GameOfKind)
    def post(self, body: dict, game_id: str):
        """Make a move (Authorization: Bearer <seat token>)"""
        store, followups = _ctx()
        seat = _seat(game_id)  # 404 for an unknown game, then 401 or 403
        try:
            doc = play.play_move(store, followups, game_id, seat, body["move"], body["ply"])
        except DOMAIN_ERRORS as exc:
            refuse(exc)
        return _game_response(doc)


@blp.route("/<game_id>/legal-moves")
class LegalMoves(MethodView):
    @blp.response(200, LegalMovesSchema)
    def get(self, game_id: str):
        """The legal moves of the seat to move"""
        doc = _load(game_id)
        state = play.load_state(doc)
        seat = state.to_move if doc["status"] == "active" else None
        if seat is None:
            return {"seat": None, "ply": doc["ply"], "moves": [], "complete": True,
                    "note": "Nobody is to move." if doc["status"] == "finished"
                    else "The game has not started."}
        return {"seat": seat, "ply": doc["ply"], **state.legal_moves_listing()}


@blp.route("/<game_id>/resign")
class Resign(MethodView):
    @blp.etag
    @blp.response(201, GameOfKind)
    def post(self, game_id: str):
        """Resign (Authorization: Bearer <seat token>)"""
        store, followups = _ctx()
        seat = _seat(game_id)  # 404 for an unknown game, then 401 or 403
        try:
            doc = play.resign(store, followups, game_id, seat)
        except play.PlayError as exc:
            refuse(exc)
        return _game_response(doc)


@blp.route("/<game_id>/analysis")
class Analysis(MethodView):
    @blp.arguments(AnalysisArgsSchema, location="query")
    @blp.response(200, AnalysisSchema)
    @blp.alt_response(202, description="Being computed on a worker: ask again after Retry-After "
                                       "seconds.")
    def get(self, args: dict, game_id: str):
        """Perfect-play verdicts for a position (the current one, or `?ply=`)"""
        store, followups = _ctx()
        doc = _load(game_id)
        try:
            result = analysis.analysis(store, followups, doc, args.get("ply"))
        except DOMAIN_ERRORS as exc:
            refuse(exc)
        if result is None:
            return {"ply": args.get("ply", doc["ply"]), "pending": True}, 202, {"Retry-After": "1"}
        return result
