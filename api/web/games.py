"""The game resources: create, join, list, read, history, legal moves, move, resign."""

from __future__ import annotations


from flask import current_app, request
from flask.views import MethodView

from api import analysis
from api.games import MalformedMove
from api.play import service as play
from api.record.errors import OverBudget
from api.record import GameRecord, Status
from api.players import ratings
from api.store.analyses import AnalysisStore
from api.store.games import GameStore
from api.play.view import game_view
from api.web.auth import account, bearer_token
from api.web.contract import operation
from api.web.errors import Blueprint, abort
from api.web.fast_paths import game_etag_data
from api.web.game_shapes import per_kind
from api.web.input_bounds import MAX_JSON_DEPTH, BadJson, load_json
from api.web.schemas import (
    AnalysisArgsSchema,
    AnalysisSchema,
    ClaimSchema,
    GameAnalysisSchema,
    GameCreateSchema,
    GameListArgsSchema,
    GameSchema,
    GameWithTokenSchema,
    GameWithTokensSchema,
    HistoryEntrySchema,
    JoinSchema,
    LegalMovesArgsSchema,
    LegalMovesSchema,
    MoveBodySchema,
    PENDING,
    PositionsArgsSchema,
    PositionSchema,
)

# game objects typed per kind (their state too): a oneOf on `kind` in the document
GameOfKind, GameWithTokensOfKind, GameWithTokenOfKind = (
    per_kind(GameSchema),
    per_kind(GameWithTokensSchema),
    per_kind(GameWithTokenSchema),
)

blp = Blueprint(
    "games",
    __name__,
    url_prefix="/api/v1/games",
    description="Games: create, join, read, move, resign.",
)


def _ctx() -> tuple[GameStore, play.Followups]:
    ext = current_app.extensions["postplay"]
    return ext["store"], ext["followups"]


def _accounts():
    return current_app.extensions["postplay"]["accounts"]


def _ratings():
    return current_app.extensions["postplay"]["ratings"]


def _load(game_id: str) -> GameRecord:
    record = _ctx()[0].load(game_id)
    if record is None:
        abort(404, message=f"There is no game {game_id!r}.")
    return record


def _seat(game_id: str) -> int:
    """The seat the request's token holds: a seat token's, or the account's seat."""
    return play.seat_of(_ctx()[0], game_id, bearer_token(), account(required=False))


def public(record: GameRecord) -> dict:
    """The game object of the API (`api.play.view`, which the webhooks' workers share)."""
    return game_view(record)


def with_seat_ratings(records: list[GameRecord]) -> list[dict]:
    """The game objects, each seat of an account or a server bot with its current rating."""
    found = ratings.seat_ratings(_ratings(), records)
    out = []
    for record in records:
        game = public(record)
        for seat, rating in zip(game["seats"], found[record.id]):
            if rating is not None:
                seat["rating"] = rating
        out.append(game)
    return out


def _game_response(record: GameRecord) -> dict:
    """The game object, with its version as the ETag (304 on a matching If-None-Match)."""
    _set_version_etag(record.id, record.version)
    return public(record)


def _set_version_etag(game_id: str, version: int) -> None:
    """The game's ETag: its id and version (raises NotModified, a 304, when the request's
    If-None-Match has it)."""
    blp.set_etag(game_etag_data(game_id, version))


@blp.route("")
class Games(MethodView):
    @operation("createGame", auth=("account:play",), anonymous=True, refuses=(401, 403, 422, 429))
    @blp.etag
    @blp.arguments(GameCreateSchema)
    @blp.response(201, GameWithTokensOfKind)
    def post(self, body: dict):
        """Create a game"""
        store, followups = _ctx()
        record, tokens = play.create_game(
            store,
            followups,
            body["kind"],
            body["options"],
            body["seats"],
            body["first"],
            body["time_control"],
            client=request.remote_addr,
            account=account(required=False),
            accounts=_accounts(),
            rated=body["rated"],
        )
        return {**_game_response(record), "tokens": tokens}

    @operation("listGames")
    @blp.arguments(GameListArgsSchema, location="query")
    @blp.response(200, GameOfKind(many=True))
    @blp.paginate()
    def get(self, args: dict, pagination_parameters):
        """List games, newest first (filter by status and kind; paginated); each seat of an
        account or a server bot shows its current rating"""
        records, total = _ctx()[0].list(
            args.get("status"),
            args.get("kind"),
            pagination_parameters.first_item,
            pagination_parameters.page_size,
        )
        pagination_parameters.item_count = total
        return with_seat_ratings(records)


