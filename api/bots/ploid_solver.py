"""An exact Ploid solver for small boards: negamax with alpha-beta and a transposition table.

The value of a position is the final piece count of the seat to move minus its opponent's under
perfect play by both (positive: the mover wins). The table is keyed by a canonical position: the
board seen from the mover (the mover's pieces positive), reduced over the board's four symmetries
(mirror top-bottom, mirror left-right, both), plus the number the mover is banned from placing.
Each entry also keeps the placement that did best there, tried first when the position comes
back; the other placements are tried in the order of how often each has refuted a position
before (the history heuristic). On 5 x 6 endgames the bitmask sides (see `Solver`) make a node
about three times cheaper than on the engine's board, and these orderings mostly, not always,
save nodes over trying placements in board order (tests/unit/test_ploid.py checks the values).

>>> solver = Solver(2)
>>> solver.value(Ploid.new({"n": 2}, first=0, seed=0))
0
"""
from __future__ import annotations

import operator
import sys

from api.bots import clock
from api.games.bits import set_bits
from api.games.ploid import (BLANK, Place, Ploid, PloidState, apply_ban, groups, hand, owner,
                             piece_name)

INFINITY = 10 ** 6
MAX_TABLE = 5_000_000  # entries (n = 3 needs under 100 000); bounds a long-lived bot's memory


class SolveTimeout(Exception):
    """The search ran past its deadline; nothing it found is exact."""


