"""A finished game, archived: its record, its whole history and its seat-token hashes in one
compressed value under the game's own key, so that a million finished games fit in Redis at
about a kilobyte each. Running games keep the plain layout (the record as JSON, the history as a
list that changes, takebacks included, remove entries from), and a game is archived in the
script that finishes it; `GameStore.load` and `GameStore.moves` read either form alike.

The value is `MAGIC`, the record's version, ":", then zstd (with the dictionary `archive.zdict`)
of compact JSON: the record as `to_dict` writes it (less what it derives again), the history as
columns (seats, moves by field, times as millisecond steps) and the seat hashes. A history the
columns would not give back exactly is kept as it is, so decoding always returns what was
stored. The version is in the clear so that a poll reads it without decompressing.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import zstandard

MAGIC = b"\x00a1:"
# zstd's dictionary, trained (zstandard.train_dictionary, 16 KiB) on 800 finished games in this
# form, 160 of each kind (bot games of seeds 100-103, varied as bench_million varies its own,
# whose seeds are others): their common strings (field names, kinds, reasons, time controls) are found there
# rather than in each game. Fixed for MAGIC's format: a new dictionary needs a new MAGIC.
DICTIONARY = zstandard.ZstdCompressionDict(Path(__file__).with_name("archive.zdict").read_bytes())
# zstd's level: 9 stores these games within 15 % of 19's size at a tenth of its time (a few
# hundred microseconds, once per game)
LEVEL = 9
_local = threading.local()  # a zstd context serves one thread at a time
ENTRY = ("ply", "seat", "move", "at")  # an entry's fields, in `history_entry`'s order
DERIVED = ("created_at", "updated_at", "unlisted")  # GameRecord.from_dict works them out again
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
EPOCH_DAY = date(1970, 1, 1).toordinal()
MS = timedelta(milliseconds=1)
# `api.clocks.iso`'s form: a time in it is given back exactly from its milliseconds
ISO = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{3})Z")


def is_archive(raw: bytes) -> bool:
    return raw.startswith(MAGIC)


def encode(doc: dict, history: list[dict], seat_hashes: dict[str, str]) -> bytes:
    """The archive of a finished game: its record's `to_dict`, its history, its seat hashes."""
    body = json.dumps(payload_of(doc, history, seat_hashes), separators=(",", ":")).encode()
    return MAGIC + str(doc["version"]).encode() + b":" + _contexts()[0].compress(body)


def payload_of(doc: dict, history: list[dict], seat_hashes: dict[str, str]) -> dict:
    """What an archive compresses (also what its dictionary is trained on)."""
    return {
        "r": {k: v for k, v in doc.items() if k not in DERIVED},
        "h": _columns(history),
        "t": seat_hashes,
    }


def decode(raw: bytes) -> tuple[dict, list[dict], dict[str, str]]:
    """(record dict for GameRecord.from_dict, history, seat hashes) of an archive."""
    body = raw[raw.index(b":", len(MAGIC)) + 1 :]
    payload = json.loads(_contexts()[1].decompress(body))
    return payload["r"], _entries(payload["h"]), payload["t"]


def _contexts() -> tuple[zstandard.ZstdCompressor, zstandard.ZstdDecompressor]:
    if not hasattr(_local, "contexts"):
        _local.contexts = (
            zstandard.ZstdCompressor(level=LEVEL, dict_data=DICTIONARY, write_content_size=True),
            zstandard.ZstdDecompressor(dict_data=DICTIONARY),
        )
    return _local.contexts


def _columns(history: list[dict]) -> dict:
    """The history as columns, when they give it back exactly; else as it is."""
    try:
        return _pack(history)
    except (KeyError, TypeError, ValueError):  # an entry not of the usual shape
        return {"raw": history}


def _pack(history: list[dict]) -> dict:
    """Columns, checked entry by entry to give the entry back (ValueError: they would not)."""
    shapes: dict[tuple, int] = {}
    fields: dict[str, list] = {}
    kinds, times, last = [], [], 0
    first = history[0]["ply"] if history else 0
    for i, entry in enumerate(history):
        if tuple(entry) != ENTRY or entry["ply"] != first + i or type(entry["seat"]) is not int:
            raise ValueError(entry)
        move = entry["move"]
        kinds.append(shapes.setdefault(tuple(move), len(shapes)))
        for key, value in move.items():
            fields.setdefault(key, []).append(value)
        ms = _ms(entry["at"])
        times.append(ms - last)
        last = ms
    return {
        "p": first,
        "s": [e["seat"] for e in history],
        "shapes": [list(s) for s in shapes],
        "k": kinds,
        "f": fields,
        "at": times,
    }


def _entries(columns: dict) -> list[dict]:
    if "raw" in columns:
        return columns["raw"]
    values = {key: iter(column) for key, column in columns["f"].items()}
    entries, ms = [], 0
    for i, (seat, kind, step) in enumerate(zip(columns["s"], columns["k"], columns["at"])):
        ms += step
        entries.append(
            {
                "ply": columns["p"] + i,
                "seat": seat,
                "move": {key: next(values[key]) for key in columns["shapes"][kind]},
                "at": _iso(ms),
            }
        )
    return entries


def _ms(at: str) -> int:
    """Milliseconds since the epoch of an `api.clocks.iso` string, exactly (ValueError for any
    other form, which `_iso` would not give back)."""
    found = ISO.fullmatch(at)
    if found is None:
        raise ValueError(at)
    year, month, day, hour, minute, second, ms = map(int, found.groups())
    if hour > 23 or minute > 59 or second > 59:
        raise ValueError(at)
    return (((_days(year, month, day) * 24 + hour) * 60 + minute) * 60 + second) * 1000 + ms


@functools.lru_cache(maxsize=4096)
def _days(year: int, month: int, day: int) -> int:
    """Days since the epoch (ValueError for no such day)."""
    return date(year, month, day).toordinal() - EPOCH_DAY


def _iso(ms: int) -> str:
    return (EPOCH + ms * MS).isoformat(timespec="milliseconds").replace("+00:00", "Z")
