"""Bot ladders: the one place bot strength is measured, and the tables the rules pages publish.

For every registered game, its strongest bots against the weaker ones: `advanced` against
`beginner` and `medium`, and `perfect` against `advanced`, where the game has those levels (on
options where `perfect` is offered: Ploid's on n = 3); a game without them (Factor/Multiple:
`random`, `greedy`, `perfect`) plays its last level against each other level. A game still
running at the playtests' ply limit is aborted and counted apart. Games are played in process
through the playtest code (`api.playtests`: seats and first move alternate, seeds derived from
one batch seed), so a ladder row is the report of a `postplay playtest --local` batch.

Think time is counted on the thinking thread's CPU clock (api/bots/clock.py), not the wall
clock, so a ladder measures the same bots on a busy machine as on an idle one.

    .venv/bin/python -m tests.benchmarks.bench_ladders [--write]
    POSTPLAY_LADDER_GAMES=200      games per pairing (the default)
    POSTPLAY_LADDER_BUDGET_S=1.0   each bot's think time per move, CPU seconds (the default)
    POSTPLAY_LADDER_KINDS=ploid,partition   only these games (default: every registered game)
    POSTPLAY_LADDER_PAIRS=advanced-medium   only these pairings (strong-weak; default: all)
    POSTPLAY_LADDER_PROCS=1        processes playing games side by side (the default)
    POSTPLAY_LADDER_SEED=1         the batch seed (the default)
    POSTPLAY_LADDER_RECORDS=runs/ladder.jsonl   each game's record appended there as it ends;
                                   games already there (same pairing and settings) are not
                                   played again, so a long run cut short resumes where it stopped

`--write` puts each game's rows into the one ladder table of its rules page (seeds/<kind>.md),
between the ladder markers, as each game finishes: a pairing's row, with its settings (think
time, games, seed) and date, replaces that pairing's earlier row, so the page shows each
pairing's latest measurement only (earlier ones are in git).
"""

from __future__ import annotations

import datetime
import json
import os
import pathlib
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from api import playtests
from api.bots import clock, levels, unavailable
from api.games import GAMES

LADDER = (("advanced", "beginner"), ("advanced", "medium"), ("perfect", "advanced"))
# options a pairing needs where the game's defaults do not offer one of its bots
OPTIONS = {("ploid", "perfect"): {"n": 3}}
SEEDS = pathlib.Path(__file__).resolve().parents[2] / "seeds"
BEGIN, END = "<!-- ladder: begin -->", "<!-- ladder: end -->"
INTRO = (
    "Think time is CPU time a move (the thinking thread's, so the machine's load does not "
    "change the bots); seats and first move alternate. The interval is Wilson's 95 % "
    "interval of the stronger bot's win rate (draws count as not won)."
)
HEADER = (
    "| stronger bot | weaker bot | options | think time | games | seed | wins | draws | "
    "losses | win rate [95 % interval] | measured |"
)
REPRODUCE = (
    "Reproduce a row: `POSTPLAY_LADDER_KINDS={kind} POSTPLAY_LADDER_PAIRS=<stronger>-"
    "<weaker> POSTPLAY_LADDER_BUDGET_S=<think time> POSTPLAY_LADDER_GAMES=<games> "
    "POSTPLAY_LADDER_SEED=<seed> make ladders`."
)


def pairings(kind: str) -> tuple[list[tuple[str, str, dict]], str]:
    """The (strong, weak, options) pairings of a game, and a note when it lacks the usual
    levels."""
    names = list(levels(kind))
    if len(names) < 2:
        return [], f"{kind}: fewer than two bots ({', '.join(names) or 'none'}), no ladder"
    pairs = [
        (strong, weak, OPTIONS.get((kind, strong), {}))
        for strong, weak in LADDER
        if strong in names and weak in names
    ]
    if pairs:
        return [p for p in pairs if not _refused(kind, p)], ""
    top = names[-1]
    return (
        [(top, n, {}) for n in names[:-1]],
        f"{kind}: no advanced/beginner/medium levels; its last level {top!r} plays the others",
    )


