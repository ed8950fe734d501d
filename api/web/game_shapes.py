"""Every game's move and state shapes, for the OpenAPI document: one schema per move type and one
per kind's state, so a client generated from the document gets typed moves and states.

Nothing here names a game. Each schema is derived from the game's own declaration in its engine
module (its moves' `wire` fields, its state's `Shape`; see api/games/base.py), found through the
registry, so a new game edits nothing here. The engines declare plain data, not marshmallow
schemas, so they stay free of web imports and keep their own refusals.

A move is documented as a `oneOf` of the move schemas with a discriminator on `type` (move types
are unique across games), yet read as a plain object: the game's `parse_move` checks it and
names the field at fault. A game object is documented once per kind (`PrimeDropGame`, ...) with
`kind` a one-value enum and `state` that kind's state, as a `oneOf` with a discriminator on `kind`,
and dumped through the schema of its kind. Each state schema matches its `State.view()` exactly:
`to_dict()`'s stored fields, then the facts a board draws (`facts()`, marked "Derived")
(tests/api/test_contract.py plays every game to check it).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

import apispec_oneofschema
import marshmallow as ma
from marshmallow import fields, validate
from marshmallow_oneofschema import OneOfSchema

from api.games import GAMES, Game
from api.games.base import (
    Boolean,
    Either,
    Field,
    Kind,
    ListOf,
    MapOf,
    Maybe,
    Obj,
    Pair,
    Shape,
    Text,
    Whole,
)


class ShapeSchema(ma.Schema):
    """A shape the engines produce; marshmallow's default `unknown = RAISE` documents it with
    `additionalProperties: false`, so a field an engine adds fails the contract test."""


@functools.cache
def schema_for(shape: Shape) -> type[ShapeSchema]:
    """The marshmallow schema of a shape (named as the shape, so the document's component is
    `shape.name`); a move's shape gets its `type` as a one-value enum."""
    declared: dict[str, fields.Field] = {}
    if shape.move_type is not None:
        declared["type"] = fields.String(required=True, validate=validate.OneOf([shape.move_type]))
    for field in shape.fields:
        declared[field.name] = _field(field)
    # marshmallow types `from_dict` as giving a plain Schema; it gives a subclass of its own class
    return cast("type[ShapeSchema]", ShapeSchema.from_dict(declared, name=f"{shape.name}Schema"))


def _field(field: Field) -> fields.Field:
    metadata = {"description": field.description} if field.description else {}
    return _kind(field.kind, required=not field.optional, metadata=metadata)


def _kind(kind: Kind, **kwargs) -> fields.Field:
    """The marshmallow field of a kind (only what the document shows: reading is the engine's)."""
    if isinstance(kind, Maybe):
        return _kind(kind.kind, allow_none=True, **kwargs)
    if isinstance(kind, Whole):
        checks: list[validate.Validator] = []
        if kind.lo is not None or kind.hi is not None:
            checks.append(validate.Range(min=kind.lo, max=kind.hi))
        if kind.choices:
            checks.append(validate.OneOf(kind.choices))
        return fields.Integer(strict=True, validate=checks, **kwargs)
    if isinstance(kind, Boolean):
        return fields.Boolean(**kwargs)
    if isinstance(kind, Text):
        checks = [validate.Length(equal=kind.length)] if kind.length is not None else []
        if kind.choices:
            checks.append(validate.OneOf(kind.choices))
        return fields.String(validate=checks, **kwargs)
    if isinstance(kind, Pair):
        return fields.List(fields.Integer(strict=True), validate=validate.Length(equal=2), **kwargs)
    if isinstance(kind, ListOf):
        checks = [validate.Length(equal=kind.length)] if kind.length is not None else []
        return fields.List(_kind(kind.item), validate=checks, **kwargs)
    if isinstance(kind, MapOf):
        return fields.Dict(keys=_kind(kind.keys), values=_kind(kind.values), **kwargs)
    if isinstance(kind, Obj):
        return fields.Nested(schema_for(kind.shape), **kwargs)
    if isinstance(kind, Either):
        metadata = {"oneOf": [_json(k) for k in kind.kinds], **kwargs.pop("metadata", {})}
        if kind.description:
            metadata["description"] = kind.description
        return fields.Raw(metadata=metadata, **kwargs)
    raise TypeError(f"no schema for the kind {kind!r}")


