"""Puzzles: the shipped seed set per kind, and the time to prove one puzzle again, against the
time to judge a try of it (what a request does) measured in the same run on the same puzzles.

    .venv/bin/python -m tests.benchmarks.bench_puzzles [SAMPLE]

For each kind, SAMPLE (default 40) puzzles of seeds/puzzles.jsonl.gz, every k-th in the file's
order so that each run takes the same ones, are proved again (`puzzles.check`: at each of the
solver's moves of the line the named move wins and every other legal move does not) from cold
solver tables (each puzzle proves alone: Factor Bingo's card, Partition's search tables and the
Ploid solver's table are cleared before it), then judged as a right try (`puzzles.attempt`, the
baseline: the line's moves compared and applied, no solving). The mining rate is the miner's
own figure: `postplay puzzles mine --playtests N` prints it per kind. Time is the thread's CPU
time, so other jobs on the machine change it little.
"""

from __future__ import annotations

import collections
import statistics
import sys
import time

from api.bots import partition as partition_bots
from api.bots.factor_bingo import card_for
from api.bots.ploid import solver_for
from api.learn import puzzles
from api.learn.service import read_seeds


def cold() -> None:
    """Forget what every solver remembers between positions."""
    card_for.cache_clear()
    solver_for.cache_clear()
    partition_bots.clear_endgame_tables()


def cpu(work) -> tuple[object, float]:
    started = time.thread_time()
    answer = work()
    return answer, time.thread_time() - started


def main() -> None:
    sample = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    by_kind: dict[str, list[dict]] = collections.defaultdict(list)
    for puzzle in read_seeds():
        by_kind[puzzle["kind"]].append(puzzle)
    print(
        f"Seed puzzles: proved again from cold tables against a right try judged ({sample} a kind)"
    )
    print(
        f"{'kind':<16} {'corpus':>6} {'proved':>6} {'prove ms':>9} {'max ms':>8} "
        f"{'try ms':>7} {'ratio':>7}"
    )
    for kind in sorted(by_kind):
        corpus = by_kind[kind]
        chosen = corpus[:: max(1, len(corpus) // sample)][:sample]
        proving, trying = [], []
        for puzzle in chosen:
            cold()
            proved, spent = cpu(lambda: puzzles.check(puzzle))
            assert proved, puzzle["id"]
            proving.append(spent)
            moves = [s["move"] for s in puzzle["line"] if s["seat"] == puzzle["to_move"]]
            answer, spent = cpu(lambda: puzzles.attempt(puzzle, moves))
            assert answer["solved"], puzzle["id"]
            trying.append(spent)
        prove_ms, try_ms = 1000 * statistics.mean(proving), 1000 * statistics.mean(trying)
        print(
            f"{kind:<16} {len(corpus):>6} {len(chosen):>6} {prove_ms:>9.1f} "
            f"{1000 * max(proving):>8.1f} {try_ms:>7.2f} {prove_ms / try_ms:>6.0f}x"
        )


if __name__ == "__main__":
    main()
