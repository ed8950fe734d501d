"""Playtests: a batch of bot-vs-bot games between two bot levels, and its report. The package
also holds sweeps (`sweeps`: one playtest per rule variant, compared on paired games) and the
command lines (`cli`: `postplay playtest`; `sweep_cli`: `postplay sweep`).

This module is pure: checking a request, planning the batch in chunks (one worker job each), the
seating and seed of every game, playing one game in process, and the report maths. Storage and
the queue live in `api.store.playtests` (sweeps: `api.store.sweeps`); the jobs in
`worker.playtests`.

Game `i` seats the first bot in seat `i % 2` and lets seat `(i // 2) % 2` move first, so every
four games cover each bot in each seat, moving first and second. Its seed is derived from the
batch seed and `i` alone, so the same seed gives the same games whichever worker plays them
(bots that search against the clock may still choose differently from run to run).
"""

from __future__ import annotations

import hashlib
import math
import secrets
import statistics

from api.bots import levels as bot_levels
from api.bots import unavailable as bot_unavailable
from api.bots.match import PLY_LIMIT, PlayedGame, play_game
from api.games import GAMES, BadOption, Game

MAX_GAMES = 1000
DEFAULT_BUDGET_S = 0.1
# a batch at most this many seconds a move: a chunk of long searches must not hold a worker for hours
MAX_BUDGET_S = 2.0
DEFAULT_CHUNK_GAMES = 10
MAX_CHUNK_GAMES = 100
DEFAULT_SAMPLES = 4  # games 0..3: each bot in each seat, moving first and second
MAX_SAMPLES = 20
HISTOGRAM_BINS = 20
Z_95 = 1.959963984540054


def check_request(
    kind: str,
    options: dict | None,
    bots: list[str],
    games: int,
    seed: int | None = None,
    budget_s: float = DEFAULT_BUDGET_S,
    chunk_games: int = DEFAULT_CHUNK_GAMES,
    samples: int = DEFAULT_SAMPLES,
) -> dict:
    """The batch's spec, checked, with defaults filled (a random seed when none is given);
    BadOption names the field at fault."""
    game = game_of(kind)
    checked = game.check_options(options)
    known = bot_levels(kind)
    for i, level in enumerate(bots):
        if level not in known:
            raise BadOption(
                f"bots.{i}",
                f"{game.title} has no bot {level!r}; its bots are "
                f"{', '.join(known) or 'none yet'}.",
            )
        if why := bot_unavailable(kind, level, checked):
            raise BadOption(f"bots.{i}", why)
    check_range("games", games, 1, MAX_GAMES, "A playtest plays {lo} to {hi} games")
    check_range(
        "chunk_games",
        chunk_games,
        1,
        MAX_CHUNK_GAMES,
        "A chunk (one worker job) plays {lo} to {hi} games",
    )
    check_range(
        "samples", samples, 0, MAX_SAMPLES, "A playtest keeps {lo} to {hi} sample games to replay"
    )
    if not 0 < budget_s <= MAX_BUDGET_S:
        raise BadOption(
            "budget_s", f"budget_s must be more than 0 and at most {MAX_BUDGET_S} seconds a move."
        )
    if seed is not None and not 0 <= seed < 2**63:
        raise BadOption("seed", "seed must be a whole number from 0 to 2**63 - 1.")
    seed = secrets.randbits(32) if seed is None else seed
    return {
        "kind": kind,
        "options": checked,
        "bots": list(bots),
        "games": games,
        "seed": seed,
        "budget_s": float(budget_s),
        "chunk_games": chunk_games,
        "samples": min(samples, games),
        "chunks": plan_chunks(games, chunk_games),
    }


def game_of(kind: str) -> type[Game]:
    """The game of slug `kind`; BadOption naming `kind` when there is none."""
    if kind not in GAMES:
        raise BadOption(
            "kind", f"There is no game {kind!r}; the games are {', '.join(sorted(GAMES))}."
        )
    return GAMES[kind]


