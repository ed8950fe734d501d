"""Every game's move and state shapes, for the OpenAPI document: one schema per move type and one
per kind's state, so a client generated from the document gets typed moves and states.

A move is documented as a `oneOf` of the move schemas with a discriminator on `type` (move types
are unique across games), yet read as a plain object: the game's `parse_move` checks it and
names the field at fault. A game object is documented once per kind (`PrimeDropGame`, ...) with
`kind` a one-value enum and `state` that kind's state, as a `oneOf` with a discriminator on `kind`,
and dumped through the schema of its kind. Each state schema matches its `State.view()` exactly:
`to_dict()`'s stored fields, then the facts a board draws (`facts()`, marked "Derived")
(tests/api/test_contract.py plays every game to check it).
"""
from __future__ import annotations

import apispec_oneofschema
import marshmallow as ma
from marshmallow import fields, validate
from marshmallow_oneofschema import OneOfSchema

from api.games import GAMES
from api.games import factor_bingo, factor_multiple, partition, ploid, prime_drop


class ShapeSchema(ma.Schema):
    """A shape the engines produce; marshmallow's default `unknown = RAISE` documents it with
    `additionalProperties: false`, so a field an engine adds fails the contract test."""


def _move_type(name: str) -> fields.String:
    return fields.String(required=True, validate=validate.OneOf([name]))


def _whole(lo: int | None = None, hi: int | None = None, **kwargs) -> fields.Integer:
    return fields.Integer(strict=True, validate=validate.Range(min=lo, max=hi), **kwargs)


def _pair(**kwargs) -> fields.List:
    return fields.List(fields.Integer(strict=True), validate=validate.Length(equal=2), **kwargs)


def _per_seat(field: fields.Field, **kwargs) -> fields.List:
    return fields.List(field, validate=validate.Length(equal=2), required=True, **kwargs)


# --- moves ---

PRIME_DROP_CELL = {"lo": 0, "hi": prime_drop.SIZES[-1] - 1}


class TileSchema(ShapeSchema):
    row = _whole(**PRIME_DROP_CELL, required=True)
    col = _whole(**PRIME_DROP_CELL, required=True)
    digit = _whole(0, 9, required=True)


class DropMoveSchema(TileSchema):
    """Prime Drop: lay one tile."""

    type = _move_type("drop")


class DoubleMoveSchema(ShapeSchema):
    """Prime Drop: a double down, two tiles in order."""

    type = _move_type("double")
    tiles = fields.List(fields.Nested(TileSchema), required=True,
                        validate=validate.Length(equal=2))


class ChallengeMoveSchema(ShapeSchema):
    """Prime Drop: claim the number read from `from` to `to` has the factor `factor`."""

    type = _move_type("challenge")
    from_ = _pair(data_key="from", required=True, metadata={"description": "[row, col]"})
    to = _pair(required=True, metadata={"description": "[row, col]"})
    factor = fields.Integer(strict=True, required=True)


class ListedChallengeSchema(ShapeSchema):
    """Prime Drop's legal-moves entry for a number on the board: add the `factor` you propose
    (and leave out `value`) to play it."""

    type = _move_type("challenge")
    from_ = _pair(data_key="from", required=True, metadata={"description": "[row, col]"})
    to = _pair(required=True, metadata={"description": "[row, col]"})
    value = fields.Integer(strict=True, required=True)


class StickMoveSchema(ShapeSchema):
    """Partition: a stick on an edge of the open region."""

    type = _move_type("stick")
    edge = _pair(required=True, metadata={"description": "[hex, hex]"})
    close = _whole(0, partition.HEXES - 1, allow_none=True, metadata={
        "description": "A hex of the part to close, on an equal split that does not end the "
                       "game; left out otherwise."})


class ClaimMoveSchema(ShapeSchema):
    """Partition: take the disc on a hex of a closed region."""

    type = _move_type("claim")
    hex = fields.Integer(strict=True, required=True)


class SubdivideMoveSchema(ShapeSchema):
    """Partition: a stick inside a closed region that splits it in two."""

    type = _move_type("subdivide")
    edge = _pair(required=True, metadata={"description": "[hex, hex]"})


