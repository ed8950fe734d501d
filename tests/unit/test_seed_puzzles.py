"""Every puzzle of the shipped seed set (seeds/puzzles.jsonl.gz), proved again by the solver:
at each of the player's moves of its line the named move wins and every other legal move does
not; the defender's replies are legal; its first verdicts are the solver's; no position twice.
In a module of its own so that CI can run it alone."""

from __future__ import annotations

import collections
import gzip
import json

from api.learn import provers, puzzles
from api.learn.service import SEEDS


def _seeds() -> list[dict]:
    with gzip.open(SEEDS, "rt") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def test_every_seed_puzzle_is_proved_again():
    seeds = _seeds()
    per_kind = collections.Counter(p["kind"] for p in seeds)
    assert all(count >= 150 for count in per_kind.values()), per_kind
    assert len({p["id"] for p in seeds}) == len(seeds)
    for puzzle in seeds:
        state = puzzles.state_of(puzzle)
        assert puzzle["id"] == puzzles.puzzle_id(puzzle["kind"], puzzle["options"], state)
        assert puzzles.check(puzzle), puzzle["id"]
        won, rest = provers.winning_moves(state)
        assert [v["move"] for v in puzzle["verdicts"] if v["wins"]] == [won[0].to_dict()]
        assert len(puzzle["verdicts"]) == len(won) + len(rest) >= puzzles.MIN_LEGAL_MOVES
        assert sum(s["seat"] == puzzle["to_move"] for s in puzzle["line"]) <= 4
