"""Bot ladders: the one place bot strength is measured.

For every registered game, its strongest bot against the weaker ones: `advanced` against
`beginner` and against `medium` where the game has those levels; a game without them (Factor/
Multiple: `random`, `greedy`) plays its last registered level against each other level, and the
table says so. A game still running at the playtests' ply limit is aborted and counted
apart. Games are played in process through the playtest code (`api.playtests`: seats and
first move alternate, seeds derived from one batch seed), so a ladder row is the report of a
`postplay playtest --local` batch.

    .venv/bin/python -m tests.benchmarks.bench_ladders
    POSTPLAY_LADDER_GAMES=200      games per pairing (the default)
    POSTPLAY_LADDER_BUDGET_S=0.1   each bot's think time per move, seconds (the default)
    POSTPLAY_LADDER_KINDS=ploid,partition   only these games (default: every registered game)
    POSTPLAY_LADDER_PROCS=1        processes playing games side by side (the default)
    POSTPLAY_LADDER_SEED=1         the batch seed (the default)
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor

from api import playtests
from api.bots import levels
from api.games import GAMES

STRONG = "advanced"
WEAK = ("beginner", "medium")


def pairings(kind: str) -> tuple[list[tuple[str, str]], str]:
    """The (strong, weak) pairings of a game, and a note when it lacks the usual levels."""
    names = list(levels(kind))
    if len(names) < 2:
        return [], f"{kind}: fewer than two bots ({', '.join(names) or 'none'}), no ladder"
    if STRONG in names and any(w in names for w in WEAK):
        others = [n for n in names if n != STRONG and n not in WEAK]
        note = f"{kind}: also has {', '.join(others)} (not laddered)" if others else ""
        return [(STRONG, w) for w in WEAK if w in names], note
    top = names[-1]
    return ([(top, n) for n in names[:-1]],
            f"{kind}: no advanced/beginner/medium levels; its last level {top!r} plays the others")


def ladder_row(kind: str, strong: str, weak: str, games: int, budget_s: float, seed: int,
               procs: int) -> dict:
    spec = playtests.check_request(kind, {}, [strong, weak], games, seed=seed,
                                   budget_s=budget_s, samples=0)
    started = time.perf_counter()
    if procs > 1:
        with ProcessPoolExecutor(procs) as pool:
            records = list(pool.map(_play, [spec] * games, range(games), chunksize=4))
    else:
        records = [_play(spec, i) for i in range(games)]
    elapsed = time.perf_counter() - started
    return {"kind": kind, "strong": strong, "weak": weak,
            "report": playtests.report(spec, records), "seconds": elapsed}


def format_rows(rows: list[dict]) -> str:
    header = ["game", "strong vs weak", "games", "strong wins", "weak wins", "draws", "aborted",
              "strong win rate [95 % CI]", "first player wins", "mean plies", "s/game"]
    cells = [header]
    for row in rows:
        r = row["report"]
        strong, weak = r["bots"]
        lo, hi = strong["ci95"]
        aborted = r["reasons"].get("aborted", 0)  # at the ply limit: no winner, not a draw
        cells.append([row["kind"], f"{row['strong']} vs {row['weak']}", str(r["games"]),
                      str(strong["wins"]), str(weak["wins"]), str(r["wins"]["draws"] - aborted),
                      str(aborted),
                      f"{strong['win_rate'] * 100:.1f} % [{lo * 100:.1f}, {hi * 100:.1f}]",
                      f"{r['first_player']['win_rate'] * 100:.1f} %",
                      f"{r['length']['mean']:.1f}", f"{row['seconds'] / r['games']:.2f}"])
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    return "\n".join("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                               for i, (c, w) in enumerate(zip(line, widths))) for line in cells)


def main() -> None:
    games = int(os.environ.get("POSTPLAY_LADDER_GAMES", "200"))
    budget_s = float(os.environ.get("POSTPLAY_LADDER_BUDGET_S", str(playtests.DEFAULT_BUDGET_S)))
    procs = int(os.environ.get("POSTPLAY_LADDER_PROCS", "1"))
    seed = int(os.environ.get("POSTPLAY_LADDER_SEED", "1"))
    wanted = os.environ.get("POSTPLAY_LADDER_KINDS")
    kinds = [k for k in GAMES if not wanted or k in wanted.split(",")]
    print(f"bot ladders: {games} games a pairing, {budget_s} s a move, seed {seed}, "
          f"{procs} process(es); seats and first move alternate", flush=True)
    rows, notes = [], []
    for kind in kinds:
        pairs, note = pairings(kind)
        if note:
            notes.append(note)
        for strong, weak in pairs:
            rows.append(ladder_row(kind, strong, weak, games, budget_s, seed, procs))
            print(f"  {kind}: {strong} vs {weak} done in {rows[-1]['seconds']:.1f} s", flush=True)
    print()
    print(format_rows(rows) if rows else "no game has two bots yet")
    for note in notes:
        print(f"note: {note}")


def _play(spec: dict, index: int) -> dict:
    return playtests.record_of(index, playtests.play(spec, index))


if __name__ == "__main__":
    main()
