"""`postplay sweep KIND --bots A B --games N --vary OPTION=V1,V2 ...`: a sweep from a shell.

One playtest per variant (the cross product of the --vary options, at most 24), every variant
on the same seeds, compared on those paired games. The sweep runs on the workers (against
REDIS_URL, as the API starts it) or in this process with `--local`. A progress bar goes to
stderr; the comparison is printed as a table, `--json FILE` writes the sweep as the API shows it
and `--csv FILE` the comparison, a line per variant.

    postplay sweep partition --bots advanced advanced --games 200 --budget 0.05 \\
        --vary singleton_rule=true,false
    postplay sweep prime-drop --bots medium medium --games 50 --vary size=9,11,13 \\
        --vary 'tiles={"1": 5, "2": 5},{"3": 9}'
"""

from __future__ import annotations

import argparse
import csv
import json
import sys

from api import playtests
from api.playtests import sweeps
from api.playtests.cli import (
    ProgressBar,
    add_batch_arguments,
    _ci,
    _options,
    _pct,
    _table,
    follow,
    workers_redis,
)


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "sweep",
        help="one playtest per rule variant, compared",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_batch_arguments(p, "games per variant, 1 to 1000 (default 100)")
    p.add_argument(
        "--vary",
        action="append",
        required=True,
        metavar="OPTION=V1,V2",
        help="an option and the values to try, read as a JSON list when they can "
        "be (size=9,11,13; singleton_rule=true,false; layout=default,random)",
    )
    p.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option held fixed; VALUE is read as JSON when it can be",
    )
    p.add_argument("--json", metavar="FILE", help="also write the sweep as JSON")
    p.add_argument("--csv", metavar="FILE", help="also write the comparison as CSV")
    return p


def run(args) -> int:
    from api.games import BadOption

    try:
        spec = sweeps.check_request(
            args.kind,
            args.bots,
            args.games,
            parse_vary(args.vary),
            _options(args.option),
            seed=args.seed,
            budget_s=args.budget,
            chunk_games=args.chunk_games,
            samples=0 if args.local else playtests.DEFAULT_SAMPLES,
        )
    except BadOption as exc:
        print(f"postplay sweep: {exc.field}: {exc.message}", file=sys.stderr)
        return 2
    view = run_local(spec) if args.local else run_on_workers(spec)
    print(format_comparison(view))
    for path, write in ((args.json, _write_json), (args.csv, _write_csv)):
        if path:
            with open(path, "w", newline="") as out:
                write(view, out)
            print(f"wrote {path}")
    return 0 if view["status"] == "finished" else 1


def parse_vary(pairs: list[str]) -> dict[str, list]:
    """`--vary` arguments as the request's `vary`.

    >>> parse_vary(["size=9,11", "layout=default,random", 'tiles={"2": 3},{"3": 3}'])
    {'size': [9, 11], 'layout': ['default', 'random'], 'tiles': [{'2': 3}, {'3': 3}]}
    """
    vary = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not raw:
            sys.exit(f"postplay sweep: --vary is OPTION=V1,V2,..., not {pair!r}")
        try:
            vary[name] = json.loads(f"[{raw}]")
        except json.JSONDecodeError:  # bare words: layout=default,random
            vary[name] = [_json_or_text(v) for v in raw.split(",")]
    return vary


def run_local(spec: dict) -> dict:
    """Play every variant here, game by game across the variants; the sweep as the API would
    show it (Ctrl-C stops: the games played so far are compared)."""
    variants = spec["variants"]
    bar = ProgressBar(spec["games_per_variant"] * len(variants))
    records: list[list[dict]] = [[] for _ in variants]
    status = "finished"
    try:
        for index in range(spec["games_per_variant"]):
            for variant, played in zip(variants, records):
                played.append(playtests.record_of(index, playtests.play(variant["spec"], index)))
                bar.update(sum(map(len, records)))
    except KeyboardInterrupt:
        status = "cancelled"
    bar.close()
    shown = [
        {
            "id": None,
            "status": status,
            "done": len(played),
            "total": spec["games_per_variant"],
            "report": playtests.report(variant["spec"], played),
        }
        for variant, played in zip(variants, records)
    ]
    return sweeps.view({**spec, "id": None, "created_at": None}, shown, records)


def run_on_workers(spec: dict) -> dict:
    """Start the sweep on the workers and follow it; Ctrl-C cancels it (twice: stop waiting)."""
    from api.playtests.storage import REPORTS
    from api.store.sweeps import SweepStore

    store = SweepStore(workers_redis(), REPORTS)
    sweep_id = store.start(spec)["id"]
    print(
        f"sweep {sweep_id}: {len(spec['variants'])} variants on the workers; Ctrl-C cancels",
        file=sys.stderr,
    )
    follow(
        spec["games_per_variant"] * len(spec["variants"]),
        lambda: store.view(sweep_id, with_reports=False),
        lambda: store.cancel(sweep_id),
    )
    view = store.view(sweep_id)
    assert view is not None  # started above: the sweep's document is there
    return view


