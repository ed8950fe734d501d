"""The event resources: tournaments (create, list, read, join, leave, start, cancel) and the
standing ladder of each kind (read, join, challenge). Every step of a running tournament is the
workers' (`api.events.service.advance`); these routes only change what players ask for."""

from __future__ import annotations

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from marshmallow import fields, validate

from api.events import ladders
from api.events import service as events
from api.events.service import EventConflict, NotOrganiser
from api.play.view import game_view
from api.store.tournaments import STATUSES, TournamentStore
from api.web.auth import account
from api.web.contract import operation
from api.web.errors import Blueprint, abort
from api.web.games import GameOfKind
from api.web.schemas import OneOfField, ResultSchema, TimeControlSchema

ENTERED = 100  # the tournaments a player's list shows, newest entry first

blp = Blueprint(
    "events",
    __name__,
    url_prefix="/api/v1",
    description="Events: round-robin, Swiss and knockout tournaments, and a "
    "standing ladder per game.",
)


def _ext():
    return current_app.extensions["postplay"]


def _tournaments() -> TournamentStore:
    return TournamentStore(_ext()["redis"])


def _answer(call, *args, **kwargs):
    """A service call; its refusals naming their field (409 for what does not fit the event as
    it stands, 403 for a non-organiser)."""
    try:
        return call(*args, **kwargs)
    except EventConflict as exc:
        abort(409, message=exc.message, errors={"json": {exc.field: [exc.message]}})
    except NotOrganiser as exc:
        abort(403, message=exc.message, errors={"json": {exc.field: [exc.message]}})


class EventRatingRangeSchema(ma.Schema):
    min = fields.Integer(required=True, validate=validate.Range(min=0, max=4000))
    max = fields.Integer(required=True, validate=validate.Range(min=0, max=4000))


class TournamentCreateSchema(ma.Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))
    kind = fields.String(required=True)
    options = fields.Dict(load_default=None)
    time_control = OneOfField(TimeControlSchema, load_default=None, allow_none=True)
    format = fields.String(required=True, metadata={"enum": list(events.FORMATS)})
    rounds = fields.Integer(
        load_default=None,
        metadata={
            "description": f"Swiss only: 1 to {events.MAX_ROUNDS}, and fewer than max_players."
        },
    )
    double = fields.Boolean(
        load_default=False,
        metadata={
            "description": "Round-robin only: each pair plays twice, the first move swapped."
        },
    )
    max_players = fields.Integer(
        required=True, validate=validate.Range(min=2, max=events.MAX_PLAYERS)
    )
    min_players = fields.Integer(load_default=2, validate=validate.Range(min=2))
    starts_at = fields.DateTime(required=True)
    rated = fields.Boolean(load_default=True)
    rating_range = fields.Nested(EventRatingRangeSchema, load_default=None)
    invite_only = fields.Boolean(load_default=False)


class TournamentListArgsSchema(ma.Schema):
    status = fields.String(validate=validate.OneOf(STATUSES))
    kind = fields.String()


class JoinTournamentSchema(ma.Schema):
    invite = fields.String(
        load_default=None, metadata={"description": "The invite code of an invite-only tournament."}
    )
    player = fields.String(
        load_default=None,
        metadata={
            "description": "The organiser only: a server bot's account to enter (bot-<kind>-<level>)."
        },
    )


class PairingSchema(ma.Schema):
    seats = fields.List(fields.String(), metadata={"description": "First mover first."})
    game_id = fields.String()
    result = OneOfField(
        ResultSchema,
        allow_none=True,
        metadata={
            "description": "The game's result (winner and reason) once it is over; null until then."
        },
    )
    replay = fields.Integer(metadata={"description": "Knockout: which replay of a drawn game."})


class RoundSchema(ma.Schema):
    round = fields.Integer()
    pairings = fields.List(fields.Nested(PairingSchema))
    byes = fields.List(fields.String())


