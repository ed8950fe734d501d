"""Partition: listing every legal action, bridges in one pass against a flood fill per edge.

The baseline is the engine with its bridge finder swapped for the naive one: for every edge of a
region without a stick it floods the region once without that edge to see whether, and how, it
splits. Both use the engine's own bit-mask flood fill and move listing, so the ratio measures the
algorithm; the listings hold the same moves (the naive one finds the quiet sticks in edge order).
A networkx `bridges` variant is timed too, as the obvious library alternative to the hand-written
pass. A second figure times the open region's edges alone, told apart into bridges and the rest:
the part the algorithm changes.

    .venv/bin/python -m tests.benchmarks.bench_partition
"""

from __future__ import annotations

import dataclasses
import random
import time

import networkx as nx

from api.bots.match import play_game
from api.games.partition import (
    NEIGHBOURS,
    Partition,
    PartitionState,
    RegionEdges,
    cut_edge,
    flood,
    hexes_of,
    lowest_hex,
)

POSITIONS = 20  # mid-game positions of each kind: the middle ply of seeded games
REPEATS = 3  # listings of one position in a row make one sample
ROUNDS = 60  # the methods take turns on each position; each keeps its fastest sample


def far_side(region: int, links: tuple[int, ...], a: int, b: int) -> int:
    """The hexes cut off from the region's lowest hex by a stick on (a, b), 0 if none are."""
    side = flood(b, cut_edge(links, a, b))
    if side >> a & 1:
        return 0
    return region ^ side if side >> lowest_hex(region) & 1 else side


def edges_inside(region: int, links: tuple[int, ...]) -> list[tuple[int, int]]:
    return [(a, b) for a in hexes_of(region) for b in NEIGHBOURS[a] if b > a and links[a] >> b & 1]


class NaiveState(PartitionState):
    """Bridges by brute force: one flood fill per edge of the region."""

    def region_edges(self, region: int) -> RegionEdges:
        edges = RegionEdges([], {})
        for a, b in edges_inside(region, self.links):
            side = far_side(region, self.links, a, b)
            if side:
                edges.bridges[(a, b)] = side
            else:
                edges.whole.append((a, b))
        return edges


class NetworkxState(PartitionState):
    """Bridges by networkx, then one flood fill per bridge for its far side."""

    def region_edges(self, region: int) -> RegionEdges:
        inside = edges_inside(region, self.links)
        graph = nx.Graph(inside)
        graph.add_nodes_from(hexes_of(region))
        bridges = {
            (a, b): far_side(region, self.links, a, b)
            for a, b in (sorted(e) for e in nx.bridges(graph))
        }
        return RegionEdges([e for e in inside if e not in bridges], bridges)


def as_class(cls, state: PartitionState) -> PartitionState:
    return cls(**{f.name: getattr(state, f.name) for f in dataclasses.fields(state)})


def listing(state: PartitionState) -> list:
    """The legal actions, the state's cached edges dropped first so every listing finds them."""
    state.__dict__.pop("open_edges", None)
    return state.legal_moves()


def mid_game_positions() -> list[PartitionState]:
    """The middle position of seeded games of random moves."""
    positions = []
    for seed in range(POSITIONS):
        rng = random.Random(seed)
        game = [Partition.new(Partition.check_options({}), 0, seed)]
        while not game[-1].is_over():
            game.append(game[-1].apply(rng.choice(game[-1].legal_moves())))
        positions.append(game[len(game) // 2])
    return positions


def bot_game_positions() -> list[PartitionState]:
    """The middle position of seeded games between two medium bots: fewer open hexes and more
    closed regions than random play leaves at its middle."""
    positions = []
    for seed in range(POSITIONS):
        record = play_game("partition", {}, ("medium", "medium"), seed)
        state = Partition.new(Partition.check_options({}), record.first, seed)
        for _, move in record.history[: len(record.history) // 2]:
            state = state.apply(move)
        positions.append(state)
    return positions


def open_edges(state: PartitionState) -> RegionEdges:
    return state.region_edges(state.open)


def timed(task, state: PartitionState) -> float:
    """Seconds per call over one short sample, after a call that warms the caches the other
    methods' samples left cold. The machine is shared and its speed drifts, so samples are many,
    short and interleaved between the methods, and each keeps its fastest: load only adds time."""
    task(state)
    start = time.perf_counter()
    for _ in range(REPEATS):
        task(state)
    return (time.perf_counter() - start) / REPEATS


def mean_best_times(task, classes, positions) -> list[float]:
    """Per class, the mean over positions of its fastest sample for `task`."""
    copies = [[as_class(cls, state) for state in positions] for cls in classes]
    best = [[float("inf")] * len(positions) for _ in classes]
    for _ in range(ROUNDS):
        for i in range(len(positions)):
            for c in range(len(classes)):
                best[c][i] = min(best[c][i], timed(task, copies[c][i]))
    return [sum(times) / len(times) for times in best]


def main() -> None:
    for label, positions in (
        ("random play", mid_game_positions()),
        ("medium vs medium", bot_game_positions()),
    ):
        report(label, positions)


def report(label: str, positions: list[PartitionState]) -> None:
    classes = (NaiveState, NetworkxState, PartitionState)
    for state in positions:
        assert len({frozenset(listing(as_class(cls, state))) for cls in classes}) == 1
    moves = sum(len(s.legal_moves()) for s in positions) / len(positions)
    open_size = sum(s.open_size for s in positions) / len(positions)
    closed = sum(len(s.closed) for s in positions) / len(positions)
    print(
        f"{len(positions)} mid-game positions of {label}: {open_size:.1f} open hexes, "
        f"{closed:.1f} closed regions, {moves:.1f} legal actions on average"
    )
    for task, what in ((listing, "every legal action"), (open_edges, "the open region's edges")):
        naive_s, library_s, engine_s = mean_best_times(task, classes, positions)
        print(f"  {what}:")
        print(f"    naive flood fill per edge : {naive_s * 1e6:8.1f} us")
        print(
            f"    networkx bridges          : {library_s * 1e6:8.1f} us "
            f"({naive_s / library_s:.1f}x the naive speed)"
        )
        print(
            f"    engine, one tree pass     : {engine_s * 1e6:8.1f} us "
            f"({naive_s / engine_s:.1f}x the naive speed)"
        )


if __name__ == "__main__":
    main()
