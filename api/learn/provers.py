"""Who wins a position under perfect play, for the kinds a solver decides: Factor/Multiple at any
n (maximum matching), Ploid on boards up to n = 3 (the solver, from the start), Factor Bingo's
calling phase (its exact search) and Partition's endgames (the C search). Prime Drop has no
solver: it gets lessons only.

A prover answers one question, `wins(state, seat, deadline)`: whether `seat` wins from `state`
with best play by both (a draw is a win for neither seat: Ploid and Partition have draws). It
raises TimeoutError past `deadline` (a time of the bots' clock, `api.bots.clock.now()`) and
Undecided where the position is outside what its solver decides.

Where the solver can also tell the length of a win, `moves_to_win` gives it: Factor Bingo's
calling search does (deepened a call at a time). The others cannot: maximum matching
(Factor/Multiple) and the C search (Partition) prove who wins and nothing of how soon, and
Ploid's solver gives the margin of pieces, not the moves to the end.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

from api.bots import clock, fm_solver, partition as partition_bot
from api.bots.factor_bingo import card_for
from api.bots.ploid import PERFECT_MAX_N, solver_for
from api.bots.ploid_solver import SolveTimeout
from api.games import State
from api.games.base import Move, play_forced
from api.games.factor_bingo import NUMBERS, number_mask


class Undecided(Exception):
    """The position is outside what the kind's solver decides."""


@dataclasses.dataclass(frozen=True)
class Prover:
    decides: Callable[[State], bool]  # whether the solver decides this position (cheap)
    # the outcome for the seat to move under best play (not over): 1 a win, 0 a draw, -1 a loss
    mover_value: Callable[[State, float | None], int]
    # the fewest moves of its own with which the seat to move forces its win (None: it does not
    # win), where the solver can tell
    moves_to_win: Callable[[State, float | None], int | None] | None = None


def _fm_value(state, deadline):
    return 1 if fm_solver.winning_numbers(state) else -1  # (no draws)


def _ploid_decides(state) -> bool:
    return state.n <= PERFECT_MAX_N


def _ploid_value(state, deadline):
    try:
        return solver_for(state.n).verdict(state, deadline)
    except SolveTimeout:
        raise TimeoutError from None


# Factor Bingo's calling phase with at most this many numbers left to call: its exact search
# answers within the mining's budget there, as the miner proves a game's later positions first
# and the card keeps those proofs (the analyser's bound is 12)
BINGO_LEFT = 24


def _bingo_decides(state) -> bool:
    left = len(NUMBERS) - 1 - len(state.called)  # every number but the start can be called
    return state.phase == "calling" and left <= BINGO_LEFT


def _bingo_value(state, deadline):
    card = card_for(state.letters, state.fills)
    used = number_mask((state.start,) + state.called)
    return 1 if card.wins(used, NUMBERS.index(state.current), state.mover, deadline) else -1


def _bingo_calls_to_win(state, deadline):
    card = card_for(state.letters, state.fills)
    used = number_mask((state.start,) + state.called)
    return card.calls_to_win(used, NUMBERS.index(state.current), state.mover, deadline)


# Partition from this many open hexes: the C search decides each action in well under a second
# (in tens of milliseconds from 13 down), its table kept from the game's later positions
PARTITION_OPEN = 17


def _partition_decides(state) -> bool:
    return state.open_size <= PARTITION_OPEN


def _partition_value(state, deadline):
    verdict, _ = partition_bot.endgame_verdict(
        state, clock.now() + UNBOUNDED_S if deadline is None else deadline
    )
    return verdict


UNBOUNDED_S = 3600.0  # "no deadline" for a search that must be given one


PROVERS: dict[str, Prover] = {
    "factor-multiple": Prover(lambda state: True, _fm_value),
    "ploid": Prover(_ploid_decides, _ploid_value),
    "factor-bingo": Prover(_bingo_decides, _bingo_value, _bingo_calls_to_win),
    "partition": Prover(_partition_decides, _partition_value),
}


def decides(state: State) -> bool:
    """Whether a solver decides `state` (a running position of a kind with a prover)."""
    prover = PROVERS.get(state.game.slug)
    return prover is not None and not state.is_over() and prover.decides(state)


def wins(state: State, seat: int, deadline: float | None = None) -> bool:
    """Whether `seat` wins from `state` with best play (the server's passes played first)."""
    state, _ = play_forced(state)
    outcome = state.outcome()
    if outcome is not None:
        return outcome.winner == seat
    prover = PROVERS.get(state.game.slug)
    if prover is None or not prover.decides(state):
        raise Undecided(state.game.slug)
    return prover.mover_value(state, deadline) == (1 if state.to_move == seat else -1)


def tells_length(kind: str) -> bool:
    """Whether the kind's solver tells the length of a win (`moves_to_win`)."""
    prover = PROVERS.get(kind)
    return prover is not None and prover.moves_to_win is not None


def moves_to_win(state: State, deadline: float | None = None) -> int | None:
    """The fewest moves of its own with which the seat to move forces its win (None where it
    does not win), for a kind whose solver `tells_length`; Undecided where it does not."""
    prover = PROVERS.get(state.game.slug)
    if prover is None or prover.moves_to_win is None or not prover.decides(state):
        raise Undecided(state.game.slug)
    return prover.moves_to_win(state, deadline)


def after(state: State, move: Move) -> State:
    """The position after `move` and the server's passes that follow it."""
    return play_forced(state.apply(move))[0]


def winning_moves(state: State, deadline: float | None = None) -> tuple[list[Move], list[Move]]:
    """The legal moves of the seat to move, split into those that win for it and the rest."""
    seat = state.to_move
    assert seat is not None  # a running position: a seat to move
    won: list[Move] = []
    rest: list[Move] = []
    for move in state.legal_moves():
        (won if wins(after(state, move), seat, deadline) else rest).append(move)
    return won, rest
