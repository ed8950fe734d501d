"""Marshmallow schemas: request bodies (validated: 400 naming the field) and the responses."""

from __future__ import annotations

import functools
from typing import cast

import marshmallow as ma
from marshmallow import fields, validate
from marshmallow_oneofschema import OneOfSchema

from api.notify.chat_apps import FORMATS
from api.notify.digests import zone
from api.notify.fanout import CHANNELS as NOTIFY_CHANNELS
from api.notify.fanout import EVENTS as NOTIFY_EVENTS
from api.record import Seat
from api.play.service import Invite, Me
from api.web.errors import Unacceptable
from api import clocks
from api.games import Reason
from api.record import Status
from api.web.game_shapes import MoveField, OneOfField, StateField


class StrictSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE


# only true and false: marshmallow's default Boolean also reads "yes", "no", 1, "on"...
StrictBoolean = functools.partial(fields.Boolean, truthy={True}, falsy={False})
SEAT_SHAPES = (
    'A seat is {"human": {"name": ...}}, {"bot": "<level>"} or {"open": true} '
    '(add "listed": false to keep it out of the lobby, for a friend you invite); '
    'signed in, also {"me": true} or {"player": "<username>"} (a challenge).'
)
SEAT_KINDS = ("human", "bot", "open", "me", "player")


class PlayerName(fields.String):
    """A player's name: stripped, then 1 to 40 printable characters. Control and format
    characters (Unicode Cc and Cf: bidi overrides and isolates, zero-width joiners...) are
    refused, so a name cannot reorder or hide the text around it. A string that is no name is a
    422; a value that is not a string stays a 400."""

    MAX = 40
    WHAT = "A name"
    LINES = False  # whether line breaks are allowed (between printable lines)

    def __init__(self, **kwargs):
        lines = " (and line breaks)" if self.LINES else ""
        super().__init__(
            metadata={
                "description": f"1 to {self.MAX} printable characters{lines}, "
                "without control or format characters.",
                "minLength": 1,
                "maxLength": self.MAX,
            },
            **kwargs,
        )

    def _deserialize(self, value, attr, data, **kwargs):
        name = super()._deserialize(value, attr, data, **kwargs).strip()
        if self.LINES:
            name = name.replace("\r\n", "\n")
        if not 1 <= len(name) <= self.MAX:
            raise ma.ValidationError(Unacceptable(f"{self.WHAT} is 1 to {self.MAX} characters."))
        # not printable: Unicode's Cc and Cf (bidi overrides and isolates, zero-width characters),
        # separators other than the space, unassigned code points and lone surrogates
        lines = name.split("\n") if self.LINES else [name]
        if not all(line.isprintable() for line in lines):
            raise ma.ValidationError(
                Unacceptable(
                    f"{self.WHAT} may not hold control or format characters (such as a right-to-left "
                    "override)."
                )
            )
        return name


class ChatText(PlayerName):
    """A chat message: plain text, 1 to 500 printable characters after stripping, line breaks
    allowed (it is shown as text, never as HTML)."""

    MAX = 500
    WHAT = "A message"
    LINES = True


class FirstSeat(fields.Field):
    """`first`: exactly 0, 1 or "random" (not 0.0, not true)."""

    CHOICES = {
        "oneOf": [{"type": "integer", "enum": [0, 1]}, {"type": "string", "enum": ["random"]}],
        "description": 'Seat that moves first: 0, 1 or "random".',
    }

    def __init__(self, **kwargs):
        super().__init__(metadata=self.CHOICES, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if value == "random" or (type(value) is int and value in (0, 1)):
            return value
        raise ma.ValidationError('first must be 0, 1 or "random".')


class HumanSchema(StrictSchema):
    name = PlayerName(required=True)


class RatingRangeSchema(StrictSchema):
    """An open seat's fair pairing: only a player rated from `min` to `max` may join."""

    min = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=4000))
    max = fields.Integer(strict=True, load_default=4000, validate=validate.Range(min=0, max=4000))

    @ma.validates_schema
    def ordered(self, data: dict, **kwargs) -> None:
        if data.get("min", 0) > data.get("max", 4000):
            raise ma.ValidationError(Unacceptable("rating_range: min must not exceed max."))


