"""`postplay playtest KIND --bots A B --games N`: a playtest from the command line.

The batch runs on the workers (against REDIS_URL, as the API starts it) or in this process with
`--local` (no Redis needed, no sample games stored). A progress bar goes to stderr; the report is
printed as a table, and `--json FILE` writes the playtest with its report as the API shows it.

    postplay playtest factor-multiple --bots greedy random --games 200 --seed 7 -o n=60
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TextIO

from api import playtests
from api.store.playtests import RUNNING_STATUSES

POLL_S = 0.5


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "playtest",
        help="a batch of bot-vs-bot games and its report",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_batch_arguments(p, "1 to 1000 (default 100)")
    p.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option; VALUE is read as JSON when it can be (n=60, even_start=false)",
    )
    p.add_argument("--json", metavar="FILE", help="also write the playtest and report as JSON")
    return p


def add_batch_arguments(p: argparse.ArgumentParser, games_help: str) -> None:
    """The arguments a playtest and a sweep share: the game, the two bots, how many games, the
    seed, the bots' budget, the games per worker job and `--local`."""
    p.add_argument("kind", help="the game (see GET /api/v1/kinds)")
    p.add_argument(
        "--bots",
        nargs=2,
        required=True,
        metavar=("A", "B"),
        help="two bot levels; seats and first move alternate between them",
    )
    p.add_argument("--games", type=int, default=100, help=games_help)
    p.add_argument("--seed", type=int, help="the same seed gives the same games (default random)")
    p.add_argument(
        "--budget",
        type=float,
        default=playtests.DEFAULT_BUDGET_S,
        metavar="SECONDS",
        help=f"each bot's think time per move (default {playtests.DEFAULT_BUDGET_S})",
    )
    p.add_argument(
        "--chunk-games",
        type=int,
        default=playtests.DEFAULT_CHUNK_GAMES,
        help="games per worker job",
    )
    p.add_argument("--local", action="store_true", help="play in this process, not on workers")


def run(args) -> int:
    from api.games import BadOption

    try:
        spec = playtests.check_request(
            args.kind,
            _options(args.option),
            args.bots,
            args.games,
            seed=args.seed,
            budget_s=args.budget,
            chunk_games=args.chunk_games,
            samples=0 if args.local else playtests.DEFAULT_SAMPLES,
        )
    except BadOption as exc:
        print(f"postplay playtest: {exc.field}: {exc.message}", file=sys.stderr)
        return 2
    view = run_local(spec) if args.local else run_on_workers(spec)
    print(format_report(view))
    if args.json:
        with open(args.json, "w") as out:
            json.dump(view, out, indent=2)
            out.write("\n")
        print(f"\nwrote {args.json}")
    return 0 if view["status"] == "finished" else 1


def run_local(spec: dict) -> dict:
    """Play the whole batch here, game by game; the playtest as the API would show it."""
    bar = ProgressBar(spec["games"])
    records = []
    try:
        for index in range(spec["games"]):
            records.append(playtests.record_of(index, playtests.play(spec, index)))
            bar.update(len(records))
        status = "finished"
    except KeyboardInterrupt:
        status = "cancelled"
    bar.close()
    return {
        **{k: spec[k] for k in ("kind", "options", "bots", "games", "seed", "budget_s")},
        "id": None,
        "status": status,
        "done": len(records),
        "total": spec["games"],
        "chunks": [],
        "report": playtests.report(spec, records),
    }


def run_on_workers(spec: dict) -> dict:
    """Start the batch on the workers and follow it; Ctrl-C cancels it (twice: stop waiting)."""
    from api.playtests.storage import REPORTS
    from api.store.playtests import PlaytestStore

    store = PlaytestStore(workers_redis(), REPORTS)
    playtest_id = store.start(spec)["id"]
    print(
        f"playtest {playtest_id}: {len(spec['chunks'])} chunks on the workers; Ctrl-C cancels",
        file=sys.stderr,
    )
    follow(
        spec["games"],
        lambda: store.view(playtest_id, with_report=False),
        lambda: store.cancel(playtest_id),
    )
    view = store.view(playtest_id)
    assert view is not None  # started above: the batch's document is there
    return view


def workers_redis():
    """The Redis at REDIS_URL (or REDIS_SENTINELS) that the workers serve (exit with a hint when
    neither is set), with a warning when no worker runs."""
    from rq import Worker

    from api.store.connection import connect

    if not os.environ.get("REDIS_URL") and not os.environ.get("REDIS_SENTINELS"):
        sys.exit(
            "REDIS_URL is not set: start `postplay redis` and a `postplay worker`, or use --local."
        )
    client = connect()
    if Worker.count(connection=client) == 0:
        print(
            "No worker is running: the games wait until one starts (`postplay worker`).",
            file=sys.stderr,
        )
    return client


def follow(total: int, progress, cancel) -> None:
    """Poll `progress()` (a view with `done` and `status`) with a progress bar until nothing
    runs; Ctrl-C calls `cancel()` (twice: stop waiting)."""
    bar = ProgressBar(total)
    cancelled = False
    while True:
        try:
            view = progress()
            bar.update(view["done"])
            if view["status"] not in RUNNING_STATUSES:
                break
            time.sleep(POLL_S)
        except KeyboardInterrupt:
            if cancelled:
                break
            cancelled = True
            cancel()
            print(
                "\ncancelling: the running chunks stop after their current game "
                "(Ctrl-C again to stop waiting)",
                file=sys.stderr,
            )
    bar.close()


