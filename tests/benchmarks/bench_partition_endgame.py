"""Partition's endgame search: the C one the bots use against the Python `endgame_search`, its
reference, in the same run.

    .venv/bin/python -m tests.benchmarks.bench_partition_endgame [GAMES] [PYTHON_CAP_S]

Positions: every position with 9 to 16 open hexes of GAMES (default 6) seeded games between two
medium bots (they use no clock, so the games are the same every run). Each is solved by both
searches from empty tables, with no deadline for C and PYTHON_CAP_S (default 20) of CPU for
Python; both must give the same action, value and completeness where Python finishes, and the
ratio is taken over those positions, by bands of open hexes (about 3 minutes of CPU at the
defaults, most of it Python's). Time is the thread's CPU time, so other jobs on the machine
change it little.
"""

from __future__ import annotations

import sys

import api.bots.partition as bots
from api.bots import clock
from api.bots.match import play_game
from api.games.partition import Partition

BANDS = ((9, 12), (13, 16))


def positions(games: int):
    """The positions with 9 to 16 open hexes of the medium bots' games, seeds 0 to games - 1."""
    for seed in range(games):
        record = play_game("partition", {}, ("medium", "medium"), seed=seed, budget_s=0.01)
        state = Partition.new(Partition.check_options({}), record.first, seed)
        for _, move in record.history:
            if BANDS[0][0] <= state.open_size <= BANDS[-1][1]:
                yield seed, state
            state = state.apply(move)


def timed(search, state, cap: float):
    """`search`'s answer from empty tables (None past the cap) and its CPU seconds."""
    bots.clear_endgame_tables()
    started = clock.now()
    try:
        answer = search(state, started + cap)
    except TimeoutError:
        answer = None
    spent = clock.now() - started
    return (answer if answer and answer[1] else None), spent


def main() -> None:
    clock.count_cpu_time()
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 6
    cap = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    print(
        f"Partition endgame search, CPU seconds from empty tables: C against Python "
        f"(capped at {cap:g} s), positions of {games} medium-bot games"
    )
    print(
        f"{'open':>4} {'n':>3} {'same':>4} {'python':>8} {'C':>7} {'ratio':>6} "
        f"{'capped':>6} {'C there':>7}"
    )
    rows: dict[int, list] = {}  # open hexes: [positions, same, python s, C s, capped, C s there]
    for seed, state in positions(games):
        python, python_s = timed(bots.endgame_search, state, cap)
        native, native_s = timed(bots.native_endgame_search, state, float("inf"))
        row = rows.setdefault(state.open_size, [0, 0, 0.0, 0.0, 0, 0.0])
        if python is None:
            row[4] += 1
            row[5] += native_s
            continue
        row[0] += 1
        row[1] += python == native
        row[2] += python_s
        row[3] += native_s
        if python != native:
            print(f"  differs: seed {seed}, {state.open_size} open: {python} / {native}")
    for size in sorted(rows):
        n, same, python_s, native_s, capped, there = rows[size]
        ratio = python_s / native_s if native_s else float("nan")
        print(
            f"{size:4d} {n:3d} {same:4d} {python_s:8.3f} {native_s:7.4f} {ratio:6.1f} "
            f"{capped:6d} {there:7.3f}"
        )
    for lo, hi in BANDS:
        band = [rows[size] for size in rows if lo <= size <= hi]
        python_s, native_s = sum(r[2] for r in band), sum(r[3] for r in band)
        print(
            f"{lo}-{hi} open hexes: {sum(r[0] for r in band)} positions, "
            f"{sum(r[1] for r in band)} the same; Python {python_s:.2f} s, C {native_s:.3f} s: "
            f"{python_s / native_s if native_s else float('nan'):.0f}x"
        )


if __name__ == "__main__":
    main()
