"""Every puzzle of the shipped seed set (seeds/puzzles.jsonl.gz), proved again by the solver:
at each of the player's moves of its line the named move wins and every other legal move does
not; the defender's replies are legal, and each is the longest resistance; its first verdicts
are the solver's; no position twice; every kind a solver decides has its seeds. In a module of
its own so that CI can run it alone. Factor Bingo's and Partition's seeds are many and slower to prove: a fixed sample of them
is proved unless POSTPLAY_PROVE_ALL_SEEDS=1. (`tests.benchmarks.bench_puzzles` times one.)"""

from __future__ import annotations

import collections
import functools
import os

import pytest

from api.games import get_game
from api.learn import provers, puzzles
from api.learn.service import read_seeds

# the seed set's size per kind, at least (Partition's endgames rarely leave one winning action)
CORPUS = {"factor-multiple": 250, "ploid": 350, "factor-bingo": 450, "partition": 375}
SEEDS = read_seeds()
# every k-th seed of a kind is proved (the same ones each run), to keep `make test` within a minute;
# POSTPLAY_PROVE_ALL_SEEDS=1 proves every one (about 45 s of CPU)
EVERY = {"factor-bingo": 8, "partition": 4}
ALL = os.environ.get("POSTPLAY_PROVE_ALL_SEEDS") == "1"


def test_the_seed_set_holds_every_solvable_kind_and_no_position_twice():
    per_kind = collections.Counter(p["kind"] for p in SEEDS)
    assert set(per_kind) == set(provers.PROVERS) == set(CORPUS)
    assert all(per_kind[kind] >= least for kind, least in CORPUS.items()), per_kind
    assert len({p["id"] for p in SEEDS}) == len(SEEDS)


@pytest.mark.parametrize("kind", sorted(CORPUS))
def test_every_seed_puzzle_is_proved_again(kind):
    of_kind = [p for p in SEEDS if p["kind"] == kind]
    for puzzle in of_kind if ALL else of_kind[:: EVERY.get(kind, 1)]:
        state = puzzles.state_of(puzzle)
        assert puzzle["id"] == puzzles.puzzle_id(kind, puzzle["options"], state)
        assert puzzles.check(puzzle), puzzle["id"]
        won, rest = provers.winning_moves(state)
        assert [v["move"] for v in puzzle["verdicts"] if v["wins"]] == [won[0].to_dict()]
        assert len(puzzle["verdicts"]) == len(won) + len(rest) >= puzzles.MIN_LEGAL_MOVES
        assert sum(s["seat"] == puzzle["to_move"] for s in puzzle["line"]) <= 4
        _assert_longest_resistance(puzzle)


def _assert_longest_resistance(puzzle: dict) -> None:
    """Each defender's reply of the line leaves the solver needing the most moves of its own to
    win (counted up to the moves the line has left), among the replies that hand the move back:
    after none of the others can the solver be kept from its win for longer."""
    game = get_game(puzzle["kind"])
    state, solver = puzzles.state_of(puzzle), puzzle["to_move"]
    played = 0
    for step in puzzle["line"]:
        move = game.parse_move(step["move"])
        if step["seat"] != solver:
            left = puzzles.MAX_SOLVER_MOVES - played
            held = _moves_to_win(provers.after(state, move), solver, left)
            for reply in state.legal_moves():
                answer = provers.after(state, reply)
                if answer.is_over() or answer.to_move != solver or held > left:
                    continue  # (past `left`, every reply is as long as the line can show)
                if provers.tells_length(puzzle["kind"]):
                    assert _moves_to_win(answer, solver, left) <= held, puzzle["id"]
                else:
                    assert _forces(answer, solver, held), (puzzle["id"], reply.to_dict())
        played += step["seat"] == solver
        state = provers.after(state, move)


def _moves_to_win(state, solver: int, most: int) -> int:
    """The fewest moves of `solver`'s own that force its win from `state` (a position it wins),
    or `most + 1` where that is more than `most`."""
    if provers.tells_length(state.game.slug):
        return min(provers.moves_to_win(state) or 0, most + 1)
    return next((k for k in range(most + 1) if _forces(state, solver, k)), most + 1)


@functools.cache
def _resistance(solver: int) -> puzzles.Resistance:
    """The miner's search of "the solver forces its win within k", with no deadline, its proofs
    kept across the seeds."""
    return puzzles.Resistance(solver, None)


def _forces(state, solver: int, k: int) -> bool:
    return _resistance(solver).forces(state, k)
