"""Pairings (RULES.md, "Events"), from small explicit standings written out here."""

from __future__ import annotations

import itertools

import pytest

from api.events.pairing import (
    Entrant,
    berger,
    bracket,
    knockout_first_round,
    knockout_next_round,
    round_robin,
    swiss_round,
)
from api.events.standings import (
    Played,
    buchholz_cut1,
    direct_encounter,
    sonneborn_berger,
    scores,
    standings,
)


def test_berger_table_of_six_is_fides():
    # FIDE Handbook C.05 Annex 1, six players (1-based, first mover first)
    fide = [
        {(1, 6), (2, 5), (3, 4)},
        {(6, 4), (5, 3), (1, 2)},
        {(2, 6), (3, 1), (4, 5)},
        {(6, 5), (1, 4), (2, 3)},
        {(3, 6), (4, 2), (5, 1)},
    ]
    assert [{(a + 1, b + 1) for a, b in table} for table in berger(6)] == fide


@pytest.mark.parametrize("n", range(3, 9))
def test_berger_tables_pair_everyone_once_with_first_moves_balanced(n):
    tables = berger(n)
    assert len(tables) == n - 1 + n % 2
    met = []
    for table in tables:
        seen = [p for pair in table for p in pair if p is not None]
        assert sorted(seen) == list(range(n))  # everyone once a round (one bye when n is odd)
        met += [frozenset(p) for p in table if None not in p]
    assert sorted(met, key=sorted) == sorted(
        map(frozenset, itertools.combinations(range(n), 2)), key=sorted
    )
    firsts = [sum(a == p for table in tables for a, b in table if b is not None) for p in range(n)]
    played = n - 1
    assert all(abs(2 * f - played) <= 1 for f in firsts), firsts


def test_a_double_round_robin_swaps_the_first_move():
    rounds = round_robin(["a", "b", "c", "d"], double=True)
    assert len(rounds) == 6
    assert rounds[3][0] == [(b, a) for a, b in rounds[0][0]]


def _play_swiss(n: int, rounds: int, winner_of) -> list:
    """Pair `rounds` rounds of `n` players, `winner_of(first, second)` deciding each game."""
    state = {
        str(i): dict(rank=i, halves=0, met=set(), firsts=0, seconds=0, had_bye=False)
        for i in range(n)
    }
    played = []
    for r in range(1, rounds + 1):
        entrants = [
            Entrant(
                p,
                s["rank"],
                s["halves"],
                frozenset(s["met"]),
                s["firsts"],
                s["seconds"],
                s["had_bye"],
            )
            for p, s in state.items()
        ]
        before = {p: s["halves"] for p, s in state.items()}
        pairs, byes = swiss_round(entrants, r)
        played.append((pairs, byes, before))
        for bye in byes:
            state[bye]["halves"] += 2
            state[bye]["had_bye"] = True
        for a, b in pairs:
            state[a]["met"].add(b), state[b]["met"].add(a)
            state[a]["firsts"] += 1
            state[b]["seconds"] += 1
            w = winner_of(a, b)
            state[a]["halves"] += 1 if w is None else 2 * (w == 0)
            state[b]["halves"] += 1 if w is None else 2 * (w == 1)
    return played, state


def test_swiss_round_one_is_seeded_top_half_against_bottom_half():
    pairs, byes = swiss_round([Entrant(str(i), i) for i in range(6)], 1)
    assert pairs == [("0", "3"), ("4", "1"), ("2", "5")] and byes == []


def test_swiss_score_groups_top_half_against_bottom_half():
    # after one round: 0, 1, 2, 3 won (4 points... in halves: 2), 4..7 lost
    entrants = [
        Entrant(str(i), i, 2 if i < 4 else 0, frozenset({str(i + 4 if i < 4 else i - 4)}))
        for i in range(8)
    ]
    pairs, byes = swiss_round(entrants, 2)
    assert {frozenset(p) for p in pairs} == {
        frozenset(p) for p in [("0", "2"), ("1", "3"), ("4", "6"), ("5", "7")]
    }
    assert byes == []


