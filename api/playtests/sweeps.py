"""Sweeps: one playtest per rule variant, the variants compared on paired games.

A sweep varies some of a game's options (`vary`: each option's values), holds the others fixed,
and runs one playtest for each combination (the cross product, at most MAX_VARIANTS). Every
variant's playtest has the same seed, so game `i` of each has the same seat, first mover and
start seed (a Partition layout, a Factor Bingo board): the variants are compared on paired games,
which cancels out the luck of the deal.

Pure: checking a request (each variant's options checked as game creation checks them, the
field named inside `vary`), and the comparison. Storage and the queue live in `api.store.sweeps`
(which also says a sweep's status from its playtests'); the games run as ordinary playtest chunks (`worker.playtests`).

How balanced a variant is, is measured by the first player's **score**: a win 1, a draw (or an
abort) 1/2, a loss 0, averaged over its games; the most balanced variant is the one whose score is
nearest 1/2. Each other variant is tested against it with an exact two-sided **sign test on the
paired games** (`sign_test`): for every game index played in both, is the first player's result
better, worse or the same in this variant? Ties drop out, and under "the rule makes no
difference" better and worse are equally likely. With no draws this is McNemar's exact test on
the paired first-player wins. A paired test is the one that fits, because the two games of a pair
share a deal and seating and so are not independent; and it is exact, because the counts of
games where the variants disagree are small. The p-values are adjusted with Holm's method over
the variants compared, so "differs at 95 %" holds for the sweep as a whole, however many
variants it has.
"""

from __future__ import annotations

import itertools
import json
import math
import secrets

from api import playtests
from api.games import BadOption
from api.store.playtests import RUNNING_STATUSES
from api.store.sweeps import status_of

MAX_VARIANTS = 24
ALPHA = 0.05
TEST = (
    "exact two-sided sign test on paired games (first player's result, win > draw > "
    "loss; McNemar's exact test when there are no draws) against the most balanced "
    "variant, Holm-adjusted over the variants compared"
)


def check_request(
    kind: str,
    bots: list[str],
    games_per_variant: int,
    vary: dict[str, list],
    options: dict | None = None,
    seed: int | None = None,
    budget_s: float = playtests.DEFAULT_BUDGET_S,
    chunk_games: int = playtests.DEFAULT_CHUNK_GAMES,
    samples: int = playtests.DEFAULT_SAMPLES,
) -> dict:
    """The sweep's spec, checked: every variant's playtest spec (`api.playtests.check_request`)
    with the same seed. BadOption names the field at fault: `vary.<option>.<i>` for the i-th
    value of a varied option, with the message game creation gives."""
    game = playtests.game_of(kind)
    playtests.check_range(
        "games_per_variant",
        games_per_variant,
        1,
        playtests.MAX_GAMES,
        "A sweep plays {lo} to {hi} games per variant",
    )
    fixed = dict(options or {})
    if not vary:
        raise BadOption(
            "vary",
            "A sweep needs at least one option to vary, with its values: "
            'vary is empty (e.g. {"singleton_rule": [true, false]}).',
        )
    for name, values in vary.items():
        if not values:
            raise BadOption(f"vary.{name}", f"Option {name} has no values to vary over.")
        if name in fixed:
            raise BadOption(
                f"options.{name}",
                f"Option {name} is both fixed (options) and varied (vary): give it in one place.",
            )
    count = math.prod(len(values) for values in vary.values())
    if count > MAX_VARIANTS:
        sizes = " x ".join(str(len(values)) for values in vary.values())
        raise BadOption(
            "vary",
            f"A sweep runs at most {MAX_VARIANTS} variants; these values make {count} ({sizes}).",
        )
    known = [option.name for option in game.options]
    # JSON objects have no order: the variants follow the game's own order of its options
    names = sorted(vary, key=lambda name: known.index(name) if name in known else len(known))
    seed = secrets.randbits(32) if seed is None else seed
    variants: list[dict] = []
    picked_of: list[dict[str, int]] = []
    for index, picks in enumerate(itertools.product(*(range(len(vary[n])) for n in names))):
        picked = dict(zip(names, picks))
        try:
            spec = playtests.check_request(
                kind,
                {**fixed, **{n: vary[n][i] for n, i in picked.items()}},
                bots,
                games_per_variant,
                seed=seed,
                budget_s=budget_s,
                chunk_games=chunk_games,
                samples=samples,
            )
        except BadOption as exc:
            raise _into_vary(exc, picked, known) from None
        chosen = {name: spec["options"][name] for name in names}
        variants.append({"index": index, "values": chosen, "label": label(chosen), "spec": spec})
        picked_of.append(picked)
    checked = {name: [None] * len(vary[name]) for name in names}  # each value as the game reads it
    for variant, picked in zip(variants, picked_of):
        for name, i in picked.items():
            checked[name][i] = variant["values"][name]
    for name, values in checked.items():
        _refuse_repeats(name, values)
    first = variants[0]["spec"]
    return {
        "kind": kind,
        "bots": first["bots"],
        "games_per_variant": games_per_variant,
        "vary": checked,
        "options": {k: v for k, v in first["options"].items() if k not in vary},
        "seed": seed,
        "budget_s": first["budget_s"],
        "chunk_games": first["chunk_games"],
        "samples": first["samples"],
        "variants": variants,
    }