PLOID_PIECE = {"oneOf": [{"type": "integer", "minimum": 1, "maximum": ploid.MAX_N},
                         {"type": "string", "enum": ["blank"]}]}


class PlaceMoveSchema(ShapeSchema):
    """Ploid: put a number or a blank on an empty cell."""

    type = _move_type("place")
    row = fields.Integer(strict=True, required=True)
    col = fields.Integer(strict=True, required=True)
    piece = fields.Raw(required=True, metadata=PLOID_PIECE)


class SayMoveSchema(ShapeSchema):
    """Factor/Multiple: say a number."""

    type = _move_type("say")
    number = fields.Integer(strict=True, required=True)


class FillMoveSchema(ShapeSchema):
    """Factor Bingo: write a number on a letter of both boards."""

    type = _move_type("fill")
    letter = fields.String(required=True, validate=validate.Length(equal=1))
    number = fields.Integer(strict=True, required=True)


class StartMoveSchema(ShapeSchema):
    """Factor Bingo: the starting player picks the current number."""

    type = _move_type("start")
    number = fields.Integer(strict=True, required=True)


class CallMoveSchema(ShapeSchema):
    """Factor Bingo: call a number."""

    type = _move_type("call")
    number = fields.Integer(strict=True, required=True)


class PassMoveSchema(ShapeSchema):
    """The server's own move for a seat with no legal move (Prime Drop, Ploid): in histories."""

    type = _move_type("pass")


# what a player sends, by move type
PLAYER_MOVES: dict[str, type[ShapeSchema]] = {
    "drop": DropMoveSchema, "double": DoubleMoveSchema, "challenge": ChallengeMoveSchema,
    "stick": StickMoveSchema, "claim": ClaimMoveSchema, "subdivide": SubdivideMoveSchema,
    "place": PlaceMoveSchema, "say": SayMoveSchema,
    "fill": FillMoveSchema, "start": StartMoveSchema, "call": CallMoveSchema,
}
# what a history holds: the players' moves and the server's passes
PLAYED_MOVES = {**PLAYER_MOVES, "pass": PassMoveSchema}
# what GET /legal-moves lists: Prime Drop lists the numbers to challenge, without a factor
LISTED_MOVES = {**PLAYER_MOVES, "challenge": ListedChallengeSchema}


class MoveField(fields.Raw):
    """A move: read as it is (the game's `parse_move` checks it), documented as a `oneOf` of
    `shapes` with a discriminator on `type`."""

    def __init__(self, shapes: dict[str, type[ma.Schema]], **kwargs):
        super().__init__(**kwargs)
        self.shapes = shapes


def move_union_property(self, field: fields.Field, **kwargs) -> dict:
    """apispec attribute function (bound to the converter) documenting a MoveField."""
    if not isinstance(field, MoveField):
        return {}
    refs = {name: self.resolve_nested_schema(shape) for name, shape in field.shapes.items()}
    return {"oneOf": list(refs.values()),
            "discriminator": {"propertyName": "type",
                              "mapping": {name: ref["$ref"] for name, ref in refs.items()}}}


# --- states, one per kind ---

class LastChallengeSchema(ShapeSchema):
    seat = fields.Integer(required=True)
    value = fields.Integer(required=True)
    factor = fields.Integer(required=True)
    success = fields.Boolean(required=True)
    from_ = _pair(data_key="from", required=True)
    to = _pair(required=True)
    tiles = fields.Integer(required=True, metadata={"description": "Tiles sent back (0 when the "
                                                                   "challenge failed)."})
    turn = fields.Integer(required=True)


def _derived(text: str) -> dict:
    return {"description": f"Derived (sent, never stored): {text}"}


class PrimeDropNumberSchema(ShapeSchema):
    from_ = _pair(data_key="from", required=True, metadata={"description": "[row, col]"})
    to = _pair(required=True, metadata={"description": "[row, col]; `from` for a lone tile"})
    value = fields.Integer(required=True, metadata={"description": "Read from `from` to `to`."})
    length = fields.Integer(required=True, metadata={"description": "Its tiles."})