class SeatRequestSchema(ma.Schema):
    """One seat of a new game: exactly one of `human`, `bot` and `open`. Any other shape is
    refused as a whole, naming the seat (`seats.0`) and what a seat is."""

    class Meta:
        unknown = ma.EXCLUDE  # refused below with the seat's shape, not field by field

    human = fields.Nested(HumanSchema)
    bot = fields.String(metadata={"description": "A bot level of the game; see GET /kinds."})
    open = StrictBoolean(validate=validate.Equal(True, error="open must be true."))
    listed = StrictBoolean(
        metadata={
            "description": "With open: false keeps the game out of "
            "the lobby, for a friend you invite."
        }
    )
    me = StrictBoolean(
        validate=validate.Equal(True, error="me must be true."),
        metadata={"description": "A seat for your account (send your account's token)."},
    )
    player = fields.String(
        validate=validate.Length(min=1, max=40),
        metadata={"description": "A seat reserved for this player's account: a challenge."},
    )
    rating_range = fields.Nested(
        RatingRangeSchema,
        metadata={
            "description": "With open: only a signed-in player rated from min to max in this game "
            "may join (fair pairing)."
        },
    )

    @ma.validates_schema(pass_original=True)
    def one_kind_of_seat(self, data: dict, original, **kwargs) -> None:
        unknown = sorted(set(original) - set(self.fields)) if isinstance(original, dict) else []
        if unknown:
            raise ma.ValidationError(f"{SEAT_SHAPES} Unknown field: {', '.join(unknown)}.")
        if len(set(SEAT_KINDS) & set(data)) != 1 or (
            {"listed", "rating_range"} & set(data) and "open" not in data
        ):
            raise ma.ValidationError(SEAT_SHAPES)

    @ma.post_load
    def to_seat(self, data: dict, **kwargs) -> Seat | Me | Invite:
        if "human" in data:
            return Seat.human(data["human"]["name"])
        if "bot" in data:
            return Seat.for_bot(data["bot"])
        if "me" in data:
            return Me()
        if "player" in data:
            return Invite(data["player"])
        bounds = data.get("rating_range")
        return Seat.empty(
            listed=data.get("listed", True),
            rating_range=None if bounds is None else (bounds["min"], bounds["max"]),
        )


def _time_control_schema(variant: type[clocks.TimeControl]) -> type[StrictSchema]:
    """One kind of time control, from its dataclass (its fields and their bounds)."""
    declared: dict[str, fields.Field] = {
        "type": fields.String(required=True, validate=validate.OneOf([variant.type]))
    }
    for name, (lo, hi) in clocks.bounds(variant).items():
        declared[name] = fields.Float(required=True, validate=validate.Range(lo, hi))
    # marshmallow types `from_dict` as giving a plain Schema; it gives a subclass of its own class
    return cast(
        "type[StrictSchema]",
        StrictSchema.from_dict(declared, name=f"{variant.type.capitalize()}TimeControlSchema"),
    )


class TimeControlSchema(OneOfSchema):
    """A time control: a `oneOf` of its kinds with a discriminator on `type`, for the document.
    Read and written as it is (OneOfField): `api.clocks.check` reads it, naming the field at
    fault, and a record writes it exactly."""

    type_field = "type"
    type_field_remove = False
    type_schemas = {
        name: _time_control_schema(variant) for name, variant in clocks.VARIANTS.items()
    }

    def get_obj_type(self, obj: dict) -> str:
        return obj["type"]


class GameCreateSchema(StrictSchema):
    kind = fields.String(required=True, metadata={"example": "factor-multiple"})
    options = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "Game options; see GET /kinds."},
    )
    seats = fields.List(
        fields.Nested(SeatRequestSchema),
        required=True,
        validate=validate.Length(equal=2, error="A game has two seats."),
        metadata={
            "description": "Two seats. " + SEAT_SHAPES,
            "example": [{"human": {"name": "Ada"}}, {"bot": "greedy"}],
        },
    )
    first = FirstSeat(load_default="random")
    time_control = OneOfField(
        TimeControlSchema,
        load_default=None,
        allow_none=True,
        metadata={"description": "The game's default (GET /kinds) when left out or null."},
    )
    rated = StrictBoolean(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "false: a casual game. By default a game is rated when every person "
            "plays it as an account (signed in, or challenged by name), against "
            "another or against a server bot."
        },
    )


class JoinSchema(StrictSchema):
    name = PlayerName(required=True)


