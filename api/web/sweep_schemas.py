"""Marshmallow schemas of the sweep resources: the request body, and the sweep with each variant's
playtest report and the comparison (every field listed: a field missing here would be dropped
from responses)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields

from api import playtests
from api.playtests import sweeps
from api.web.playtest_schemas import PlaytestCreateSchema, RateSchema, ReportSchema, StatsSchema


class Vary(fields.Dict):
    """`vary`: option name -> list of values. A bad entry is named `vary.<option>`, not
    marshmallow's `vary.<option>.value`."""

    def _deserialize(self, value, attr, data, **kwargs):
        try:
            return super()._deserialize(value, attr, data, **kwargs)
        except ma.ValidationError as error:
            if not isinstance(error.messages, dict):
                raise
            raise ma.ValidationError(
                {
                    name: messages.get("value", messages)
                    if isinstance(messages, dict)
                    else messages
                    for name, messages in error.messages.items()
                }
            ) from None


class SweepCreateSchema(PlaytestCreateSchema):
    class Meta(PlaytestCreateSchema.Meta):
        exclude = ("games",)

    games_per_variant = fields.Integer(
        required=True,
        strict=True,
        metadata={
            "description": f"Games in each variant's playtest, 1 to {playtests.MAX_GAMES}.",
            "example": 100,
        },
    )
    vary = Vary(
        keys=fields.String(),
        values=fields.List(fields.Raw(allow_none=True)),
        required=True,
        metadata={
            "description": "The options to vary, each with the values to try (see GET "
            "/kinds): one playtest runs for every combination, at most "
            f"{sweeps.MAX_VARIANTS}.",
            "example": {"singleton_rule": [True, False]},
        },
    )
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "Options held fixed in every variant."},
    )


class FirstPlayerSchema(RateSchema):
    score = fields.Float(
        allow_none=True,
        metadata={
            "description": "The first player's score: (wins + draws / 2) / games. The most "
            "balanced variant has it nearest 0.5."
        },
    )


class PairedSchema(ma.Schema):
    paired_games = fields.Integer(metadata={"description": "Game indexes played in both."})
    better = fields.Integer(
        metadata={
            "description": "Pairs where the first player did better "
            "in this variant than in the balanced one."
        }
    )
    worse = fields.Integer()
    ties = fields.Integer()
    p_value = fields.Float(metadata={"description": "Exact two-sided sign test."})
    p_adjusted = fields.Float(metadata={"description": "Holm-adjusted over the variants."})
    differs = fields.Boolean(metadata={"description": "p_adjusted below alpha."})


class ComparisonRowSchema(ma.Schema):
    variant = fields.Integer()
    games = fields.Integer()
    first_player = fields.Nested(FirstPlayerSchema)
    draw_rate = fields.Float(allow_none=True)
    draw_ci95 = fields.List(fields.Float(), allow_none=True)
    length = fields.Nested(StatsSchema, allow_none=True, metadata={"description": "Plies."})
    score_margin = fields.Nested(
        StatsSchema,
        allow_none=True,
        metadata={
            "description": "The first player's score minus the second's; null when the game does "
            "not score."
        },
    )
    vs_balanced = fields.Nested(
        PairedSchema,
        allow_none=True,
        metadata={
            "description": "The paired test against the most balanced variant (null for that one, "
            "and for a variant with no games)."
        },
    )


class ComparisonSchema(ma.Schema):
    balanced = fields.Integer(
        allow_none=True,
        metadata={
            "description": "The most balanced variant's index; null when no game was played."
        },
    )
    alpha = fields.Float()
    test = fields.String()
    variants = fields.List(fields.Nested(ComparisonRowSchema))


class VariantSchema(ma.Schema):
    index = fields.Integer()
    values = fields.Dict(metadata={"description": "The varied options' values."})
    label = fields.String(metadata={"example": "singleton_rule=false"})
    playtest_id = fields.String(metadata={"description": "GET /playtests/{id} for its page."})
    status = fields.String()
    done = fields.Integer()
    total = fields.Integer()
    report = fields.Nested(
        ReportSchema, allow_none=True, metadata={"description": "Once no variant runs any more."}
    )


class SweepSchema(ma.Schema):
    id = fields.String()
    kind = fields.String()
    bots = fields.List(fields.String())
    games_per_variant = fields.Integer()
    vary = fields.Dict(metadata={"description": "Each varied option's values, as checked."})
    options = fields.Dict(metadata={"description": "The options held fixed."})
    seed = fields.Integer(metadata={"description": "Every variant's playtest has this seed."})
    budget_s = fields.Float()
    chunk_games = fields.Integer()
    samples = fields.Integer()
    created_at = fields.String()
    owner = fields.String(
        allow_none=True,
        metadata={"description": "The account that started it, or null (owned by an owner token)."},
    )
    status = fields.String(
        metadata={"enum": ["running", "cancelling", "finished", "failed", "cancelled"]}
    )
    done = fields.Integer(metadata={"description": "Games played so far, every variant."})
    total = fields.Integer()
    variants = fields.List(fields.Nested(VariantSchema))
    comparison = fields.Nested(
        ComparisonSchema,
        allow_none=True,
        metadata={"description": "Once no variant runs any more."},
    )


class SweepCreatedSchema(SweepSchema):
    owner_token = fields.String(
        metadata={
            "description": "Only when started without an account token: a secret, shown only "
            "here; send it as `Authorization: Bearer <owner_token>` to cancel."
        }
    )
