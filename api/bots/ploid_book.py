"""Ploid's opening book: the perfect moves of the openings the solver cannot finish in a move.

On the 3 x 4 board (n = 3) the empty board takes the solver about 0.7 s of CPU, past a short think
time; from four pieces on, a fresh solve takes hundredths of a second at most. So the book holds, for every position the `perfect` bot can meet with
at most `BOOK_PIECES` pieces down (it plays only book moves; its opponent plays anything), every
placement that keeps the solver's exact value. Positions are keyed as the solver keys its table:
the board from the mover's side, least of its mirror images, and the number the mover may not
place; moves are stored in that canonical orientation and mapped back onto the real board.

The book is data made by the solver and committed (`make ploid-book`, which runs this module);
tests/unit/test_ploid_book.py checks its moves against the solver.

    .venv/bin/python -m api.bots.ploid_book 3     # writes api/bots/data/ploid-book-3.json
"""

from __future__ import annotations

import functools
import json
import sys
import time
from pathlib import Path

from api.bots.ploid_solver import Solver, place_move
from api.games.ploid import Ploid, PloidState, hand

BOOK_PIECES = 3  # the book covers positions with up to this many pieces on the board
DATA = Path(__file__).parent / "data"


def book_path(n: int) -> Path:
    return DATA / f"ploid-book-{n}.json"


def canonical(solver: Solver, state: PloidState) -> tuple[str, tuple[int, ...]]:
    """The book key of a position and the index map from the canonical board to the real one
    (canonical cell j is real cell perm[j])."""
    seen = state.board if state.mover == 0 else tuple(-code for code in state.board)
    board, perm = min((tuple(seen[i] for i in perm), perm) for perm in solver.symmetries)
    banned = (
        state.last_number
        if state.last_number in hand(state.board, state.n, state.mover)[0]
        else None
    )
    return ",".join(map(str, board)) + f"/{banned}", perm


class Book:
    """A loaded book: the perfect placements of the positions it covers."""

    def __init__(self, n: int, positions: dict[str, dict], pieces: int):
        self.n, self.positions, self.pieces = n, positions, pieces
        self.solver = Solver(n)  # only its symmetries: the book needs no search

    def covers(self, state: PloidState) -> bool:
        return state.n == self.n and sum(1 for c in state.board if c) <= self.pieces

    def entry(self, state: PloidState) -> tuple[int, list[tuple[int, int]]] | None:
        """The solver's value of the position (the mover's final margin) and the (cell index,
        value) placements that keep it, on the real board; None where the book has nothing."""
        key, perm = canonical(self.solver, state)
        entry = self.positions.get(key)
        if entry is None:
            return None
        return entry["value"], [(perm[j], value) for j, value in entry["moves"]]


@functools.lru_cache(maxsize=None)
def load(n: int) -> Book | None:
    """The committed book for board size n, or None when there is none."""
    path = book_path(n)
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    return Book(data["n"], data["positions"], data["pieces"])


def build(n: int, pieces: int = BOOK_PIECES, report=print) -> dict:
    """Every position the perfect bot can meet with at most `pieces` pieces down, in either
    seat, with its perfect placements (canonical orientation), and the effort it took."""
    solver = Solver(n)
    start = Ploid.new({"n": n}, first=0, seed=0)
    positions: dict[str, dict] = {}
    started = time.process_time()
    for perfect_seat in (0, 1):  # the bot moves first, then second
        frontier = {canonical(solver, start)[0]: start}
        for placed in range(pieces + 1):
            following: dict[str, PloidState] = {}
            for state in frontier.values():
                if state.is_over():
                    continue
                if (forced := state.forced_move()) is not None:
                    state = state.apply(forced)
                if state.mover == perfect_seat:
                    key, perm = canonical(solver, state)
                    if key not in positions:
                        value, best = solver.best_placements(state)
                        inverse = {real: j for j, real in enumerate(perm)}
                        positions[key] = {
                            "value": value,
                            "moves": sorted([inverse[i], v] for i, v in best),
                        }
                    moves = [(perm[j], v) for j, v in positions[key]["moves"]]
                else:
                    moves = state.legal_placements()
                for index, value in moves:
                    child = state.apply(place_move(state, index, value))
                    following.setdefault(canonical(solver, child)[0], child)
            report(
                f"seat {perfect_seat}, {placed} pieces: {len(frontier)} positions, "
                f"book {len(positions)}, {time.process_time() - started:.0f} s CPU"
            )
            frontier = following
    return {
        "n": n,
        "pieces": pieces,
        "positions": dict(sorted(positions.items())),
        "cpu_seconds": round(time.process_time() - started, 1),
        "solver_positions": len(solver.table),
    }


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    book = build(n)
    DATA.mkdir(exist_ok=True)
    book_path(n).write_text(json.dumps(book, separators=(",", ":")) + "\n")
    print(
        f"wrote {book_path(n)}: {len(book['positions'])} positions in {book['cpu_seconds']} s CPU",
        flush=True,
    )


if __name__ == "__main__":
    main()
