"""Pairing a 1,000-player Swiss round (the fourth: score groups formed, some pairs met), timed
as a ratio to a plain sort of the same standings in the same run: the matching's cost over the
least any pairing must do. `python -m tests.benchmarks bench_events`."""

from __future__ import annotations

import random
import time

from api.events.pairing import Entrant, swiss_round

PLAYERS = 1000
ROUND = 4


def standings(seed: int = 0) -> list[Entrant]:
    """Three rounds played at random: scores 0 to 3, each player's three opponents met."""
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(PLAYERS)]
    halves = {i: 0 for i in ids}
    met = {i: set() for i in ids}
    for _ in range(ROUND - 1):
        order = ids[:]
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2]):
            met[a].add(b), met[b].add(a)
            won = rng.random() < 0.5
            halves[a] += 2 * won
            halves[b] += 2 * (not won)
    return [Entrant(i, r, halves[i], frozenset(met[i]), 1, 2) for r, i in enumerate(ids)]


def main() -> None:
    entrants = standings()
    started = time.perf_counter()
    for _ in range(20):
        sorted(entrants, key=lambda e: (-e.halves, e.rank))
    sort_s = (time.perf_counter() - started) / 20
    started = time.perf_counter()
    pairs, byes = swiss_round(entrants, ROUND)
    pair_s = time.perf_counter() - started
    assert len(pairs) == PLAYERS // 2 and not byes
    assert all(b not in e.met for a, b in pairs for e in entrants if e.id == a)
    print(
        f"Swiss round of {PLAYERS}: pairing {pair_s:.2f} s, {pair_s / sort_s:,.0f}x a plain "
        f"sort of the standings ({sort_s * 1000:.2f} ms)"
    )


if __name__ == "__main__":
    main()