def ladder_row(
    kind: str,
    strong: str,
    weak: str,
    options: dict,
    games: int,
    budget_s: float,
    seed: int,
    procs: int,
    records_path: str | None = None,
) -> dict:
    """One pairing's games and report; with `records_path` (a JSONL file), the games recorded
    there for the same pairing and settings are kept, and each game played is added to it."""
    spec = playtests.check_request(
        kind, options, [strong, weak], games, seed=seed, budget_s=budget_s, samples=0
    )
    pairing = (
        f"{kind} {strong}-{weak} {json.dumps(options, sort_keys=True)} {budget_s:g} s seed {seed}"
    )
    records = _recorded(records_path, pairing, games)
    todo = sorted(set(range(games)) - {r["index"] for r in records})
    started = time.perf_counter()
    for record in _played(spec, todo, procs):
        records.append(record)
        if records_path:
            with open(records_path, "a") as out:
                out.write(json.dumps({"pairing": pairing, **record}) + "\n")
    elapsed = time.perf_counter() - started
    return {
        "kind": kind,
        "strong": strong,
        "weak": weak,
        "options": options,
        "report": playtests.report(spec, records),
        "seconds": elapsed,
        "played": len(todo),
    }


def _played(spec: dict, indices: list[int], procs: int):
    """The records of the batch's games `indices`, in order, each as soon as it is known."""
    if procs > 1:
        with ProcessPoolExecutor(procs) as pool:
            yield from pool.map(_play, [spec] * len(indices), indices, chunksize=2)
    else:
        yield from (_play(spec, i) for i in indices)


def _recorded(path: str | None, pairing: str, games: int) -> list[dict]:
    """The records of games 0 to `games` - 1 of `pairing` in the JSONL file at `path`."""
    if not path or not os.path.exists(path):
        return []
    with open(path) as lines:
        found = {}
        for line in lines:
            record = json.loads(line)
            if record.pop("pairing") == pairing and record["index"] < games:
                found[record["index"]] = record
    return list(found.values())


def format_rows(rows: list[dict]) -> str:
    header = [
        "game",
        "strong vs weak",
        "options",
        "games",
        "strong wins",
        "weak wins",
        "draws",
        "aborted",
        "strong win rate [95 % CI]",
        "first player wins",
        "mean plies",
        "s/game",
    ]
    cells = [header]
    for row in rows:
        r, counts = row["report"], _counts(row)
        lo, hi = counts["ci"]
        cells.append(
            [
                row["kind"],
                f"{row['strong']} vs {row['weak']}",
                _options(row),
                str(r["games"]),
                str(counts["strong"]),
                str(counts["weak"]),
                str(counts["draws"]),
                str(counts["aborted"]),
                f"{counts['rate'] * 100:.1f} % [{lo * 100:.1f}, {hi * 100:.1f}]",
                f"{r['first_player']['win_rate'] * 100:.1f} %",
                f"{r['length']['mean']:.1f}",
                f"{row['seconds'] / max(row.get('played', r['games']), 1):.2f}",
            ]
        )
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    return "\n".join(
        "  ".join(c.ljust(w) if i < 3 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths)))
        for line in cells
    )


def markdown_rows(rows: list[dict], budget_s: float, seed: int) -> list[str]:
    """A game's ladder rows as its rules page publishes them, each with its settings."""
    today = datetime.date.today().isoformat()
    lines = []
    for row in rows:
        counts = _counts(row)
        lo, hi = counts["ci"]
        lines.append(
            f"| {row['strong']} | {row['weak']} | {_options(row) or 'default'} | "
            f"{budget_s:g} s | {row['report']['games']} | {seed} | {counts['strong']} | "
            f"{counts['draws']} | {counts['weak']} | {counts['rate'] * 100:.1f} % "
            f"[{lo * 100:.1f}, {hi * 100:.1f}] | {today} |"
        )
    return lines