@blp.route("/<id:game_id>")
class GameResource(MethodView):
    @operation("getGame", refuses=(404,))
    @blp.etag
    @blp.response(200, GameOfKind)
    def get(self, game_id: str):
        """A game (send If-None-Match with the ETag you have: 304 when nothing changed)"""
        if request.if_none_match:  # a poll, most often answered 304: known from the version
            version = _ctx()[0].version(game_id)
            if version is not None:
                _set_version_etag(game_id, version)
        return _game_response(_load(game_id))


@blp.route("/<id:game_id>/join")
class Join(MethodView):
    @operation(
        "joinGame", auth=("account:play",), anonymous=True, refuses=(401, 403, 404, 409, 422)
    )
    @blp.etag
    @blp.arguments(JoinSchema)
    @blp.response(201, GameWithTokenOfKind)
    def post(self, body: dict, game_id: str):
        """Take the first open seat (with an account token, as that account: a rated game or
        a seat with a rating range needs one that fits)"""
        store, followups = _ctx()
        record, token, seat = play.join(
            store,
            followups,
            game_id,
            body["name"],
            account=account(required=False),
            ratings=_ratings(),
        )
        return {**_game_response(record), "token": token, "seat": seat}


@blp.route("/<id:game_id>/moves")
class Moves(MethodView):
    @operation("listMoves", refuses=(404,))
    @blp.response(200, HistoryEntrySchema(many=True))
    def get(self, game_id: str):
        """The history, passes and the server's own moves included"""
        _load(game_id)
        return _ctx()[0].moves(game_id)

    @operation("makeMove", auth=("seat", "account:play"), refuses=(400, 401, 403, 404, 409, 422))
    @blp.etag
    @blp.arguments(MoveBodySchema)
    @blp.response(201, GameOfKind)
    def post(self, body: dict, game_id: str):
        """Make a move (Authorization: Bearer <seat token>)"""
        # 404 for an unknown game, then 401 or 403
        record = play.move_by_token(
            *_ctx(), game_id, bearer_token(), account(required=False), body["move"], body["ply"]
        )
        return _game_response(record)


@blp.route("/<id:game_id>/positions")
class Positions(MethodView):
    @operation("listPositions", refuses=(400, 404, 422))
    @blp.arguments(PositionsArgsSchema, location="query")
    @blp.response(200, PositionSchema(many=True))
    def get(self, args: dict, game_id: str):
        """The state after every ply from `?from=` on, computed by the server's engine, so a
        client draws a replay without knowing the rules"""
        store = _ctx()[0]
        record = _load(game_id)
        return [
            {
                "ply": ply,
                "state": state.view(),
                "to_move": state.to_move,
                "move": None if entry is None else entry["move"],
                "words": words,
            }
            for ply, state, entry, words in play.told_positions(
                record, store.moves(game_id), args["from_"]
            )
        ]


@blp.route("/<id:game_id>/legal-moves")
class LegalMoves(MethodView):
    @operation("listLegalMoves", refuses=(400, 404))
    @blp.arguments(LegalMovesArgsSchema, location="query", as_kwargs=True)
    @blp.response(200, LegalMovesSchema)
    def get(self, game_id: str, move: str | None = None):
        """The legal moves of the seat to move (or whether one move is legal: ?move=)"""
        record = _load(game_id)
        seat = record.to_move
        if seat is None:
            return {
                "seat": None,
                "ply": record.ply,
                "moves": [],
                "words": [],
                "complete": True,
                "note": "Nobody is to move."
                if record.status is Status.FINISHED
                else "The game has not started.",
            }
        if move is not None:
            try:  # bounded as a body is: a move nested 1,200 deep is a 400, not a RecursionError
                data = load_json(move)
            except BadJson:
                raise MalformedMove(
                    "Query move must be a move as JSON, nested at most "
                    f"{MAX_JSON_DEPTH} levels deep.",
                    "move",
                ) from None
            return {"seat": seat, "ply": record.ply, **play.check_move(record, data)}
        return {"seat": seat, "ply": record.ply, **record.state().legal_moves_listing()}


