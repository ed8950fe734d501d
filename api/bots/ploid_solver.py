"""An exact Ploid solver for small boards: negamax with alpha-beta and a transposition table.

The value of a position is the final piece count of the seat to move minus its opponent's under
perfect play by both (positive: the mover wins). The table is keyed by what decides the rest of
the game, seen from the mover: each side's pieces, the cells of its groups that still have room
under each limit, its numbers in hand, and the number the mover is banned from placing; with
`mirrors`, the least of the board's four symmetries (mirror top-bottom, mirror left-right,
both). Each entry also keeps the placement that did best there, tried first when the position
comes back; the other placements are tried in the order of how often each has refuted a
position before (the history heuristic). On 5 x 6 endgames a node costs a few microseconds
(tests/benchmarks/bench_ploid_solver.py measures it against the solver before its side keys:
about 5 times faster on the advanced bot's endgame solves), and these orderings mostly, not
always, save nodes over trying placements in board order (tests/unit/test_ploid.py checks the
values).

>>> solver = Solver(2)
>>> solver.value(Ploid.new({"n": 2}, first=0, seed=0))
0
"""

from __future__ import annotations

import sys

from api.bots import clock
from api.games.base import by_seat
from api.games.bits import set_bits
from api.games.ploid import BLANK, Place, Ploid, PloidState, groups, hand, owner, piece_name

INFINITY = 10**6
MAX_TABLE = 5_000_000  # entries (n = 3 needs under 100 000); bounds a long-lived bot's memory
UNKNOWN = (-INFINITY, INFINITY, None)  # a position the table does not hold
CHUNK_BITS = 10  # a mirror maps a mask's cells this many at a time, by table (`mirror_chunks`)
CHUNK_MASK = (1 << CHUNK_BITS) - 1


class SolveTimeout(Exception):
    """The search ran past its deadline; nothing it found is exact."""


