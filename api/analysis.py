"""Perfect-play analysis of a game's positions, where the game has a solver: computed in the
request when it is quick, otherwise on a worker (the caller answers 202 until it is cached).
Results are cached per game and ply."""
from __future__ import annotations

from api.bots import ANALYSERS
from api.games import State, get_game
from api.play import Conflict, Followups, PlayError, load_state, replay
from api.store.games import GameStore


class NoSolver(PlayError):
    status = 422


def position(store: GameStore, doc: dict, ply: int | None) -> State:
    """The game's state at `ply` (its current one when None), replayed from the history."""
    if ply is None or ply == doc["ply"]:
        return load_state(doc)
    if not 0 <= ply <= doc["ply"]:
        raise Conflict(f"The game has plies 0 to {doc['ply']}; there is no ply {ply}.")
    state = get_game(doc["kind"]).new(doc["options"], doc["first"], doc["seed"])
    for state in replay(doc, store.moves(doc["id"])[:ply]):
        pass
    return state


def analysis(store: GameStore, followups: Followups, doc: dict,
             ply: int | None = None) -> dict | None:
    """The analysis at `ply`, or None while a worker computes it."""
    analyser = ANALYSERS.get(doc["kind"])
    if analyser is None:
        raise NoSolver(f"{get_game(doc['kind']).title} has no perfect-play analysis yet.")
    humans = sum(1 for s in doc["seats"] if s["bot"] is None)
    if doc["status"] != "finished" and humans == 2:
        raise Conflict("Analysis opens when the game is over: both seats are people.")
    ply = doc["ply"] if ply is None else ply
    cached = store.cached_analysis(doc["id"], ply)
    if cached is not None:
        return cached
    state = position(store, doc, ply)
    if not analyser.quick(state):
        followups.request_analysis(doc["id"], ply)
        return None
    return compute(store, doc["id"], ply, state)


def compute(store: GameStore, game_id: str, ply: int, state: State) -> dict:
    result = {"ply": ply, "to_move": state.to_move,
              **ANALYSERS[state.game.slug].analyse(state)}
    store.cache_analysis(game_id, ply, result)
    return result
