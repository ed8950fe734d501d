"""Ploid n = 4: try to solve the empty 4 x 5 board, and measure what is left when it does not.

First the cost of proving positions (who wins: the solver's (-1, 1) window, as `prove_start`)
at fewer and fewer pieces down, each a fresh solver on positions reached by random play: the
median CPU seconds per count of pieces shows how the work grows per piece, and extrapolated to
the empty board, what a full proof would cost. Then `prove_start` with the CPU time left.

    nice .venv/bin/python -m tests.benchmarks.ploid_n4 [budget_s]   # default 2400 s of CPU
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time

from api.bots.ploid_solver import SolveTimeout, Solver, place_move, prove_start
from api.games.ploid import Ploid, PloidState

N = 4
SAMPLES = 5
CELLS = N * (N + 1)


def sample(pieces: int, rng: random.Random) -> PloidState:
    """A position with `pieces` pieces down (or fewer, where the game ends first), by random
    placements from the start."""
    state = Ploid.new({"n": N}, first=0, seed=0)
    while not state.is_over() and sum(1 for c in state.board if c) < pieces:
        forced = state.forced_move()
        state = (
            state.apply(forced)
            if forced
            else state.apply(place_move(state, *rng.choice(state.legal_placements())))
        )
    return state


def cost_per_pieces(cap_s: float, report=print) -> dict[int, float]:
    """Median CPU seconds to prove a position, per pieces down, from late to early; stops at
    the first count whose median passes `cap_s` (or whose samples time out at 3 x cap_s)."""
    rng = random.Random(4)
    medians: dict[int, float] = {}
    for pieces in range(CELLS - 6, -1, -1):
        spent = []
        for _ in range(SAMPLES):
            state = sample(pieces, rng)
            if state.is_over():
                continue
            solver = Solver(N)
            started = time.process_time()
            try:
                solver.verdict(state, deadline=time.perf_counter() + 3 * cap_s)
            except SolveTimeout:
                spent.append(math.inf)
                break
            spent.append(time.process_time() - started)
        medians[pieces] = statistics.median(spent) if spent else 0.0
        report(
            f"{pieces:2d} pieces down: median {medians[pieces]:.3f} s CPU over "
            f"{len(spent)} positions",
            flush=True,
        )
        if medians[pieces] > cap_s:
            break
    return medians


def extrapolate(medians: dict[int, float]) -> tuple[float, float]:
    """The growth factor per piece fewer (geometric mean over the last few counts measured)
    and the projected CPU seconds for the empty board."""
    finite = sorted((k, v) for k, v in medians.items() if 0 < v < math.inf)
    tail = finite[:4]  # the fewest pieces measured: the growth there is what continues
    (k0, v0), (k1, v1) = tail[0], tail[-1]  # k0 < k1 pieces, so v0 > v1
    factor = (v0 / v1) ** (1 / (k1 - k0)) if k1 > k0 else math.nan
    return factor, v0 * factor**k0


def main() -> None:
    budget_s = float(sys.argv[1]) if len(sys.argv) > 1 else 2400.0
    started = time.process_time()
    print(
        f"Ploid n = {N}: proving costs per pieces down ({SAMPLES} random positions each)",
        flush=True,
    )
    medians = cost_per_pieces(cap_s=budget_s / 40)
    factor, projected = extrapolate(medians)
    print(
        f"growth: x{factor:.2f} CPU per piece fewer; the empty board projects to "
        f"{projected:.3g} s CPU ({projected / 86400:.3g} days)",
        flush=True,
    )
    left = budget_s - (time.process_time() - started)
    print(f"prove_start with {left:.0f} s left:", flush=True)
    print(prove_start(N, max(left, 1.0), report=lambda line: print(line, flush=True)), flush=True)


if __name__ == "__main__":
    main()