class MoveBodySchema(StrictSchema):
    move = MoveField(
        "player",
        required=True,
        metadata={
            "description": "The move, in the game's shape.",
            "example": {"type": "say", "number": 98},
        },
    )
    ply = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=0),
        metadata={"description": "The game's ply as you saw it."},
    )


class GameListArgsSchema(ma.Schema):
    status = fields.String(validate=validate.OneOf(["waiting", "active", "finished"]))
    kind = fields.String()


class SeatSchema(ma.Schema):
    player = fields.String(metadata={"description": "The account that holds the seat."})
    invited = fields.String(
        metadata={
            "description": "An open seat reserved for this account: the game is a challenge to it."
        }
    )
    name = fields.String(allow_none=True)
    bot = fields.String(allow_none=True)
    open = fields.Boolean()
    listed = fields.Boolean(
        metadata={"description": "An open seat: false when only those with the invite link see it."}
    )
    rating_range = fields.Nested(
        lambda: RangeSchema(), metadata={"description": "An open seat's rating range."}
    )
    rating = fields.Nested(
        lambda: RatingSchema(),
        metadata={
            "description": "In the lobby's list: the seat's player's (or bot's) current rating in "
            "this game."
        },
    )


class RangeSchema(ma.Schema):
    min = fields.Integer(required=True)
    max = fields.Integer(required=True)


class RatingSchema(ma.Schema):
    """A Glicko-2 rating as the API shows it."""

    rating = fields.Integer(required=True)
    rd = fields.Float(
        required=True, metadata={"description": "Rating deviation: how unsure the rating is."}
    )
    volatility = fields.Float(required=True)
    games = fields.Integer(required=True, metadata={"description": "Rated games played."})
    provisional = fields.Boolean(required=True, metadata={"description": "RD above 110."})


class RatingPointSchema(ma.Schema):
    at = fields.String(required=True)
    rating = fields.Float(required=True)
    rd = fields.Float(required=True)
    game = fields.String(required=True)
    opponent = fields.String(required=True, allow_none=True)
    score = fields.Float(required=True, metadata={"description": "1 a win, 0.5 a draw, 0 a loss."})


class RatingChangeSchema(ma.Schema):
    before = fields.Float()
    after = fields.Float()
    rd_before = fields.Float()
    rd_after = fields.Float()
    provisional = fields.Boolean(metadata={"description": "RD after the game above 110."})


class ResultSchema(ma.Schema):
    winner = fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "The winning seat; null for a draw or an aborted game."},
    )
    reason = fields.String(
        required=True,
        validate=validate.OneOf([r.value for r in Reason]),
        metadata={"description": "Why it ended (GET /kinds: `reasons`)."},
    )
    scores = fields.List(
        fields.Integer(),
        allow_none=True,
        metadata={"description": "Per seat, where the game keeps a score."},
    )


class ClockSchema(ma.Schema):
    remaining_s = fields.Float(
        required=True,
        metadata={
            "description": "Seconds left (byoyomi: of the main time), the mover's running down."
        },
    )
    periods_left = fields.Float(
        metadata={
            "description": "Byoyomi: the periods left (a number, as the time control's `periods`)."
        }
    )
    period_remaining_s = fields.Float(
        metadata={"description": "Byoyomi, in its periods: seconds left of the current one."}
    )


class PlaytestOfSchema(ma.Schema):
    id = fields.String(required=True)
    index = fields.Integer(required=True)


