"""Prime Drop benchmarks: numbers on a full board, random playouts, and bot strength.

    .venv/bin/python -m tests.benchmarks.bench_prime_drop                 # speed only
    .venv/bin/python -m tests.benchmarks.bench_prime_drop --games 200 --budget 0.1

Speed figures are ratios against a baseline measured in the same run. Bot games are seat- and
first-move-balanced like `api.bots.match`, but a game still running after --timeout-turns turns is
settled by the game's own timeout rule (each turn counted as one second, streak 10), and one still
running at three times that by fewer tiles (equal counts: a draw), because two bots can otherwise
trade the same awkward tile back and forth for ever.
"""

from __future__ import annotations

import argparse
import random
import time

import sympy

import api.bots.prime_drop  # noqa: F401  (registers the bots)
from api.bots.base import choose_move
from api.bots.search import step
from api.games.prime_drop import (
    EMPTY,
    PrimeDrop,
    PrimeDropState,
    board_numbers,
    is_prime,
    timeout_rule_winner,
)
from tests.benchmarks import best_time

STREAK = 10


def full_board(size: int, rng: random.Random) -> str:
    return "".join(rng.choice("0123456789") for _ in range(size * size))


def naive_numbers(board: str, size: int) -> list[int]:
    """The baseline: every row and column as a list of digits, runs cut out by hand."""
    grid = [[board[r * size + c] for c in range(size)] for r in range(size)]
    lines = grid + [[grid[r][c] for r in range(size)] for c in range(size)]
    values = []
    for line in lines:
        run: list[str] = []
        for ch in line + [EMPTY]:
            if ch != EMPTY:
                run.append(ch)
                continue
            if len(run) >= 2:
                values += [int("".join(run)), int("".join(reversed(run)))]
            run = []
    return values  # a full board has no lone tiles


def bench_numbers(boards: int = 300) -> None:
    rng = random.Random(1)
    size = 13
    tiles = [full_board(size, rng) for _ in range(boards)]
    values = [v for b in tiles for v in naive_numbers(b, size)]

    def ours() -> int:
        return sum(is_prime(n.value) for b in tiles for n in board_numbers(b, size))

    def baseline() -> int:
        return sum(sympy.isprime(v) for b in tiles for v in naive_numbers(b, size))

    def listing_only() -> int:
        return sum(len(board_numbers(b, size)) for b in tiles)

    assert ours() == baseline()
    t_ours, t_base, t_list = (best_time(fn, 5) / boards for fn in (ours, baseline, listing_only))
    t_flint, t_sympy = (
        best_time(lambda: [test(v) for v in values], 5) / len(values)
        for test in (is_prime, sympy.isprime)
    )
    print(f"full 13x13 board: list its {len(values) // boards} numbers (13 digits) and test each")
    print(f"  board_numbers + is_prime (flint)  {t_ours * 1e6:7.1f} us per board (target <= 1000)")
    print(
        f"  baseline: lists + sympy.isprime   {t_base * 1e6:7.1f} us  ratio {t_base / t_ours:.1f}x"
    )
    print(f"  board_numbers alone               {t_list * 1e6:7.1f} us")
    print(
        f"  per number: is_prime {t_flint * 1e6:.2f} us, sympy.isprime {t_sympy * 1e6:.2f} us "
        f"(ratio {t_sympy / t_flint:.1f}x)"
    )


def bench_playouts(seconds: float = 5.0) -> None:
    """Random playouts on 11x11: uniform over `legal_moves()` (drops and winning challenges)."""
    rng = random.Random(2)
    options = PrimeDrop.check_options({})
    played, plies, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = PrimeDrop.new(options, first=played % 2, seed=played)
        while not state.is_over():
            state = step(state, rng.choice(state.legal_moves()))
            plies += 1
        played += 1
    elapsed = time.perf_counter() - start
    base = best_time(lambda: [PrimeDrop.new(options, 0, 0).drops() for _ in range(100)], 5) / 100
    print(
        f"random playouts on 11x11: {played / elapsed:.1f} per second "
        f"({plies / played:.0f} plies each, {elapsed / plies * 1e6:.0f} us per ply; "
        f"listing the 1089 drops of an empty board alone takes {base * 1e6:.0f} us)"
    )


def play(
    levels: tuple[str, str], seed: int, first: int, budget_s: float, timeout_turns: int
) -> tuple[int | None, str, int]:
    """One game: (winning seat or None, how it ended, turns). The timeout rule can miss a game
    whose lead changes every few turns, so at three times its threshold fewer tiles win."""
    rng = random.Random(seed)
    state: PrimeDropState = PrimeDrop.new(PrimeDrop.check_options({}), first, seed)
    turns = []
    while not state.is_over():
        state = step(state, choose_move(state, levels[state.to_move], rng, budget_s))
        turns.append((len(turns) + 1, state.tiles_left))
        if (winner := timeout_rule_winner(turns, timeout_turns, STREAK)) is not None:
            return winner, "timeout-rule", len(turns)
        if len(turns) >= 3 * timeout_turns:
            a, b = state.tiles_left
            return (None if a == b else int(b < a)), "fewer-tiles", len(turns)
    return state.outcome().winner, state.outcome().reason, len(turns)


def bench_match(a: str, b: str, games: int, budget_s: float, timeout_turns: int) -> None:
    tally = {a: 0, b: 0, None: 0}
    by_rule, by_count, lengths, start = 0, 0, [], time.perf_counter()
    for i in range(games):
        levels = (a, b) if i % 2 == 0 else (b, a)
        winner, reason, turns = play(levels, 1000 + i, (i // 2) % 2, budget_s, timeout_turns)
        tally[None if winner is None else levels[winner]] += 1
        by_rule += reason == "timeout-rule"
        by_count += reason == "fewer-tiles"
        lengths.append(turns)
    print(
        f"{a} vs {b}: {tally[a]}-{tally[b]} of {games} ({100 * tally[a] / games:.0f} %), "
        f"budget {budget_s} s, mean {sum(lengths) / games:.0f} turns, "
        f"{by_rule} settled by the timeout rule, {by_count} by fewer tiles at the cap, "
        f"{tally[None]} drawn, {time.perf_counter() - start:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=0, help="bot games per pairing (0: none)")
    parser.add_argument("--budget", type=float, default=0.1, help="think budget per move, s")
    parser.add_argument("--timeout-turns", type=int, default=300)
    parser.add_argument("--pairs", default="advanced:beginner,advanced:medium")
    args = parser.parse_args()
    bench_numbers()
    bench_playouts()
    for pair in args.pairs.split(",") if args.games else []:
        bench_match(*pair.split(":"), args.games, args.budget, args.timeout_turns)


if __name__ == "__main__":
    main()
