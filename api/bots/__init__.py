"""Bots: pure functions of a state, a random source and a time budget, registered per game.

Importing this package registers every game's bots: those of the game in `api/games/<name>.py`
are in `api/bots/<name>.py`, found by that name, so a new game's bots need no line here.
"""

import importlib

from api.bots.base import (
    ANALYSERS,
    BOTS,
    DEFAULT_BUDGET_S,
    Analyser,
    BotLevel,
    accepts_draw,
    analyser,
    bot,
    choose_move,
    levels,
    unavailable,
)
from api.games import GAMES

for _game in list(GAMES.values()):
    _package, _, _name = _game.__module__.rpartition(".")
    if _package == "api.games":  # (importing the module registers its bots)
        importlib.import_module(f"api.bots.{_name}")

__all__ = [
    "ANALYSERS",
    "BOTS",
    "DEFAULT_BUDGET_S",
    "Analyser",
    "BotLevel",
    "accepts_draw",
    "analyser",
    "bot",
    "choose_move",
    "levels",
    "unavailable",
]
