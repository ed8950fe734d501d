"""Importing a game (`POST /games/import` checks every entry by replaying it with the engine), per
kind, for a random game played to its end (cut where it would pass the 64 KiB body limit), as
a ratio against two
baselines measured in the same run on the same Redis: replaying the same entries with the engine
alone (`service.positions`, what the web client's replay costs the server), and creating one game.

Run: `make bench` (all benchmarks) or `.venv/bin/python -m tests.benchmarks.bench_archive`.
"""

from __future__ import annotations

import json
import random
import statistics
import tempfile
import time

import redis

from api.games import GAMES
from api.notify.events import GAME_EVENTS
from api.play import archive, service
from api.record import Seat
from api.store.embedded import start_redis
from api.store.games import GameStore
from api.web.input_bounds import MAX_BODY_BYTES

ROUNDS = 5
AT = "2026-01-01T00:00:00.000Z"


class NoFollowups:
    """Nothing to enqueue: the games made here have no bot seats."""

    def after_change(self, record) -> None:
        pass


def long_game(kind: str, seed: int = 1) -> dict:
    """An export document of a random game of `kind`, cut where its body would pass the limit
    (ended by agreement there)."""
    game = GAMES[kind]
    options = game.check_options({})
    rng = random.Random(seed)
    state, moves = game.new(options, 0, seed), []
    while not state.is_over() and len(moves) < archive.MAX_PLIES:
        move = state.forced_move() or rng.choice(state.legal_moves())
        moves.append({"ply": len(moves), "seat": state.to_move, "move": move.to_dict(), "at": AT})
        state = state.apply(move)
    document = {
        "kind": kind,
        "options": options,
        "seed": seed,
        "first": 0,
        "seats": [{"name": "Ada", "bot": None}, {"name": "Bo", "bot": None}],
        "time_control": {"type": "none"},
        "result": None,
        "moves": moves,
    }
    while len(json.dumps(document)) > MAX_BODY_BYTES:
        moves.pop()
    final = game.new(options, 0, seed)
    for entry in moves:
        final = final.apply(final.forced_move() or game.parse_move(entry["move"]))
    outcome = final.outcome()
    document["result"] = (
        outcome.to_dict()
        if outcome is not None
        else {"winner": None, "reason": "agreement", "scores": None}
    )
    return document


def best_of(fn) -> float:
    return min(_timed(fn) for _ in range(ROUNDS))


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    proc, url = start_redis(tempfile.mkdtemp(), appendonly=False)
    try:
        store = GameStore(redis.Redis.from_url(url), GAME_EVENTS)
        create_s = best_of(
            lambda: service.create_game(
                store,
                NoFollowups(),
                "factor-multiple",
                None,
                [Seat.human("Ada"), Seat.human("Bo")],
                0,
            )
        )
        print(f"baseline: create one game {create_s * 1000:.2f} ms")
        ratios = []
        for kind in sorted(GAMES):
            document = long_game(kind)
            imported = archive.import_game(store, document)
            replay_s = best_of(lambda: list(service.positions(imported, document["moves"])))
            import_s = best_of(lambda: archive.import_game(store, document))
            ratios.append(import_s / replay_s)
            print(
                f"{kind}: {len(document['moves'])} plies, import {import_s * 1000:.1f} ms = "
                f"{import_s / replay_s:.2f} x the engine's replay ({replay_s * 1000:.1f} ms), "
                f"{import_s / create_s:.0f} x creating a game"
            )
        print(f"import / replay, median over kinds: {statistics.median(ratios):.2f}")
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    main()
