"""Redis replies as the store reads them. Every client is made without `decode_responses`, so a
string reply is bytes; redis-py's types cannot know that (they allow str, and, for the commands
that may add scores, tuples), so the store narrows each reply here, once."""

from __future__ import annotations


def data(reply: object) -> bytes:
    """A string reply, as bytes."""
    assert isinstance(reply, bytes), type(reply)
    return reply


def text(reply: object) -> str:
    """A string reply, decoded."""
    return data(reply).decode()


def data_or_none(reply: object) -> bytes | None:
    """A string reply that may be nil (a key not there), as bytes or None."""
    return None if reply is None else data(reply)
