"""Pure rules engines, one module per game, and the registry keyed by slug.

Importing this package registers every game; nothing here imports web, storage or job code.
"""

# importing them registers them
from api.games import factor_bingo, factor_multiple, partition, ploid, prime_drop  # noqa: F401
from api.games.base import (
    BadOption,
    Game,
    IllegalMove,
    MalformedMove,
    Move,
    Option,
    Outcome,
    Pass,
    Reason,
    State,
    UnknownField,
)
from api.games.registry import GAMES, get_game

__all__ = [
    "BadOption",
    "GAMES",
    "Game",
    "IllegalMove",
    "MalformedMove",
    "Move",
    "Option",
    "Outcome",
    "Pass",
    "Reason",
    "State",
    "UnknownField",
    "get_game",
]