class PrimeDropStateSchema(ShapeSchema):
    size = fields.Integer(required=True, validate=validate.OneOf(prime_drop.SIZES))
    board = fields.List(fields.List(_whole(0, 9, allow_none=True)), required=True,
                        metadata={"description": "Rows of cells: a digit, or null when empty."})
    piles = _per_seat(fields.Dict(keys=fields.String(validate=validate.OneOf(prime_drop.DIGITS)),
                                  values=fields.Integer()),
                      metadata={"description": "Per seat, the count of each digit \"0\"-\"9\"."})
    tiles_left = _per_seat(fields.Integer())
    last_challenge = fields.Nested(LastChallengeSchema, required=True, allow_none=True)
    mover = fields.Integer(required=True)
    turn = fields.Integer(required=True)
    seen = fields.String(required=True, metadata={
        "description": "The repetition rule's record, for the server: a 64-bit key of every "
                       "position so far (board, both piles, seat to move), packed as base64; "
                       "once the game is over, only the final position's."})
    numbers = fields.List(fields.Nested(PrimeDropNumberSchema), required=True, metadata=_derived(
        "every number on the board as a challenge names it: each run of two or more tiles "
        "read both ways (rows first, then columns), then the lone tiles."))


class PartitionRegionSchema(ShapeSchema):
    hexes = fields.List(fields.Integer(), required=True)
    closed = fields.Boolean(required=True)


class PartitionClosedRegionSchema(ShapeSchema):
    hexes = fields.List(fields.Integer(), required=True)
    owner = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The seat with more discs of its claimed colours here (null on a tie)."})


class PartitionSideSchema(ShapeSchema):
    close = fields.Integer(required=True, metadata={
        "description": "The hex a stick's `close` names to close this side."})
    hexes = fields.List(fields.Integer(), required=True)


class PartitionEqualSplitSchema(ShapeSchema):
    edge = _pair(required=True, metadata={"description": "[hex, hex]"})
    sides = fields.List(fields.Nested(PartitionSideSchema), required=True,
                        validate=validate.Length(equal=2))


def _colour(**kwargs) -> fields.String:
    return fields.String(validate=validate.OneOf(partition.COLOURS), **kwargs)


class PartitionStateSchema(ShapeSchema):
    rows = fields.Integer(required=True)
    cols = fields.Integer(required=True)
    colours = fields.List(_colour(allow_none=True), required=True,
                          metadata={"description": "The disc colour by hex id; null once "
                                                   "claimed."})
    sticks = fields.List(_pair(), required=True)
    regions = fields.List(fields.Nested(PartitionRegionSchema), required=True)
    claimed = _per_seat(fields.List(_colour()))
    claims_left = _per_seat(fields.Integer())
    subdivisions_left = _per_seat(fields.Integer())
    actions_left = fields.Integer(required=True)
    points = _per_seat(fields.Integer())
    turn = fields.Integer(required=True)
    singleton_rule = fields.Boolean(required=True)
    closed_regions = fields.List(fields.Nested(PartitionClosedRegionSchema), required=True,
                                 metadata=_derived("each closed region (in `regions`' order) "
                                                   "and its owner were the game to end now."))
    regions_held = _per_seat(fields.Integer(), metadata=_derived("closed regions owned."))
    totals = _per_seat(fields.Integer(), metadata=_derived("points plus regions held."))
    equal_splits = fields.List(fields.Nested(PartitionEqualSplitSchema), required=True,
                               metadata=_derived(
                                   "the sticks that split the open region into equal parts "
                                   "without ending the game, so that their maker names the "
                                   "side to close; each with its two sides."))


class PloidCellSchema(ShapeSchema):
    seat = fields.Integer(required=True)
    piece = fields.Raw(required=True, metadata=PLOID_PIECE)


class PloidHandSchema(ShapeSchema):
    numbers = fields.List(fields.Integer(), required=True)
    blanks = fields.Integer(required=True)


class PloidGroupSchema(ShapeSchema):
    seat = fields.Integer(required=True)
    cells = fields.List(_pair(), required=True, metadata={"description": "[row, col], in board "
                                                                          "order."})
    size = fields.Integer(required=True)
    limit = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The smallest number in the group, which its size may not pass (null "
                       "for a group without a number)."})