class GameSchema(ma.Schema):
    id = fields.String()
    kind = fields.String()
    options = fields.Dict()
    seed = fields.Integer()
    status = fields.String(
        validate=validate.OneOf([s.value for s in Status]), metadata={"x-shared": "GameStatus"}
    )
    seats = fields.List(fields.Nested(SeatSchema))
    first = fields.Integer()
    to_move = fields.Integer(allow_none=True)
    ply = fields.Integer()
    version = fields.Integer()
    state = fields.Dict(metadata={"description": "Game-specific; see the API document."})
    result = fields.Nested(ResultSchema, allow_none=True)
    time_control = OneOfField(TimeControlSchema)
    clocks = OneOfField(
        ClockSchema,
        many=True,
        allow_none=True,
        metadata={
            "description": "Per seat, its clock as it stands now; null without a time control."
        },
    )
    deadline = fields.String(allow_none=True)
    created_at = fields.String()
    updated_at = fields.String()
    playtest = OneOfField(
        PlaytestOfSchema,
        allow_none=True,
        metadata={
            "description": "For a playtest's sample game: the playtest and the game's index in it; "
            "otherwise null."
        },
    )
    rated = fields.Boolean(metadata={"description": "Whether the game counts for ratings."})
    rating_changes = fields.List(
        fields.Nested(RatingChangeSchema),
        allow_none=True,
        metadata={
            "description": "Per seat, its rating before and after: once a rated game is over and "
            "the worker has applied it (a moment after the end); null until then."
        },
    )
    offers = fields.Nested(
        lambda: OffersSchema(),
        metadata={"description": "The standing offers: the seat that made each, or null."},
    )
    takebacks = fields.Integer(
        metadata={
            "description": "Takebacks granted so far: a client that keeps the positions fetches "
            "them again when this changes."
        }
    )
    chat_count = fields.Integer(metadata={"description": "Messages in the game's chat."})
    imported = fields.Boolean(
        metadata={"description": "Read from an exported record: finished and unrated."}
    )
    on_vacation = fields.List(
        fields.Integer(),
        metadata={
            "description": "Seats whose players are on vacation: this correspondence game's clocks "
            "stand still."
        },
    )
    event = fields.Nested(
        lambda: GameEventSchema(),
        allow_none=True,
        metadata={
            "description": "The tournament (and round) or ladder the game is part of; null when "
            "none."
        },
    )


class GameEventSchema(ma.Schema):
    tournament = fields.String(metadata={"description": "The tournament's id."})
    round = fields.Integer()
    ladder = fields.String(metadata={"description": "The kind whose ladder it is a game of."})


class OffersSchema(ma.Schema):
    draw = fields.Integer(allow_none=True, metadata={"description": "The seat offering a draw."})
    takeback = fields.Integer(
        allow_none=True, metadata={"description": "The seat asking to take its last move back."}
    )


# a game object always carries every field (api/play/view.py): a client need not test for one
for _field in GameSchema._declared_fields.values():
    _field.required = True


class TokensSchema(ma.Schema):
    """The seats' secret tokens, by seat index, for the seats a human holds."""

    seat0 = fields.String(data_key="0", metadata={"description": "Seat 0's token."})
    seat1 = fields.String(data_key="1", metadata={"description": "Seat 1's token."})


class GameWithTokensSchema(GameSchema):
    tokens = OneOfField(
        TokensSchema,
        required=True,
        metadata={
            "description": "Seat index -> secret token, for human seats (send it as `Authorization: "
            "Bearer <token>` to play that seat)."
        },
    )


class GameWithTokenSchema(GameSchema):
    token = fields.String(required=True, metadata={"description": "Your seat's secret token."})
    seat = fields.Integer(required=True)


class HistoryEntrySchema(ma.Schema):
    ply = fields.Integer()
    seat = fields.Integer()
    move = MoveField("played")
    at = fields.String()


class PositionsArgsSchema(ma.Schema):
    from_ = fields.Integer(
        data_key="from",
        load_default=0,
        validate=validate.Range(min=0),
        metadata={"description": "The first ply to return (default 0)."},
    )


class PositionSchema(ma.Schema):
    ply = fields.Integer()
    state = StateField(
        metadata={"description": "The state after `ply` moves, as the game object's `state`."}
    )
    to_move = fields.Integer(allow_none=True)
    move = MoveField(
        "played",
        allow_none=True,
        metadata={"description": "The move that led here (history entry ply - 1); null at ply 0."},
    )
    words = fields.String(
        allow_none=True,
        metadata={
            "description": "That move in the game's notation, as its rules page writes it and "
            "every client shows it (`drops 7 at [4, 3]`); null at ply 0."
        },
    )


class LegalMovesSchema(ma.Schema):
    seat = fields.Integer(required=True, allow_none=True)
    ply = fields.Integer(required=True)
    moves = fields.List(
        MoveField("player"),
        required=True,
        metadata={"description": "Moves to send back as they are (POST /games/{id}/moves)."},
    )
    words = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "Each listed move in the game's notation, in the order of `moves` "
            "(`drops 7 at [4, 3]`)."
        },
    )
    complete = fields.Boolean(
        required=True, metadata={"description": "False when some moves are not listed."}
    )
    note = fields.String(required=True, allow_none=True)


