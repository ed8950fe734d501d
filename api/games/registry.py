"""The games, keyed by a stable slug. The list the API shows comes straight from here."""

from __future__ import annotations

from api.games.base import Game

GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: add a game under its slug, refusing a duplicate."""
    if cls.slug in GAMES:
        raise ValueError(f"a game with slug {cls.slug!r} is already registered")
    GAMES[cls.slug] = cls
    return cls


def get_game(slug: str) -> type[Game]:
    """The game for `slug`; KeyError when there is none."""
    return GAMES[slug]