class PloidStateSchema(ShapeSchema):
    n = _whole(ploid.MIN_N, ploid.MAX_N, required=True)
    rows = fields.Integer(required=True)
    cols = fields.Integer(required=True)
    board = fields.List(fields.List(fields.Nested(PloidCellSchema, allow_none=True)),
                        required=True, metadata={"description": "Rows of cells: a piece, or "
                                                                "null when empty."})
    hands = _per_seat(fields.Nested(PloidHandSchema))
    last_number = fields.Integer(required=True, allow_none=True)
    placed = _per_seat(fields.Integer())
    mover = fields.Integer(required=True)
    groups = fields.List(fields.Nested(PloidGroupSchema), required=True, metadata=_derived(
        "every group of either seat, seat 0's first."))


class FactorMultipleStateSchema(ShapeSchema):
    n = _whole(factor_multiple.MIN_N, factor_multiple.MAX_N, required=True)
    even_start = fields.Boolean(required=True)
    first = fields.Integer(required=True)
    said = fields.List(fields.Integer(), required=True)
    current = fields.Integer(required=True, allow_none=True)


BINGO_CELL = {"oneOf": [{"type": "integer"}, {"type": "string"}],
              "description": "A number, or the letter while it has none."}
BINGO_BOARDS = {"description": "Per seat, five rows of five cells."}


class FactorBingoStateSchema(ShapeSchema):
    phase = fields.String(required=True, validate=validate.OneOf(["filling", "start", "calling"]))
    boards = _per_seat(fields.List(fields.List(fields.Raw(metadata=BINGO_CELL))),
                       metadata=BINGO_BOARDS)
    numbers = fields.List(fields.Integer(), required=True)
    unused = fields.List(fields.Integer(), required=True)
    current = fields.Integer(required=True, allow_none=True)
    called = fields.List(fields.Integer(), required=True)
    lines = _per_seat(fields.Integer())
    starter = fields.Integer(required=True)
    letters = _per_seat(fields.List(fields.List(fields.String(
        validate=validate.OneOf(factor_bingo.LETTERS)))), metadata=BINGO_BOARDS)
    gray = fields.List(_pair(), required=True,
                       metadata={"description": "[row, col] of the cells with the same letter "
                                                "on both boards."})
    filled = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    start = fields.Integer(required=True, allow_none=True)
    bingo_lines = _per_seat(fields.List(fields.List(_pair())), metadata=_derived(
        "per seat, its complete lines, each as its five cells' [row, col] in order."))


STATES: dict[str, type[ShapeSchema]] = {
    "prime-drop": PrimeDropStateSchema, "partition": PartitionStateSchema,
    "ploid": PloidStateSchema, "factor-multiple": FactorMultipleStateSchema,
    "factor-bingo": FactorBingoStateSchema,
}


# --- game objects, one per kind ---

class KindUnionSchema(OneOfSchema):
    """A game object, documented as a `oneOf` of one schema per kind with a discriminator on
    `kind`. Dumped by the plain schema: every kind's object has the same fields (only the
    documented shape of `state` differs), and a per-kind dump costs a move's request a third of
    its speed."""

    type_field = "kind"
    type_field_remove = False
    plain: ma.Schema
    plain_many: ma.Schema

    def get_obj_type(self, obj: dict) -> str:
        return obj["kind"]

    def dump(self, obj, *, many: bool | None = None):
        return (self.plain_many if (self.many if many is None else many) else self.plain).dump(obj)


def per_kind(base: type[ma.Schema]) -> type[KindUnionSchema]:
    """`base` (a game object schema) once per kind, typed; the union keeps `base`'s name, so
    the document's `Game` is now the oneOf of `PrimeDropGame`, `PartitionGame`, ..."""
    return type(base.__name__, (KindUnionSchema,), {
        "plain": base(), "plain_many": base(many=True),
        "type_schemas": {slug: type(f"{_camel(slug)}{base.__name__}", (base,), {
            "kind": fields.String(required=True, validate=validate.OneOf([slug])),
            "state": fields.Nested(STATES[slug], required=True)})
            for slug in GAMES}})


class ShapesPlugin(apispec_oneofschema.MarshmallowPlugin):
    """apispec's marshmallow plugin, with `oneOf`s for KindUnionSchema and MoveField."""

    def init_spec(self, spec):
        super().init_spec(spec)
        self.converter.add_attribute_function(move_union_property)


def _camel(slug: str) -> str:
    return "".join(word.capitalize() for word in slug.split("-"))
