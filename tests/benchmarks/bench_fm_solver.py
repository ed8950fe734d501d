"""Factor/Multiple solver speed, with its baselines measured in the same run.

    .venv/bin/python -m tests.benchmarks.bench_fm_solver

1. Time per analysed position (every position of seeded random games) at n = 100 and n = 1000;
   targets 50 ms and 2 s. Baseline: the same analysis with networkx's general matching
   (`max_weight_matching(maxcardinality=True)`) in place of our greedy start plus Edmonds search.
2. The opening at n = 50 solved by matching and by brute-force memoised game-tree search;
   target ratio 1000x. Both must give the same verdicts.
"""

from __future__ import annotations

import random
import statistics
import time
import timeit
from unittest import mock

import networkx as nx

import api.bots.fm_solver as fm_solver
from api.bots.fm_solver import analyse, analyse_by_search
from api.games.factor_multiple import FactorMultiple, Say

TARGET_MS = {100: 50, 1000: 2000}
GAMES = {100: 20, 1000: 4}
BASELINE_POSITIONS = {100: 60, 1000: 6}
BRUTE_FORCE_N = 50
TARGET_RATIO = 1000
MATCHING_REPEATS = 20


def random_positions(n: int, games: int, seed: int) -> list:
    rng = random.Random(seed)
    options = FactorMultiple.check_options({"n": n})
    positions = []
    for _ in range(games):
        state = FactorMultiple.new(options, first=0, seed=0)
        while not state.is_over():
            positions.append(state)
            state = state.apply(Say(rng.choice(state.legal_numbers())))
    return positions


def seconds_each(positions: list) -> list[float]:
    times = []
    for state in positions:
        start = time.perf_counter()
        analyse(state)
        times.append(time.perf_counter() - start)
    return times


def networkx_matching(adj: list[list[int]]) -> list[int]:
    graph = nx.Graph()
    graph.add_nodes_from(range(len(adj)))
    graph.add_edges_from((i, j) for i, row in enumerate(adj) for j in row if i < j)
    mate = [fm_solver.UNMATCHED] * len(adj)
    for i, j in nx.max_weight_matching(graph, maxcardinality=True):
        mate[i], mate[j] = j, i
    return mate


def per_position(n: int) -> None:
    positions = random_positions(n, GAMES[n], seed=n)
    ours = seconds_each(positions)
    sample = positions[:: max(1, len(positions) // BASELINE_POSITIONS[n])]
    with mock.patch.object(fm_solver, "_greedy_matching", networkx_matching):
        theirs = seconds_each(sample)
    ours_on_sample = seconds_each(sample)
    mean_ms = 1000 * statistics.mean(ours)
    print(
        f"n={n}: {len(positions)} positions, mean {mean_ms:.2f} ms, "
        f"median {1000 * statistics.median(ours):.2f} ms, max {1000 * max(ours):.2f} ms "
        f"(target {TARGET_MS[n]} ms: {'met' if mean_ms <= TARGET_MS[n] else 'NOT met'})"
    )
    print(
        f"  with networkx's matching instead, on {len(sample)} of them: mean "
        f"{1000 * statistics.mean(theirs):.1f} ms; ours on the same "
        f"{1000 * statistics.mean(ours_on_sample):.2f} ms: "
        f"{sum(theirs) / sum(ours_on_sample):.0f}x faster"
    )


def opening_against_search() -> None:
    options = FactorMultiple.check_options({"n": BRUTE_FORCE_N})
    opening = FactorMultiple.new(options, first=0, seed=0)
    by_matching = analyse(opening)
    # best of several runs, as timeit does: one cold run of a 1 ms task measures the machine
    matching_s = min(timeit.repeat(lambda: analyse(opening), number=1, repeat=MATCHING_REPEATS))
    start = time.perf_counter()
    by_search = analyse_by_search(opening)
    search_s = time.perf_counter() - start
    assert by_matching == by_search, "the matching solver disagrees with the search"
    ratio = search_s / matching_s
    print(
        f"opening n={BRUTE_FORCE_N}: matching {1000 * matching_s:.2f} ms (best of "
        f"{MATCHING_REPEATS}), brute-force search "
        f"{search_s:.1f} s, ratio {ratio:.0f}x (target {TARGET_RATIO}x: "
        f"{'met' if ratio >= TARGET_RATIO else 'NOT met'}); same verdicts"
    )


def main() -> None:
    for n in (100, 1000):
        per_position(n)
    opening_against_search()


if __name__ == "__main__":
    main()
