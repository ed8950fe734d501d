"""Perfect play for Factor/Multiple, by maximum matching instead of game-tree search.

The game is undirected vertex geography on the divisibility graph of 1..n. Fraenkel, Scheinerman
and Ullman (1993): with the token on v and U the numbers not yet said, the player to move wins iff
every maximum matching of the graph on U + {v} covers v. Read one move further: saying u (a
neighbour of v in U) wins iff the opponent, now on u with U - {u} left, loses, that is iff some
maximum matching of the graph on U leaves u uncovered. The set of such vertices is the "D" part of
the Gallai-Edmonds decomposition, and one alternating-forest sweep from a maximum matching finds it
all at once. The opening is the same question with v absent: the first number u wins iff u is in D
of the whole graph on 1..n.

The maximum matching is our own Edmonds search (`alternating_forest`) started from a greedy
matching: the sweep that finds D is that search's last pass anyway, and it is 15 to 25 times
faster than networkx's general matching, which stays the reference in the tests and the
baseline in tests/benchmarks/bench_fm_solver.py.

>>> from api.games.factor_multiple import FactorMultiple, Say
>>> state = FactorMultiple.new(FactorMultiple.check_options({"n": 12}), first=0, seed=0)
>>> [m["number"] for m in analyse(state)["moves"] if m["wins"]]
[2, 4, 6, 8, 12]
>>> after_10 = analyse(state.apply(Say(10)))   # 10 loses: say 5, the only reply is 1, then 7
>>> after_10["to_move_wins"], [(m["number"], m["wins"]) for m in after_10["moves"]]
(True, [(1, False), (2, True), (5, True)])
>>> after_10["moves"][0]
{'move': {'type': 'say', 'number': 1}, 'number': 1, 'wins': False}
"""

from __future__ import annotations

import collections
from typing import Iterable

from api.games.factor_multiple import FactorMultipleState, Say

UNMATCHED = -1


def analyse(state: FactorMultipleState) -> dict:
    """Whether the seat to move wins with perfect play, and the verdict of every legal move, each
    given as the move itself and its number (JSON-ready; a finished game gives `to_move_wins`
    False and no moves)."""
    return _verdicts(state, winning_numbers(state))


def winning_numbers(state: FactorMultipleState) -> set[int]:
    """The legal numbers after which the opponent loses against perfect play."""
    return set(Position(state).winning())


class Position:
    """A position solved: the graph on the numbers not yet said (the part the game can still
    reach), a maximum matching of it, and its set D (numbers some maximum matching leaves
    uncovered)."""

    def __init__(self, state: FactorMultipleState):
        self.moves = state.legal_numbers()
        unused = set(range(1, state.n + 1)) - set(state.said)
        neighbours = _divisibility_graph(state.n, unused)
        # Only the components of the remaining graph that hold a legal move matter; a matching
        # splits over components, so the rest (most of the graph late on) can be dropped.
        numbers = sorted(_reachable(neighbours, self.moves))
        self.index = {k: i for i, k in enumerate(numbers)}
        self.adj = [[self.index[j] for j in neighbours[k]] for k in numbers]
        self.mate = _greedy_matching(self.adj)
        self.uncoverable = alternating_forest(self.adj, self.mate)

    def winning(self) -> list[int]:
        """The legal numbers that win, in increasing order."""
        return [k for k in self.moves if self.uncoverable[self.index[k]]]

    def reply_count(self, k: int) -> int:
        """How many replies the opponent has after k is said."""
        return len(self.adj[self.index[k]])

    def opponent_replies(self, k: int) -> tuple[int, int]:
        """After saying k (a legal number): how many replies the opponent has, and how many of them
        win. Costs one forest sweep: the matching without k is at most one edge short."""
        i = self.index[k]
        mate = list(self.mate)
        if mate[i] != UNMATCHED:
            mate[mate[i]] = UNMATCHED
            mate[i] = UNMATCHED
        adj = [[j for j in row if j != i] for row in self.adj]
        adj[i] = []
        uncoverable = alternating_forest(adj, mate)
        replies = self.adj[i]
        return len(replies), sum(1 for j in replies if uncoverable[j])


def _divisibility_graph(n: int, numbers: set[int]) -> dict[int, list[int]]:
    """Each number's factors and multiples among `numbers`, found by stepping through multiples
    (n log n steps, where listing factors by trial division would cost n^2)."""
    neighbours: dict[int, list[int]] = {k: [] for k in numbers}
    for k in numbers:
        for multiple in range(2 * k, n + 1, k):
            if multiple in numbers:
                neighbours[k].append(multiple)
                neighbours[multiple].append(k)
    return neighbours


def _reachable(neighbours: dict[int, list[int]], starts: Iterable[int]) -> set[int]:
    seen = set(starts)
    todo = list(seen)
    while todo:
        for j in neighbours[todo.pop()]:
            if j not in seen:
                seen.add(j)
                todo.append(j)
    return seen


def _greedy_matching(adj: list[list[int]]) -> list[int]:
    """A large matching to start Edmonds' search from: scarce vertices first, each to its scarcest
    free neighbour (it leaves only a few augmentations to find at n = 1000)."""
    mate = [UNMATCHED] * len(adj)
    for v in sorted(range(len(adj)), key=lambda v: len(adj[v])):
        if mate[v] == UNMATCHED:
            free = [w for w in adj[v] if mate[w] == UNMATCHED]
            if free:
                w = min(free, key=lambda w: len(adj[w]))
                mate[v], mate[w] = w, v
    return mate


