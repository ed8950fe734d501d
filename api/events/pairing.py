"""Who plays whom (RULES.md, "Events"): pure functions of the players and their standings, so the
same standings always give the same pairings. A pairing is `(first, second)`: the first mover
first.

>>> berger(4)
[[(0, 3), (1, 2)], [(3, 2), (0, 1)], [(1, 3), (2, 0)]]
>>> knockout_first_round(["a", "b", "c"])
([('a', None), ('b', 'c')], ['a'])
"""

from __future__ import annotations

import dataclasses

import networkx as nx


# -- round-robin ------------------------------------------------------------------------------


def berger(n: int) -> list[list[tuple[int, int | None]]]:
    """The Berger tables of `n` players (indices 0..n-1): n-1 rounds for an even n, n for an odd
    one, where the player paired with None has the round's bye. As FIDE's tables write them: in
    round r the last player meets the one whose double is r + 1 (modulo n - 1), the others meet
    where their numbers add up to r + 1; the lower number moves first when the two add up to an
    odd number, and the last player moves first in the even rounds."""
    size = n + n % 2
    m = size - 1
    rounds = []
    for r in range(1, size):
        target = (r + 1) % m
        last_meets = next(i for i in range(1, size) if (2 * i) % m == target)
        table = [(size, last_meets) if r % 2 == 0 else (last_meets, size)]
        for i in range(1, size):
            j = (target - i) % m or m
            if i < j and i != last_meets and j != last_meets:
                table.append((i, j) if (i + j) % 2 == 1 else (j, i))
        rounds.append([_indexed(a, b, n) for a, b in table])
    return rounds


def _indexed(a: int, b: int, n: int) -> tuple[int, int | None]:
    """A table's pair by 0-based index; the phantom player of an odd field is a bye (None)."""
    if a > n:
        return (b - 1, None)
    return (a - 1, None) if b > n else (a - 1, b - 1)


def round_robin(
    players: list[str], double: bool = False
) -> list[tuple[list[tuple[str, str]], list[str]]]:
    """Every round of a round-robin of `players` (in their seeding order): its pairings and its
    byes. `double` plays the tables twice, the first move swapped the second time."""
    rounds = []
    for table in berger(len(players)):
        pairs = [(players[a], players[b]) for a, b in table if b is not None]
        rounds.append((pairs, [players[a] for a, b in table if b is None]))
    if double:
        rounds += [([(b, a) for a, b in pairs], byes) for pairs, byes in rounds]
    return rounds


# -- Swiss ----------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Entrant:
    """A Swiss player as the pairing sees them: `rank` its seeding (0 is the top seed), its score
    so far (in half points), whom it has met, how often it moved first and second, whether it had
    a bye."""

    id: str
    rank: int
    halves: int = 0
    met: frozenset[str] = frozenset()
    firsts: int = 0
    seconds: int = 0
    had_bye: bool = False

    @property
    def lean(self) -> int:
        """How many more times it moved first than second."""
        return self.firsts - self.seconds


# how much each of the ruling's wishes weighs: a pair of equal scores first, then the Dutch top
# half against bottom half of a score group, then the first move given where it is owed
SCORE_WEIGHT = 1_000_000
DUTCH_WEIGHT = 1_000
LEAN_WEIGHT = 10


def swiss_round(entrants: list[Entrant], round_no: int) -> tuple[list[tuple[str, str]], list[str]]:
    """One Swiss round: its pairings (first mover first) and its bye, if any.

    Round one is seeded by `rank`: the top half against the bottom half. Later rounds pair
    through a maximum-weight matching (networkx's blossom algorithm) over every pair that has not
    met: no Python library on the package lists implements the FIDE Dutch system (Lichess calls
    bbpPairings, a C++ program), and a matching weighted by score difference, then by the Dutch
    half-against-half order within a score group, then by first moves owed, finds the ruling's
    pairing whenever one exists, where the greedy top-down pairing can paint itself into a corner
    (a last pair that has met)."""
    ordered = sorted(entrants, key=lambda e: (-e.halves, e.rank))
    byes: list[str] = []
    if len(ordered) % 2:
        bye = next((e for e in reversed(ordered) if not e.had_bye), ordered[-1])
        byes.append(bye.id)
        ordered = [e for e in ordered if e.id != bye.id]
    if round_no == 1:
        half = len(ordered) // 2
        pairs = [(ordered[i], ordered[i + half]) for i in range(half)]
        return [_first_move(a, b, board) for board, (a, b) in enumerate(pairs)], byes
    # the thin graph first (the blossom algorithm's time grows with the edges: a full graph of
    # 1,000 players outlasts a due check's lease), the full one only when it has no perfect
    # matching, and repeats only when even that has none (a field too small to avoid one)
    for allow_repeats, thin in ((False, True), (False, False), (True, False)):
        matched = _matching(ordered, allow_repeats, thin)
        if len(matched) * 2 == len(ordered):
            break
    position = {e.id: i for i, e in enumerate(ordered)}
    boards = sorted((min(position[a.id], position[b.id]), a, b) for a, b in matched)
    return [
        _first_move(*((a, b) if position[a.id] <= position[b.id] else (b, a)), board)
        for board, (_, a, b) in enumerate(boards)
    ], byes


