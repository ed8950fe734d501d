"""Bot-vs-bot games in process: the bench that bot-strength figures and playtests stand on."""
from __future__ import annotations

import dataclasses
import random

from api.bots.base import choose_move
from api.bots.search import step
from api.games.base import Outcome, State
from api.games.registry import get_game


@dataclasses.dataclass(frozen=True)
class GameRecord:
    levels: tuple[str, str]  # the bot in seat 0 and seat 1
    first: int
    outcome: Outcome
    plies: int


def play_game(slug: str, options: dict, levels: tuple[str, str], seed: int, first: int = 0,
              budget_s: float = 1.0) -> GameRecord:
    """One game between two bot levels (seat 0 plays levels[0]); deterministic for a seed
    when neither bot depends on the clock."""
    game = get_game(slug)
    rng = random.Random(seed)
    state: State = game.new(game.check_options(options), first, seed)
    while not state.is_over() and (forced := state.forced_move()) is not None:
        state = state.apply(forced)
    plies = 0
    while not state.is_over():
        state = step(state, choose_move(state, levels[state.to_move], rng, budget_s))
        plies += 1
    return GameRecord(levels, first, state.outcome(), plies)


def match(slug: str, options: dict, level_a: str, level_b: str, games: int, seed: int = 0,
          budget_s: float = 1.0) -> dict:
    """`games` games, seats and first move balanced; returns wins of a, wins of b and draws."""
    tally = {level_a: 0, level_b: 0, "draws": 0}
    for i in range(games):
        levels = (level_a, level_b) if i % 2 == 0 else (level_b, level_a)
        record = play_game(slug, options, levels, seed + i, first=(i // 2) % 2, budget_s=budget_s)
        winner = record.outcome.winner
        key = "draws" if winner is None else levels[winner]
        tally[key] = tally.get(key, 0) + 1
    return tally