class Solver:
    """Solves positions of one board size, keeping its table between calls.

    Inside a search a side is held as bitmasks, (live, numbers, blanks, pieces, zone, key):
    each of its groups with room left as (cells, limit, size, reach: its cells and those
    beside them), the numbers in hand increasing, the blanks left, the mask of its pieces (bit
    i is cell index i), its *zone*: the cells of its full groups and those beside them (it can
    never place there: the piece would join a full group), and its part of the table key (one
    int, `side_key`). The engine finds groups by walking cells; here a placement merges the
    groups it touches and the moves come from a few mask operations, which makes a node
    several times cheaper (the solver spends all its time at nodes).

    The table key holds only what decides the rest of the game: each side's pieces, the cells
    of its groups with room under each limit, its numbers in hand, and the banned number; so
    positions that differ only in where a group's numbers stand, or in a full group's numbers,
    share an entry. With `mirrors` (the default) a position and its mirror images share one
    too, which pays on an open board (the perfect bot, proving a start); an endgame's search
    never meets a mirror image of its positions (the pieces already down would be on both),
    so the advanced bot's endgame solver goes without (`mirrors=False`)."""

    def __init__(self, n: int, mirrors: bool = True):
        self.n, self.cols = n, n + 1
        cells = n * (n + 1)
        self.symmetries = board_symmetries(n, n + 1)
        self.full = (1 << cells) - 1
        first_col = sum(1 << r * self.cols for r in range(n))
        # a shift by one column must not wrap a row's end onto the next row's start
        self.not_first, self.not_last = self.full & ~first_col, self.full & ~(first_col << n)
        self.near = [self.grow(1 << i) & ~(1 << i) for i in range(cells)]
        self.blank_at = [(i, BLANK) for i in range(cells)]  # (made once: moves are many)
        # a side's key: the numbers in hand as bits 1..n, then slots of `cells` bits: its
        # pieces (slot 0), the cells of its groups with room under limit k (slot k)
        self.numbers_mask = (1 << n + 1) - 1
        self.shift = [n + 1 + cells * k for k in range(n + 1)]
        self.mirror_chunks = (
            [mirror_chunks(perm) for perm in self.symmetries[1:]] if mirrors else []
        )
        # key -> (lower bound, upper bound, best placement found, in the key's orientation)
        self.table: dict[tuple, tuple[int, int, tuple[int, int] | None]] = {}
        self.nodes = 0
        self.deadline: float | None = None
        # (cell index, value) -> how often it refuted a position: tried early, it most often
        # refutes the next one too (the history heuristic)
        # (every placement there is has an entry from the start, so the moves sort by
        # `history.__getitem__`, not by a Python function)
        self.history: dict[tuple[int, int], int] = {
            (i, v): 0 for i in range(cells) for v in (*range(1, n + 1), BLANK)
        }

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

    def best_placement(
        self, state: PloidState, deadline: float | None = None
    ) -> tuple[int, tuple[int, int]]:
        """The value and one (cell index, value) placement that keeps it, by alpha-beta at the
        root too: the other placements are only proved no better, far faster than valuing
        each (`best_placements`)."""
        best, choice = -INFINITY, None
        for placement in state.legal_placements():
            score = -self._child(state, placement, deadline, -INFINITY, -best)
            if score > best:
                best, choice = score, placement
        assert choice is not None  # the mover has a placement (a pass is forced, not chosen)
        return best, choice

    def placement_verdict(
        self, state: PloidState, placement: tuple[int, int], deadline: float | None = None
    ) -> int:
        """The mover's verdict after its (cell index, value) `placement`: 1 if it wins under
        perfect play, 0 for a draw, -1 for a loss (the window (-1, 1) proves only that)."""
        score = -self._child(state, placement, deadline, -1, 1)
        return (score > 0) - (score < 0)

    def placement_wins(
        self, state: PloidState, placement: tuple[int, int], deadline: float | None = None
    ) -> bool:
        """Whether the mover wins under perfect play after its (cell index, value) `placement`:
        the null window (0, 1) proves only that, faster than the verdict."""
        return -self._child(state, placement, deadline, -1, 0) > 0

    def best_placements(
        self, state: PloidState, deadline: float | None = None
    ) -> tuple[int, list[tuple[int, int]]]:
        """The value and every (cell index, value) placement that keeps it."""
        scored = [
            (-self._child(state, placement, deadline, -INFINITY, INFINITY), placement)
            for placement in state.legal_placements()
        ]
        best = max(v for v, _ in scored)
        return best, [placement for v, placement in scored if v == best]

    def _root(self, state: PloidState, deadline: float | None, alpha: int, beta: int) -> int:
        self.deadline = deadline
        sides = self.sides(state.board)
        return self._search(
            sides[state.mover], sides[1 - state.mover], state.last_number, alpha, beta
        )

    def _child(
        self,
        state: PloidState,
        placement: tuple[int, int],
        deadline: float | None,
        alpha: int,
        beta: int,
    ) -> int:
        """The search's value, for the opponent, of the position after the mover's
        `placement`."""
        self.deadline = deadline
        index, value = placement
        sides = self.sides(state.board)
        return self._search(
            sides[1 - state.mover],
            self.placed_side(sides[state.mover], index, value),
            banned_after(value),
            alpha,
            beta,
        )

    def _search(self, mine: tuple, theirs: tuple, banned: int | None, alpha: int, beta: int) -> int:
        """The value for the side to move, `mine`, against `theirs` (fail-soft alpha-beta)."""
        self.nodes += 1
        # a node costs tens of microseconds: a look at the clock every 64 stops in time
        if self.deadline is not None and self.nodes % 64 == 0 and clock.now() > self.deadline:
            raise SolveTimeout
        if banned not in mine[1]:
            banned = None  # a ban on a number already placed changes nothing: share the entry
        if self.mirror_chunks:
            key, mirror = self.key_and_mirror(mine, theirs, banned)
        else:
            key, mirror = (mine[5], theirs[5], banned), 0
        lower, upper, hint = self.table.get(key, UNKNOWN)
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        alpha0, beta0 = max(alpha, lower), min(beta, upper)
        empty = self.full & ~(mine[3] | theirs[3])
        # the mover ends with at most most_pieces, its opponent with at least what it has now
        ceiling = self.most_pieces(mine, empty) - theirs[3].bit_count()
        if ceiling <= alpha0:
            return ceiling
        floor = mine[3].bit_count() - self.most_pieces(theirs, empty)
        if floor >= beta0:
            return floor
        moves = self.placements(mine, empty)
        if banned is not None:  # (apply_ban's rule, inline: this runs at every node)
            moves = [move for move in moves if move[1] != banned] or moves
        best, choice = -INFINITY, None
        if not moves:
            if self.placements(theirs, empty):
                best = -self._search(theirs, mine, None, -beta0, -alpha0)
            else:
                best = mine[3].bit_count() - theirs[3].bit_count()
        else:
            history = self.history
            moves.sort(key=history.__getitem__, reverse=True)
            if hint is not None:  # the table's best placement first: it most often cuts again
                first = (self.symmetries[mirror][hint[0]], hint[1]) if mirror else hint
                if first in moves:
                    moves.remove(first)
                    moves.insert(0, first)
            search, placed_side = self._search, self.placed_side
            for move in moves:
                value = move[1]
                score = -search(
                    theirs,
                    placed_side(mine, move[0], value),
                    None if value == BLANK else value,
                    -beta0,
                    -max(alpha0, best),
                )
                if score > best:
                    best, choice = score, move
                    if best >= beta0:
                        history[move] += empty.bit_count() ** 2
                        break
        if best <= alpha0:
            upper = best
        elif best >= beta0:
            lower = best
        else:
            lower = upper = best
        if len(self.table) >= MAX_TABLE:
            self.table.clear()
        if choice is not None and mirror:
            # the mirrors are their own inverses: the same permutation maps a cell either way
            choice = self.symmetries[mirror][choice[0]], choice[1]
        self.table[key] = (lower, upper, choice)
        return best

    def key(self, board: tuple[int, ...], mover: int, banned: int | None) -> tuple:
        """The table key of a position (with `mirrors`, the least of its mirror images')."""
        sides = self.sides(board)
        mine, theirs = sides[mover], sides[1 - mover]
        if banned not in mine[1]:
            banned = None
        return self.key_and_mirror(mine, theirs, banned)[0]

    def key_and_mirror(self, mine: tuple, theirs: tuple, banned: int | None) -> tuple[tuple, int]:
        """The table key, the least of the position's mirror images' (without `mirrors`, its
        own), and which of `symmetries` turns the board into the key's."""
        views = [(mine[5], theirs[5])] + [
            (self.mirrored(mine[5], chunks), self.mirrored(theirs[5], chunks))
            for chunks in self.mirror_chunks
        ]
        least = min(views)
        return (*least, banned), views.index(least)

    def mirrored(self, key: int, chunks: list[list[int]]) -> int:
        """A side's key with every slot's cells mapped by a mirror (its `mirror_chunks`)."""
        out, slots, shift = key & self.numbers_mask, key >> self.shift[0], self.shift[0]
        while slots:
            cells = slots & self.full
            if cells:
                image = 0
                for i, chunk in enumerate(chunks):
                    image |= chunk[cells >> CHUNK_BITS * i & CHUNK_MASK]
                out |= image << shift
            slots >>= self.shift[1] - self.shift[0]
            shift += self.shift[1] - self.shift[0]
        return out

    def grow(self, mask: int) -> int:
        """`mask` and every cell beside it."""
        cols = self.cols
        return (
            mask
            | (mask << 1) & self.not_first
            | (mask >> 1) & self.not_last
            | (mask << cols) & self.full
            | mask >> cols
        )

    def sides(self, board: tuple[int, ...]) -> tuple[tuple, tuple]:
        """Both seats' sides (see the class docstring) of an engine board."""
        out = []
        for seat in (0, 1):
            label, sizes, limits = groups(board, self.n, seat)
            masks = [0] * len(sizes)
            for index, g in label.items():
                masks[g] |= 1 << index
            numbers, blanks = hand(board, self.n, seat)
            live = tuple(
                (mask, limit, size, self.grow(mask))
                for mask, limit, size in zip(masks, limits, sizes)
                if size < limit
            )
            zone = 0
            for mask, limit, size in zip(masks, limits, sizes):
                if size >= limit:
                    zone |= self.grow(mask)
            pieces = sum(masks)
            key = (
                sum(1 << k for k in numbers)
                + (pieces << self.shift[0])
                + sum(group[0] << self.shift[group[1]] for group in live)
            )
            out.append((live, numbers, blanks, pieces, zone, key))
        return by_seat(out)

    def placed_side(self, side: tuple, index: int, value: int) -> tuple:
        """The side after it places `value` at `index`: the groups it touches merge (never a
        full one: the placement would be illegal)."""
        live, numbers, blanks, pieces, zone, key = side
        bit, near, shift = 1 << index, self.near[index], self.shift
        merged, limit, size, rest = bit, value, 1, []
        key += bit << shift[0]
        for group in live:
            if group[0] & near:
                merged |= group[0]
                if group[1] < limit:
                    limit = group[1]
                size += group[2]
                key -= group[0] << shift[group[1]]
            else:
                rest.append(group)
        cols, full = self.cols, self.full
        reach = (
            merged
            | (merged << 1) & self.not_first
            | (merged >> 1) & self.not_last
            | (merged << cols) & full
            | merged >> cols
        )  # (self.grow, inline)
        if size < limit:
            rest.append((merged, limit, size, reach))
            key += merged << shift[limit]
        else:
            zone |= reach
        if value == BLANK:
            blanks -= 1
        else:
            numbers = tuple(k for k in numbers if k != value)
            key -= 1 << value
        return tuple(rest), numbers, blanks, pieces | bit, zone, key

    def placements(self, side: tuple, empty: int) -> list[tuple[int, int]]:
        """Every (cell index, value) the side may place on the `empty` cells by the
        numbers-first and group rules (the engine's `placements`, by masks)."""
        live, numbers, blanks, _, zone, _ = side
        if not numbers and not blanks:
            return []
        usable = empty & ~zone
        beside, twice, fronts = 0, 0, []  # cells beside a group, beside two or more
        for group in live:
            front = group[3] & usable
            twice |= beside & front
            beside |= front
            fronts.append(front)
        out = []
        if numbers:
            for (_, _limit, size, _), front in zip(live, fronts):
                # a cell beside this group only: one more piece fits under a value > size
                fits = [v for v in numbers if v > size]
                if fits and (single := front & ~twice):
                    out.extend([(i, v) for i in set_bits(single) for v in fits])
            # a number may start a group anywhere beside none of the side's
            out.extend([(i, v) for i in set_bits(usable & ~beside) for v in numbers])
        else:  # only blanks (most nodes of an endgame): a group with room takes one more
            single, blank_at = beside & ~twice, self.blank_at
            while single:
                low = single & -single
                out.append(blank_at[low.bit_length() - 1])
                single ^= low
        for i in set_bits(twice):  # joins groups: count them all
            size, limit, near = 1, BLANK, self.near[i]
            for mask, group_limit, group_size, _ in live:
                if mask & near:
                    size += group_size
                    if group_limit < limit:
                        limit = group_limit
            out.extend([(i, v) for v in numbers or (BLANK,) if size <= min(limit, v)])
        return out

    def most_pieces(self, side: tuple, empty: int) -> int:
        """An upper bound on the pieces the side will have at the end. Each group with room
        can gain at most its room (limit - size) and only cells it can reach within that many
        steps through the empty cells outside the side's zone (its usable cells): a group's
        gain, merged or not, is reached step by step from one of its groups. Each number in
        hand adds at most itself; all of them no more than the pieces in hand and the usable
        cells."""
        live, numbers, blanks, pieces, zone, _ = side
        usable = empty & ~zone
        free = usable.bit_count()
        cap = min(len(numbers) + blanks, free)
        gain = sum(min(k, free) for k in numbers) if numbers else 0
        cols, not_first, not_last = self.cols, self.not_first, self.not_last
        for _, limit, size, reach in live:
            if gain >= cap:
                break
            room = limit - size
            near = reach & usable
            count = near.bit_count()
            while count < room:  # (at most room - 1 steps: each adds a cell)
                grown = (
                    near
                    | (near << 1) & not_first
                    | (near >> 1) & not_last
                    | near << cols
                    | near >> cols
                ) & usable  # (self.grow, inline)
                if grown == near:
                    break
                near, count = grown, grown.bit_count()
            gain += min(room, count)
        return pieces.bit_count() + min(gain, cap)


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
    outcome = state.outcome()
    assert outcome is not None  # played to the end
    return {
        "n": n,
        "value": value,
        "scores": outcome.scores,
        "seconds": seconds,
        "positions": len(solver.table),
        "nodes": solver.nodes,
    }


