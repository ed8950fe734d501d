"""Perfect-play analysis of a game's positions, where the game has a solver: computed in the
request when it is quick, otherwise on a worker (the caller answers 202 until it is cached).
Results are cached per game and ply."""
from __future__ import annotations

from api.bots import ANALYSERS
from api.games import State, get_game
from api.play.errors import Conflict, NotOffered
from api.play.record import GameRecord, Status
from api.play.service import Followups, position
from api.store.games import GameStore


def analysis(store: GameStore, followups: Followups, record: GameRecord,
             ply: int | None = None) -> dict | None:
    """The analysis at `ply`, or None while a worker computes it."""
    analyser = ANALYSERS.get(record.kind)
    if analyser is None:
        raise NotOffered(f"{get_game(record.kind).title} has no perfect-play analysis yet.")
    humans = sum(1 for s in record.seats if s.bot is None)
    if record.status is not Status.FINISHED and humans == 2:
        raise Conflict("Analysis opens when the game is over: both seats are people.")
    ply = record.ply if ply is None else ply
    cached = store.cached_analysis(record.id, ply)
    if cached is not None:
        return cached
    state = position(store, record, ply)
    if not analyser.quick(state):
        followups.request_analysis(record.id, ply)
        return None
    return compute(store, record.id, ply, state)


def compute_on_worker(store: GameStore, game_id: str, ply: int) -> bool:
    """The worker's side of a slow analysis: compute and cache it (False: no such game)."""
    record = store.load(game_id)
    if record is None:
        return False
    compute(store, game_id, ply, position(store, record, ply))
    return True


def compute(store: GameStore, game_id: str, ply: int, state: State) -> dict:
    result = {"ply": ply, "to_move": state.to_move,
              **ANALYSERS[state.game.slug].analyse(state)}
    store.cache_analysis(game_id, ply, result)
    return result
