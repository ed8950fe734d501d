"""Analysis of a game's positions, for every kind: exact where the game's solver decides the
position, otherwise the strongest bot's estimate at a fixed think time (api/bots: each game
registers an `Analyser`). Quick positions are computed in the request, the rest on a worker (the
caller answers 202 until it is cached), on the analysis queue, which the players' bots never
wait behind. Positions are cached per game and ply; a game's analysis by what it analysed
(`api.store.analyses`), so that identical records are analysed once. A game's analysis counts
against its client's budget (`budget`): so many queued or running, so many CPU seconds an hour.

A position's analysis: `{"ply", "to_move", "exact", "value", "best", ...}`, `value` from -1 (the
seat to move loses) to 1 (it wins), `best` a move; once the game is over `value` and `best` are
null and `winner` says who won. The game's analysis (`game_analysis`) reads every ply's
position and judges each move by what it left the mover: the verdict (exact) or the value
(estimated) of the position after it, beside the best move, and whether it was a mistake.
"""

from __future__ import annotations

import os
import random
import time

from api.bots import ANALYSERS
from api.games import State, get_game
from api.record.errors import Conflict, NotOffered, OverBudget
from api.record import GameRecord, Status
from api.play.service import Followups, position, positions
from api.store.analyses import HOUR_S, AnalysisStore, Begun, Budget, digest
from api.store.games import GameStore

# the strongest bot's think time for one estimated position, on the worker (a fixed budget, so
# that an analysis does not depend on the worker's settings; the tests shorten it)
ANALYSIS_BUDGET_S = 0.5
# an estimated move that loses at least this much value (of the range -1..1) is a mistake
MISTAKE_DROP = 0.4
VERDICTS = {1: "win", 0: "draw", -1: "loss"}
# a client's whole-game analyses queued or running at once; how long one holds its place
ANALYSES_PER_CLIENT = 2
ANALYSIS_CLAIM_S = 1800
# a client asked to wait for one of its analyses to end is asked again after this long
BUSY_RETRY_S = 10


def analysis(
    store: GameStore, followups: Followups, record: GameRecord, ply: int | None = None
) -> dict | None:
    """The analysis at `ply`, or None while a worker computes it."""
    _check_open(record)
    ply = record.ply if ply is None else ply
    cached = store.cached_analysis(record.id, ply)
    if cached is not None:
        return cached
    state = position(store, record, ply)
    if not _quick(state):
        followups.request_analysis(record.id, ply)
        return None
    return compute(store, record.id, ply, state)


def budget() -> Budget:
    """One client's allowance of whole-game analyses (POSTPLAY_ANALYSIS_CPU_S_PER_HOUR: the
    CPU seconds; one long game at the default think time is about 90)."""
    return Budget(
        ANALYSES_PER_CLIENT,
        float(os.environ.get("POSTPLAY_ANALYSIS_CPU_S_PER_HOUR", "600")),
        ANALYSIS_CLAIM_S,
    )


def game_analysis(
    store: GameStore,
    analyses: AnalysisStore,
    followups: Followups,
    record: GameRecord,
    client: str,
    now: float | None = None,
) -> dict | None:
    """Every move of the game so far judged (see the module docstring), or None while a worker
    computes it. OverBudget when `client` may not start another analysis now."""
    _check_open(record)
    now = time.time() if now is None else now
    history = store.moves(record.id)[: record.ply]
    key = digest(record.kind, record.options, record.first, record.seed, history)
    cached = analyses.cached(key)
    if cached is not None:
        return cached
    allowed = budget()
    begun = analyses.begin(key, client, now, allowed)
    if begun is Begun.BUSY:
        raise OverBudget(
            f"You have {allowed.running} analyses of whole games queued or "
            f"running; ask for another when one of them is done.",
            BUSY_RETRY_S,
        )
    if begun is Begun.SPENT:
        raise OverBudget(
            f"Your analyses used this hour's {allowed.cpu_s_per_hour:g} CPU "
            f"seconds; ask again next hour.",
            int(HOUR_S - now % HOUR_S) + 1,
        )
    if begun is Begun.QUEUED:  # (always on a worker: a game is many positions, even quick ones)
        followups.request_game_analysis(record.id, record.ply, key, client)
    return None


