"""Factor Bingo speed: the bots' bit-mask view against the engine, measured in the same run.

Run: .venv/bin/python -m tests.benchmarks.bench_factor_bingo
"""

from __future__ import annotations

import random
import time

import api.bots.factor_bingo as bots
from api.bots.search import random_playout
from api.games.factor_bingo import NUMBERS, FactorBingo
from tests.benchmarks import best_time


def calling_positions(count: int) -> list:
    """Calling-phase positions from games filled and called at random."""
    out, rng = [], random.Random(0)
    while len(out) < count:
        state = FactorBingo.new({"layout": "default"}, len(out) % 2, len(out))
        while not state.is_over():
            if state.phase == "calling":
                out.append(state)
            state = state.apply(rng.choice(state.legal_moves()))
    return out[:count]


def main() -> None:
    positions = calling_positions(300)

    def engine_checks():
        for state in positions:
            for move in state.legal_moves():
                state.apply(move).outcome()

    def card_checks():
        for state in positions:
            card, used, current = bots._position(state)
            options = card.choices(used, current)
            for i in bots._bits(options):
                card.winner_after(used | 1 << i, i, state.mover)

    engine, card = best_time(engine_checks), best_time(card_checks)
    print(
        f"judging every call in 300 positions: engine {engine * 1e3:.1f} ms, "
        f"card {card * 1e3:.1f} ms, card is {engine / card:.1f}x faster"
    )

    starts = [FactorBingo.new({"layout": "default"}, i % 2, i) for i in range(30)]

    def engine_playouts():
        rng = random.Random(1)
        for state in starts:
            random_playout(state, rng)

    def card_playouts():
        rng = random.Random(1)
        for state in starts:
            bots._playout(state, rng)

    engine, card = best_time(engine_playouts, 1), best_time(card_playouts)
    print(
        f"30 playouts from an empty board: engine random {engine * 1e3:.0f} ms, "
        f"bot playout {card * 1e3:.1f} ms, bot playout is {engine / card:.0f}x faster"
    )

    rng = random.Random(2)
    for left in (10, 12, 16, 20, 22):
        spent, baseline, solved = 0.0, 0.0, [s for s in positions if len(uncalled(s)) == left]
        for state in solved:
            card, used, current = bots._position(state)
            card.proved.clear()  # each position solved from scratch
            started = time.perf_counter()
            card.solve(used, current, state.mover, rng)
            spent += time.perf_counter() - started
            if left <= 12:
                started = time.perf_counter()
                engine_minimax(state, {})
                baseline += time.perf_counter() - started
        line = (
            f"exact solve, {left} numbers left to call: {len(solved)} positions, "
            f"mean {spent / len(solved) * 1e3:.2f} ms"
        )
        if baseline:
            line += (
                f"; engine minimax {baseline / len(solved) * 1e3:.1f} ms, "
                f"{baseline / spent:.0f}x slower"
            )
        print(line)


def uncalled(state) -> list[int]:
    return [n for n in NUMBERS if n != state.start and n not in state.called]


def engine_minimax(state, memo: dict) -> bool:
    """The baseline: whether the mover wins, by plain minimax over engine states."""
    key = (state.called, state.current)
    if key not in memo:
        memo[key] = False
        for move in state.legal_moves():
            after = state.apply(move)
            if (
                after.outcome().winner == state.mover
                if after.is_over()
                else not engine_minimax(after, memo)
            ):
                memo[key] = True
                break
    return memo[key]


if __name__ == "__main__":
    main()