class ProgressBar:
    """`[#####-----] 12/40 games  3.1 s`: redrawn in place on a terminal, else a line per tenth."""

    WIDTH = 30

    def __init__(self, total: int, stream: TextIO = sys.stderr):
        self.total, self.stream = total, stream
        self.started = time.monotonic()
        self.tty = stream.isatty()
        self.shown = -1

    def update(self, done: int) -> None:
        tenth = done * 10 // self.total
        if not self.tty and tenth == self.shown:
            return
        self.shown = tenth
        filled = done * self.WIDTH // self.total
        elapsed = time.monotonic() - self.started
        left = (
            f"  ~{elapsed * (self.total - done) / done:.0f} s left" if 0 < done < self.total else ""
        )
        line = (
            f"[{'#' * filled}{'-' * (self.WIDTH - filled)}] {done}/{self.total} games  "
            f"{elapsed:.1f} s{left}"
        )
        self.stream.write(f"\r{line:<75}" if self.tty else line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def format_report(view: dict) -> str:
    """The playtest and its report as plain-text tables."""
    r = view["report"]
    options = json.dumps(view["options"], separators=(", ", ": "))
    lines = [
        f"{view['kind']} {options}: {view['bots'][0]} vs {view['bots'][1]}, "
        f"seed {view['seed']}, {view['budget_s']} s a move",
        f"{view['status']}: {view['done']}/{view['total']} games",
    ]
    unstarted = 0
    for chunk in view["chunks"]:
        if chunk["status"] == "cancelled" and chunk["done"] == 0:
            unstarted += 1
        elif chunk["status"] != "finished":
            last = chunk["first_game"] + chunk["games"] - 1
            lines.append(
                f"  chunk {chunk['index']} (games {chunk['first_game']}-{last}): "
                f"{chunk['status']}, {chunk['done']} played"
                + (f": {chunk['error']}" if chunk["error"] else "")
            )
    if unstarted:
        lines.append(f"  {unstarted} chunks cancelled before they played a game")
    if r is None or r["games"] == 0:
        return "\n".join(lines + ["no games played"])
    lines += [
        "",
        _table(
            [
                "bot",
                "wins",
                "losses",
                "draws",
                "win rate",
                "95 % CI",
                "wins in seat 0",
                "wins in seat 1",
            ],
            [
                [
                    name,
                    b["wins"],
                    b["losses"],
                    b["draws"],
                    _pct(b["win_rate"]),
                    _ci(b["ci95"]),
                    *b["wins_by_seat"],
                ]
                for name, b in zip(_names(view["bots"]), r["bots"])
            ],
        ),
    ]
    first = r["first_player"]
    lines += [
        "",
        f"first player: {first['wins']} wins, {first['losses']} losses, "
        f"{first['draws']} draws: {_pct(first['win_rate'])} {_ci(first['ci95'])}",
        f"by seat: seat 0 won {r['wins']['by_seat'][0]}, seat 1 won "
        f"{r['wins']['by_seat'][1]}, {r['wins']['draws']} draws",
        "ended by: " + ", ".join(f"{k} {v}" for k, v in r["reasons"].items()),
        "",
        "length (plies): " + _stats(r["length"]),
    ]
    lines += _bars(r["length"]["histogram"])
    if r["scores"]:
        s = r["scores"]
        lines += ["", f"scores ({s['games']} games):"]
        a, b = _names(view["bots"])
        lines += [
            f"  {name}: {_stats(stats)}"
            for name, stats in [
                ("seat 0", s["by_seat"][0]),
                ("seat 1", s["by_seat"][1]),
                (a, s["by_bot"][0]),
                (b, s["by_bot"][1]),
            ]
        ]
        lines += [f"  margin {a} - {b}: {_stats(s['margin'])}"]
        lines += _bars(s["margin"]["histogram"])
    if r["samples"]:
        lines += ["", "sample games (GET /api/v1/games/{id}):"]
        lines += [
            f"  {s['game_id']}  {s['levels'][0]} vs {s['levels'][1]}, seat {s['first']} "
            f"first, {'draw' if s['winner'] is None else 'seat %d won' % s['winner']}, "
            f"{s['plies']} plies"
            for s in r["samples"]
        ]
    return "\n".join(lines)


def _options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep:
            sys.exit(f"postplay playtest: an option is NAME=VALUE, not {pair!r}")
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
    return options


def _names(bots: list[str]) -> list[str]:
    """The two bots' names in tables: numbered in a mirror match."""
    return [f"{bot} #{i + 1}" for i, bot in enumerate(bots)] if bots[0] == bots[1] else bots


def _table(header: list[str], rows: list[list]) -> str:
    cells = [header] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join(
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
        for row in cells
    )


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate * 100:.1f} %"


def _ci(ci: list[float] | None) -> str:
    return "-" if ci is None else f"[{ci[0] * 100:.1f}, {ci[1] * 100:.1f}]"


def _stats(s: dict) -> str:
    return (
        f"mean {s['mean']:g}, median {s['median']:g}, stdev {s['stdev']:g}, "
        f"min {s['min']:g}, max {s['max']:g}, quartiles {s['p25']:g}-{s['p75']:g}"
    )


def _bars(histogram: list[dict], width: int = 40) -> list[str]:
    top = max(b["count"] for b in histogram) or 1
    return [
        f"  {b['from']:>5}"
        + (f"-{b['to']:<5}" if b["to"] != b["from"] else " " * 6)
        + f" {'#' * round(b['count'] * width / top):<{width}} {b['count']}"
        for b in histogram
    ]