def alternating_forest(adj: list[list[int]], mate: list[int]) -> list[bool]:
    """Make `mate` maximum (in place) and return, per vertex, whether some maximum matching leaves
    it uncovered (the Gallai-Edmonds set D).

    Edmonds' search grown from every uncovered vertex at once: a vertex is "outer" when an
    alternating path of even length joins it to an uncovered vertex; odd cycles (blossoms) are
    shrunk onto their base. An edge between outer vertices of two different trees is an augmenting
    path: augment and sweep again. When no such edge is left the matching is maximum and the
    outer vertices are exactly D (Gallai-Edmonds).

    >>> triangle_and_tail = [[1, 2], [0, 2], [0, 1, 3], [2, 4], [3]]   # 0-1-2 triangle, 2-3-4 tail
    >>> alternating_forest(triangle_and_tail, [UNMATCHED] * 5)   # 3 is in every maximum matching
    [True, True, True, False, True]
    """
    while True:
        outer, augmenting = _sweep(adj, mate)
        if augmenting is None:
            return outer
        _augment(mate, *augmenting)


def _sweep(adj: list[list[int]], mate: list[int]):
    """One forest search: (outer flags, None) when the matching is maximum, else
    (None, (parent, a, b)) for an augmenting edge a-b between two trees."""
    count = len(adj)
    base = list(range(count))
    members = [[v] for v in range(count)]  # the vertices shrunk onto each base
    parent = [UNMATCHED] * count  # the outer vertex an inner vertex was reached from
    outer = [mate[v] == UNMATCHED for v in range(count)]
    queue = collections.deque(v for v in range(count) if outer[v])
    while queue:
        v = queue.popleft()
        for w in adj[v]:
            if base[v] == base[w] or mate[v] == w:
                continue
            if outer[w]:
                top = _common_base(v, w, base, mate, parent)
                if top is None:
                    return None, (parent, v, w)
                shrunk: list[int] = []
                _mark_blossom(v, top, w, base, mate, parent, shrunk)
                _mark_blossom(w, top, v, base, mate, parent, shrunk)
                for b in set(shrunk) - {top}:
                    for x in members[b]:
                        base[x] = top
                        if not outer[x]:
                            outer[x] = True
                            queue.append(x)
                    members[top].extend(members[b])
                    members[b] = []
            elif parent[w] == UNMATCHED:
                # w is matched (every uncovered vertex is already outer) and not yet reached
                parent[w] = v
                outer[mate[w]] = True
                queue.append(mate[w])
    return outer, None


def _common_base(a: int, b: int, base, mate, parent) -> int | None:
    """The base where the tree paths of outer vertices a and b meet, or None in different trees."""
    seen = set()
    while True:
        a = base[a]
        seen.add(a)
        if mate[a] == UNMATCHED:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if b in seen:
            return b
        if mate[b] == UNMATCHED:
            return None
        b = parent[mate[b]]


def _mark_blossom(v: int, top: int, child: int, base, mate, parent, shrunk: list[int]) -> None:
    """Walk from v down to the blossom base `top`, pointing each outer vertex across the new edge
    so that its mate (inner until now) gets an even path too."""
    while base[v] != top:
        shrunk.append(base[v])
        shrunk.append(base[mate[v]])
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def _augment(mate: list[int], parent: list[int], a: int, b: int) -> None:
    """Flip the augmenting path: b's tree path, the edge a-b, then a's tree path."""
    _flip_from(mate, parent, mate[b])
    parent[b] = a
    _flip_from(mate, parent, b)


def _flip_from(mate: list[int], parent: list[int], v: int) -> None:
    while v != UNMATCHED:
        above = parent[v]
        further = mate[above]
        mate[v], mate[above] = above, v
        v = further


def analyse_by_search(state: FactorMultipleState) -> dict:
    """The same answer as `analyse`, by plain memoised game-tree search: exponential, kept as the
    independent reference that the tests and the benchmark check the matching argument against."""
    n = state.n
    neighbours = {
        k: sum(1 << j for j in near)
        for k, near in _divisibility_graph(n, set(range(1, n + 1))).items()
    }
    known: dict[tuple[int, int], bool] = {}

    def mover_wins(current: int, unused: int) -> bool:
        key = (current, unused)
        if key not in known:
            # try first the replies that leave the opponent fewest answers (none wins at once)
            replies = sorted(
                ((neighbours[k] & unused).bit_count(), k)
                for k in _bits(neighbours[current] & unused)
            )
            known[key] = any(not mover_wins(k, unused & ~(1 << k)) for _, k in replies)
        return known[key]

    unused = sum(1 << k for k in range(1, n + 1) if k not in state.said)
    return _verdicts(
        state, {k for k in state.legal_numbers() if not mover_wins(k, unused & ~(1 << k))}
    )


def _verdicts(state: FactorMultipleState, wins: set[int]) -> dict:
    moves = [
        {"move": Say(k).to_dict(), "number": k, "wins": k in wins} for k in state.legal_numbers()
    ]
    return {"to_move_wins": bool(wins), "moves": moves}


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