def plan_chunks(games: int, chunk_games: int) -> list[list[int]]:
    """`[first, stop)` game ranges of at most `chunk_games` games, one worker job each.

    >>> plan_chunks(25, 10)
    [[0, 10], [10, 20], [20, 25]]
    """
    return [[start, min(start + chunk_games, games)] for start in range(0, games, chunk_games)]


def seating(bots: list[str], index: int) -> tuple[tuple[str, str], int]:
    """The levels in seat 0 and seat 1 of game `index`, and the seat that moves first.

    >>> [seating(["a", "b"], i) for i in range(4)]
    [(('a', 'b'), 0), (('b', 'a'), 0), (('a', 'b'), 1), (('b', 'a'), 1)]
    """
    a, b = bots
    return ((a, b) if index % 2 == 0 else (b, a)), (index // 2) % 2


def seat_of_first_bot(index: int) -> int:
    """The seat the first bot of the request (`bots[0]`) takes in game `index`."""
    return index % 2


def game_seed(seed: int, index: int) -> int:
    """Game `index`'s own seed: a hash of the batch seed and the index (32 bits)."""
    digest = hashlib.sha256(f"playtest:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def play(spec: dict, index: int) -> PlayedGame:
    """Game `index` of the batch, played in process."""
    levels, first = seating(spec["bots"], index)
    return play_game(
        spec["kind"],
        spec["options"],
        levels,
        game_seed(spec["seed"], index),
        first=first,
        budget_s=spec["budget_s"],
        max_plies=PLY_LIMIT,
    )


def record_of(index: int, game: PlayedGame, game_id: str | None = None) -> dict:
    """What the report needs of one game (`game_id` when the game was stored to replay)."""
    return {
        "index": index,
        "levels": list(game.levels),
        "first": game.first,
        "winner": game.outcome.winner,
        "reason": game.outcome.reason.value,
        "scores": game.outcome.scores,
        "plies": len(game.history),
        "game_id": game_id,
    }


def report(spec: dict, records: list[dict]) -> dict:
    """The report over the games played (`records`, in any order)."""
    records = sorted(records, key=lambda r: r["index"])
    n = len(records)
    draws = sum(r["winner"] is None for r in records)
    by_seat = [sum(r["winner"] == seat for r in records) for seat in (0, 1)]
    by_bot = [_bot_line(spec["bots"][which], which, records) for which in (0, 1)]
    first_wins = sum(r["winner"] == r["first"] for r in records)
    first_losses = n - draws - first_wins
    reasons: dict[str, int] = {}
    for r in records:
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    lengths = [r["plies"] for r in records]
    return {
        "games": n,
        "budget_s": spec["budget_s"],
        "wins": {
            "by_seat": by_seat,
            "ci95_by_seat": [wilson(wins, n) for wins in by_seat],
            "by_bot": [line["wins"] for line in by_bot],
            "draws": draws,
        },
        "bots": by_bot,
        "first_player": {
            "wins": first_wins,
            "losses": first_losses,
            "draws": draws,
            **_rate(first_wins, n),
        },
        "reasons": dict(sorted(reasons.items())),
        "length": {**summary(lengths), "histogram": histogram(lengths)} if n else None,
        "scores": _scores(records),
        "samples": [
            {
                "game_id": r["game_id"],
                "index": r["index"],
                "levels": r["levels"],
                "first": r["first"],
                "winner": r["winner"],
                "plies": r["plies"],
            }
            for r in records
            if r["game_id"]
        ],
    }


def wilson(successes: int, trials: int, z: float = Z_95) -> list[float] | None:
    """The Wilson score interval for a proportion (95 % by default); None without trials.

    >>> wilson(50, 100)
    [0.4038, 0.5962]
    >>> wilson(0, 10)
    [0.0, 0.2775]
    """
    if trials == 0:
        return None
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def summary(values: list[float]) -> dict:
    """Mean, median, spread (standard deviation, quartiles, range) of a non-empty list.

    >>> summary([3, 1, 2, 10])
    {'mean': 4.0, 'median': 2.5, 'stdev': 4.082, 'min': 1, 'max': 10, 'p25': 1.75, 'p75': 4.75}
    """
    many = len(values) > 1
    quartiles = statistics.quantiles(values, n=4, method="inclusive") if many else [values[0]] * 3
    return {
        "mean": round(statistics.fmean(values), 3),
        "median": statistics.median(values),
        "stdev": round(statistics.stdev(values), 3) if many else 0.0,
        "min": min(values),
        "max": max(values),
        "p25": round(quartiles[0], 3),
        "p75": round(quartiles[2], 3),
    }


def histogram(values: list[int], bins: int = HISTOGRAM_BINS) -> list[dict]:
    """Counts of whole numbers in equal bins (`from` and `to` inclusive, empty bins kept), at
    most `bins` of them, each a whole number of values wide and starting at a multiple of it.

    >>> histogram([1, 2, 2, 5])
    [{'from': 1, 'to': 1, 'count': 1}, {'from': 2, 'to': 2, 'count': 2}, {'from': 3, 'to': 3, 'count': 0}, {'from': 4, 'to': 4, 'count': 0}, {'from': 5, 'to': 5, 'count': 1}]
    >>> histogram([0, 39, 40], bins=2)
    [{'from': 0, 'to': 20, 'count': 1}, {'from': 21, 'to': 41, 'count': 2}]
    """
    if not values:
        return []
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    start = lo // width * width
    if (hi - start) // width >= bins:  # aligning to the width pushed the top past the last bin
        start = lo
    count = (hi - start) // width + 1
    counts = [0] * count
    for v in values:
        counts[(v - start) // width] += 1
    return [
        {"from": start + i * width, "to": start + (i + 1) * width - 1, "count": c}
        for i, c in enumerate(counts)
    ]


def check_range(field: str, value: int, lo: int, hi: int, rule: str) -> None:
    """BadOption naming `field` unless lo <= value <= hi; `rule` says the range in words."""
    if not lo <= value <= hi:
        raise BadOption(field, f"{rule.format(lo=lo, hi=hi)}: {field} {value} is out of range.")


def _rate(wins: int, games: int) -> dict:
    return {"win_rate": round(wins / games, 4) if games else None, "ci95": wilson(wins, games)}


def _bot_line(level: str, which: int, records: list[dict]) -> dict:
    """Wins, losses and draws of `bots[which]` (the request's first or second bot)."""

    def seat(r: dict) -> int:
        return seat_of_first_bot(r["index"]) ^ which

    wins_by_seat = [sum(seat(r) == s and r["winner"] == s for r in records) for s in (0, 1)]
    wins = sum(wins_by_seat)
    draws = sum(r["winner"] is None for r in records)
    return {
        "bot": level,
        "wins": wins,
        "losses": len(records) - wins - draws,
        "draws": draws,
        "wins_by_seat": wins_by_seat,
        **_rate(wins, len(records)),
    }


def _scores(records: list[dict]) -> dict | None:
    """Score spread where the game scores: each seat's and bot's scores, and the margin of the
    first bot over the second."""
    scored = [r for r in records if r["scores"]]
    if not scored:
        return None
    seats = [[r["scores"][s] for r in scored] for s in (0, 1)]
    bots = [
        [r["scores"][seat_of_first_bot(r["index"]) ^ which] for r in scored] for which in (0, 1)
    ]
    margins = [a - b for a, b in zip(*bots)]
    return {
        "games": len(scored),
        "by_seat": [summary(s) for s in seats],
        "by_bot": [summary(b) for b in bots],
        "margin": {**summary(margins), "histogram": histogram(margins)},
    }
