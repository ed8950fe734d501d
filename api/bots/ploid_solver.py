"""An exact Ploid solver for small boards: negamax with alpha-beta and a transposition table.

The value of a position is the final piece count of the seat to move minus its opponent's under
perfect play by both (positive: the mover wins). The table is keyed by a canonical position: the
board seen from the mover (the mover's pieces positive), reduced over the board's four symmetries
(mirror top-bottom, mirror left-right, both), plus the number the mover is banned from placing.

>>> solver = Solver(2)
>>> solver.value(Ploid.new({"n": 2}, first=0, seed=0))
0
"""
from __future__ import annotations

import operator
import sys

from api.bots import clock
from api.games.ploid import (BLANK, Place, Ploid, PloidState, apply_ban, components, groups,
                             hand, neighbour_table, owner, piece_name, placements)

INFINITY = 10 ** 6
MAX_TABLE = 5_000_000  # entries (n = 3 needs under 100 000); bounds a long-lived bot's memory


class SolveTimeout(Exception):
    """The search ran past its deadline; nothing it found is exact."""


class Solver:
    """Solves positions of one board size, keeping its table between calls."""

    def __init__(self, n: int):
        self.n = n
        self.symmetries = board_symmetries(n, n + 1)
        self.mirrors = [operator.itemgetter(*perm) for perm in self.symmetries]  # (faster)
        self.table: dict[tuple, tuple[int, int]] = {}  # key -> (lower bound, upper bound)
        self.nodes = 0
        self.deadline: float | None = None

    def value(self, state: PloidState, deadline: float | None = None) -> int:
        """The mover's final margin under perfect play (SolveTimeout past `deadline`)."""
        self.deadline = deadline
        return self._search(state.board, state.mover, state.last_number, -INFINITY, INFINITY)

    def verdict(self, state: PloidState, deadline: float | None = None) -> int:
        """1 if the mover wins under perfect play, 0 for a draw, -1 for a loss: a search with
        the window (-1, 1) proves only the sign, far faster than the exact margin."""
        self.deadline = deadline
        value = self._search(state.board, state.mover, state.last_number, -1, 1)
        return (value > 0) - (value < 0)

    def compare(self, state: PloidState, target: int, deadline: float | None = None) -> int:
        """-1, 0 or 1 as the mover's value is below, equal to or above `target`: a search with
        the window (target - 1, target + 1), which proves that much far faster than the value."""
        self.deadline = deadline
        value = self._search(state.board, state.mover, state.last_number, target - 1,
                             target + 1)
        return (value > target) - (value < target)

    def best_placement(self, state: PloidState,
                       deadline: float | None = None) -> tuple[int, tuple[int, int]]:
        """The value and one (cell index, value) placement that keeps it, by alpha-beta at the
        root too: the other placements are only proved no better, far faster than valuing
        each (`best_placements`)."""
        self.deadline = deadline
        best, choice = -INFINITY, None
        for index, value in state.legal_placements():
            child = self._place(state.board, state.mover, index, value)
            score = -self._search(child, 1 - state.mover, banned_after(value), -INFINITY, -best)
            if score > best:
                best, choice = score, (index, value)
        return best, choice

    def placement_verdict(self, state: PloidState, placement: tuple[int, int],
                          deadline: float | None = None) -> int:
        """The mover's verdict after its (cell index, value) `placement`: 1 if it wins under
        perfect play, 0 for a draw, -1 for a loss (the window (-1, 1) proves only that)."""
        self.deadline = deadline
        index, value = placement
        child = self._place(state.board, state.mover, index, value)
        score = -self._search(child, 1 - state.mover, banned_after(value), -1, 1)
        return (score > 0) - (score < 0)

    def best_placements(self, state: PloidState,
                        deadline: float | None = None) -> tuple[int, list[tuple[int, int]]]:
        """The value and every (cell index, value) placement that keeps it."""
        self.deadline = deadline
        scored = []
        for index, value in state.legal_placements():
            child = self._place(state.board, state.mover, index, value)
            scored.append((-self._search(child, 1 - state.mover, banned_after(value),
                                         -INFINITY, INFINITY), (index, value)))
        best = max(v for v, _ in scored)
        return best, [placement for v, placement in scored if v == best]

    def _search(self, board: tuple[int, ...], mover: int, banned: int | None, alpha: int,
                beta: int) -> int:
        self.nodes += 1
        # a node costs a few tenths of a millisecond: a look at the clock every 16 stops in time
        if self.deadline is not None and self.nodes % 16 == 0 and clock.now() > \
                self.deadline:
            raise SolveTimeout
        numbers, _ = hand(board, self.n, mover)
        if banned not in numbers:
            banned = None  # a ban on a number already placed changes nothing: share the entry
        key = self.key(board, mover, banned)
        lower, upper = self.table.get(key, (-INFINITY, INFINITY))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        alpha0, beta0 = max(alpha, lower), min(beta, upper)
        # the mover ends with at most most_pieces, its opponent with at least what it has now
        ceiling = most_pieces(board, self.n, mover) - placed(board, 1 - mover)
        floor = placed(board, mover) - most_pieces(board, self.n, 1 - mover)
        if ceiling <= alpha0:
            return ceiling
        if floor >= beta0:
            return floor
        mine = apply_ban(placements(board, self.n, mover), banned)
        if not mine:
            if placements(board, self.n, 1 - mover):
                best = -self._search(board, 1 - mover, None, -beta0, -alpha0)
            else:
                best = margin(board, mover)
        else:
            best = -INFINITY
            for index, value in mine:
                child = self._place(board, mover, index, value)
                score = -self._search(child, 1 - mover, banned_after(value), -beta0,
                                      -max(alpha0, best))
                if score > best:
                    best = score
                    if best >= beta0:
                        break
        if best <= alpha0:
            upper = best
        elif best >= beta0:
            lower = best
        else:
            lower = upper = best
        if len(self.table) >= MAX_TABLE:
            self.table.clear()
        self.table[key] = (lower, upper)
        return best

    def key(self, board: tuple[int, ...], mover: int, banned: int | None) -> tuple:
        """The canonical table key: the board from the mover's side, least of its mirrors."""
        seen = board if mover == 0 else tuple(-code for code in board)
        return min(mirror(seen) for mirror in self.mirrors), banned

    @staticmethod
    def _place(board: tuple[int, ...], mover: int, index: int, value: int) -> tuple[int, ...]:
        return board[:index] + (value if mover == 0 else -value,) + board[index + 1:]


