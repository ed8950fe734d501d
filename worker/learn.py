"""Puzzle jobs, on the playtest queue: mine a finished game, or one game of a playtest or sweep.
Each is idempotent: a puzzle's id is its position's digest and a mined game is marked, so a job
run twice (its worker killed with -9 and the job run again) adds nothing twice."""

from __future__ import annotations

from rq import get_current_job

from api.learn import service
from api.notify.events import GAME_EVENTS
from api.store.games import GameStore
from api.store.puzzles import PuzzleStore


def mine_game(game_id: str) -> int:
    connection = get_current_job().connection
    return service.mine_game(GameStore(connection, GAME_EVENTS), PuzzleStore(connection), game_id)


def mine_played(
    kind: str, options: dict, first: int, seed: int, moves: list[dict], source: dict
) -> int:
    connection = get_current_job().connection
    return service.mine_played(PuzzleStore(connection), kind, options, first, seed, moves, source)
