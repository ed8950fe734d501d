"""Partition: one test per rule and ruling (RULES.md §2), then properties checked over seeded
random games (the playouts every game gets are tests/unit/test_conformance.py's)."""

from __future__ import annotations

import dataclasses
import doctest
import json
import random

import pytest

import api.games.partition as partition_module
from api.games.base import BadOption, IllegalMove, MalformedMove, Outcome
from api.games.partition import (
    ALL_HEXES,
    COLOURS,
    EDGES,
    NEIGHBOURS,
    Claim,
    Partition,
    PartitionState,
    Stick,
    Subdivide,
    flood,
    hexes_of,
    links_after,
    region_edges,
)
from tests.browser.drawn import Board

COLUMNS = list(COLOURS) * 6  # hex h holds COLOURS[h % 6]: red in column 0, orange in 1, ...
ROW_2_TO_3 = [(a, b) for a, b in EDGES if a // 6 == 2 and b // 6 == 3]  # cuts the board in halves


def mask(*hexes: int) -> int:
    return sum(1 << h for h in hexes)


def position(sticks, open_at: int | None, layout=COLUMNS, **fields) -> PartitionState:
    """A position with these sticks: the region holding `open_at` is open, every other closed."""
    links = links_after(sticks)
    regions, left = [], ALL_HEXES
    while left:
        region = flood((left & -left).bit_length() - 1, links)
        regions.append(region)
        left &= ~region
    open_region = flood(open_at, links) if open_at is not None else 0
    state = PartitionState(
        colours=tuple(None if c is None else COLOURS.index(c) for c in layout),
        links=links,
        open=open_region,
        closed=tuple(r for r in regions if r != open_region),
        claimed=((), ()),
        subdivisions_left=(2, 2),
        actions_left=3,
        turn=0,
        points=(0, 0),
        singleton_rule=True,
    )
    return dataclasses.replace(state, **fields)


def around(*hexes: int) -> list[tuple[int, int]]:
    """The sticks that cut these hexes off from the rest of the board."""
    inside = set(hexes)
    return [(a, b) for a, b in EDGES if (a in inside) != (b in inside)]


def fresh(**options) -> PartitionState:
    return Partition.new(Partition.check_options(options), first=0, seed=7)


# --- board and discs ---


def test_board_has_36_hexes_85_edges_and_odd_r_neighbours():
    assert len(EDGES) == 85 and all(a < b for a, b in EDGES)
    assert NEIGHBOURS[0] == (1, 6)  # even row 0: (1, -1) is off the board
    assert NEIGHBOURS[8] == (2, 3, 7, 9, 14, 15)  # odd row 1: above and below are c and c + 1
    assert NEIGHBOURS[14] == (7, 8, 13, 15, 19, 20)  # even row 2: above and below are c - 1 and c
    assert NEIGHBOURS[35] == (29, 34)


def test_discs_are_six_of_each_colour_shuffled_from_the_seed():
    a, b = fresh(), Partition.new(Partition.check_options({}), first=0, seed=8)
    colours = a.to_dict()["colours"]
    assert sorted(colours) == sorted(COLOURS * 6)
    assert colours == fresh().to_dict()["colours"] and colours != b.to_dict()["colours"]


def test_layout_option_places_the_discs_and_is_checked():
    assert fresh(layout=COLUMNS).to_dict()["colours"] == COLUMNS
    with pytest.raises(BadOption):
        Partition.check_options({"layout": ["red"] * 36})
    with pytest.raises(BadOption):
        Partition.check_options({"layout": COLUMNS[:35]})


def test_start_is_one_open_region_with_the_first_seat_to_move():
    state = Partition.new(Partition.check_options({}), first=1, seed=0)
    data = state.to_dict()
    assert data["regions"] == [{"hexes": list(range(36)), "closed": False}]
    assert (state.to_move, data["actions_left"], data["subdivisions_left"]) == (1, 3, [2, 2])
    assert data["claimed"] == [[], []] and data["points"] == [0, 0] and data["sticks"] == []


# --- turns ---


def test_a_turn_is_three_actions_and_the_same_action_may_repeat():
    state = fresh()
    for edge, seat in (((0, 6), 0), ((14, 15), 0), ((20, 21), 0), ((27, 28), 1)):
        assert state.to_move == seat
        state = state.apply(Stick(edge))
    assert (state.to_move, state.actions_left) == (1, 2)


# --- sticks ---


def test_a_stick_needs_a_free_edge_of_the_open_region():
    state = position(around(0, 1, 2), open_at=3)
    with pytest.raises(IllegalMove, match="no edge between A1 and A3"):
        state.apply(Stick((0, 2)))
    with pytest.raises(IllegalMove, match="edge between A3 and A4 already has a stick"):
        state.apply(Stick((2, 3)))
    with pytest.raises(IllegalMove, match="not in the open region"):
        state.apply(Stick((0, 1)))


def test_the_smaller_part_closes():
    state = position(around(0, 1, 2)[:-1], open_at=20)
    missing = around(0, 1, 2)[-1]
    after = state.apply(Stick(missing))
    assert after.closed_regions() == [[0, 1, 2]] and after.open_size == 33


def test_an_equal_split_that_is_not_final_needs_close():
    state = position(ROW_2_TO_3[:-1], open_at=0)
    with pytest.raises(IllegalMove, match="name a hex of the part to close"):
        state.apply(Stick(ROW_2_TO_3[-1]))
    with pytest.raises(IllegalMove, match="neither part"):
        state.apply(Stick(ROW_2_TO_3[-1], close=40))
    after = state.apply(Stick(ROW_2_TO_3[-1], close=30))
    assert after.closed_regions() == [list(range(18, 36))] and after.open_size == 18
    listed = [m for m in state.legal_moves() if m.edge == ROW_2_TO_3[-1]]
    assert listed == [Stick(ROW_2_TO_3[-1], 0), Stick(ROW_2_TO_3[-1], 18)]


def test_the_facts_give_each_equal_split_its_sides_as_close_names_them():
    state = position(ROW_2_TO_3[:-1], open_at=0)
    assert state.facts()["equal_splits"] == [
        {
            "edge": list(ROW_2_TO_3[-1]),
            "sides": [
                {"close": 0, "hexes": list(range(18))},
                {"close": 18, "hexes": list(range(18, 36))},
            ],
        }
    ]
    assert position(ROW_2_TO_3[:-1], open_at=0, singleton_rule=False).facts()["equal_splits"]
    assert fresh().facts()["equal_splits"] == []


def test_close_is_rejected_where_there_is_no_choice():
    with pytest.raises(IllegalMove, match="leave out 'close'"):
        fresh().apply(Stick((14, 15), close=14))
    state = position(around(0, 1, 2)[:-1], open_at=20)
    with pytest.raises(IllegalMove, match="leave out 'close'"):
        state.apply(Stick(around(0, 1, 2)[-1], close=0))


def test_the_final_split_closes_both_parts_and_scores_both_closing_points():
    # open: {0, 1, 2, 6, 7} and {3, 4, 5, 8, 9}, joined only through 2-3, 2-8, 7-8
    rest = around(*range(10))
    state = position(rest + [(2, 3), (2, 8)], open_at=0, actions_left=2)
    after = state.apply(Stick((7, 8)))
    assert after.is_over() and after.to_move is None and after.actions_left == 1  # mid-turn
    assert [0, 1, 2, 6, 7] in after.closed_regions() and [3, 4, 5, 8, 9] in after.closed_regions()
    assert after.points == (2, 0)
    on_third = dataclasses.replace(state, actions_left=1).apply(Stick((7, 8)))
    assert on_third.to_dict()["turn"] == 0 and on_third.actions_left == 0


def test_a_six_six_split_is_not_final():
    # open: rows 0 and 1; {0, 1, 2, 6, 7, 8} meets {3, 4, 5, 9, 10, 11} at 2-3, 3-8, 8-9
    state = position(around(*range(12)) + [(2, 3), (3, 8)], open_at=0)
    after = state.apply(Stick((8, 9), close=0))
    assert not after.is_over() and after.open_size == 6
    assert after.closed_regions()[0] == [0, 1, 2, 6, 7, 8]


# --- singleton restriction ---

PATH_OF_FIVE = around(0, 1, 2, 3, 4) + [(0, 6)]  # 0-1-2-3-4 along the top row, a path


def test_singleton_closure_rejected_while_another_stick_avoids_one():
    state = position(PATH_OF_FIVE, open_at=0)
    with pytest.raises(IllegalMove, match="one-hex region"):
        state.apply(Stick((0, 1)))
    assert Stick((0, 1)) not in state.legal_moves()
    assert state.apply(Stick((1, 2))).closed_regions()[0] == [0, 1]


def test_singleton_closure_allowed_when_every_stick_would_close_one():
    state = position(around(0, 1, 2), open_at=0)  # the path 0-1-2
    assert set(state.legal_moves()) >= {Stick((0, 1)), Stick((1, 2))}
    assert state.apply(Stick((0, 1))).closed_regions()[0] == [0]


def test_the_final_one_one_split_is_always_legal():
    state = position(around(0, 1), open_at=0)
    assert state.apply(Stick((0, 1))).is_over()


def test_singleton_rule_off_allows_singleton_closures():
    state = position(PATH_OF_FIVE, open_at=0, singleton_rule=False)
    assert state.apply(Stick((0, 1))).closed_regions()[0] == [0]


# --- claims ---


def test_claim_takes_a_disc_from_a_closed_region():
    state = position(around(0, 1, 2), open_at=3).apply(Claim(1))
    data = state.to_dict()
    assert data["colours"][1] is None and data["claimed"] == [["orange"], []]
    assert data["claims_left"] == [1, 2]
    with pytest.raises(IllegalMove, match="already been claimed"):
        state.apply(Claim(1))


def test_claim_on_an_open_hex_rejected():
    with pytest.raises(IllegalMove, match="open region"):
        position(around(0, 1, 2), open_at=3).apply(Claim(3))


def test_a_third_claim_rejected():
    state = position(around(0, 1, 2, 3), open_at=4).apply(Claim(0)).apply(Claim(1))
    with pytest.raises(IllegalMove, match="already claimed 2 colours"):
        state.apply(Claim(2))


def test_a_claimed_colour_is_unavailable_to_the_other_seat_and_not_claimed_twice():
    state = position(around(0, 1, 6, 7), open_at=2, actions_left=1).apply(Claim(0))  # red
    assert state.to_move == 1
    with pytest.raises(IllegalMove, match="Red belongs to the other player"):
        state.apply(Claim(6))
    assert Claim(6) not in state.legal_moves() and Claim(7) in state.legal_moves()
    mine = dataclasses.replace(state, turn=0)
    with pytest.raises(IllegalMove, match="Red is already yours"):
        mine.apply(Claim(6))


# --- subdivision ---


def test_subdivision_splits_a_closed_region_without_a_closing_point():
    state = position(around(0, 1, 2, 3), open_at=4).apply(Subdivide((2, 3)))
    state = state.apply(Subdivide((0, 1)))  # a singleton is fine here
    assert state.closed_regions()[:3] == [[0], [1, 2], [3]]
    assert state.points == (0, 0) and state.to_dict()["subdivisions_left"] == [0, 2]
    with pytest.raises(IllegalMove, match="both your subdivisions"):
        state.apply(Subdivide((1, 2)))


def test_subdivision_that_does_not_split_rejected():
    with pytest.raises(IllegalMove, match="must split"):
        position(around(0, 1, 6), open_at=3).apply(Subdivide((0, 1)))


def test_subdivision_outside_a_closed_region_rejected():
    with pytest.raises(IllegalMove, match="not inside a closed region"):
        position(around(0, 1, 6), open_at=3).apply(Subdivide((3, 4)))


# --- closing point ---


def test_closing_point_needs_three_colours_counting_discs_under_cubes():
    sticks = around(0, 1, 2)
    red_claimed = position(sticks[:-1], open_at=0, claimed=((0,), ()))
    assert red_claimed.apply(Stick(sticks[-1])).points == (1, 0)
    layout = [None] + COLUMNS[1:]  # hex 0's disc has been claimed: orange and yellow remain
    layout[6] = "red"
    taken = position(sticks[:-1], open_at=0, layout=layout, claimed=((0,), ()))
    assert taken.apply(Stick(sticks[-1])).points == (0, 0)


def test_closing_two_colours_scores_nothing():
    sticks = around(0, 1)
    assert position(sticks[:-1], open_at=0).apply(Stick(sticks[-1])).points == (0, 0)


# --- final scoring ---


def test_region_points_go_to_the_majority_of_claimed_discs_and_ties_to_nobody():
    # closed: {0} red, {1, 2} orange + yellow, {3, 4, 5} green blue purple; open: the rest
    sticks = around(0) + around(1, 2) + around(3, 4, 5)
    state = position(sticks, open_at=6, claimed=((0, 1), (2, 4)), points=(1, 1))
    owners = [state.region_owner(r) for r in state.closed[:3]]
    assert owners == [0, None, 1]  # one-hex red region scores; orange-yellow ties; blue wins


def test_totals_decide_the_winner_and_equal_totals_draw():
    ended = position(around(0) + around(1, 2), open_at=None, claimed=((0,), (1,)), points=(1, 2))
    # regions {0} (red: seat 0), {1, 2} (orange 1 vs yellow 0: seat 1), the rest (6 red vs 5)
    assert ended.outcome() == Outcome(1, "score", [2, 3])
    level = dataclasses.replace(ended, points=(2, 2))
    assert level.outcome() == Outcome(None, "score", [3, 3])


def test_the_facts_give_each_closed_region_its_owner_and_each_seat_its_total():
    state = position(around(0) + around(1, 2), open_at=20, claimed=((0,), (1,)), points=(1, 0))
    facts = state.facts()
    # {0} red: seat 0's; {1, 2} orange against yellow: seat 1's
    assert facts["closed_regions"] == [{"hexes": [0], "owner": 0}, {"hexes": [1, 2], "owner": 1}]
    assert facts["regions_held"] == [1, 1] and facts["totals"] == [2, 1] == state.totals()
    assert state.view() == {**state.to_dict(), **facts}
    assert PartitionState.from_dict(state.view()) == state  # the facts are never read back


# --- moves on the wire ---


def test_parse_move_reads_each_action_and_normalises_the_edge():
    assert Partition.parse_move({"type": "stick", "edge": [7, 1]}) == Stick((1, 7))
    assert Partition.parse_move({"type": "stick", "edge": [1, 7], "close": 1}) == Stick((1, 7), 1)
    assert Partition.parse_move({"type": "claim", "hex": 4}) == Claim(4)
    assert Partition.parse_move({"type": "subdivide", "edge": [1, 7]}) == Subdivide((1, 7))
    for bad, field in (
        ({"type": "stick"}, "move.edge"),
        ({"type": "claim", "hex": "4"}, "move.hex"),
        ({"type": "stick", "edge": [1, 7], "close": "a"}, "move.close"),
        ({"type": "cut", "edge": [1, 7]}, "move.type"),
    ):
        with pytest.raises(MalformedMove) as err:
            Partition.parse_move(bad)
        assert err.value.field == field
    for move in (Stick((1, 7), 1), Claim(4), Subdivide((1, 7))):
        assert Partition.parse_move(move.to_dict()) == move


def test_state_has_the_api_fields():
    data = fresh().apply(Stick((0, 6))).to_dict()
    assert {
        "rows",
        "cols",
        "colours",
        "sticks",
        "regions",
        "claimed",
        "subdivisions_left",
        "actions_left",
        "points",
    } <= set(data)
    assert data["sticks"] == [[0, 6]] and (data["rows"], data["cols"]) == (6, 6)


def test_region_edges_match_a_flood_fill_per_edge():
    rng = random.Random(4)
    state = Partition.new(Partition.check_options({}), first=0, seed=4)
    while not state.is_over():
        for region in (state.open,) + state.closed:
            whole, bridges = [], {}
            for a, b in EDGES:
                if region >> a & 1 and region >> b & 1 and state.links[a] >> b & 1:
                    part = flood(b, links_after(state.to_dict()["sticks"] + [[a, b]]))
                    if part >> a & 1:
                        whole.append((a, b))
                    else:
                        lowest = (region & -region).bit_length() - 1
                        bridges[(a, b)] = region ^ part if part >> lowest & 1 else part
            found = region_edges(region, state.links)
            assert sorted(found.whole) == whole and found.bridges == bridges
        state = state.apply(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("seed", range(3))
def test_each_applied_state_has_its_own_edges_sorted_regions_and_closing_points(seed):
    # `apply` copies the fields of the state before, not the properties cached on it, and
    # inserts new closed regions in place rather than sorting them all again
    rng = random.Random(seed)
    state = Partition.new(Partition.check_options({}), first=0, seed=seed)
    while not state.is_over():
        before = state.open_edges  # cached on `state` before its successor is made
        state = state.apply(rng.choice(state.legal_moves()))
        assert set(vars(state)) - {"open_edges", "_only_singleton_sticks"} == {
            field.name for field in dataclasses.fields(PartitionState)
        }
        if state.open:
            assert state.open_edges == region_edges(state.open, state.links)
            assert state.open_edges is not before
        assert list(state.closed) == sorted(state.closed, key=lambda r: min(hexes_of(r)))
        for region in state.closed:
            colours = {state.colours[h] for h in hexes_of(region)} - {None}
            assert state.closing_point(region) == (len(colours) >= 3)


def all_candidate_moves():
    for edge in EDGES:
        yield Stick(edge)
        yield Subdivide(edge)
        yield from (Stick(edge, h) for h in range(36))
    yield from (Claim(h) for h in range(36))


@pytest.mark.parametrize("seed", range(2))
def test_legal_moves_are_exactly_the_moves_apply_accepts(seed):
    rng = random.Random(seed)
    state = Partition.new(Partition.check_options({}), first=0, seed=seed)
    while not state.is_over():
        accepted = set()
        for move in all_candidate_moves():
            try:
                accepted.add(json.dumps(state.apply(move).to_dict()))
            except IllegalMove:
                pass
        moves = state.legal_moves()
        assert accepted == {json.dumps(state.apply(m).to_dict()) for m in moves}
        state = state.apply(rng.choice(moves))


def test_the_module_examples_hold():
    results = doctest.testmod(partition_module)
    assert results.attempted > 0 and results.failed == 0


# a valid layout other than the default, for the test that sweeps every option (test_sweeps.py)
JSON_OPTION_VALUES = {
    "layout": [c for c in ("red", "orange", "yellow", "green", "blue", "purple") for _ in range(6)]
}

# ---------------------------------------------------------------- the board
# Partition's board as the browser tests over every game drive it (tests/browser/drawn.py's
# `Board`): what it draws read back from the page, the same worked out from a server state, a legal
# move picked on the page, and options that keep a bot game short. Its moves made by hand are tested
# in test_web_client.py.


def drawn_for(state: dict) -> dict:
    return {
        "colours": state["colours"],
        "closed": sorted(
            x for region in state["regions"] if region["closed"] for x in region["hexes"]
        ),
        "sticks": sorted("-".join(map(str, sorted(edge))) for edge in state["sticks"]),
        "seats": [[state["subdivisions_left"][seat], state["points"][seat]] for seat in (0, 1)],
    }


def pick_on_page(page, move: dict) -> None:
    page.click(f"[data-edge='{'-'.join(map(str, sorted(move['edge'])))}']")


BOARD = Board(
    read="""() => ({
        colours: [...document.querySelectorAll(".pt [data-hex]")]
            .map((hex) => hex.dataset.colour ?? null),
        closed: [...document.querySelectorAll(".pt [data-hex][data-closed]")]
            .map((hex) => Number(hex.dataset.hex)),
        sticks: [...document.querySelectorAll(".pt [data-stick]")]
            .map((line) => line.dataset.stick).sort(),
        seats: [...document.querySelectorAll(".pt .panel[data-seat]")].map((panel) =>
            [...panel.querySelectorAll(".stats b")].slice(0, 2).map((b) => Number(b.textContent))),
    })""",
    expected=drawn_for,
    pick=pick_on_page,
)
