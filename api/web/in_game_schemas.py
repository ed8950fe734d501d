"""Schemas of what players do in a game besides moving: draw offers, takebacks, chat, export and
import, and the vacation switch."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import fields, validate

from api.play import archive
from api.games import Reason
from api.web.game_shapes import MoveField, OneOfField
from api.web.schemas import ChatText, PlayerName, StrictBoolean, StrictSchema, TimeControlSchema


class DrawSchema(StrictSchema):
    action = fields.String(
        required=True,
        validate=validate.OneOf(["offer", "accept", "decline"]),
        metadata={
            "description": "offer (on your turn), or accept or decline your opponent's offer."
        },
    )


class TakebackSchema(StrictSchema):
    action = fields.String(
        required=True,
        validate=validate.OneOf(["ask", "grant", "refuse"]),
        metadata={
            "description": "ask to take your last move back, or grant "
            "or refuse your opponent's request."
        },
    )


class ChatPostSchema(StrictSchema):
    text = ChatText(required=True)


class ChatMessageSchema(ma.Schema):
    seat = fields.Integer()
    name = fields.String(allow_none=True, metadata={"description": "The seat's player."})
    text = fields.String(metadata={"description": "Plain text: show it as text, never as HTML."})
    at = fields.String()


class VacationSwitchSchema(StrictSchema):
    on = StrictBoolean(
        required=True, metadata={"description": "true to go on vacation, false to come back."}
    )


class VacationSchema(ma.Schema):
    on = fields.Boolean()
    days_left = fields.Float(metadata={"description": "Days of allowance left, as of now."})
    since = fields.String(allow_none=True)
    until = fields.String(
        allow_none=True,
        metadata={"description": "While on: when the allowance runs out (the vacation ends then)."},
    )
    next_days_at = fields.String(metadata={"description": "When the next month's days come."})
    days_per_year = fields.Integer()
    max_days = fields.Integer(metadata={"description": "The most days that can be banked."})


class ExportSeatSchema(StrictSchema):
    name = PlayerName(required=True, allow_none=True)
    bot = fields.String(allow_none=True, load_default=None, validate=validate.Length(max=40))


class ExportResultSchema(StrictSchema):
    winner = fields.Integer(
        required=True, strict=True, allow_none=True, validate=validate.OneOf([0, 1])
    )
    reason = fields.String(
        required=True,
        validate=validate.Length(max=40),
        metadata={"enum": [r.value for r in Reason]},
    )
    scores = fields.List(
        fields.Integer(strict=True),
        allow_none=True,
        load_default=None,
        validate=validate.Length(equal=2),
    )


class ExportEntrySchema(StrictSchema):
    ply = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    seat = fields.Integer(required=True, strict=True, validate=validate.OneOf([0, 1]))
    move = MoveField("played", required=True)
    at = fields.String(required=True, validate=validate.Length(max=40))
    words = fields.String(
        validate=validate.Length(max=200),
        metadata={
            "description": "The move in the game's notation, as the move list shows it (an "
            "import does not read it: the move is the record)."
        },
    )


class ExportSchema(StrictSchema):
    """A game as one document: what `GET /games/{id}/export` gives and `POST /games/import`
    reads back (the id, status, times and `imported` are the exporter's and are not read)."""

    format = fields.String(
        validate=validate.Equal(archive.FORMAT), metadata={"example": archive.FORMAT}
    )
    version = fields.Integer(strict=True, validate=validate.Equal(archive.VERSION))
    id = fields.String(validate=validate.Length(max=40))
    kind = fields.String(
        required=True, validate=validate.Length(max=40), metadata={"example": "factor-multiple"}
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    seed = fields.Integer(required=True, strict=True, validate=validate.Range(0, 2**32 - 1))
    first = fields.Integer(required=True, strict=True, validate=validate.OneOf([0, 1]))
    seats = fields.List(
        fields.Nested(ExportSeatSchema),
        required=True,
        validate=validate.Length(equal=2, error="A game has two seats."),
    )
    time_control = OneOfField(TimeControlSchema, load_default=lambda: {"type": "none"})
    status = fields.String(validate=validate.OneOf(["waiting", "active", "finished"]))
    result = fields.Nested(ExportResultSchema, required=True, allow_none=True)
    imported = StrictBoolean()
    created_at = fields.String(validate=validate.Length(max=40))
    updated_at = fields.String(validate=validate.Length(max=40))
    moves = fields.List(
        fields.Nested(ExportEntrySchema),
        required=True,
        validate=validate.Length(max=archive.MAX_PLIES),
    )
    notes = fields.String(
        validate=validate.Length(max=10_000),
        metadata={
            "description": "Exported with a seat's token: that seat's private notes (an import "
            "does not read them)."
        },
    )
