"""Ploid endgame solver speed, against a baseline solver measured in the same run.

    .venv/bin/python -m tests.benchmarks.bench_ploid_solver [BASELINE_REV]   # default: b97c0d3

The advanced bot's endgame solve (`api.bots.ploid.solved_choice`: each placement's verdict in
its judgement's order, then only whether one wins once a draw is found) on a fixed set of 5 x 6
positions with 22 to 24 cells empty, the first of that many empty cells in games between two
medium bots (seeds below). Each position is solved by a fresh solver of this tree, made as the
bot makes it (`solver_for`), and by a fresh one of the solver file at BASELINE_REV (`git show`;
the default is the last commit before the solver's side keys), in the same process. Both must
prove the same verdict for every placement they look at. Time is the process' CPU time, so
other jobs on the machine change it little.
"""

from __future__ import annotations

import importlib.util
import pathlib
import random
import subprocess
import sys
import tempfile
import time
from unittest import mock

import api.bots.ploid as ploid_bots
from api.bots import clock
from api.bots.search import step
from api.games.ploid import Ploid, PloidState

ROOT = pathlib.Path(__file__).resolve().parents[2]
BASELINE_REV = "b97c0d3"
# (empty cells, game seed): positions whose solve by the baseline solver takes 0.4 to 4.5 s of
# CPU; with 22 cells empty two numbers are left in the hands, with 23 three, with 24 four (most
# 24-cell positions took that solver over 6 s)
POSITIONS = (
    (22, 3),
    (22, 6),
    (22, 7),
    (22, 8),
    (22, 11),
    (22, 14),
    (23, 0),
    (23, 2),
    (23, 3),
    (23, 4),
    (23, 6),
    (23, 8),
    (24, 0),
    (24, 4),
)


def position(empties: int, seed: int) -> PloidState:
    """The first position with `empties` cells empty in the medium bots' game `seed`."""
    rng = random.Random(seed)
    state = Ploid.new(Ploid.check_options({"n": 5}), first=seed % 2, seed=0)
    while state.board.count(0) > empties and not state.is_over():
        state = step(state, ploid_bots.medium(state, rng, 1.0))
    return state


def baseline_solver_class(rev: str):
    """The Solver class of api/bots/ploid_solver.py at git revision `rev`."""
    source = subprocess.run(
        ["git", "show", f"{rev}:api/bots/ploid_solver.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = pathlib.Path(tempfile.mkdtemp()) / "ploid_solver_baseline.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("ploid_solver_baseline", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.Solver


def timed_solve(state: PloidState, solver) -> tuple[float, int, tuple, dict]:
    """CPU seconds of the bot's endgame solve with `solver`, its verdict and placement, and
    every placement's proved verdict."""
    proven: dict = {}
    with mock.patch.object(ploid_bots, "solver_for", lambda n: solver):
        started = time.process_time()
        verdict, placement = ploid_bots.solved_choice(state, random.Random(0), None, proven)
        spent = time.process_time() - started
    return spent, verdict, placement, proven


def main() -> None:
    clock.count_cpu_time()
    rev = sys.argv[1] if len(sys.argv) > 1 else BASELINE_REV
    baseline = baseline_solver_class(rev)
    print(
        f"Ploid 5 x 6 endgame solve (the advanced bot's), CPU seconds: this tree against the "
        f"solver at {rev}"
    )
    print(
        f"{'empty':>5} {'seed':>4} {'nums':>4} {'verdict':>7} {'baseline':>9} {'now':>8} "
        f"{'ratio':>6}"
    )
    totals: dict[int, list[float]] = {}
    for empties, seed in POSITIONS:
        state = position(empties, seed)
        numbers = len(state.hand(0)[0]) + len(state.hand(1)[0])
        old = timed_solve(state, baseline(5))
        new = timed_solve(state, ploid_bots.solver_for.__wrapped__(5))  # (a fresh one)
        assert new[1:] == old[1:], (empties, seed, old[1:], new[1:])  # same proofs
        total = totals.setdefault(empties, [0.0, 0.0])
        total[0] += old[0]
        total[1] += new[0]
        print(
            f"{empties:5d} {seed:4d} {numbers:4d} {new[1]:7d} {old[0]:9.3f} {new[0]:8.3f} "
            f"{old[0] / new[0]:6.2f}",
            flush=True,
        )
    for empties, (old, new) in sorted(totals.items()):
        print(f"{empties} empty: baseline {old:.2f} s, now {new:.2f} s: {old / new:.2f}x faster")
    old, new = map(sum, zip(*totals.values()))
    print(f"all: baseline {old:.2f} s, now {new:.2f} s: {old / new:.2f}x faster")


if __name__ == "__main__":
    main()