def view(sweep: dict, playtests_of: list[dict], records: list[list[dict]] | None) -> dict:
    """The sweep as the API shows it, from its spec, each variant's playtest (`id`, `status`,
    `done`, `total`, `report`) and, once none runs any more, each variant's game records for the
    comparison (None while one runs)."""
    status = status_of([p["status"] for p in playtests_of])
    over = status not in RUNNING_STATUSES
    return {
        **{
            k: sweep.get(k)
            for k in (
                "id",
                "kind",
                "bots",
                "games_per_variant",
                "vary",
                "options",
                "seed",
                "budget_s",
                "chunk_games",
                "samples",
                "created_at",
            )
        },
        "owner": sweep.get("owner_name"),
        "status": status,
        "done": sum(p["done"] for p in playtests_of),
        "total": sum(p["total"] for p in playtests_of),
        "variants": [
            {
                "index": v["index"],
                "values": v["values"],
                "label": v["label"],
                "playtest_id": p["id"],
                "status": p["status"],
                "done": p["done"],
                "total": p["total"],
                "report": p["report"],
            }
            for v, p in zip(sweep["variants"], playtests_of)
        ],
        "comparison": compare(records) if over and records is not None else None,
    }


def label(values: dict) -> str:
    """A variant's short name: `singleton_rule=false, size=11`.

    >>> label({"singleton_rule": False, "n": 60})
    'singleton_rule=false, n=60'
    """
    return ", ".join(
        f"{name}={json.dumps(value, separators=(',', ':'))}" for name, value in values.items()
    )


def first_result(record: dict) -> float:
    """The first player's result in one game: 1 a win, 1/2 a draw or an abort, 0 a loss."""
    if record["winner"] is None:
        return 0.5
    return 1.0 if record["winner"] == record["first"] else 0.0


def compare(records_by_variant: list[list[dict]]) -> dict:
    """The comparison of the variants, from each one's game records (`api.playtests.record_of`,
    in any order): per variant the first player's wins with their Wilson 95 % interval and score,
    the draw rate, the length and score-margin spread, and the paired test against the most
    balanced variant; `balanced` is that variant's index (None when no game was played)."""
    rows = [_row(index, records) for index, records in enumerate(records_by_variant)]
    played = [row for row in rows if row["games"]]
    if not played:
        return {"balanced": None, "alpha": ALPHA, "test": TEST, "variants": rows}
    balanced = min(
        played, key=lambda row: (abs(row["first_player"]["score"] - 0.5), row["variant"])
    )["variant"]
    by_index = [{r["index"]: first_result(r) for r in records} for records in records_by_variant]
    others = [row for row in played if row["variant"] != balanced]
    for row in others:
        row["vs_balanced"] = paired(by_index[row["variant"]], by_index[balanced])
    for row, adjusted in zip(others, holm([row["vs_balanced"]["p_value"] for row in others])):
        row["vs_balanced"]["p_adjusted"] = adjusted
        row["vs_balanced"]["differs"] = adjusted < ALPHA
    return {"balanced": balanced, "alpha": ALPHA, "test": TEST, "variants": rows}


