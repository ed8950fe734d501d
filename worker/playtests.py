"""Playtest jobs: one chunk of a batch's games per job, so several workers share a batch.

A chunk skips the games it already recorded (a retried job goes on where it stopped) and looks
for a cancel between games. A chunk that raises is marked failed by `chunk_failed`, RQ's
on_failure callback; what it played before is kept and counted.
"""

from __future__ import annotations

from rq import Queue, get_current_job

from api import playtests
from api.followups import MINING_TIMEOUT_S, PLAYTEST_QUEUE, mining_on
from api.learn.provers import PROVERS
from api.notify.events import GAME_EVENTS
from api.playtests.storage import REPORTS, store_sample_game
from api.store.games import GameStore
from api.store.playtests import ChunkStatus, PlaytestStore


def run_chunk(playtest_id: str, chunk: int) -> int:
    """Play chunk `chunk` of the playtest; returns how many games it played."""
    connection = get_current_job().connection
    store = PlaytestStore(connection, REPORTS)
    spec = store.load(playtest_id)
    if spec is None or not store.begin_chunk(playtest_id, chunk):
        return 0
    start, stop = spec["chunks"][chunk]
    played = 0
    for index in range(start, stop):
        if store.is_cancelled(playtest_id):
            store.end_chunk(playtest_id, chunk, ChunkStatus.CANCELLED)
            return played
        if store.has_game(playtest_id, index):
            continue
        game = playtests.play(spec, index)
        game_id = (
            store_sample_game(GameStore(connection, GAME_EVENTS), spec, index, game)
            if index < spec["samples"]
            else None
        )
        store.add_game(playtest_id, playtests.record_of(index, game, game_id))
        enqueue_mining(connection, spec, playtest_id, index, game)
        played += 1
    store.end_chunk(playtest_id, chunk, ChunkStatus.FINISHED)
    return played


def enqueue_mining(connection, spec: dict, playtest_id: str, index: int, game) -> None:
    """Mine the game's puzzles in a job of its own on the playtest queue (`worker.learn`)."""
    if not mining_on() or spec["kind"] not in PROVERS:
        return
    Queue(PLAYTEST_QUEUE, connection=connection).enqueue(
        "worker.learn.mine_played",
        spec["kind"],
        spec["options"],
        game.first,
        playtests.game_seed(spec["seed"], index),
        [move.to_dict() for _, move in game.history],
        {"playtest": playtest_id, "game": index},
        job_id=f"mine-{playtest_id}-{index}",
        result_ttl=60,
        failure_ttl=3600,
        job_timeout=MINING_TIMEOUT_S,
    )


def chunk_failed(job, connection, exc_type, exc_value, traceback) -> None:
    """RQ's on_failure callback: record the chunk as failed, with the error."""
    playtest_id, chunk = job.args
    PlaytestStore(connection, REPORTS).end_chunk(
        playtest_id, chunk, ChunkStatus.FAILED, f"{exc_type.__name__}: {exc_value}"
    )
