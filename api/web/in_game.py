"""What players do in a game besides moving: draw offers, takebacks, chat, export and import;
and the account's vacation switch, which stands its correspondence clocks still."""

from __future__ import annotations

from flask import current_app
from flask.views import MethodView

from api.play import archive, chat, offers, vacation
from api.record.errors import OtherGamesToken
from api.record import Offer
from api.web.auth import account, bearer_token
from api.web.contract import operation
from api.web.errors import Blueprint
from api.web.games import GameOfKind, _ctx, _game_response, _seat
from api.web.in_game_schemas import (
    ChatMessageSchema,
    ChatPostSchema,
    DrawSchema,
    ExportSchema,
    TakebackSchema,
    VacationSchema,
    VacationSwitchSchema,
)

blp = Blueprint(
    "in_game",
    __name__,
    url_prefix="/api/v1",
    description="In a game: draw offers, takebacks, chat, export and import; the "
    "vacation that stands an account's correspondence clocks still.",
)


def _accounts():
    return current_app.extensions["postplay"]["accounts"]


def _act(game_id: str, offer: Offer, word: str) -> dict:
    store, followups = _ctx()
    seat = _seat(game_id)  # 404 for an unknown game, then 401 or 403
    record = offers.act(store, followups, _accounts(), game_id, seat, offer, word)
    return _game_response(record)


@blp.route("/games/<id:game_id>/draw")
class Draw(MethodView):
    @operation("offerDraw", auth=("seat", "account:play"), refuses=(400, 401, 403, 404, 409, 422))
    @blp.etag
    @blp.arguments(DrawSchema)
    @blp.response(201, GameOfKind)
    def post(self, body: dict, game_id: str):
        """Offer a draw on your turn, or accept or decline your opponent's offer (seat token)"""
        return _act(game_id, Offer.DRAW, body["action"])


@blp.route("/games/<id:game_id>/takeback")
class Takeback(MethodView):
    @operation("askTakeback", auth=("seat", "account:play"), refuses=(400, 401, 403, 404, 409, 422))
    @blp.etag
    @blp.arguments(TakebackSchema)
    @blp.response(201, GameOfKind)
    def post(self, body: dict, game_id: str):
        """Ask to take your last move back, or grant or refuse your opponent's request (seat
        token)"""
        return _act(game_id, Offer.TAKEBACK, body["action"])


@blp.route("/games/<id:game_id>/chat")
class Chat(MethodView):
    @operation("readChat", auth=("seat", "account:play"), anonymous=True, refuses=(401, 403, 404))
    @blp.response(200, ChatMessageSchema(many=True))
    def get(self, game_id: str):
        """The game's chat: its players read it at any time (seat token), everyone once the
        game is over"""
        try:
            seat = _seat(game_id) if bearer_token() else None
        except OtherGamesToken:  # a token of another game, or an account without a seat here
            seat = None
        return chat.read(_ctx()[0], game_id, seat)

    @operation("postChat", auth=("seat", "account:play"), refuses=(401, 403, 404, 409))
    @blp.arguments(ChatPostSchema)
    @blp.response(201, ChatMessageSchema)
    def post(self, body: dict, game_id: str):
        """Say something in the game's chat: players only (seat token), plain text"""
        seat = _seat(game_id)
        return chat.post(_ctx()[0], game_id, seat, body["text"])


@blp.route("/games/<id:game_id>/export")
class Export(MethodView):
    @operation("exportGame", auth=("seat", "account:play"), anonymous=True, refuses=(401, 403, 404))
    @blp.response(200, ExportSchema)
    def get(self, game_id: str):
        """The whole game as one JSON document (setup, history, result), for POST
        /games/import; with a seat's token, that seat's private notes too"""
        try:
            seat = _seat(game_id) if bearer_token() else None
        except OtherGamesToken:  # a token of another game, or an account without a seat here
            seat = None
        return archive.export(_ctx()[0], game_id, seat)


@blp.route("/games/import")
class Import(MethodView):
    @operation("importGame", refuses=(422,))
    @blp.etag
    @blp.arguments(ExportSchema)
    @blp.response(201, GameOfKind)
    def post(self, body: dict):
        """Import a finished game's exported document: replayed by the engine, refused naming
        the ply at fault; the new game is marked imported and unrated"""
        return _game_response(archive.import_game(_ctx()[0], body))


@blp.route("/me/vacation")
class Vacation(MethodView):
    @operation("getVacation", auth=("account:read",), refuses=(401, 403))
    @blp.response(200, VacationSchema)
    def get(self):
        """Your vacation: on or off, and the days left"""
        who = account()
        who.require("read")
        return vacation.view(_accounts(), who.account)

    @operation("setVacation", auth=("account:play",), refuses=(401, 403, 409))
    @blp.arguments(VacationSwitchSchema)
    @blp.response(200, VacationSchema)
    def put(self, body: dict):
        """Go on vacation or come back: your correspondence games' clocks stand still meanwhile
        (their deadlines move on by the time spent)"""
        return vacation.switch(_ctx()[0], _accounts(), account(), body["on"])