def _json(kind: Kind) -> dict:
    """A scalar kind as a JSON schema (an `Either`'s alternatives)."""
    if isinstance(kind, Whole):
        out: dict[str, Any] = {"type": "integer"}
        if kind.lo is not None:
            out["minimum"] = kind.lo
        if kind.hi is not None:
            out["maximum"] = kind.hi
        return out
    if isinstance(kind, Text):
        return {"type": "string", **({"enum": list(kind.choices)} if kind.choices else {})}
    raise TypeError(f"no JSON schema for the kind {kind!r}")


# --- moves ---


def move_schemas(which: str, kind: str | None = None) -> dict[str, type[ShapeSchema]]:
    """Move schemas by type, from every registered game (or the game `kind` names alone): what a
    player sends ("player"; GET /legal-moves lists moves of the same shapes, to be sent back as
    they are) or what a history holds ("played": the players' moves and the server's passes)."""
    out: dict[str, type[ShapeSchema]] = {}
    for game in GAMES.values() if kind is None else [GAMES[kind]]:
        for move in game.moves:
            if move.server_only and which != "played":
                continue
            schema = schema_for(move.shape())
            if out.setdefault(move.move_type, schema) is not schema:
                raise ValueError(f"two games declare the move type {move.move_type!r}")
    return out