def test_swiss_never_repeats_byes_go_to_distinct_players_first_moves_balanced():
    higher_wins = lambda a, b: 0 if int(a) < int(b) else 1  # noqa: E731
    played, state = _play_swiss(7, 5, higher_wins)
    pairs_seen = [frozenset(p) for pairs, _, _ in played for p in pairs]
    assert len(pairs_seen) == len(set(pairs_seen))
    byes = [b for _, round_byes, _ in played for b in round_byes]
    assert len(byes) == 5 and len(set(byes)) == 5
    assert all(abs(s["firsts"] - s["seconds"]) <= 1 for s in state.values()), state
    # each round, a pair's scores differ only where the score group had an odd number
    for pairs, _, before in played[1:]:
        assert sum(before[a] != before[b] for a, b in pairs) <= 2


def test_swiss_bye_goes_to_the_lowest_ranked_without_one():
    entrants = [Entrant("a", 0, 2), Entrant("b", 1, 2), Entrant("c", 2, 0, had_bye=True)]
    pairs, byes = swiss_round(entrants, 2)
    assert byes == ["b"] and {frozenset(p) for p in pairs} == {frozenset(("a", "c"))}


def test_swiss_pairings_are_deterministic():
    a = _play_swiss(6, 3, lambda a, b: None)[0]
    b = _play_swiss(6, 3, lambda a, b: None)[0]
    assert a == b


def test_knockout_seeding_and_byes():
    assert bracket(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    matches, byes = knockout_first_round(list("abcdef"))  # seeds 1..6 in a bracket of 8
    assert matches == [("a", None), ("d", "e"), ("b", None), ("c", "f")]
    assert byes == ["a", "b"]
    assert knockout_next_round(["a", "d", "b", "c"]) == [("a", "d"), ("b", "c")]
    full, none = knockout_first_round(list("abcd"))
    assert full == [("a", "d"), ("b", "c")] and none == []


# a worked example: a round-robin of four
#   a beat b, a drew c, a lost to d; b beat c, b beat d; c drew d
GAMES = [
    Played("a", "b", 0),
    Played("c", "a", None),
    Played("d", "a", 0),
    Played("b", "c", 0),
    Played("d", "b", 1),
    Played("c", "d", None),
]
PLAYERS = ["a", "b", "c", "d"]


def test_sonneborn_berger_on_a_worked_example():
    halves = scores(PLAYERS, GAMES, [])
    assert halves == {"a": 3, "b": 4, "c": 2, "d": 3}  # 1.5, 2, 1, 1.5
    # a: beat b (2) + half of c (1) = 2.5; b: beat c (1) and d (1.5) = 2.5; d: a + half of c
    assert sonneborn_berger(PLAYERS, GAMES, halves) == {"a": 2.5, "b": 2.5, "c": 1.5, "d": 2.0}


def test_buchholz_cut_one_on_a_worked_example():
    halves = scores(PLAYERS, GAMES, [])
    # a met b (2), c (1), d (1.5): 4.5 less the lowest, 1
    assert buchholz_cut1(PLAYERS, GAMES, halves) == {"a": 3.5, "b": 3.0, "c": 3.5, "d": 3.5}


def test_direct_encounter_and_wins_break_what_is_left():
    # a and d are equal on score; d beat a
    assert direct_encounter(["a", "d"], GAMES) == {"a": 0.0, "d": 1.0}
    table = standings(PLAYERS, GAMES, [], "round-robin")
    assert [(r["player"], r["rank"]) for r in table] == [("b", 1), ("a", 2), ("d", 3), ("c", 4)]
    # c and d each beat a player with no point: equal on every tiebreak
    even = [Played("a", "d", 1), Played("b", "c", 1)]
    rows = standings(PLAYERS, even, [], "round-robin")
    assert {r["player"] for r in rows[:2]} == {"c", "d"}
    assert rows[0]["tiebreaks"] == {"sonneborn_berger": 0.0, "direct_encounter": 0.0, "wins": 1}
    assert rows[0]["rank"] == rows[1]["rank"] == 1  # equal on everything: shared


def test_swiss_ties_by_buchholz_then_sonneborn_berger():
    table = standings(PLAYERS, GAMES, [], "swiss")
    assert [(r["player"], r["rank"]) for r in table] == [("b", 1), ("a", 2), ("d", 3), ("c", 4)]
    assert table[1]["tiebreaks"] == {"buchholz_cut1": 3.5, "sonneborn_berger": 2.5, "wins": 1}