def compute_on_worker(
    store: GameStore,
    game_id: str,
    ply: int,
    whole_game: bool = False,
    key: str | None = None,
    client: str = "",
) -> bool:
    """The worker's side of a slow analysis: compute and cache it (False: no such game). A
    game's analysis is cached under `key` and its CPU time charged to `client`."""
    record = store.load(game_id)
    if not whole_game:
        if record is not None:
            compute(store, game_id, ply, position(store, record, ply))
        return record is not None
    analyses, started = AnalysisStore(store.redis), time.process_time()
    try:
        if record is None:
            return False
        history = store.moves(game_id)[:ply]
        key = key or digest(record.kind, record.options, record.first, record.seed, history)
        states = [state for _, state, _ in positions(record, history)]
        analyses.cache(key, compute_game(store, record, history, states))
        return True
    finally:
        if key is not None:
            analyses.end(key, client, time.process_time() - started, time.time())


def compute(store: GameStore, game_id: str, ply: int, state: State) -> dict:
    result = {
        "ply": ply,
        "to_move": state.to_move,
        **analyse(state, random.Random(f"{game_id}:{ply}")),
    }
    store.cache_analysis(game_id, ply, result)
    return result


def analyse(state: State, rng: random.Random) -> dict:
    """A position's analysis: the game's analyser's, or the outcome once the game is over, or,
    where the server must pass for the mover, the position after the pass seen from here."""
    outcome = state.outcome()
    if outcome is not None:
        return {"exact": True, "value": None, "best": None, "winner": outcome.winner, "moves": []}
    forced = state.forced_move()
    if forced is None:
        budget_s = float(os.environ.get("POSTPLAY_ANALYSIS_BUDGET_S", ANALYSIS_BUDGET_S))
        return ANALYSERS[state.game.slug].analyse(state, rng, budget_s)
    after = state.apply(forced)
    judged = analyse(after, rng)
    mover = state.to_move
    assert mover is not None  # the game goes on (its outcome is None above)
    return {
        "exact": judged["exact"],
        "value": _value_for(judged, after, mover),
        "best": forced.to_dict(),
    }


def compute_game(
    store: GameStore, record: GameRecord, history: list[dict], states: list[State]
) -> dict:
    """Judge every move of `history` (states[k] is the position before entry k, states[-1]
    the last) from each position's analysis, cached or computed now."""
    judged = []
    for ply, state in enumerate(states):
        cached = store.cached_analysis(record.id, ply)
        judged.append(cached if cached is not None else compute(store, record.id, ply, state))
    plies = [
        judge_move(entry, states[k], judged[k], states[k + 1], judged[k + 1])
        for k, entry in enumerate(history)
    ]
    return {
        "ply": len(history),
        "exact": all(j["exact"] for j in judged),
        "graph": [_value_for(j, s, 0) for j, s in zip(judged, states)],
        "plies": plies,
    }


def judge_move(
    entry: dict, before: State, judged_before: dict, after: State, judged_after: dict
) -> dict:
    """One move judged for its mover: the verdict or value of the position it left, the best
    move of the position it was made in, and whether it gave value away."""
    seat = entry["seat"]
    got, could = _value_for(judged_after, after, seat), judged_before["value"]
    best = judged_before["best"]
    out = {
        "ply": entry["ply"],
        "seat": seat,
        "move": entry["move"],
        "best": best,
        "best_words": None if best is None else before.game.words_for(before, best),
    }
    if judged_before["exact"] and judged_after["exact"]:
        out["verdict"] = VERDICTS[round(got)]
        out["mistake"] = got < could
    else:
        out["value"] = got
        out["mistake"] = could - got >= MISTAKE_DROP
    return out


def _value_for(judged: dict, state: State, seat: int) -> float:
    """A position's value (its analysis `judged`) for `seat`: 1 won, -1 lost."""
    if judged["value"] is None:  # over
        winner = judged["winner"]
        return 0 if winner is None else 1 if winner == seat else -1
    return judged["value"] if state.to_move == seat else -judged["value"]


def _quick(state: State) -> bool:
    return state.is_over() or ANALYSERS[state.game.slug].quick(state)


def _check_open(record: GameRecord) -> None:
    if record.kind not in ANALYSERS:
        raise NotOffered(f"{get_game(record.kind).title} has no analysis yet.")
    humans = sum(1 for s in record.seats if s.bot is None)
    if record.status is not Status.FINISHED and humans == 2:
        raise Conflict("Analysis opens when the game is over: both seats are people.")
