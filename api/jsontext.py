"""Compact JSON text, written by orjson: what the store writes and the API answers.

A move writes its game's document, its history entry and its script's commands as JSON, and
answers with the game as JSON: with the standard library's encoder that was a tenth of a move's
time in the web process. orjson (maintained, in C) writes the same compact text several times
faster: the same keys in the same order, the same numbers, but other characters than ASCII as
UTF-8 rather than escaped, which any JSON reader reads as the same text.

orjson refuses what the standard library writes and it cannot (an integer past 64 bits, a key
that is not a string): those are written by the standard library, as before. It reads text the
same way, but for an integer past 64 bits, which it reads as a float, and what is not JSON
(NaN, a lone surrogate): text holding a number of 19 digits or more, or that orjson refuses,
is read by the standard library.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import orjson

COMPACT = (",", ":")
# an integer of 19 digits may be past what orjson reads as one: 19 digits after anything but a
# point (a fraction's digits) or a digit, found by marking digits and points (a translation and a
# substring search run in C, where a regular expression backtracks through every digit)
_MARKS = bytes(48 if 48 <= b <= 57 else 46 if b == 46 else 32 for b in range(256))
_LONG_INTEGER = b" " + b"0" * 19


def dumps(obj: Any, sort_keys: bool = False, default: Callable[[Any], Any] | None = None) -> bytes:
    """`obj` as compact JSON, UTF-8 encoded; `default` as `json.dumps` takes it (dates and
    dataclasses are handed to it too, as the standard library does, not written by orjson's own
    rules)."""
    option = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
    if sort_keys:
        option |= orjson.OPT_SORT_KEYS
    try:
        return orjson.dumps(obj, default=default, option=option)
    except TypeError:  # what orjson cannot write; the standard library may (or says why not)
        # (escaped to ASCII: text orjson refused may hold a lone surrogate, not UTF-8)
        return json.dumps(obj, separators=COMPACT, sort_keys=sort_keys, default=default).encode()


def dumps_text(obj: Any) -> str:
    """`dumps(obj)` as text."""
    return dumps(obj).decode()


def loads(text: str | bytes, **kwargs: Any) -> Any:
    """The value of JSON `text`, as `json.loads(text, **kwargs)` reads it."""
    try:
        raw = text.encode() if isinstance(text, str) else bytes(text)
    except UnicodeEncodeError:  # a lone surrogate: not UTF-8, so not for orjson
        return json.loads(text, **kwargs)
    if _LONG_INTEGER not in b" " + raw.translate(_MARKS):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(text, **kwargs)