class StandingSchema(ma.Schema):
    rank = fields.Integer()
    player = fields.String()
    score = fields.Float()
    tiebreaks = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        metadata={
            "description": "Round-robin: sonneborn_berger, direct_encounter, wins; Swiss: "
            "buchholz_cut1, sonneborn_berger, wins; knockout: wins."
        },
    )
    played = fields.Integer()
    wins = fields.Integer()


class EntrantSchema(ma.Schema):
    player = fields.String()
    bot = fields.Boolean()
    rating = fields.Integer()
    seed = fields.Integer(allow_none=True)
    withdrawn = fields.Boolean()


class CrosstableRowSchema(ma.Schema):
    player = fields.String()
    results = fields.Dict(keys=fields.String(), values=fields.List(fields.Float()))


class TournamentSchema(ma.Schema):
    id = fields.String()
    name = fields.String()
    kind = fields.String()
    options = fields.Dict()
    time_control = OneOfField(TimeControlSchema)
    format = fields.String()
    rounds_planned = fields.Integer(allow_none=True)
    double = fields.Boolean()
    max_players = fields.Integer()
    min_players = fields.Integer()
    rated = fields.Boolean()
    rating_range = fields.Nested(EventRatingRangeSchema, allow_none=True)
    invite_only = fields.Boolean()
    invite = fields.String(metadata={"description": "Shown to the organiser only."})
    status = fields.String(metadata={"enum": list(STATUSES)})
    version = fields.Integer()
    organiser = fields.String()
    starts_at = fields.String()
    created_at = fields.String()
    updated_at = fields.String()
    players = fields.List(fields.Nested(EntrantSchema))
    standings = fields.List(fields.Nested(StandingSchema))
    rounds = fields.List(fields.Nested(RoundSchema))
    crosstable = fields.List(fields.Nested(CrosstableRowSchema))


class PlayerEventSchema(ma.Schema):
    id = fields.String()
    name = fields.String()
    kind = fields.String()
    format = fields.String(metadata={"enum": list(events.FORMATS)})
    status = fields.String(metadata={"enum": list(STATUSES)})
    placing = fields.Integer(
        allow_none=True, metadata={"description": "The player's rank once it is over; null until."}
    )
    score = fields.Float(
        metadata={"description": "The player's score: final once it is over, so far until then."}
    )


class LadderRankSchema(ma.Schema):
    rank = fields.Integer()
    player = fields.String()
    open_game = fields.String(allow_none=True)


class LadderSchema(ma.Schema):
    kind = fields.String()
    ranks = fields.List(fields.Nested(LadderRankSchema))


class ChallengeSchema(ma.Schema):
    rank = fields.Integer(required=True, validate=validate.Range(min=1))


def _view(doc: dict) -> dict:
    who = account(required=False)
    return events.view(doc, None if who is None else who.id)


def _load(tid: str) -> dict:
    doc = _tournaments().load(tid)
    if doc is None:
        abort(404, message=f"There is no tournament {tid!r}.")
    return doc


@blp.route("/tournaments")
class Tournaments(MethodView):
    @operation("createTournament", auth=("account:play",), refuses=(401, 403, 409, 422))
    @blp.arguments(TournamentCreateSchema)
    @blp.response(201, TournamentSchema)
    def post(self, body: dict):
        """Create a tournament, the caller its organiser"""
        body["starts_at"] = body["starts_at"].timestamp()
        return _view(_answer(events.create, _tournaments(), account(), body))

    @operation("listTournaments", auth=("account",), anonymous=True, refuses=(401,))
    @blp.arguments(TournamentListArgsSchema, location="query")
    @blp.response(200, TournamentSchema(many=True))
    @blp.paginate()
    def get(self, args: dict, pagination_parameters):
        """List tournaments, newest first (filter by status and kind; paginated)"""
        docs, total = _tournaments().list(
            args.get("status"), pagination_parameters.first_item, pagination_parameters.page_size
        )
        pagination_parameters.item_count = total
        kind = args.get("kind")
        return [_view(d) for d in docs if kind is None or d["kind"] == kind]