def _matching(
    ordered: list[Entrant], allow_repeats: bool, thin: bool = False
) -> list[tuple[Entrant, Entrant]]:
    """The maximum-weight matching of `ordered`; `thin` keeps only the pairs the ruling would
    choose first (see `_near`)."""
    groups: dict[int, list[Entrant]] = {}
    for e in ordered:
        groups.setdefault(e.halves, []).append(e)
    place = {e.id: (i, len(groups[e.halves])) for g in groups.values() for i, e in enumerate(g)}
    below = dict(zip(sorted(groups, reverse=True), sorted(groups, reverse=True)[1:]))
    graph = nx.Graph()
    graph.add_nodes_from(range(len(ordered)))
    top = SCORE_WEIGHT * 100
    for i, a in enumerate(ordered):
        for j in range(i + 1, len(ordered)):
            b = ordered[j]
            repeat = b.id in a.met
            if (repeat and not allow_repeats) or (thin and not _near(a, b, place, below)):
                continue
            weight = top - SCORE_WEIGHT * (a.halves - b.halves) ** 2
            if a.halves == b.halves:  # Dutch: the i-th of the top half meets the i-th of the rest
                (pa, size), (pb, _) = place[a.id], place[b.id]
                weight -= DUTCH_WEIGHT * abs(pb - pa - size // 2)
            else:  # a floater meets the top of the group below
                weight -= DUTCH_WEIGHT * place[b.id][0]
            if (a.lean > 0 and b.lean > 0) or (a.lean < 0 and b.lean < 0):
                weight -= LEAN_WEIGHT * min(abs(a.lean), abs(b.lean))
            if repeat:
                weight -= top // 2
            graph.add_edge(i, j, weight=weight)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    return [(ordered[i], ordered[j]) for i, j in sorted(tuple(sorted(p)) for p in found)]


# the thin graph's reach: within a score group, this far from the Dutch partner; into the group
# below, its top this many
NEAR = 12


def _near(a: Entrant, b: Entrant, place: dict[str, tuple[int, int]], below: dict[int, int]) -> bool:
    """Whether the thin graph has the pair `a`, `b` (`a` ahead in the order): the same score
    group and near the Dutch partner, or a floater from the group just above meeting the top of
    the group below."""
    (pa, size), (pb, _) = place[a.id], place[b.id]
    if a.halves == b.halves:
        return abs(pb - pa - size // 2) <= NEAR
    return below.get(a.halves) == b.halves and pb < NEAR


def _first_move(a: Entrant, b: Entrant, board: int) -> tuple[str, str]:
    """The first move to the one who moved first less often (`a` ranks higher); even, the higher
    ranked on the even boards, the lower on the odd ones."""
    if a.lean != b.lean:
        return (a.id, b.id) if a.lean < b.lean else (b.id, a.id)
    return (a.id, b.id) if board % 2 == 0 else (b.id, a.id)


# -- knockout -------------------------------------------------------------------------------


def bracket(size: int) -> list[int]:
    """The seeds (1-based) of a bracket of `size` (a power of two) in the order its first-round
    matches are drawn, so that 1 meets 2 only in the final: [1, 4, 2, 3] for 4."""
    order = [1]
    while len(order) < size:
        double = len(order) * 2
        order = [s for seed in order for s in (seed, double + 1 - seed)]
    return order


def knockout_first_round(seeded: list[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """The first round of a knockout of `seeded` (best first): 1 against N, 2 against N - 1, ...,
    in bracket order; when the field is not a power of two the top seeds have byes, paired with
    None. The second part: the players with a bye."""
    size = 1
    while size < len(seeded):
        size *= 2
    order = bracket(size)
    matches = []
    for k in range(0, size, 2):
        a, b = order[k], order[k + 1]
        matches.append((seeded[a - 1], seeded[b - 1] if b <= len(seeded) else None))
    return matches, [a for a, b in matches if b is None]


def knockout_next_round(winners: list[str]) -> list[tuple[str, str]]:
    """The next round: the winners of neighbouring matches (in bracket order) meet."""
    return [(winners[k], winners[k + 1]) for k in range(0, len(winners) - 1, 2)]
