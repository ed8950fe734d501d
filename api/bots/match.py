"""Bot-vs-bot games in process: the bench that bot-strength figures and playtests stand on."""

from __future__ import annotations

import dataclasses
import random

from api.bots.base import choose_move
from api.games.base import Move, Outcome, Reason, State, by_seat, play_forced
from api.games.registry import get_game

# a game between two bots still running after this many plies is aborted (reason "aborted"), so
# that a cycle in a game's rules or bots cannot hold a worker forever (Prime Drop's drop and
# challenge cycle ends by its repetition rule long before this)
PLY_LIMIT = 2000


@dataclasses.dataclass(frozen=True)
class PlayedGame:
    levels: tuple[str, str]  # the bot in seat 0 and seat 1
    first: int
    outcome: Outcome
    plies: int  # the bots' own moves
    # every move applied, as (seat, move), the server's passes included: the game's history
    history: tuple[tuple[int, Move], ...] = ()
    final: State | None = None


def play_game(
    slug: str,
    options: dict,
    levels: tuple[str, str],
    seed: int,
    first: int = 0,
    budget_s: float = 1.0,
    max_plies: int | None = None,
) -> PlayedGame:
    """One game between two bot levels (seat 0 plays levels[0]); deterministic for a seed
    when neither bot depends on the clock. A game still running after `max_plies` moves (passes
    included) is aborted: a batch must end even when the rules or the bots let a game cycle."""
    game = get_game(slug)
    levels = by_seat(levels)  # a list of the two is welcome too
    rng = random.Random(seed)
    state, history = play_forced(game.new(game.check_options(options), first, seed))
    plies = 0
    while not state.is_over():
        if max_plies is not None and len(history) >= max_plies:
            return PlayedGame(
                levels, first, Outcome(None, Reason.ABORTED), plies, tuple(history), state
            )
        seat = state.to_move
        assert seat is not None  # a game not over has a seat to move
        move = choose_move(state, levels[seat], rng, budget_s)
        state, forced = play_forced(state.apply(move))
        history += [(seat, move), *forced]
        plies += 1
    outcome = state.outcome()
    assert outcome is not None  # the game is over
    return PlayedGame(levels, first, outcome, plies, tuple(history), state)


def match(
    slug: str,
    options: dict,
    level_a: str,
    level_b: str,
    games: int,
    seed: int = 0,
    budget_s: float = 1.0,
) -> dict:
    """`games` games, seats and first move balanced; returns wins of a, wins of b and draws."""
    tally = {level_a: 0, level_b: 0, "draws": 0}
    for i in range(games):
        levels = (level_a, level_b) if i % 2 == 0 else (level_b, level_a)
        record = play_game(slug, options, levels, seed + i, first=(i // 2) % 2, budget_s=budget_s)
        winner = record.outcome.winner
        key = "draws" if winner is None else levels[winner]
        tally[key] = tally.get(key, 0) + 1
    return tally