class BotSchema(ma.Schema):
    level = fields.String()
    line = fields.String()


class ReasonSchema(ma.Schema):
    reason = fields.String(
        metadata={"description": "A `result.reason` a game of the kind may end by."}
    )
    words = fields.String(metadata={"description": "A phrase for a list: `on time`."})
    win = fields.String(
        allow_none=True,
        metadata={
            "description": (
                "The sentence under a won game, where `{winner}` and `{loser}` stand for the seats' "
                "names; null when the reason has no winner."
            )
        },
    )
    draw = fields.String(
        allow_none=True,
        metadata={
            "description": (
                "The sentence under a drawn or aborted game; null when the reason always has a "
                "winner."
            )
        },
    )


class ScoreWordsSchema(ma.Schema):
    one = fields.String(metadata={"example": "piece placed"})
    many = fields.String(metadata={"example": "pieces placed"})


class KindMoveSchema(ma.Schema):
    """A move type a game plays, as GET /kinds lists it (from the game's move declarations)."""

    type = fields.String(required=True, metadata={"example": "drop"})
    schema = fields.String(
        required=True,
        metadata={
            "description": "The move's schema in this document (`#/components/schemas/...`).",
            "example": "DropMove",
        },
    )
    description = fields.String(required=True, metadata={"description": "What the move does."})
    server_only = fields.Boolean(
        required=True,
        metadata={"description": "Played by the server (a pass), never sent by a player."},
    )


class OptionSchema(ma.Schema):
    """A game option as GET /kinds describes it (api/games/base.py `Option.describe`)."""

    name = fields.String(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["int", "bool", "choice", "json"]))
    default = fields.Raw(
        required=True,
        allow_none=True,
        metadata={
            "description": "The value a game gets when the option is left out: of the option's "
            "type (a \"json\" option's is the kind's options schema's)."
        },
    )
    description = fields.String(required=True)
    min = fields.Integer()
    max = fields.Integer()
    choices = fields.List(fields.Raw(), metadata={"description": "The values allowed."})


class BoundsSchema(ma.Schema):
    min = fields.Float(required=True)
    max = fields.Float(required=True)


class KindSchema(ma.Schema):
    kind = fields.String()
    title = fields.String()
    summary = fields.String()
    options = fields.List(fields.Nested(OptionSchema))
    bots = fields.List(fields.Nested(BotSchema))
    time_controls = fields.Dict(
        keys=fields.String(),
        values=fields.Dict(keys=fields.String(), values=fields.Nested(BoundsSchema)),
        metadata={"description": "Per time control type, the bounds of each of its fields."},
    )
    default_time_control = OneOfField(TimeControlSchema)
    moves = fields.List(
        fields.Nested(KindMoveSchema),
        metadata={"description": "Every move type a game of this kind plays, in its rules' order."},
    )
    reasons = fields.List(
        fields.Nested(ReasonSchema),
        metadata={
            "description": (
                "The reasons a game of this kind may end by (its rules' own first), with their words."
            )
        },
    )
    score_words = fields.Nested(
        ScoreWordsSchema,
        allow_none=True,
        metadata={
            "description": (
                "What a score of this kind counts, in words for one and for more (null: its scores need "
                "none)."
            )
        },
    )


class RulesSchema(ma.Schema):
    kind = fields.String()
    format = fields.String()
    text = fields.String()
    html = fields.String(metadata={"description": "The text as HTML, without its leading title."})


class LegalMovesArgsSchema(ma.Schema):
    move = fields.String(
        metadata={
            "description": (
                "A move as JSON, to ask about that one move: `moves` then holds it when it is legal now, "
                "else nothing, with `note` saying why (for the moves a listing leaves out, such as "
                "Prime Drop's double downs)."
            )
        }
    )


class AnalysisArgsSchema(ma.Schema):
    ply = fields.Integer(
        validate=validate.Range(min=0),
        metadata={"description": "Analyse this ply of the game (default: now)."},
    )


class PendingSchema(ma.Schema):
    """A 202's body: the analysis asked for is being computed on a worker."""

    pending = fields.Boolean(required=True, validate=validate.Equal(True))
    ply = fields.Integer(required=True, metadata={"description": "The ply being analysed."})