def rows(view: dict) -> list[dict]:
    """The comparison a line per variant, flat: the CSV's rows and the table's cells."""
    comparison = view["comparison"] or {"variants": [], "balanced": None}
    out = []
    for variant, row in zip(view["variants"], comparison["variants"]):
        first, length, margin, test = (
            row["first_player"],
            row["length"] or {},
            row["score_margin"] or {},
            row["vs_balanced"] or {},
        )
        ci = first["ci95"] or [None, None]
        out.append(
            {
                "variant": variant["index"],
                "label": variant["label"],
                **{f"option {k}": json.dumps(v) for k, v in variant["values"].items()},
                "playtest_id": variant["playtest_id"],
                "games": row["games"],
                "first_wins": first["wins"],
                "first_draws": first["draws"],
                "first_losses": first["losses"],
                "first_win_rate": first["win_rate"],
                "first_ci95_low": ci[0],
                "first_ci95_high": ci[1],
                "first_score": first["score"],
                "draw_rate": row["draw_rate"],
                "length_mean": length.get("mean"),
                "length_median": length.get("median"),
                "margin_mean": margin.get("mean"),
                "margin_stdev": margin.get("stdev"),
                "balanced": variant["index"] == comparison["balanced"],
                "paired_better": test.get("better"),
                "paired_worse": test.get("worse"),
                "p_value": test.get("p_value"),
                "p_adjusted": test.get("p_adjusted"),
                "differs": test.get("differs"),
            }
        )
    return out


def format_comparison(view: dict) -> str:
    """The sweep and its comparison as a plain-text table."""
    fixed = json.dumps(view["options"], separators=(", ", ": "))
    lines = [
        f"{view['kind']} {fixed}: {view['bots'][0]} vs {view['bots'][1]}, seed "
        f"{view['seed']}, {view['budget_s']} s a move, {view['games_per_variant']} games "
        f"per variant",
        f"{view['status']}: {view['done']}/{view['total']} games",
    ]
    lines += [
        f"  variant {v['index']} ({v['label']}): {v['status']}, {v['done']} played"
        + (f", playtest {v['playtest_id']}" if v["playtest_id"] else "")
        for v in view["variants"]
        if v["status"] != "finished" or v["playtest_id"]
    ]
    table = rows(view)
    if not table or view["comparison"]["balanced"] is None:
        return "\n".join(lines + ["no games played"])

    def verdict(r: dict) -> str:
        if r["balanced"]:
            return "most balanced"
        return f"{r['paired_better']}/{r['paired_worse']}, p {r['p_adjusted']:.3g}" + (
            " DIFFERS" if r["differs"] else ""
        )

    lines += [
        "",
        _table(
            [
                "variant",
                "games",
                "1st wins",
                "draws",
                "1st losses",
                "1st win rate",
                "95 % CI",
                "1st score",
                "draw rate",
                "mean plies",
                "1st margin",
                "vs balanced (better/worse)",
            ],
            [
                [
                    r["label"],
                    r["games"],
                    r["first_wins"],
                    r["first_draws"],
                    r["first_losses"],
                    _pct(r["first_win_rate"]),
                    _ci(
                        [r["first_ci95_low"], r["first_ci95_high"]]
                        if r["first_ci95_low"] is not None
                        else None
                    ),
                    _pct(r["first_score"]),
                    _pct(r["draw_rate"]),
                    "-" if r["length_mean"] is None else f"{r['length_mean']:g}",
                    "-"
                    if r["margin_mean"] is None
                    else f"{r['margin_mean']:+g} ± {r['margin_stdev']:g}",
                    verdict(r),
                ]
                for r in table
            ],
        ),
    ]
    lines += [
        "",
        f"1st score: wins + draws/2 over games (draws include aborts). Test: "
        f"{view['comparison']['test']}; DIFFERS: adjusted p < "
        f"{view['comparison']['alpha']}.",
    ]
    return "\n".join(lines)


def _json_or_text(raw: str):
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def _write_json(view: dict, out) -> None:
    json.dump(view, out, indent=2)
    out.write("\n")


def _write_csv(view: dict, out) -> None:
    table = rows(view)
    writer = csv.DictWriter(out, fieldnames=list(table[0]) if table else ["variant"])
    writer.writeheader()
    writer.writerows(table)