def prove_start(n: int, budget_s: float, report=print) -> dict:
    """Who wins Ploid n from the start, first mover's opening moves one by one (up to symmetry)
    within `budget_s` seconds, reporting each proved opening; says how far it got."""
    solver = Solver(n)
    start = Ploid.new({"n": n}, first=0, seed=0)
    deadline = clock.now() + budget_s
    started = clock.now()
    openings: dict[tuple, PloidState] = {}
    for index, value in start.legal_placements():
        child = start.apply(place_move(start, index, value))
        openings.setdefault(solver.key(child.board, child.mover, child.last_number), child)
    verdicts = []
    try:
        for child in openings.values():
            verdicts.append(-solver.verdict(child, deadline))
            report(
                f"opening {len(verdicts)}/{len(openings)}: first mover "
                f"{VERDICT_WORDS[verdicts[-1]]} ({clock.now() - started:.0f} s, "
                f"{len(solver.table)} positions)"
            )
            if verdicts[-1] == 1:
                break  # one winning opening proves the start a first-mover win
    except SolveTimeout:
        report(f"out of time after {len(verdicts)} of {len(openings)} openings")
    done = len(verdicts) == len(openings) or 1 in verdicts
    return {
        "n": n,
        "verdict": max(verdicts) if done else None,
        "openings": len(openings),
        "openings_proved": len(verdicts),
        "seconds": clock.now() - started,
        "positions": len(solver.table),
    }


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


def mirror_chunks(perm: tuple[int, ...]) -> list[list[int]]:
    """A mirror's cell map `perm` as tables, one per CHUNK_BITS cells: chunk i's table maps
    the bits of cells CHUNK_BITS * i onwards to the mask of their images."""
    out = []
    for first in range(0, len(perm), CHUNK_BITS):
        cells = perm[first : first + CHUNK_BITS]
        out.append(
            [
                sum(1 << image for b, image in enumerate(cells) if bits >> b & 1)
                for bits in range(1 << len(cells))
            ]
        )
    return out


def board_symmetries(rows: int, cols: int) -> list[tuple[int, ...]]:
    """Index permutations of the rows x cols board's symmetries (identity and three mirrors)."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (rows - 1 - r, c),
        lambda r, c: (r, cols - 1 - c),
        lambda r, c: (rows - 1 - r, cols - 1 - c),
    ]
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
