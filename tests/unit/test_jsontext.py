"""api/jsontext.py: orjson's compact JSON where it can, the standard library's where it cannot,
always the text and values the standard library would give."""

import json
import math

import pytest

from api import jsontext

VALUES = [
    {"id": "g1", "ply": 3, "said": [1, 2, 4], "ts": 1796182875.2987227, "open": False, "x": None},
    {"name": "Zoë 🎲 אב", "nested": {"b": [1.5, -0.0, 1e16, 2.5e-7], "a": {}}},
    [],
    "",
]


@pytest.mark.parametrize("value", VALUES)
def test_it_writes_what_the_standard_library_reads_back_the_same(value):
    text = jsontext.dumps(value)
    assert json.loads(text) == value
    assert jsontext.loads(text) == value
    assert jsontext.dumps_text(value) == text.decode()


def test_ascii_text_is_the_standard_librarys_compact_text_byte_for_byte():
    value = VALUES[0]
    assert jsontext.dumps(value).decode() == json.dumps(value, separators=(",", ":"))


def test_keys_are_sorted_when_asked_and_kept_in_order_otherwise():
    assert jsontext.dumps({"b": 1, "a": 2}) == b'{"b":1,"a":2}'
    assert jsontext.dumps({"b": 1, "a": 2}, sort_keys=True) == b'{"a":2,"b":1}'


def test_what_orjson_cannot_write_is_written_by_the_standard_library():
    big = 2**70
    assert jsontext.dumps({"n": big}) == b'{"n":%d}' % big
    assert jsontext.dumps({1: "a"}) == b'{"1":"a"}'  # a key that is not a string
    # a lone surrogate is not UTF-8: escaped, as the standard library escapes it
    assert jsontext.dumps("\ud800") == b'"\\ud800"'


def test_an_integer_past_64_bits_is_read_as_an_integer_not_a_float():
    big = 10**30 + 1
    assert jsontext.loads(f'{{"n": {big}}}') == {"n": big}
    assert jsontext.loads(f'{{"n": {big}}}'.encode()) == {"n": big}
    assert isinstance(jsontext.loads("[9223372036854775807]")[0], int)
    assert jsontext.loads(str(big)) == big


@pytest.mark.parametrize(
    "text",
    [
        "0.0029249191284179688",
        "[1796182875.2987227, -1.5e-300]",
        '{"id": "x12345678901234567890123"}',
        "18446744073709551615",
    ],
)
def test_long_fractions_and_digits_in_text_read_as_the_standard_library_reads_them(text):
    assert jsontext.loads(text) == json.loads(text)


def test_what_orjson_refuses_to_read_the_standard_library_reads_with_its_hooks():
    assert math.isnan(jsontext.loads("NaN"))
    assert jsontext.loads('"\\ud800"') == "\ud800"
    with pytest.raises(ValueError):
        jsontext.loads("NaN", parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
    with pytest.raises(ValueError):
        jsontext.loads("{")


def test_default_is_asked_for_dates_and_dataclasses_as_flask_asks_it():
    import dataclasses
    import datetime

    @dataclasses.dataclass
    class P:
        x: int

    seen = []

    def default(o):
        seen.append(type(o).__name__)
        return "d" if isinstance(o, datetime.date) else dataclasses.asdict(o)

    assert jsontext.dumps([datetime.date(2026, 1, 2), P(1)], default=default) == b'["d",{"x":1}]'
    assert seen == ["date", "P"]