@blp.route("/tournaments/<id:tid>")
class TournamentResource(MethodView):
    @operation("getTournament", auth=("account",), anonymous=True, refuses=(401, 404))
    @blp.etag
    @blp.response(200, TournamentSchema)
    def get(self, tid: str):
        """A tournament: players, standings, rounds with their games"""
        doc = _load(tid)
        blp.set_etag({"id": tid, "version": doc["version"]})
        return _view(doc)

    @operation("cancelTournament", auth=("account",), refuses=(401, 403, 404, 409))
    @blp.response(200, TournamentSchema)
    def delete(self, tid: str):
        """Cancel a tournament before it starts (its organiser)"""
        return _view(_answer(events.cancel, _tournaments(), tid, account()))


@blp.route("/tournaments/<id:tid>/join")
class JoinTournament(MethodView):
    @operation("joinTournament", auth=("account:play",), refuses=(401, 403, 404, 409, 422))
    @blp.arguments(JoinTournamentSchema)
    @blp.response(201, TournamentSchema)
    def post(self, body: dict, tid: str):
        """Enter a tournament before it starts (the organiser may enter a bot account)"""
        return _view(
            _answer(
                events.join,
                _tournaments(),
                _ext()["ratings"],
                tid,
                account(),
                body["invite"],
                body["player"],
            )
        )


@blp.route("/tournaments/<id:tid>/leave")
class LeaveTournament(MethodView):
    @operation("leaveTournament", auth=("account",), refuses=(401, 403, 404, 409))
    @blp.response(201, TournamentSchema)
    def post(self, tid: str):
        """Leave a tournament; once it runs, withdraw (running games resigned by the workers)"""
        return _view(_answer(events.leave, _tournaments(), tid, account()))


@blp.route("/tournaments/<id:tid>/start")
class StartTournament(MethodView):
    @operation("startTournament", auth=("account",), refuses=(401, 403, 404, 409))
    @blp.response(201, TournamentSchema)
    def post(self, tid: str):
        """Start a tournament now (its organiser; at least min_players entered)"""
        return _view(_answer(events.start, _tournaments(), tid, account()))


@blp.route("/players/<name:username>/tournaments")
class PlayerTournaments(MethodView):
    @operation("listPlayerTournaments", refuses=(404,))
    @blp.response(200, PlayerEventSchema(many=True))
    def get(self, username: str):
        """The tournaments a player entered, newest first, with their placing once over"""
        found = _ext()["accounts"].find(username)
        if found is None:
            abort(404, message=f"There is no player {username!r}.")
        return events.of_player(_tournaments(), found["id"], ENTERED)


@blp.route("/ladders/<kind>")
class Ladder(MethodView):
    @operation("getLadder", refuses=(403, 404, 409))
    @blp.response(200, LadderSchema)
    def get(self, kind: str):
        """A game's standing ladder, top first"""

        def ladder() -> dict:
            ladders._kind(kind)  # NotFound for an unknown game
            return _tournaments().ladder(kind)

        return ladders.view(_answer(ladder))


@blp.route("/ladders/<kind>/join")
class JoinLadder(MethodView):
    @operation("joinLadder", auth=("account:play",), refuses=(401, 403, 404, 409))
    @blp.response(201, LadderSchema)
    def post(self, kind: str):
        """Join a game's ladder at the bottom"""
        return ladders.view(_answer(ladders.join, _tournaments(), kind, account()))


@blp.route("/ladders/<kind>/challenge")
class ChallengeOnLadder(MethodView):
    @operation("challengeOnLadder", auth=("account:challenge",), refuses=(401, 403, 404, 409, 422))
    @blp.arguments(ChallengeSchema)
    @blp.response(201, GameOfKind)
    def post(self, body: dict, kind: str):
        """Challenge the player at a rank up to three above yours: a ladder game starts"""
        ext = _ext()
        record = _answer(
            ladders.challenge,
            _tournaments(),
            ext["store"],
            ext["followups"],
            kind,
            account(),
            body["rank"],
        )
        return game_view(record)
