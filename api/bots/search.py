"""Search shared by every game's stronger bots: Monte Carlo tree search within a time budget.

Works on any `State` of the engine interface. A game tunes it with two functions: `moves(state)`
(default: `state.legal_moves()`, a game may narrow or widen it) and `playout(state, rng)`, which
plays a position out and returns the final state (default: uniformly random legal moves).
Turns with several actions (Partition) need nothing special: each node knows its mover.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable

from api.bots import clock
from api.games.base import Move, State, play_forced

# a game's own move list and playout, which take that game's state type: Any, as the search
# itself serves every game
MovesFn = Callable[[Any], list[Move]]
PlayoutFn = Callable[[Any, random.Random], State]


def step(state: State, move: Move) -> State:
    """Apply `move`, then any forced moves (passes) the server would make."""
    return play_forced(state.apply(move))[0]


def random_playout(state: State, rng: random.Random, moves: MovesFn | None = None) -> State:
    moves = moves or (lambda s: s.legal_moves())
    while not state.is_over():
        state = step(state, rng.choice(moves(state)))
    return state


def reward(state: State, seat: int) -> float:
    """1 for a win of `seat`, 0 for a loss, 0.5 for a draw."""
    outcome = state.outcome()
    assert outcome is not None  # a reward is of a finished game
    winner = outcome.winner
    return 0.5 if winner is None else float(winner == seat)


class _Node:
    __slots__ = ("state", "mover", "untried", "children", "visits", "value")

    def __init__(self, state: State, moves: list[Move]):
        self.state = state
        self.mover = state.to_move
        self.untried = list(moves)
        self.children: list[tuple[Move, _Node]] = []
        self.visits = 0
        self.value = 0.0  # total reward, from the point of view of the seat that moved into here

    def best_child(self, c: float) -> tuple[Move, "_Node"]:
        log_n = math.log(self.visits)
        return max(
            self.children,
            key=lambda mc: mc[1].value / mc[1].visits + c * math.sqrt(log_n / mc[1].visits),
        )


def mcts(state: State, rng: random.Random, budget_s: float, **tuning) -> Move:
    """The most visited move at the root after searching for `budget_s` seconds (UCT)."""
    return mcts_scored(state, rng, budget_s, **tuning)[0]


def mcts_scored(
    state: State,
    rng: random.Random,
    budget_s: float,
    *,
    moves: MovesFn | None = None,
    playout: PlayoutFn | None = None,
    exploration: float = 1.4,
    max_iterations: int | None = None,
) -> tuple[Move, float | None]:
    """`mcts`'s move and its mean reward for the seat to move (0 to 1; None when the move was
    the only one, and nothing was searched)."""
    moves = moves or (lambda s: s.legal_moves())
    playout = playout or (lambda s, r: random_playout(s, r, moves))
    root = _Node(state, moves(state))
    if len(root.untried) == 1:
        return root.untried[0], None
    rng.shuffle(root.untried)
    deadline = clock.now() + budget_s
    iterations = 0
    # at least one iteration, so that a tiny budget still yields a move
    while (iterations == 0 or clock.now() < deadline) and (
        max_iterations is None or iterations < max_iterations
    ):
        iterations += 1
        node, path = root, [root]
        while not node.untried and node.children:
            node = node.best_child(exploration)[1]
            path.append(node)
        if node.untried and not node.state.is_over():
            move = node.untried.pop()
            child_state = step(node.state, move)
            child_moves = [] if child_state.is_over() else moves(child_state)
            rng.shuffle(child_moves)
            child = _Node(child_state, child_moves)
            node.children.append((move, child))
            node, path = child, path + [child]
        final = node.state if node.state.is_over() else playout(node.state, rng)
        for parent, child in zip(path, path[1:]):
            assert parent.mover is not None  # a node with a child is not over: it has a mover
            child.visits += 1
            child.value += reward(final, parent.mover)
        root.visits += 1
    move, best = max(root.children, key=lambda mc: mc[1].visits)
    return move, best.value / best.visits
