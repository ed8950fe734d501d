"""Bots: pure functions of a state, a random source and a time budget, registered per game.

Importing this package registers every game's bots.
"""
from api.bots import (factor_bingo, factor_multiple, partition, ploid,  # noqa: F401
                      prime_drop)  # (importing them registers them)
from api.bots.base import (ANALYSERS, BOTS, DEFAULT_BUDGET_S, Analyser, BotLevel, accepts_draw,
                           analyser, bot, choose_move, levels, unavailable)

__all__ = ["ANALYSERS", "BOTS", "DEFAULT_BUDGET_S", "Analyser", "BotLevel", "accepts_draw",
           "analyser", "bot", "choose_move", "levels", "unavailable"]
