"""Marshmallow schemas of the playtest resources: the request body and the documented playtest
with its report (every field listed: a field missing here would be dropped from responses)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from api import playtests
from api.web.schemas import StrictSchema


class PlaytestCreateSchema(StrictSchema):
    kind = fields.String(required=True, metadata={"example": "factor-multiple"})
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "Game options; see GET /kinds."},
    )
    bots = fields.List(
        fields.String(),
        required=True,
        validate=validate.Length(equal=2),
        metadata={
            "description": "Two bot levels of the game (see GET /kinds); "
            "the same level twice is a mirror match. Seats "
            "alternate between them game by game.",
            "example": ["greedy", "random"],
        },
    )
    games = fields.Integer(
        required=True,
        strict=True,
        metadata={"description": f"1 to {playtests.MAX_GAMES}.", "example": 100},
    )
    seed = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "The same seed gives the same games (bots "
            "that search against the clock may still "
            "vary). Random when left out."
        },
    )
    budget_s = fields.Float(
        load_default=playtests.DEFAULT_BUDGET_S,
        metadata={
            "description": "Each bot's think time per move, seconds "
            f"(at most {playtests.MAX_BUDGET_S})."
        },
    )
    chunk_games = fields.Integer(
        strict=True,
        load_default=playtests.DEFAULT_CHUNK_GAMES,
        metadata={"description": f"Games per worker job (1 to {playtests.MAX_CHUNK_GAMES})."},
    )
    samples = fields.Integer(
        strict=True,
        load_default=playtests.DEFAULT_SAMPLES,
        metadata={
            "description": "How many of the first games to keep as "
            "real games to replay (0 to "
            f"{playtests.MAX_SAMPLES})."
        },
    )


class ChunkSchema(ma.Schema):
    index = fields.Integer()
    first_game = fields.Integer()
    games = fields.Integer()
    done = fields.Integer()
    status = fields.String(
        metadata={"enum": ["queued", "running", "finished", "failed", "cancelled"]}
    )
    error = fields.String(allow_none=True)


class RateSchema(ma.Schema):
    wins = fields.Integer()
    losses = fields.Integer()
    draws = fields.Integer()
    win_rate = fields.Float(allow_none=True)
    ci95 = fields.List(
        fields.Float(),
        allow_none=True,
        metadata={"description": "Wilson 95 % interval of win_rate."},
    )


class BotLineSchema(RateSchema):
    bot = fields.String()
    wins_by_seat = fields.List(fields.Integer())


class WinsSchema(ma.Schema):
    by_seat = fields.List(fields.Integer())
    ci95_by_seat = fields.List(
        fields.List(fields.Float(), allow_none=True),
        metadata={
            "description": "Per seat, the Wilson 95 % interval of its share of the games won."
        },
    )
    by_bot = fields.List(fields.Integer(), metadata={"description": "In the order of `bots`."})
    draws = fields.Integer(
        metadata={
            "description": "Games without a winner: draws, and games "
            "aborted at the ply limit (see reasons)."
        }
    )


class BinSchema(ma.Schema):
    from_ = fields.Integer(attribute="from", data_key="from")
    to = fields.Integer()
    count = fields.Integer()


class StatsSchema(ma.Schema):
    mean = fields.Float()
    median = fields.Float()
    stdev = fields.Float()
    min = fields.Float()
    max = fields.Float()
    p25 = fields.Float()
    p75 = fields.Float()


class DistributionSchema(StatsSchema):
    histogram = fields.List(fields.Nested(BinSchema))


class ScoresSchema(ma.Schema):
    games = fields.Integer()
    by_seat = fields.List(fields.Nested(StatsSchema))
    by_bot = fields.List(fields.Nested(StatsSchema))
    margin = fields.Nested(
        DistributionSchema, metadata={"description": "The first bot's score minus the second's."}
    )


class SampleSchema(ma.Schema):
    game_id = fields.String()
    index = fields.Integer()
    levels = fields.List(fields.String(), metadata={"description": "The bots in seat 0 and 1."})
    first = fields.Integer()
    winner = fields.Integer(allow_none=True)
    plies = fields.Integer()


class ReportSchema(ma.Schema):
    games = fields.Integer(
        metadata={
            "description": "Games played (fewer than asked when a chunk failed or was cancelled)."
        }
    )
    budget_s = fields.Float()
    wins = fields.Nested(WinsSchema)
    bots = fields.List(fields.Nested(BotLineSchema))
    first_player = fields.Nested(RateSchema)
    reasons = fields.Dict(keys=fields.String(), values=fields.Integer())
    length = fields.Nested(
        DistributionSchema,
        allow_none=True,
        metadata={"description": "Plies, the server's passes included."},
    )
    scores = fields.Nested(
        ScoresSchema,
        allow_none=True,
        metadata={"description": "Null when the game does not score."},
    )
    samples = fields.List(fields.Nested(SampleSchema))


class SweepOfSchema(ma.Schema):
    id = fields.String()
    variant = fields.Integer()


class PlaytestSchema(ma.Schema):
    id = fields.String()
    kind = fields.String()
    options = fields.Dict()
    bots = fields.List(fields.String())
    games = fields.Integer()
    seed = fields.Integer()
    budget_s = fields.Float()
    chunk_games = fields.Integer()
    samples = fields.Integer()
    created_at = fields.String()
    status = fields.String(
        metadata={"enum": ["running", "cancelling", "finished", "failed", "cancelled"]}
    )
    done = fields.Integer(metadata={"description": "Games played so far."})
    total = fields.Integer()
    chunks = fields.List(fields.Nested(ChunkSchema))
    report = fields.Nested(
        ReportSchema, allow_none=True, metadata={"description": "Once no chunk runs any more."}
    )
    sweep = fields.Nested(
        SweepOfSchema,
        allow_none=True,
        metadata={"description": "For a variant of a sweep: the sweep and the variant; else null."},
    )
    owner = fields.String(
        allow_none=True,
        metadata={"description": "The account that started it, or null (owned by an owner token)."},
    )


class PlaytestCreatedSchema(PlaytestSchema):
    owner_token = fields.String(
        metadata={
            "description": "Only when started without an account token: a secret, shown only "
            "here; send it as `Authorization: Bearer <owner_token>` to cancel the "
            "playtest. Nobody else can."
        }
    )