class Solver:
    """Solves positions of one board size, keeping its table between calls.

    Inside a search a side is held as bitmasks, (groups, numbers, blanks, pieces): each group
    as (cells, limit, size, reach: its cells and those beside them), the numbers in hand increasing, the blanks left, and the mask of
    its pieces (bit i is cell index i). The engine finds groups by walking cells; here a
    placement merges the groups it touches and the moves come from a few mask operations,
    which makes a node several times cheaper (the solver spends all its time at nodes)."""

    def __init__(self, n: int):
        self.n, self.cols = n, n + 1
        self.symmetries = board_symmetries(n, n + 1)
        self.mirrors = [operator.itemgetter(*perm) for perm in self.symmetries]  # (faster)
        self.full = (1 << n * (n + 1)) - 1
        first_col = sum(1 << r * self.cols for r in range(n))
        # a shift by one column must not wrap a row's end onto the next row's start
        self.not_first, self.not_last = self.full & ~first_col, self.full & ~(first_col << n)
        self.near = [self.grow(1 << i) & ~(1 << i) for i in range(n * (n + 1))]
        # key -> (lower bound, upper bound, best placement found, in the key's orientation)
        self.table: dict[tuple, tuple[int, int, tuple[int, int] | None]] = {}
        self.nodes = 0
        self.deadline: float | None = None
        # (cell index, value) -> how often it refuted a position: tried early, it most often
        # refutes the next one too (the history heuristic)
        self.history: dict[tuple[int, int], int] = {}

    def value(self, state: PloidState, deadline: float | None = None) -> int:
        """The mover's final margin under perfect play (SolveTimeout past `deadline`)."""
        return self._root(state, deadline, -INFINITY, INFINITY)

    def verdict(self, state: PloidState, deadline: float | None = None) -> int:
        """1 if the mover wins under perfect play, 0 for a draw, -1 for a loss: a search with
        the window (-1, 1) proves only the sign, far faster than the exact margin."""
        value = self._root(state, deadline, -1, 1)
        return (value > 0) - (value < 0)

    def compare(self, state: PloidState, target: int, deadline: float | None = None) -> int:
        """-1, 0 or 1 as the mover's value is below, equal to or above `target`: a search with
        the window (target - 1, target + 1), which proves that much far faster than the value."""
        value = self._root(state, deadline, target - 1, target + 1)
        return (value > target) - (value < target)

    def best_placement(self, state: PloidState,
                       deadline: float | None = None) -> tuple[int, tuple[int, int]]:
        """The value and one (cell index, value) placement that keeps it, by alpha-beta at the
        root too: the other placements are only proved no better, far faster than valuing
        each (`best_placements`)."""
        best, choice = -INFINITY, None
        for placement in state.legal_placements():
            score = -self._child(state, placement, deadline, -INFINITY, -best)
            if score > best:
                best, choice = score, placement
        return best, choice

    def placement_verdict(self, state: PloidState, placement: tuple[int, int],
                          deadline: float | None = None) -> int:
        """The mover's verdict after its (cell index, value) `placement`: 1 if it wins under
        perfect play, 0 for a draw, -1 for a loss (the window (-1, 1) proves only that)."""
        score = -self._child(state, placement, deadline, -1, 1)
        return (score > 0) - (score < 0)

    def placement_wins(self, state: PloidState, placement: tuple[int, int],
                       deadline: float | None = None) -> bool:
        """Whether the mover wins under perfect play after its (cell index, value) `placement`:
        the null window (0, 1) proves only that, faster than the verdict."""
        return -self._child(state, placement, deadline, -1, 0) > 0

    def best_placements(self, state: PloidState,
                        deadline: float | None = None) -> tuple[int, list[tuple[int, int]]]:
        """The value and every (cell index, value) placement that keeps it."""
        scored = [(-self._child(state, placement, deadline, -INFINITY, INFINITY), placement)
                  for placement in state.legal_placements()]
        best = max(v for v, _ in scored)
        return best, [placement for v, placement in scored if v == best]

    def _root(self, state: PloidState, deadline: float | None, alpha: int, beta: int) -> int:
        self.deadline = deadline
        return self._search(state.board, self.sides(state.board), state.mover,
                            state.last_number, alpha, beta)

    def _child(self, state: PloidState, placement: tuple[int, int], deadline: float | None,
               alpha: int, beta: int) -> int:
        """The search's value, for the opponent, of the position after the mover's
        `placement`."""
        self.deadline = deadline
        index, value = placement
        sides = list(self.sides(state.board))
        sides[state.mover] = self.placed_side(sides[state.mover], index, value)
        return self._search(self._place(state.board, state.mover, index, value), tuple(sides),
                            1 - state.mover, banned_after(value), alpha, beta)

    def _search(self, board: tuple[int, ...], sides: tuple, mover: int, banned: int | None,
                alpha: int, beta: int) -> int:
        self.nodes += 1
        # a node costs tens of microseconds: a look at the clock every 64 stops in time
        if self.deadline is not None and self.nodes % 64 == 0 and clock.now() > \
                self.deadline:
            raise SolveTimeout
        mine, theirs = sides[mover], sides[1 - mover]
        if banned not in mine[1]:
            banned = None  # a ban on a number already placed changes nothing: share the entry
        key, mirror = self.key_and_mirror(board, mover, banned)
        lower, upper, hint = self.table.get(key, (-INFINITY, INFINITY, None))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        alpha0, beta0 = max(alpha, lower), min(beta, upper)
        empty = self.full & ~(mine[3] | theirs[3])
        areas = self.empty_areas(empty)
        # the mover ends with at most most_pieces, its opponent with at least what it has now
        ceiling = self.most_pieces(mine, empty, areas) - theirs[3].bit_count()
        if ceiling <= alpha0:
            return ceiling
        floor = mine[3].bit_count() - self.most_pieces(theirs, empty, areas)
        if floor >= beta0:
            return floor
        moves = apply_ban(self.placements(mine, empty), banned)
        best, choice = -INFINITY, None
        if not moves:
            if self.placements(theirs, empty):
                best = -self._search(board, sides, 1 - mover, None, -beta0, -alpha0)
            else:
                best = mine[3].bit_count() - theirs[3].bit_count()
        else:
            history = self.history
            moves.sort(key=lambda move: history.get(move, 0), reverse=True)
            if hint is not None and (first := (self.symmetries[mirror][hint[0]], hint[1])) \
                    in moves:  # the table's best placement first: it most often cuts again
                moves.remove(first)
                moves.insert(0, first)
            for index, value in moves:
                child = list(sides)
                child[mover] = self.placed_side(mine, index, value)
                score = -self._search(self._place(board, mover, index, value), tuple(child),
                                      1 - mover, banned_after(value), -beta0,
                                      -max(alpha0, best))
                if score > best:
                    best, choice = score, (index, value)
                    if best >= beta0:
                        history[choice] = history.get(choice, 0) + empty.bit_count() ** 2
                        break
        if best <= alpha0:
            upper = best
        elif best >= beta0:
            lower = best
        else:
            lower = upper = best
        if len(self.table) >= MAX_TABLE:
            self.table.clear()
        # the mirrors are their own inverses: the same permutation maps a cell either way
        self.table[key] = (lower, upper, choice and (self.symmetries[mirror][choice[0]],
                                                     choice[1]))
        return best

    def key(self, board: tuple[int, ...], mover: int, banned: int | None) -> tuple:
        """The canonical table key: the board from the mover's side, least of its mirrors."""
        return self.key_and_mirror(board, mover, banned)[0]

    def key_and_mirror(self, board: tuple[int, ...], mover: int,
                       banned: int | None) -> tuple[tuple, int]:
        """The table key and which of `symmetries` turns the board into the key's."""
        seen = board if mover == 0 else tuple(map(operator.neg, board))
        views = [mirror(seen) for mirror in self.mirrors]
        least = min(views)
        return (least, banned), views.index(least)

    @staticmethod
    def _place(board: tuple[int, ...], mover: int, index: int, value: int) -> tuple[int, ...]:
        return board[:index] + (value if mover == 0 else -value,) + board[index + 1:]

    def grow(self, mask: int) -> int:
        """`mask` and every cell beside it."""
        cols = self.cols
        return (mask | (mask << 1) & self.not_first | (mask >> 1) & self.not_last
                | (mask << cols) & self.full | mask >> cols)

    def sides(self, board: tuple[int, ...]) -> tuple[tuple, tuple]:
        """Both seats' sides (see the class docstring) of an engine board."""
        out = []
        for seat in (0, 1):
            label, sizes, limits = groups(board, self.n, seat)
            masks = [0] * len(sizes)
            for index, g in label.items():
                masks[g] |= 1 << index
            numbers, blanks = hand(board, self.n, seat)
            out.append((tuple(zip(masks, limits, sizes, map(self.grow, masks))), numbers, blanks,
                        sum(masks)))
        return tuple(out)

    def placed_side(self, side: tuple, index: int, value: int) -> tuple:
        """The side after it places `value` at `index`: the groups it touches merge."""
        groups_, numbers, blanks, pieces = side
        bit, near = 1 << index, self.near[index]
        merged, limit, size, rest = bit, value, 1, []
        for group in groups_:
            if group[0] & near:
                merged |= group[0]
                limit = min(limit, group[1])
                size += group[2]
            else:
                rest.append(group)
        rest.append((merged, limit, size, self.grow(merged)))
        if value == BLANK:
            blanks -= 1
        else:
            numbers = tuple(k for k in numbers if k != value)
        return tuple(rest), numbers, blanks, pieces | bit

    def placements(self, side: tuple, empty: int) -> list[tuple[int, int]]:
        """Every (cell index, value) the side may place on the `empty` cells by the
        numbers-first and group rules (the engine's `placements`, by masks)."""
        groups_, numbers, blanks, _ = side
        values = numbers or ((BLANK,) if blanks else ())
        if not values:
            return []
        beside, twice, fronts = 0, 0, []  # cells beside a group, beside two or more
        for group in groups_:
            front = group[3] & empty
            twice |= beside & front
            beside |= front
            fronts.append(front)
        out = []
        for (_, limit, size, _), front in zip(groups_, fronts):
            fits = [v for v in values if v > size] if size < limit else ()
            if fits:  # a cell beside this group only: one more piece fits under a value > size
                out.extend((i, v) for i in set_bits(front & ~twice) for v in fits)
        for i in set_bits(twice):  # joins groups: count them all
            size, limit = 1, BLANK
            for mask, group_limit, group_size, _ in groups_:
                if mask & self.near[i]:
                    size += group_size
                    limit = min(limit, group_limit)
            out.extend((i, v) for v in values if size <= min(limit, v))
        if numbers:  # a number may start a group anywhere beside none of the side's
            out.extend((i, v) for i in set_bits(empty & ~beside) for v in numbers)
        return out

    def empty_areas(self, empty: int) -> list[tuple[int, int]]:
        """The connected areas of the `empty` cells: (mask, size) each."""
        areas = []
        while empty:
            area = empty & -empty
            while (grown := self.grow(area) & empty) != area:
                area = grown
            areas.append((area, area.bit_count()))
            empty &= ~area
        return areas

    def most_pieces(self, side: tuple, empty: int, areas: list[tuple[int, int]]) -> int:
        """An upper bound on the pieces the side will have at the end: each group can grow
        only up to its limit and only into the empty areas it touches; each number left in
        hand starts a group no larger than itself or than the largest empty area."""
        groups_, numbers, blanks, pieces = side
        total = 0
        for _, limit, size, reach in groups_:
            if size < limit:
                size = min(limit, size + sum(s for area, s in areas if area & reach))
            total += size
        largest = max((s for _, s in areas), default=0)
        total += sum(min(k, largest) for k in numbers)
        have = pieces.bit_count()
        return min(total, have + len(numbers) + blanks, have + empty.bit_count())


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
