"""Bots: pure functions of a state, a random source and a time budget, registered per game.

Importing this package registers every game's bots.
"""
from api.bots import factor_multiple  # noqa: F401  (registers the bots)
from api.bots.base import BOTS, DEFAULT_BUDGET_S, BotLevel, bot, choose_move, levels

__all__ = ["BOTS", "DEFAULT_BUDGET_S", "BotLevel", "bot", "choose_move", "levels"]
