"""Job functions, importable by name (`worker.jobs.bot_move`). Each takes what it expects of the
game and does nothing when the game has moved on, so a retried or duplicated job never acts twice.
"""
from __future__ import annotations

import os
import time

from rq import get_current_job

from api import clocks
from api import timeout_rule as rules
from api.analysis import compute, position
from api.bots.match import PLY_LIMIT
from api.jobs import RQFollowups
from api.play import end_on_time_change, load_state, play_bot_move
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
    store, followups = _store()
    budget = float(os.environ.get("POSTPLAY_BOT_BUDGET_S", "1.0"))
    limit = int(os.environ.get("POSTPLAY_BOT_GAME_PLY_LIMIT", str(PLY_LIMIT)))
    return play_bot_move(store, followups, game_id, ply, budget, ply_limit=limit) is not None


def analyse(game_id: str, ply: int) -> bool:
    """Compute and cache the analysis of `game_id` at `ply`."""
    store, _ = _store()
    doc = store.load(game_id)
    if doc is None:
        return False
    compute(store, game_id, ply, position(store, doc, ply))
    return True


def timeout_rule(game_id: str) -> str:
    """End a Prime Drop game by the timeout rule if it now gives a winner."""
    store, followups = _store()
    doc = store.load(game_id)
    if doc is None:
        return "stale"
    try:
        doc = store.update(game_id, rules.verdict_change(store, doc["ply"], time.time()))
    except LookupError:
        return "no winner yet"
    followups.after_change(doc)
    return f"seat {doc['result']['winner']} wins"


def deadline(game_id: str, deadline_ts: float, attempt: int = 0) -> str:
    """End the game on time if the turn whose deadline was `deadline_ts` is still pending."""
    store, followups = _store()
    doc = store.load(game_id)
    if doc is None or clocks.deadline_ts(doc, load_state(doc).to_move) != deadline_ts:
        return "stale"
    early = deadline_ts - time.time()
    if early > MAX_EARLY_WAIT_S:
        followups.schedule_deadline(game_id, deadline_ts, attempt + 1)
        return "re-armed"
    if early > 0:
        time.sleep(early)
    try:
        doc = store.update(game_id, end_on_time_change(deadline_ts, time.time()))
    except LookupError:
        return "stale"
    followups.after_change(doc)
    return doc["result"]["reason"]
