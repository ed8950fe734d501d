"""The puzzles' service: mining a finished game or a playtest game (on a worker), loading the
shipped seed set, choosing the daily puzzle, serving the next puzzle, judging and rating a try,
and lessons' progress. Everything that solves runs on the workers; a request only reads the
puzzle and compares moves with its line.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import json
import random
import time
from pathlib import Path

from api.games import get_game
from api.learn import provers, puzzles
from api.players.ratings import Rating, rate
from api.record import Status
from api.store.games import GameStore
from api.store.puzzles import PuzzleStore

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "puzzles.jsonl.gz"
PUZZLE_KINDS = tuple(sorted(provers.PROVERS))


def mine_game(games: GameStore, store: PuzzleStore, game_id: str) -> int:
    """Mine a finished game's puzzles (a game still running gives none); how many were new. A
    game mined already is not mined again."""
    record = games.load(game_id)
    source = f"game:{game_id}"
    if record is None or record.status is not Status.FINISHED or store.mined(source):
        store.mining_done(game_id)
        return 0
    added = mine_into(
        store,
        record.kind,
        record.options,
        record.first,
        record.seed,
        [entry["move"] for entry in games.moves(game_id)[: record.ply]],
        {"game_id": game_id},
    )
    store.mark_mined(source)
    store.mining_done(game_id)
    return added


def mine_played(
    store: PuzzleStore,
    kind: str,
    options: dict,
    first: int,
    seed: int,
    moves: list[dict],
    source: dict,
) -> int:
    """Mine one game of a playtest or sweep (played in a worker, never stored as a game)."""
    mark = "playtest:" + ":".join(str(v) for v in source.values())
    if store.mined(mark):
        return 0
    added = mine_into(store, kind, options, first, seed, moves, source)
    store.mark_mined(mark)
    return added


def mine_into(
    store: PuzzleStore,
    kind: str,
    options: dict,
    first: int,
    seed: int,
    moves: list[dict],
    source: dict,
) -> int:
    return sum(store.add(p) for p in puzzles.mine(kind, options, first, seed, moves, source))


def read_seeds(path: Path = SEEDS) -> list[dict]:
    """The shipped seed set's puzzles, in the file's order."""
    with gzip.open(path, "rt") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def load_seeds(store: PuzzleStore, path: Path = SEEDS) -> int:
    """Load the shipped seed set once (the first start); how many puzzles were added."""
    if store.seeded() or not path.exists():
        return 0
    added = sum(store.add(puzzle) for puzzle in read_seeds(path))
    store.mark_seeded()
    return added


def today(now: float | None = None) -> str:
    return (
        datetime.datetime.fromtimestamp(time.time() if now is None else now, datetime.timezone.utc)
        .date()
        .isoformat()
    )


def choose_daily(store: PuzzleStore, kind: str, day: str) -> str | None:
    """The day's puzzle of a kind: chosen once (by the workers at midnight UTC, or by the first
    reader before they have), from the day and the kind's ids, so that any two choosers agree."""
    known = store.daily(kind, day)
    if known is not None:
        return known
    ids = store.ids(kind)
    if not ids:
        return None
    index = int(hashlib.sha256(f"{kind}:{day}".encode()).hexdigest(), 16) % len(ids)
    return store.set_daily(kind, day, ids[index])


def choose_dailies(store: PuzzleStore, now: float | None = None) -> None:
    """The workers' part: every kind's puzzle of the day (UTC), once a day."""
    for kind in PUZZLE_KINDS:
        choose_daily(store, kind, today(now))


def next_puzzle(store: PuzzleStore, kind: str, account_id: str | None) -> dict | None:
    rating = (
        START
        if account_id is None
        else Rating.from_raw(store.account_rating(account_id, kind)).rating
    )
    chosen = store.near(kind, rating, account_id, random.Random())
    return None if chosen is None else store.get(chosen)


START = Rating().rating


def judge(
    store: PuzzleStore, puzzle: dict, moves: list, account_id: str | None, now: float | None = None
) -> dict:
    """A try judged (`puzzles.attempt`) and, when it is decided and is the account's first,
    rated: `rating` {"before", "after"} of the account. `verdicts` once the try is over."""
    answer = puzzles.attempt(puzzle, moves)
    if answer["more"]:
        return answer
    answer["verdicts"] = puzzles.verdicts(puzzle)
    if account_id is None:
        store.count_play(puzzle["id"])
        return answer
    now = time.time() if now is None else now
    score = 1.0 if answer["solved"] else 0.0

    def rated(account_raw: bytes, puzzle_raw: bytes) -> tuple[dict, dict, dict]:
        player, problem = Rating.from_raw(account_raw), Rating.from_raw(puzzle_raw)
        player_after = rate(player, [(problem, score)])
        problem_after = rate(problem, [(player, 1 - score)])
        entry = {
            "kind": puzzle["kind"],
            "solved": answer["solved"],
            "at": now,
            "before": round(player.rating),
            "after": round(player_after.rating),
        }
        return player_after.to_dict(now), problem_after.to_dict(now), entry

    entry = store.rate_first_try(account_id, puzzle["id"], puzzle["kind"], rated)
    if entry is None:
        answer["rated"] = False
        answer["first_try"] = store.first_try(account_id, puzzle["id"])
    else:
        answer["rated"] = True
        answer["rating"] = {"before": entry["before"], "after": entry["after"]}
    return answer


def puzzle_view(puzzle: dict) -> dict:
    """A puzzle as `GET /puzzles/...` shows it: the position, not the line."""
    state = puzzles.state_of(puzzle)
    return {
        "id": puzzle["id"],
        "kind": puzzle["kind"],
        # every option filled in, as a game object holds them (a puzzle stores what it was mined with)
        "options": get_game(puzzle["kind"]).check_options(puzzle["options"]),
        "state": state.view(),
        "to_move": puzzle["to_move"],
        "rating": round(puzzle["rating"]["rating"]),
        "plays": puzzle["plays"],
        "solver_moves": sum(1 for s in puzzle["line"] if s["seat"] == puzzle["to_move"]),
        "source": puzzle["source"],
        "legal": state.legal_moves_listing(),
    }


def player_view(store: PuzzleStore, account_id: str) -> dict:
    """An account's puzzle ratings per kind and its tries, newest first."""
    ratings = {
        kind: Rating.from_raw(store.account_rating(account_id, kind)).view()
        for kind in PUZZLE_KINDS
    }
    history = sorted(
        ({"puzzle_id": k, **v} for k, v in store.tries(account_id).items()), key=lambda e: -e["at"]
    )
    return {
        "ratings": ratings,
        "history": history[:100],
        "lessons_passed": store.lessons_passed(account_id),
    }