def write_page(kind: str, rows: list[str]) -> None:
    """Put the ladder `rows` into seeds/<kind>.md's one ladder table, between the ladder markers
    (which must be there): a row replaces the one of the same pairing and options, the others
    stay, so the table holds each pairing's latest measurement and nothing earlier."""
    page = SEEDS / f"{kind}.md"
    text = page.read_text()
    head, rest = text.split(BEGIN, 1)
    block, tail = rest.split(END, 1)
    table = {
        _pairing(line): line
        for line in block.splitlines()
        if line.startswith("| ") and _pairing(line) != _pairing(HEADER)
    }
    table.update((_pairing(line), line) for line in rows)
    body = "\n".join(
        [
            INTRO,
            "",
            HEADER,
            "|" + "---|" * (HEADER.count("|") - 1),
            *table.values(),
            "",
            REPRODUCE.format(kind=kind),
        ]
    )
    # each marker a paragraph of its own, so the rules page's HTML drops it (api/web/rules_pages)
    page.write_text(f"{head}{BEGIN}\n\n{body}\n\n{END}{tail}")


def _pairing(line: str) -> tuple[str, ...]:
    """A table row's stronger bot, weaker bot and options."""
    return tuple(cell.strip() for cell in line.strip("|").split("|")[:3])


def main() -> None:
    clock.count_cpu_time()
    games = int(os.environ.get("POSTPLAY_LADDER_GAMES", "200"))
    budget_s = float(os.environ.get("POSTPLAY_LADDER_BUDGET_S", "1.0"))
    procs = int(os.environ.get("POSTPLAY_LADDER_PROCS", "1"))
    seed = int(os.environ.get("POSTPLAY_LADDER_SEED", "1"))
    wanted = os.environ.get("POSTPLAY_LADDER_KINDS")
    wanted_pairs = os.environ.get("POSTPLAY_LADDER_PAIRS")
    records_path = os.environ.get("POSTPLAY_LADDER_RECORDS")
    write = "--write" in sys.argv
    kinds = [k for k in GAMES if not wanted or k in wanted.split(",")]
    print(
        f"bot ladders: {games} games a pairing, {budget_s} s of CPU a move, seed {seed}, "
        f"{procs} process(es); seats and first move alternate",
        flush=True,
    )
    rows, notes = [], []
    for kind in kinds:
        pairs, note = pairings(kind)
        if note:
            notes.append(note)
        if wanted_pairs:
            pairs = [p for p in pairs if f"{p[0]}-{p[1]}" in wanted_pairs.split(",")]
        done = []
        for strong, weak, options in pairs:
            done.append(
                ladder_row(kind, strong, weak, options, games, budget_s, seed, procs, records_path)
            )
            print(f"  {kind}: {strong} vs {weak} done in {done[-1]['seconds']:.1f} s", flush=True)
            print(format_rows(done[-1:]), flush=True)
        if write and done:
            write_page(kind, markdown_rows(done, budget_s, seed))
        rows += done
    print()
    print(format_rows(rows) if rows else "no game has two bots yet")
    for note in notes:
        print(f"note: {note}")


def _counts(row: dict) -> dict:
    """The stronger bot's wins, the weaker's, draws and aborts, and the win rate's interval."""
    r = row["report"]
    strong, weak = r["bots"]
    aborted = r["reasons"].get("aborted", 0)  # at the ply limit: no winner, not a draw
    return {
        "strong": strong["wins"],
        "weak": weak["wins"],
        "aborted": aborted,
        "draws": r["wins"]["draws"] - aborted,
        "rate": strong["win_rate"],
        "ci": strong["ci95"],
    }


def _options(row: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in row["options"].items())


def _refused(kind: str, pair: tuple[str, str, dict]) -> bool:
    options = GAMES[kind].check_options(pair[2])
    return any(unavailable(kind, level, options) for level in pair[:2])


def _play(spec: dict, index: int) -> dict:
    clock.count_cpu_time()  # (a pool's process too)
    return playtests.record_of(index, playtests.play(spec, index))


if __name__ == "__main__":
    main()