def solve_start(n: int, first_deadline: float | None = None) -> dict:
    """The start position's value and one perfect game's final counts, with the effort spent."""
    solver = Solver(n)
    state = Ploid.new({"n": n}, first=0, seed=0)
    started = clock.now()
    value = solver.value(state, first_deadline)
    seconds = clock.now() - started
    while not state.is_over():
        forced = state.forced_move()
        if forced is not None:
            state = state.apply(forced)
            continue
        _, best = solver.best_placements(state)
        index, piece = best[0]
        state = state.apply(place_move(state, index, piece))
    return {"n": n, "value": value, "scores": state.outcome().scores, "seconds": seconds,
            "positions": len(solver.table), "nodes": solver.nodes}


def prove_start(n: int, budget_s: float, report=print) -> dict:
    """Who wins Ploid n from the start, first mover's opening moves one by one (up to symmetry)
    within `budget_s` seconds, reporting each proved opening; says how far it got."""
    solver = Solver(n)
    start = Ploid.new({"n": n}, first=0, seed=0)
    deadline = clock.now() + budget_s
    started = clock.now()
    openings = {}
    for index, value in start.legal_placements():
        child = start.apply(place_move(start, index, value))
        openings.setdefault(solver.key(child.board, child.mover, child.last_number), child)
    verdicts = []
    try:
        for child in openings.values():
            verdicts.append(-solver.verdict(child, deadline))
            report(f"opening {len(verdicts)}/{len(openings)}: first mover "
                   f"{VERDICT_WORDS[verdicts[-1]]} ({clock.now() - started:.0f} s, "
                   f"{len(solver.table)} positions)")
            if verdicts[-1] == 1:
                break  # one winning opening proves the start a first-mover win
    except SolveTimeout:
        report(f"out of time after {len(verdicts)} of {len(openings)} openings")
    done = len(verdicts) == len(openings) or 1 in verdicts
    return {"n": n, "verdict": max(verdicts) if done else None, "openings": len(openings),
            "openings_proved": len(verdicts), "seconds": clock.now() - started,
            "positions": len(solver.table)}


VERDICT_WORDS = {1: "wins", 0: "draws", -1: "loses"}


def place_move(state: PloidState, index: int, value: int) -> Place:
    """The Place move for a (cell index, value) placement."""
    return Place(index // state.cols, index % state.cols, piece_name(value))


def placed(board: tuple[int, ...], seat: int) -> int:
    sign = 1 if seat == 0 else -1
    return sum(1 for code in board if code * sign > 0)


def most_pieces(board: tuple[int, ...], n: int, seat: int) -> int:
    """An upper bound on the pieces `seat` will have at the end: each group can grow only up to
    its limit and only into the empty areas it touches; each number left in hand starts a group
    no larger than itself or than the largest empty area."""
    numbers, blanks = hand(board, n, seat)
    label, sizes, limits = groups(board, n, seat)
    area_of, areas = empty_areas(board, n)
    touching = [set() for _ in sizes]
    for index, g in label.items():
        touching[g].update(area_of[j] for j in neighbour_table(n)[index] if j in area_of)
    total = sum(min(limit, size + sum(areas[a] for a in touch))
                for size, limit, touch in zip(sizes, limits, touching))
    largest = max(areas, default=0)
    total += sum(min(k, largest) for k in numbers)
    have = sum(sizes)
    return min(total, have + len(numbers) + blanks, have + len(area_of))


def empty_areas(board: tuple[int, ...], n: int) -> tuple[dict[int, int], list[int]]:
    """The connected areas of empty cells: an area id per empty cell, and each area's size."""
    area_of, parts = components(n, [i for i, code in enumerate(board) if not code])
    return area_of, [len(part) for part in parts]


def banned_after(value: int) -> int | None:
    """The number the next mover may not place after `value` was placed (none after a blank)."""
    return None if value == BLANK else value


def margin(board: tuple[int, ...], seat: int) -> int:
    """Pieces of `seat` on the board minus its opponent's."""
    return sum(1 if owner(code) == seat else -1 for code in board if code)


def board_symmetries(rows: int, cols: int) -> list[tuple[int, ...]]:
    """Index permutations of the rows x cols board's symmetries (identity and three mirrors)."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    maps = [lambda r, c: (r, c), lambda r, c: (rows - 1 - r, c),
            lambda r, c: (r, cols - 1 - c), lambda r, c: (rows - 1 - r, cols - 1 - c)]
    return [tuple(fr * cols + fc for fr, fc in (f(r, c) for r, c in cells)) for f in maps]


def main() -> None:
    """`python -m api.bots.ploid_solver N [budget_s]`: prove Ploid N from the start."""
    n = int(sys.argv[1])
    budget_s = float(sys.argv[2]) if len(sys.argv) > 2 else 1800.0
    print(prove_start(n, budget_s), flush=True)
    if n <= 3:
        print(solve_start(n), flush=True)


if __name__ == "__main__":
    main()
