"""Standings (RULES.md, "Events"): a win 1, a draw ½, a loss 0, a bye 1; an aborted game counts
as not played. Ties are broken as the format's ruling says, and players equal on every tiebreak
share their rank.

A game is `Played(first, second, winner)`, `winner` 0 or 1 (the seat), or None for a draw.

>>> table = standings(["a", "b", "c"], [Played("a", "b", 0), Played("b", "c", None)], [],
...                   "round-robin")
>>> [(row["player"], row["rank"], row["score"]) for row in table]
[('a', 1, 1.0), ('b', 2, 0.5), ('c', 2, 0.5)]
"""

from __future__ import annotations

import dataclasses

# the tiebreaks of each format, in the order they apply (knockout: how far each went, then seed)
TIEBREAKS = {
    "round-robin": ("sonneborn_berger", "direct_encounter", "wins"),
    "swiss": ("buchholz_cut1", "sonneborn_berger", "wins"),
    "knockout": ("wins",),
}


@dataclasses.dataclass(frozen=True)
class Played:
    """A game that counts: its first mover, the other, and the winning seat (None: drawn)."""

    first: str
    second: str
    winner: int | None

    def halves(self, player: str) -> int:
        """`player`'s score in it, in half points."""
        seat = 0 if player == self.first else 1
        return 1 if self.winner is None else 2 * (self.winner == seat)

    def opponent(self, player: str) -> str:
        return self.second if player == self.first else self.first


def scores(players: list[str], games: list[Played], byes: list[str]) -> dict[str, int]:
    """Each player's score in half points."""
    halves = {p: 0 for p in players}
    for game in games:
        for p in (game.first, game.second):
            halves[p] += game.halves(p)
    for p in byes:
        halves[p] += 2
    return halves


def sonneborn_berger(
    players: list[str], games: list[Played], halves: dict[str, int]
) -> dict[str, float]:
    """The sum of the scores of the opponents beaten and half those drawn with."""
    sb = {p: 0 for p in players}
    for game in games:
        for p in (game.first, game.second):
            sb[p] += game.halves(p) * halves[game.opponent(p)]
    return {p: v / 4 for p, v in sb.items()}


def buchholz_cut1(
    players: list[str], games: list[Played], halves: dict[str, int]
) -> dict[str, float]:
    """The sum of the opponents' scores, the lowest left out."""
    met: dict[str, list[int]] = {p: [] for p in players}
    for game in games:
        for p in (game.first, game.second):
            met[p].append(halves[game.opponent(p)])
    return {p: (sum(v) - min(v)) / 2 if v else 0.0 for p, v in met.items()}


def wins(players: list[str], games: list[Played]) -> dict[str, int]:
    won = {p: 0 for p in players}
    for game in games:
        if game.winner is not None:
            won[(game.first, game.second)[game.winner]] += 1
    return won


def direct_encounter(group: list[str], games: list[Played]) -> dict[str, float]:
    """The score of each of `group` in the games its members played among themselves."""
    inside = set(group)
    got = {p: 0 for p in group}
    for game in games:
        if game.first in inside and game.second in inside:
            for p in (game.first, game.second):
                got[p] += game.halves(p)
    return {p: v / 2 for p, v in got.items()}


def standings(
    players: list[str],
    games: list[Played],
    byes: list[str],
    format: str,
    seeds: dict[str, int] | None = None,
    reached: dict[str, int] | None = None,
) -> list[dict]:
    """Rows `{"rank", "player", "score", "tiebreaks", "played", "wins"}`, best first. A knockout
    ranks by the round each player `reached`, then by seed."""
    halves = scores(players, games, byes)
    played = {p: 0 for p in players}
    for game in games:
        played[game.first] += 1
        played[game.second] += 1
    won = wins(players, games)
    breaks: dict[str, dict[str, float]] = {p: {} for p in players}
    for p, v in sonneborn_berger(players, games, halves).items():
        breaks[p]["sonneborn_berger"] = v
    for p, v in buchholz_cut1(players, games, halves).items():
        breaks[p]["buchholz_cut1"] = v
    for p in players:
        breaks[p]["wins"] = won[p]
    order = TIEBREAKS[format]
    if "direct_encounter" in order:  # among those equal on score and what comes before it
        before = order[: order.index("direct_encounter")]
        groups: dict[tuple, list[str]] = {}
        for p in players:
            groups.setdefault((halves[p], *(breaks[p][t] for t in before)), []).append(p)
        for group in groups.values():
            for p, v in direct_encounter(group, games).items():
                breaks[p]["direct_encounter"] = v
    if format == "knockout":
        reached, seeds = reached or {}, seeds or {}

        def key(p: str) -> tuple:
            return (-reached.get(p, 0), seeds.get(p, 0))
    else:

        def key(p: str) -> tuple:
            return (-halves[p], *(-breaks[p][t] for t in order))

    ranked = sorted(players, key=lambda p: (key(p), (seeds or {}).get(p, 0)))
    rows: list[dict] = []
    for i, p in enumerate(ranked):
        shared = i > 0 and key(ranked[i - 1]) == key(p)
        rows.append(
            {
                "rank": rows[-1]["rank"] if shared else i + 1,
                "player": p,
                "score": halves[p] / 2,
                "tiebreaks": {t: breaks[p][t] for t in order},
                "played": played[p],
                "wins": won[p],
            }
        )
    return rows


def crosstable(players: list[str], games: list[Played]) -> dict[str, dict[str, list[float]]]:
    """A round-robin's crosstable: for each player, its score against each opponent, game by
    game (two entries in a double round-robin)."""
    table: dict[str, dict[str, list[float]]] = {p: {} for p in players}
    for game in games:
        for p in (game.first, game.second):
            table[p].setdefault(game.opponent(p), []).append(game.halves(p) / 2)
    return table