@blp.route("/<id:game_id>/resign")
class Resign(MethodView):
    @operation("resign", auth=("seat", "account:play"), refuses=(401, 403, 404, 409))
    @blp.etag
    @blp.response(201, GameOfKind)
    def post(self, game_id: str):
        """Resign (Authorization: Bearer <seat token>)"""
        store, followups = _ctx()
        seat = _seat(game_id)  # 404 for an unknown game, then 401 or 403
        record = play.resign(store, followups, game_id, seat)
        return _game_response(record)


@blp.route("/<id:game_id>/claim")
class Claim(MethodView):
    @operation("claimSeat", auth=("account:play",), refuses=(401, 403, 404, 409))
    @blp.etag
    @blp.arguments(ClaimSchema)
    @blp.response(201, GameOfKind)
    def post(self, body: dict, game_id: str):
        """Bind an anonymous seat (its token in the body) to your account"""
        record = play.claim(_ctx()[0], game_id, body["seat_token"], account())
        return _game_response(record)


@blp.route("/<id:game_id>/accept")
class Accept(MethodView):
    @operation("acceptChallenge", auth=("account:challenge",), refuses=(401, 403, 404, 409))
    @blp.etag
    @blp.response(201, GameOfKind)
    def post(self, game_id: str):
        """Accept a challenge to your account: the game starts"""
        record = play.accept(*_ctx(), game_id, account())
        return _game_response(record)


@blp.route("/<id:game_id>/decline")
class Decline(MethodView):
    @operation("declineChallenge", auth=("account:challenge",), refuses=(401, 403, 404, 409))
    @blp.etag
    @blp.response(201, GameOfKind)
    def post(self, game_id: str):
        """Decline a challenge to your account: the game is aborted"""
        record = play.decline(*_ctx(), game_id, account())
        return _game_response(record)


@blp.route("/<id:game_id>/rematch")
class Rematch(MethodView):
    @operation("rematch", auth=("seat", "account:play"), refuses=(401, 403, 404, 409))
    @blp.etag
    @blp.response(201, GameWithTokensOfKind)
    @blp.alt_response(
        200,
        schema=GameWithTokensOfKind,
        description="The game's rematch, made already (by either side): the same "
        "game, with no tokens.",
    )
    def post(self, game_id: str):
        """A new game, the seats swapped (your seat token or account token; for an opponent
        with an account it is a challenge); a game has one rematch"""
        seat = play.seat_of(_ctx()[0], game_id, bearer_token(), account(required=False))
        record, tokens, made = play.rematch(
            *_ctx(), game_id, seat, account(required=False), _accounts(), request.remote_addr
        )
        return {**_game_response(record), "tokens": tokens}, 201 if made else 200


@blp.route("/<id:game_id>/analysis")
class Analysis(MethodView):
    @operation("getAnalysis", refuses=(400, 404, 409, 422))
    @blp.arguments(AnalysisArgsSchema, location="query")
    @blp.response(200, AnalysisSchema)
    @blp.alt_response(202, **PENDING)
    def get(self, args: dict, game_id: str):
        """A position's analysis (the current one, or `?ply=`): exact where a solver exists,
        else the strongest bot's estimate"""
        store, followups = _ctx()
        record = _load(game_id)
        result = analysis.analysis(store, followups, record, args.get("ply"))
        if result is None:
            return (
                {"ply": args.get("ply", record.ply), "pending": True},
                202,
                {"Retry-After": "1"},
            )
        return result


@blp.route("/<id:game_id>/analysis/plies")
class GameAnalysis(MethodView):
    @operation("getGameAnalysis", refuses=(404, 409, 422, 429))
    @blp.response(200, GameAnalysisSchema)
    @blp.alt_response(202, **PENDING)
    @blp.alt_response(
        429,
        description="The client has 2 analyses of whole games queued or "
        "running, or has used this hour's CPU allowance: ask "
        "again after Retry-After seconds.",
    )
    def get(self, game_id: str):
        """Every move of the game so far judged: its verdict or value for its mover, the best
        move, whether it was a mistake; and each position's value for the value graph"""
        store, followups = _ctx()
        record = _load(game_id)
        analyses = AnalysisStore(current_app.extensions["postplay"]["redis"])
        try:
            result = analysis.game_analysis(
                store, analyses, followups, record, request.remote_addr or ""
            )
        except OverBudget as refused:
            abort(429, message=refused.message, headers={"Retry-After": str(refused.retry_after_s)})
        if result is None:
            return {"ply": record.ply, "pending": True}, 202, {"Retry-After": "2"}
        return result