class MoveField(fields.Raw):
    """A move: read as it is (the game's `parse_move` checks it), documented as a `oneOf` of
    the move schemas `which` names (see `move_schemas`), of every kind or of `kind` alone, with a
    discriminator on `type`."""

    def __init__(self, which: str, kind: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.which = which
        self.kind = kind


def move_union_property(self, field: fields.Field, **kwargs) -> dict:
    """apispec attribute function (bound to the converter) documenting a MoveField."""
    if not isinstance(field, MoveField):
        return {}
    refs = {
        name: self.resolve_nested_schema(shape)
        for name, shape in move_schemas(field.which, field.kind).items()
    }
    return {
        "oneOf": list(refs.values()),
        "discriminator": {
            "propertyName": "type",
            "mapping": {name: ref["$ref"] for name, ref in refs.items()},
        },
    }


class MovesField(MoveField):
    """A move, or a list of moves (a turn of several actions): documented as a `oneOf` of the
    move union `which` names and an array of it."""


def moves_property(self, field: fields.Field, **kwargs) -> dict:
    """apispec attribute function (bound to the converter) documenting a MovesField (after
    `move_union_property`, whose union it wraps)."""
    if not isinstance(field, MovesField):
        return {}
    union = move_union_property(self, field)
    kwargs["ret"].pop("discriminator", None)  # (the union's own, inside now)
    return {"oneOf": [union, {"type": "array", "items": union, "minItems": 1}]}


class OneOfField(fields.Raw):
    """A value read and written as it is (the layer below checks it and writes it exactly),
    documented as `schema`: a OneOfSchema (a `oneOf` of its variants with a discriminator: time
    controls) or a plain one (a kind's options); a list of them when `many`."""

    def __init__(self, schema: type[ma.Schema], many: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.schema = schema
        self.many = many


def one_of_property(self, field: fields.Field, **kwargs) -> dict:
    """apispec attribute function (bound to the converter) documenting a OneOfField."""
    if not isinstance(field, OneOfField):
        return {}
    ref = self.resolve_nested_schema(field.schema)
    if field.many:
        return {"type": "array", "items": ref}
    # a `$ref` has no siblings in OAS 3.0: one with a description is an `allOf` of it alone
    return {"allOf": [ref]} if field.metadata.get("description") else ref


class StateField(fields.Raw):
    """A state written as it is, of a kind the object does not say: documented as a `oneOf` of
    every kind's state schema (each closed, so a state matches its own kind's alone). Read as
    it is too, once it is an object (the game reads it, naming the field at fault)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ma.ValidationError("A state must be a JSON object.")
        return value


def state_union_property(self, field: fields.Field, **kwargs) -> dict:
    """apispec attribute function (bound to the converter) documenting a StateField."""
    if not isinstance(field, StateField):
        return {}
    return {"oneOf": [self.resolve_nested_schema(state_schema(slug)) for slug in GAMES]}


# null, as OAS 3.0.3 writes it: `nullable` extends only the `type` beside it, so a `$ref` or a
# `oneOf` that may be null is an `anyOf` of it and this (matching null alone)
NULL = {"type": "object", "nullable": True, "enum": [None]}
# what may stand beside a schema without saying what its values are
_ANNOTATIONS = ("description", "title", "default", "example", "readOnly", "writeOnly")


def nullable_as_3_0(schema):
    """`schema` with every nullable value written the way OAS 3.0.3 means it: a `nullable`
    without a `type` (apispec's, for a nullable `$ref` or `oneOf`) becomes an `anyOf` of the
    value and NULL, and apispec's `anyOf` of an empty nullable object (which matches any
    object, so a client never parses the value as its model) gets NULL in its place."""
    if isinstance(schema, list):
        return [nullable_as_3_0(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: nullable_as_3_0(value) for key, value in schema.items()}
    if "anyOf" in out and {"type": "object", "nullable": True} in out["anyOf"]:
        out["anyOf"] = [m for m in out["anyOf"] if m != {"type": "object", "nullable": True}]
        out["anyOf"].append(NULL)
    if out.get("nullable") and "type" not in out:
        del out["nullable"]
        core = {k: v for k, v in out.items() if k not in _ANNOTATIONS}
        if list(core) == ["allOf"] and len(core["allOf"]) == 1:  # a lone `$ref`, as it is
            core = core["allOf"][0]
        if core and NULL not in out.get("anyOf", ()):  # (an empty schema lets null in already)
            out = {**{k: v for k, v in out.items() if k in _ANNOTATIONS}, "anyOf": [core, NULL]}
    return out


def state_schema(slug: str) -> type[ShapeSchema]:
    """The schema of a kind's state as `State.view()` sends it: its declared shape's fields
    (what `to_dict` stores), then its `facts_shape`'s (what a board draws, never stored), each of
    those described as derived."""
    state = GAMES[slug].state_class
    derived = tuple(
        dataclasses.replace(f, description="Derived (sent, never stored): " + f.description)
        for f in state.facts_shape.fields
    )
    return schema_for(dataclasses.replace(state.shape, fields=state.shape.fields + derived))


@functools.cache
def options_schema(slug: str) -> type[ShapeSchema]:
    """The schema of a kind's options as a game holds them (every one filled in), from the
    game's `Option`s: a "json" option by its declared `shape`."""
    declared = {}
    for option in GAMES[slug].options:
        metadata = {"description": option.description}
        if option.kind == "int":
            field = _kind(
                Whole(option.min, option.max, tuple(option.choices)),
                required=True,
                metadata=metadata,
            )
        elif option.kind == "bool":
            field = fields.Boolean(required=True, metadata=metadata)
        elif option.kind == "choice":
            field = _kind(Text(choices=tuple(option.choices)), required=True, metadata=metadata)
        elif option.shape is not None:
            field = _kind(option.shape, required=True, metadata=metadata)
        else:
            raise TypeError(f"{slug}'s option {option.name!r} needs a shape for the document")
        declared[option.name] = field
    return cast(
        "type[ShapeSchema]", ShapeSchema.from_dict(declared, name=f"{_camel(slug)}OptionsSchema")
    )


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

    def dump(self, obj, *, many: bool | None = None, **kwargs):
        return (self.plain_many if (self.many if many is None else many) else self.plain).dump(obj)


# the fields of a schema that differ by kind, for one game (`per_kind`)
Typed = Callable[[type[Game]], dict[str, fields.Field]]


def game_object_fields(game: type[Game]) -> dict[str, fields.Field]:
    """A game object's fields typed for `game`: its state and its options."""
    return {
        "state": fields.Nested(state_schema(game.slug), required=True),
        "options": OneOfField(options_schema(game.slug), required=True),
    }


def per_kind(base: type[ma.Schema], typed: Typed = game_object_fields) -> type[KindUnionSchema]:
    """`base` (an object with a `kind`, a game object by default) once per kind, its fields
    `typed` for the kind; the union keeps `base`'s name, so the document's `Game` is now the
    oneOf of `PrimeDropGame`, `PartitionGame`, ..."""
    return type(
        base.__name__,
        (KindUnionSchema,),
        {"plain": base(), "plain_many": base(many=True), "type_schemas": PerKind(base, typed)},
    )


class PerKind(Mapping[str, type[ma.Schema]]):
    """`base` typed for each kind the registry holds when it is read (an app's document is made
    when the app is), so a game registered after this module's import, as the test suite's
    sixth game is, is in the document of an app made after it."""

    def __init__(self, base: type[ma.Schema], typed: Typed = game_object_fields):
        self.base = base
        self.typed = typed

    def __getitem__(self, slug: str) -> type[ma.Schema]:
        return _of_kind(self.base, GAMES[slug], self.typed)

    def __iter__(self) -> Iterator[str]:
        return iter(list(GAMES))

    def __len__(self) -> int:
        return len(GAMES)


@functools.cache
def _of_kind(base: type[ma.Schema], game: type[Game], typed: Typed) -> type[ma.Schema]:
    return type(
        kind_name(game, base.__name__),
        (base,),
        {
            "kind": fields.String(required=True, validate=validate.OneOf([game.slug])),
            **typed(game),
        },
    )


def kind_name(game: type[Game], name: str) -> str:
    """A schema's name typed for `game` (`PrimeDropGameSchema`, the component `PrimeDropGame`)."""
    return f"{_camel(game.slug)}{name}"


class KindsField(fields.Raw):
    """A value of one kind that the object around it does not name (a request's, the kind being
    its game's): read by `reader`, documented as an `anyOf` of `typed(game)`'s schema (a list of
    it, when `reader` is a list) for every kind (a value may fit more than one: [] fits all)."""

    def __init__(
        self, reader: fields.Field, typed: Callable[[type[Game]], type[ma.Schema]], **kwargs
    ):
        super().__init__(**kwargs)
        self.reader = reader
        self.typed = typed

    def _deserialize(self, value, attr, data, **kwargs):
        return self.reader.deserialize(value, attr, data, **kwargs)


def kinds_property(self, field: fields.Field, **kwargs) -> dict:
    """apispec attribute function (bound to the converter) documenting a KindsField."""
    if not isinstance(field, KindsField):
        return {}
    many = isinstance(field.reader, fields.List)
    refs = [self.resolve_nested_schema(field.typed(game)) for game in GAMES.values()]
    return {"anyOf": [{"type": "array", "items": ref} if many else ref for ref in refs]}


class ShapesPlugin(apispec_oneofschema.MarshmallowPlugin):
    """apispec's marshmallow plugin, with `oneOf`s for KindUnionSchema, MoveField, OneOfField
    and StateField, `anyOf`s for KindsField, and nullable values as OAS 3.0.3 means them (`nullable_as_3_0`)."""

    def init_spec(self, spec):
        super().init_spec(spec)
        self.converter.add_attribute_function(move_union_property)
        self.converter.add_attribute_function(moves_property)
        self.converter.add_attribute_function(one_of_property)
        self.converter.add_attribute_function(state_union_property)
        self.converter.add_attribute_function(kinds_property)

    def schema_helper(self, name, _, schema=None, **kwargs):
        return self._shared(
            nullable_as_3_0(super().schema_helper(name, _, schema=schema, **kwargs))
        )

    def _shared(self, schema):
        """Each property marked `x-shared` in its field's metadata (`{"x-shared":
        "GameStatus"}`) as a reference to one component of that name, so that a client gets one
        type for it (one status enum for every kind's game object, not one each)."""
        if not isinstance(schema, dict):
            return schema
        for prop in schema.get("properties", {}).values():
            name = prop.pop("x-shared", None)
            if name is None:
                continue
            annotations = {k: prop.pop(k) for k in _ANNOTATIONS if k in prop}
            if name not in self.spec.components.schemas:
                self.spec.components.schema(name, component=dict(prop))
            prop.clear()
            ref = {"$ref": f"#/components/schemas/{name}"}
            prop.update({**annotations, "allOf": [ref]} if annotations else ref)
        return schema


def _camel(slug: str) -> str:
    return "".join(word.capitalize() for word in slug.split("-"))
