"""The playtests service's side of its storage: what the stores are given to report with
(`REPORTS`: `PlaytestStore(client, REPORTS)`, `SweepStore(client, REPORTS)`), and a playtest's
sample games, stored as real finished games to replay."""

from __future__ import annotations

import time

from api import playtests
from api.bots.match import PlayedGame
from api.playtests import game_seed, sweeps
from api.record import GameRecord, Seat, history_entry
from api.store.games import GameStore
from api.store.playtests import Reports, sample_game_id

REPORTS = Reports(playtest=playtests.report, sweep=sweeps.view)


def store_sample_game(
    games: GameStore, spec: dict, index: int, game: PlayedGame, now: float | None = None
) -> str:
    """Store game `index` of playtest `spec` as a finished bot-vs-bot game, history included,
    so GET /games/{id} and /moves replay it; returns its id."""
    game_id = sample_game_id(spec["id"], index)
    if games.load(game_id) is not None:
        return game_id
    now = time.time() if now is None else now
    moves = [history_entry(ply, seat, move, now) for ply, (seat, move) in enumerate(game.history)]
    assert game.final is not None  # play_game keeps the game's last position
    record = GameRecord.create(
        game_id,
        spec["kind"],
        spec["options"],
        game_seed(spec["seed"], index),
        game.first,
        [Seat.for_bot(level) for level in game.levels],
        game.final,
        len(moves),
        {"type": "none"},
        None,
        now,
        playtest={"id": spec["id"], "index": index},
    )
    record.finish(game.outcome)  # the game's own end, or an abort at the playtests' ply limit
    games.create(record, {}, moves)
    return game_id