# a 202 of an analysis: its body, and when to ask again
PENDING = {
    "schema": PendingSchema,
    "headers": {"Retry-After": "RETRY_AFTER"},
    "description": "Being computed on a worker: ask again after Retry-After seconds.",
}


class AnalysisSchema(ma.Schema):
    ply = fields.Integer()
    pending = fields.Boolean(metadata={"description": "True (with 202) while it is computed."})
    to_move = fields.Integer(allow_none=True)
    exact = fields.Boolean(
        metadata={
            "description": "True where the game's solver decides the position; false for the "
            "strongest bot's estimate."
        }
    )
    value = fields.Float(
        allow_none=True,
        metadata={
            "description": "For the seat to move: 1 wins, -1 loses, 0 a draw (exact), or an "
            "estimate between; null once the game is over."
        },
    )
    best = MoveField(
        "played",
        allow_none=True,
        metadata={"description": "The best move found (null once the game is over)."},
    )
    winner = fields.Integer(
        allow_none=True,
        metadata={"description": "Once the game is over: the winning seat, null for a draw."},
    )
    margin = fields.Integer(
        metadata={"description": "Ploid, exact: the mover's final piece margin under perfect play."}
    )
    to_move_wins = fields.Boolean(metadata={"description": "Factor/Multiple."})
    moves = fields.List(
        fields.Nested(lambda: VerdictSchema()),
        metadata={"description": "Factor/Multiple: every legal move with its verdict."},
    )


class VerdictSchema(ma.Schema):
    move = MoveField("played", required=True)
    number = fields.Integer(required=True, metadata={"description": "The number the move says."})
    wins = fields.Boolean(
        required=True, metadata={"description": "Whether the move wins for its mover."}
    )


class JudgedMoveSchema(ma.Schema):
    ply = fields.Integer(metadata={"description": "The move's ply, as in the history."})
    seat = fields.Integer()
    move = MoveField("played")
    best = MoveField(
        "played", metadata={"description": "The best move of the position the move was made in."}
    )
    best_words = fields.String(
        allow_none=True,
        metadata={"description": "That best move's words, in the game's notation (`says 12`)."},
    )
    verdict = fields.String(
        validate=validate.OneOf(["win", "draw", "loss"]),
        metadata={
            "description": "Exact analyses: what the move left its mover under perfect play."
        },
    )
    value = fields.Float(
        metadata={
            "description": "Estimated analyses: the position's value after the move, for its "
            "mover (-1..1)."
        }
    )
    mistake = fields.Boolean(
        metadata={
            "description": "The move gave away value: a worse verdict than the best move's, or "
            "(estimated) a drop of 0.4 or more."
        }
    )


class GameAnalysisSchema(ma.Schema):
    ply = fields.Integer(metadata={"description": "The plies judged: the game's, when asked."})
    pending = fields.Boolean(metadata={"description": "True (with 202) while it is computed."})
    exact = fields.Boolean(metadata={"description": "Every position was decided exactly."})
    graph = fields.List(
        fields.Float(),
        metadata={
            "description": "For the value graph: each position's value for seat 0, from the start "
            "(ply 0) to the last."
        },
    )
    plies = fields.List(
        fields.Nested(JudgedMoveSchema),
        metadata={"description": "Every move of the history, judged for its mover."},
    )


class QueueHealthSchema(ma.Schema):
    depth = fields.Integer(metadata={"description": "Jobs waiting."})
    oldest_waiting_s = fields.Float(
        allow_none=True,
        metadata={"description": "How long the oldest waiting job has waited, in seconds."},
    )


class HealthSchema(ma.Schema):
    web = fields.String()
    redis = fields.String()
    workers = fields.Integer(metadata={"description": "Workers whose heartbeat is fresh."})
    queued = fields.Integer(metadata={"description": "Jobs waiting in all queues."})
    queues = fields.Dict(keys=fields.String(), values=fields.Nested(QueueHealthSchema))
    status = fields.String()


# --- accounts ---


class CredentialsSchema(StrictSchema):
    username = fields.String(required=True, validate=validate.Length(max=40))
    password = fields.String(required=True, validate=validate.Length(max=1024))


class RecoverSchema(StrictSchema):
    username = fields.String(required=True, validate=validate.Length(max=40))
    recovery_code = fields.String(required=True, validate=validate.Length(max=40))
    new_password = fields.String(required=True, validate=validate.Length(max=1024))


