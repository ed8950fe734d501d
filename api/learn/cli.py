"""`postplay puzzles mine --playtests N`: play N fresh bot-vs-bot games per kind in this process,
mine their puzzles, and store them (against REDIS_URL) or, with `--write FILE`, write them as a
seed set (JSON lines, gzipped when FILE ends in .gz: the format of seeds/puzzles.jsonl.gz). A line per kind goes to stderr: games,
puzzles, puzzles per 100 finished games, and the mean time to prove one.

    postplay puzzles mine --playtests 200 --kinds factor-multiple,ploid --write seeds/puzzles.jsonl.gz

(The shipped seed set was mined so: Ploid's in runs of 20 games from seeds 30000 + 20i; Factor
Bingo's and Partition's with `--budget 0.01`, in runs of 40 and 12 games from seeds 10000 + 40i,
and 20000 + 12i and 40000 + 12i. tests/benchmarks/bench_puzzles.py prints its size per kind and
the time to prove one puzzle.)
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
import time

from api.bots.match import play_game
from api.jsontext import dumps_text
from api.learn import provers, puzzles

# the bots whose games are mined, and the options: games between unequal levels leave wins to find
MINING = {
    "factor-multiple": ({}, ("random", "greedy")),
    "ploid": ({"n": 3}, ("beginner", "medium")),
    "factor-bingo": ({}, ("beginner", "medium")),
    "partition": ({}, ("medium", "advanced")),
}


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "puzzles",
        help="mine puzzles from fresh bot-vs-bot games",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verbs = p.add_subparsers(dest="verb", required=True)
    mine = verbs.add_parser("mine", help="play games and mine their puzzles")
    mine.add_argument(
        "--playtests",
        type=int,
        required=True,
        metavar="N",
        help="bot-vs-bot games to play per kind",
    )
    mine.add_argument(
        "--kinds", default=",".join(MINING), help=f"comma-separated (default {','.join(MINING)})"
    )
    mine.add_argument("--seed", type=int, default=0, help="the first game's seed")
    mine.add_argument(
        "--budget",
        type=float,
        default=0.05,
        metavar="SECONDS",
        help="each bot's think time per move",
    )
    mine.add_argument("--limit", type=int, default=0, help="stop a kind at this many puzzles")
    mine.add_argument("--write", metavar="FILE", help="write the puzzles here, not to Redis")
    return p


def run(args) -> int:
    kinds = [k for k in args.kinds.split(",") if k]
    for kind in kinds:
        if kind not in provers.PROVERS:
            print(f"{kind}: no solver decides its positions (it has lessons only)", file=sys.stderr)
            return 2
    found: list[dict] = []
    for kind in kinds:
        mined, seconds, games = mine_games(kind, args.playtests, args.seed, args.budget, args.limit)
        found += mined
        print(
            f"{kind}: {games} games, {len(mined)} puzzles "
            f"({100 * len(mined) / max(games, 1):.0f} per 100 games), "
            f"{seconds / max(len(mined), 1):.2f} s of mining per puzzle",
            file=sys.stderr,
        )
    if args.write:
        with (
            gzip.open(args.write, "wt") if args.write.endswith(".gz") else open(args.write, "w")
        ) as out:
            for puzzle in found:
                out.write(dumps_text(puzzle) + "\n")
        return 0
    import redis

    from api.store.puzzles import PuzzleStore

    store = PuzzleStore(
        redis.Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6390/0"))
    )
    added = sum(store.add(puzzle) for puzzle in found)
    print(f"stored {added} new puzzles", file=sys.stderr)
    return 0


def mine_games(
    kind: str, games: int, seed: int, budget_s: float, limit: int = 0
) -> tuple[list[dict], float, int]:
    """The puzzles of `games` fresh games of `kind`, none twice; the seconds spent mining."""
    options, levels = MINING[kind]
    found, ids, spent = [], set(), 0.0
    for i in range(games):
        first = i % 2
        game = play_game(
            kind,
            options,
            levels if i % 4 < 2 else levels[::-1],
            seed + i,
            first=first,
            budget_s=budget_s,
        )
        started = time.process_time()
        for puzzle in puzzles.mine(
            kind,
            options,
            first,
            seed + i,
            [move.to_dict() for _, move in game.history],
            {"playtest": f"mine-{seed}", "game": i},
        ):
            if puzzle["id"] not in ids:
                ids.add(puzzle["id"])
                found.append(puzzle)
        spent += time.process_time() - started
        if limit and len(found) >= limit:
            return found[:limit], spent, i + 1
    return found, spent, games