def paired(results: dict[int, float], baseline: dict[int, float]) -> dict:
    """The sign test of one variant's first-player results against the baseline's, on the game
    indexes both played."""
    common = sorted(results.keys() & baseline.keys())
    better = sum(results[i] > baseline[i] for i in common)
    worse = sum(results[i] < baseline[i] for i in common)
    return {
        "paired_games": len(common),
        "better": better,
        "worse": worse,
        "ties": len(common) - better - worse,
        "p_value": round(sign_test(better, worse), 6),
    }


def sign_test(better: int, worse: int) -> float:
    """The exact two-sided p-value of `better` against `worse` when each is equally likely:
    twice the smaller binomial tail, at most 1. Written out rather than taken from scipy, which
    would be a large dependency for one sum of binomial coefficients.

    >>> sign_test(0, 0)
    1.0
    >>> round(sign_test(9, 1), 4)
    0.0215
    >>> round(sign_test(6, 4), 4)
    0.7539
    """
    n = better + worse
    low = min(better, worse)
    tail = sum(math.comb(n, k) for k in range(low + 1)) / 2**n
    return min(1.0, 2 * tail)


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjustment of p-values (family-wise error over all of them), in the
    order given.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = round(running, 6)
    return adjusted


def _row(variant: int, records: list[dict]) -> dict:
    """One variant's line of the comparison (its paired test is added by `compare`)."""
    n = len(records)
    wins = sum(first_result(r) == 1.0 for r in records)
    draws = sum(r["winner"] is None for r in records)
    margins = [
        r["scores"][r["first"]] - r["scores"][1 - r["first"]] for r in records if r["scores"]
    ]
    return {
        "variant": variant,
        "games": n,
        "first_player": {
            "wins": wins,
            "losses": n - wins - draws,
            "draws": draws,
            "win_rate": round(wins / n, 4) if n else None,
            "ci95": playtests.wilson(wins, n),
            "score": round((wins + draws / 2) / n, 4) if n else None,
        },
        "draw_rate": round(draws / n, 4) if n else None,
        "draw_ci95": playtests.wilson(draws, n),
        "length": playtests.summary([r["plies"] for r in records]) if n else None,
        "score_margin": playtests.summary(margins) if margins else None,
        "vs_balanced": None,
    }


def _into_vary(exc: BadOption, picks: dict[str, int], known: list[str]) -> BadOption:
    """A variant's option error, its field moved from `options.<name>` into `vary` where the
    option is varied: `vary.<name>.<i>`, or `vary.<name>` for a name the game does not have."""
    name = exc.field.removeprefix("options.")
    if not exc.field.startswith("options.") or name not in picks:
        return exc
    return BadOption(f"vary.{name}.{picks[name]}" if name in known else f"vary.{name}", exc.message)


def _refuse_repeats(name: str, values: list) -> None:
    """Two values of one option that mean the same (a pile given in another order) would run
    the same variant twice."""
    seen: dict[str, int] = {}
    for i, value in enumerate(values):
        key = json.dumps(value, sort_keys=True)
        if key in seen:
            raise BadOption(
                f"vary.{name}.{i}",
                f"Option {name}: value {i + 1} is the same as "
                f"value {seen[key] + 1}; each variant must "
                "differ.",
            )
        seen[key] = i