class PasswordChangeSchema(StrictSchema):
    password = fields.String(required=True, validate=validate.Length(max=1024))
    new_password = fields.String(required=True, validate=validate.Length(max=1024))


class PasswordSchema(StrictSchema):
    password = fields.String(required=True, validate=validate.Length(max=1024))


class ChannelChoice(fields.Field):
    """An event's channels: a list of them, true (the defaults) or false (none, webhooks
    included)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if value is True or value is False:
            return value
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise ma.ValidationError("A list of channels, true or false.")
        if not set(value) <= set(NOTIFY_CHANNELS):
            raise ma.ValidationError(
                Unacceptable(f"The channels are {', '.join(NOTIFY_CHANNELS)}.")
            )
        return list(dict.fromkeys(value))


def _notify_event(name: str) -> None:
    if name not in NOTIFY_EVENTS:
        raise ma.ValidationError(Unacceptable(f"The events are {', '.join(NOTIFY_EVENTS)}."))


MAX_REMINDERS = 5


def _a_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ma.ValidationError(Unacceptable(f"The formats are {', '.join(FORMATS)}."))


def _at_least_one_minute(minutes: int) -> None:
    if not 1 <= minutes <= 60 * 1440:
        raise ma.ValidationError(
            Unacceptable("A reminder is 1 to 86400 minutes before the deadline.")
        )


def _at_most_reminders(thresholds: list) -> None:
    if len(thresholds) > MAX_REMINDERS:
        raise ma.ValidationError(Unacceptable(f"At most {MAX_REMINDERS} reminders."))


def _an_hour(hour: int) -> None:
    if not 0 <= hour <= 23:
        raise ma.ValidationError(Unacceptable("digest_hour is an hour from 0 to 23."))


def _a_time_zone(name: str) -> None:
    try:
        zone(name)
    except ValueError as bad:
        raise ma.ValidationError(Unacceptable(str(bad))) from None


class SettingsSchema(StrictSchema):
    allow_takebacks = StrictBoolean()
    notify = fields.Dict(
        keys=fields.String(validate=_notify_event),
        values=ChannelChoice(
            metadata={
                "oneOf": [
                    {"type": "boolean"},
                    {"type": "array", "items": {"type": "string", "enum": list(NOTIFY_CHANNELS)}},
                ]
            }
        ),
        metadata={
            "description": "Per event, the channels that tell you of it "
            "(push, email, inbox); true: the defaults "
            "(push and inbox, and email for challenge, "
            "reminder, tournament and the daily digest of "
            "turns); false: nothing, webhooks included."
        },
    )
    quiet_when_present = StrictBoolean(
        metadata={
            "description": "No push or e-mail for a game you read (or whose list you read) within "
            "the last POSTPLAY_PRESENT_S seconds (default 120); the inbox still "
            "records it. Default true."
        }
    )
    bot = StrictBoolean(metadata={"description": "True marks an account run by a program."})
    reminder_minutes = fields.List(
        fields.Integer(strict=True, validate=_at_least_one_minute),
        validate=_at_most_reminders,
        metadata={
            "description": "Minutes before a deadline to be reminded at, each at least "
            "1 (default [1440, 60]); each fires once per turn, when the "
            "turn started with more time than it.",
            "example": [1440, 60],
        },
    )
    digest_hour = fields.Integer(
        strict=True,
        validate=_an_hour,
        metadata={
            "description": "The hour (0-23, in `timezone`) of the daily e-mail of the games "
            "awaiting your move (default 8)."
        },
    )
    timezone = fields.String(
        validate=_a_time_zone,
        metadata={
            "description": "An IANA time zone name (default UTC).",
            "example": "Europe/Paris",
        },
    )


class EmailSchema(ma.Schema):
    address = fields.String()
    verified = fields.Boolean(
        metadata={"description": "False until the link mailed to the address is opened."}
    )
    off = fields.List(
        fields.String(),
        metadata={
            "description": "The kinds of mail (digest, challenge, reminder, tournament) "
            "unsubscribed from."
        },
    )


class AccountSchema(ma.Schema):
    username = fields.String()
    created_at = fields.String()
    bot = fields.Boolean()
    settings = fields.Nested(SettingsSchema)
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(RatingSchema),
        metadata={"description": "Per kind, once rated games exist."},
    )
    vacation = fields.Nested(
        "VacationSchema",
        metadata={
            "description": "On or off, the days left, and more: as GET /me/vacation shows it."
        },
    )
    unread = fields.Integer(
        metadata={"description": "GET /me: how many notifications of your inbox are unread."}
    )
    email = fields.Nested(
        EmailSchema,
        allow_none=True,
        metadata={"description": "Your e-mail address, if you gave one (PUT /me/email)."},
    )
    webhooks_disabled = fields.List(
        fields.Nested("WebhookSchema"),
        metadata={
            "description": "GET /me: your webhooks the server disabled after deliveries kept "
            "failing."
        },
    )


class SignedInSchema(ma.Schema):
    token = fields.String(
        metadata={"description": "This device's token: send it as `Authorization: Bearer <token>`."}
    )
    account = fields.Nested(AccountSchema)


class SignedUpSchema(SignedInSchema):
    recovery_codes = fields.List(
        fields.String(),
        metadata={"description": "Ten one-time codes to set a new password with: shown only now."},
    )


class TokenCreateSchema(StrictSchema):
    description = fields.String(required=True, validate=validate.Length(min=1, max=100))
    scopes = fields.List(
        fields.String(validate=validate.OneOf(["read", "play", "challenge", "webhooks"])),
        required=True,
        validate=validate.Length(min=1),
    )


class TokenSchema(ma.Schema):
    id = fields.String()
    kind = fields.String(metadata={"enum": ["session", "personal"]})
    description = fields.String()
    scopes = fields.List(fields.String())
    created_at = fields.String()
    last_used_at = fields.String(allow_none=True)


class NewTokenSchema(TokenSchema):
    token = fields.String(metadata={"description": "The secret: shown only now."})


class ClaimSchema(StrictSchema):
    seat_token = fields.String(required=True, validate=validate.Length(min=1, max=200))


class MyGamesArgsSchema(ma.Schema):
    status = fields.String(validate=validate.OneOf(["waiting", "active", "finished"]))


# --- webhooks ---

WEBHOOK_EVENTS = ["turn", "game-over", "challenge", "draw-offer", "takeback", "chat", "reminder"]


class WebhookCreateSchema(StrictSchema):
    url = fields.String(
        required=True,
        validate=validate.Length(min=1, max=2000),
        metadata={
            "description": "http:// or https://, to a public address.",
            "example": "https://bot.example.org/postplay",
        },
    )
    events = fields.List(
        fields.String(validate=validate.OneOf(WEBHOOK_EVENTS)),
        required=True,
        validate=validate.Length(min=1, max=len(WEBHOOK_EVENTS)),
        metadata={"example": ["turn", "challenge"]},
    )
    format = fields.String(
        validate=_a_format,
        load_default="standard",
        metadata={
            "enum": list(FORMATS),
            "description": "standard: Standard Webhooks, signed; discord or slack: that service's "
            "incoming-webhook JSON (a line of text and a link to the game), "
            "unsigned.",
        },
    )


class WebhookSchema(ma.Schema):
    id = fields.String()
    url = fields.String()
    events = fields.List(fields.String(metadata={"enum": WEBHOOK_EVENTS}))
    format = fields.String(metadata={"enum": list(FORMATS)})
    created_at = fields.String()
    disabled = fields.Boolean(
        metadata={"description": "True once deliveries kept failing for the whole retry window."}
    )
    disabled_at = fields.String(allow_none=True)
    disabled_reason = fields.String(allow_none=True)


class NewWebhookSchema(WebhookSchema):
    secret = fields.String(
        metadata={"description": "The signing secret (`whsec_...`): shown only now."}
    )


class DeliveryAttemptSchema(ma.Schema):
    webhook_id = fields.String(
        metadata={"description": "The delivery's webhook-id header: the same on every attempt."}
    )
    type = fields.String(metadata={"enum": WEBHOOK_EVENTS})
    game = fields.String()
    attempt = fields.Integer()
    at = fields.String()
    status = fields.Integer(
        allow_none=True, metadata={"description": "The HTTP status the endpoint answered."}
    )
    latency_ms = fields.Float()
    error = fields.String(allow_none=True)
    outcome = fields.String(metadata={"enum": ["delivered", "retrying", "failed"]})
    next_attempt_at = fields.String(allow_none=True)
