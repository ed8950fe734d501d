"""Job functions, importable by name (`worker.jobs.bot_move`), each one line into the play
service. Each takes what it expects of the game and does nothing when the game has moved on, so a
retried or duplicated job never acts twice. `api.followups` enqueues them.
"""
from __future__ import annotations

import os
import time

from rq import get_current_job

from api import analysis
from api.bots.match import PLY_LIMIT
from api.followups import RQFollowups
from api.play import service
from api.store.games import GameStore

# RQ's scheduler keeps whole seconds and polls once a second, so a deadline job may run up to
# about a second early: it waits that out; finding more time left (clock skew), it re-arms
MAX_EARLY_WAIT_S = 1.5


def _store() -> tuple[GameStore, RQFollowups]:
    connection = get_current_job().connection
    return GameStore(connection), RQFollowups(connection)


def ping() -> str:
    """An empty job: the baseline for job round trips, and a check that workers answer."""
    return "pong"


def bot_move(game_id: str, ply: int) -> bool:
    """Play the bot's move in `game_id` if the game is still at `ply`; True when it moved."""
    budget = float(os.environ.get("POSTPLAY_BOT_BUDGET_S", "1.0"))
    limit = int(os.environ.get("POSTPLAY_BOT_GAME_PLY_LIMIT", str(PLY_LIMIT)))
    return service.play_bot_move(*_store(), game_id, ply, budget, ply_limit=limit) is not None


def analyse(game_id: str, ply: int) -> bool:
    """Compute and cache the analysis of `game_id` at `ply`."""
    return analysis.compute_on_worker(_store()[0], game_id, ply)


def check_rule(game_id: str, rule: str) -> str:
    """End the game by its background rule `rule` if the rule now gives an outcome."""
    record = service.check_background_rule(*_store(), game_id, rule)
    return "no outcome yet" if record is None else record.result.reason


def deadline(game_id: str, deadline_ts: float, attempt: int = 0) -> str:
    """End the game on time if the turn whose deadline was `deadline_ts` is still pending."""
    store, followups = _store()
    record = store.load(game_id)
    if record is None or record.deadline() != deadline_ts:
        return "stale"
    early = deadline_ts - time.time()
    if early > MAX_EARLY_WAIT_S:
        followups.schedule_deadline(game_id, deadline_ts, attempt + 1)
        return "re-armed"
    if early > 0:
        time.sleep(early)
    record = service.end_on_time(store, followups, game_id, deadline_ts)
    return "stale" if record is None else record.result.reason
