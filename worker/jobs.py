"""Job functions, importable by name (`worker.jobs.bot_move`), each one line into the play
service. Each takes what it expects of the game and does nothing when the game has moved on, so a
retried or duplicated job never acts twice. `api.followups` enqueues them. Deadlines and background
rules are not jobs: every worker's background thread runs them (`api.play.background`).
"""

from __future__ import annotations

import os

from rq import get_current_job

from api import analysis
from api.bots.match import PLY_LIMIT
from api.followups import RQFollowups
from api.notify.events import GAME_EVENTS
from api.play import offers
from api.players import ratings
from api.store.games import GameStore


def _store() -> tuple[GameStore, RQFollowups]:
    connection = get_current_job().connection
    return GameStore(connection, GAME_EVENTS), RQFollowups(connection)


def ping() -> str:
    """An empty job: the baseline for job round trips, and a check that workers answer."""
    return "pong"


def _budget() -> float:
    return float(os.environ.get("POSTPLAY_BOT_BUDGET_S", "1.0"))


def bot_move(game_id: str, ply: int) -> bool:
    """Answer any offer to the bot, then play its move in `game_id` if the game is still at
    `ply`; True when it moved."""
    limit = int(os.environ.get("POSTPLAY_BOT_GAME_PLY_LIMIT", str(PLY_LIMIT)))
    return offers.bot_turn(*_store(), game_id, ply, _budget(), ply_limit=limit) is not None


def bot_answer(game_id: str, ply: int) -> bool:
    """Answer the offers standing for the bot in `game_id` at `ply`; True when it answered."""
    return offers.answer_as_bot(*_store(), game_id, ply) is not None


def analyse(game_id: str, ply: int, whole_game: bool = False) -> bool:
    """Compute and cache the analysis of `game_id` at `ply`, or of every move up to it."""
    return analysis.compute_on_worker(_store()[0], game_id, ply, whole_game)


def analyse_game(game_id: str, ply: int, key: str, client: str) -> bool:
    """Compute and cache the analysis of every move of `game_id` up to `ply`, under `key`, its
    CPU time charged to `client`."""
    return analysis.compute_on_worker(_store()[0], game_id, ply, True, key, client)


def rate(game_id: str) -> bool:
    """Apply a rated game's ratings if they are still owed; True when this run applied them."""
    return ratings.rate_on_worker(get_current_job().connection, game_id)
