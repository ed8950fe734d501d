"""Ploid rules, one test per rule and ruling (../../seeds/ploid.md), and the solver (the random
playouts every game gets are tests/unit/test_conformance.py's)."""

from __future__ import annotations

import random

import pytest

from api.bots.ploid_solver import Solver, board_symmetries, solve_start
from api.bots.search import step
from api.games.base import BadOption, IllegalMove, MalformedMove, Pass
from api.games.grid import flood_fill
from api.games.ploid import BLANK, Place, Ploid, PloidState, groups, owner, placements
from tests.browser.drawn import Board

# The seed's example, White to move: White must pass, Black's blank at [1, 5] is its last
# placement, and Black wins 13 to 12.
SEED_EXAMPLE = """
W4 Wb Bb Bb B5 Bb
Wb .  Wb W3 Wb .
Bb Bb .  .  B1 Wb
B4 .  Bb W2 .  W5
Bb W1 B2 Wb B3 Wb
"""


def position(picture: str, mover: int = 0, last_number: int | None = None) -> PloidState:
    """A state from a picture: `.` empty, `W3`/`B3` a number, `Wb`/`Bb` a blank; n = rows."""
    rows = [line.split() for line in picture.strip().splitlines()]
    board = []
    for token in (t for row in rows for t in row):
        if token == ".":
            board.append(0)
        else:
            value = BLANK if token[1] == "b" else int(token[1:])
            board.append(value if token[0] == "W" else -value)
    assert all(len(row) == len(rows) + 1 for row in rows)
    return PloidState(len(rows), tuple(board), mover, last_number)


def start(n: int = 5, first: int = 0) -> PloidState:
    return Ploid.new(Ploid.check_options({"n": n}), first=first, seed=0)


# Board and pieces


def test_start_position_board_and_hands():
    state = start(5, first=1)
    data = state.to_dict()
    assert (data["rows"], data["cols"]) == (5, 6)
    assert all(cell is None for row in data["board"] for cell in row)
    assert data["hands"] == [{"numbers": [1, 2, 3, 4, 5], "blanks": 10}] * 2
    assert data["placed"] == [0, 0] and state.to_move == 1 and data["last_number"] is None


@pytest.mark.parametrize("n", [1, 9])
def test_board_size_option_is_limited(n):
    with pytest.raises(BadOption):
        Ploid.check_options({"n": n})


def test_default_board_is_five_by_six():
    assert Ploid.check_options({}) == {"n": 5}


# Numbers before blanks


def test_blank_is_refused_while_numbers_remain():
    state = position("W1 . .\n. . .")
    with pytest.raises(IllegalMove, match="numbered pieces before any blank"):
        state.apply(Place(0, 1, "blank"))
    assert {m.piece for m in state.legal_moves()} == {2}


def test_blanks_follow_once_the_numbers_are_placed():
    state = position("W2 . .\nB1 . W1")
    assert state.legal_moves() == [Place(0, 1, "blank")]


# The same-number ban and its exception


def test_number_just_placed_by_the_opponent_is_banned():
    state = position("W2 . . .\n. . . .\n. . . .", mover=1, last_number=2)
    with pytest.raises(IllegalMove, match="may not place the 2"):
        state.apply(Place(2, 3, 2))
    assert {m.piece for m in state.legal_moves()} == {1, 3}


def test_banned_number_is_allowed_when_nothing_else_can_be_placed():
    # Black holds only its 2, which White has just placed.
    state = position("W1 . W2\nB1 . .", mover=1, last_number=2)
    assert {m.piece for m in state.legal_moves()} == {2}
    assert state.apply(Place(1, 2, 2)).to_dict()["hands"][1]["numbers"] == []


def test_ban_lapses_after_a_blank_or_a_pass():
    state = position("W2 . .\nB1 . W1", mover=0, last_number=1)
    after_blank = state.apply(Place(0, 1, "blank"))
    assert after_blank.last_number is None


# The group rule


def test_group_may_not_outgrow_its_number():
    state = position("W3 W2 . .\n. . . .\n. . . .")
    with pytest.raises(IllegalMove, match="group of 3 pieces whose smallest number is 1"):
        state.apply(Place(0, 2, 1))


def test_merging_two_groups_counts_both():
    state = position("W3 . W5 . . .\n" + "\n".join([". . . . . ."] * 4))
    assert state.apply(Place(0, 1, 4)).to_dict()["placed"] == [3, 0]
    with pytest.raises(IllegalMove, match="group of 3 pieces whose smallest number is 2"):
        state.apply(Place(0, 1, 2))


def test_merge_too_big_for_the_smaller_number():
    state = position("W3 Wb . W4 . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .")
    with pytest.raises(IllegalMove, match="group of 4 pieces whose smallest number is 3"):
        state.apply(Place(0, 2, 5))


def test_group_with_two_numbers_is_limited_by_the_smaller():
    state = position("W2 W4 . . .\n" + "\n".join([". . . . ."] * 3))
    assert state.apply(Place(2, 3, 1)).to_dict()["placed"] == [3, 0]
    with pytest.raises(IllegalMove, match="group of 3 pieces whose smallest number is 2"):
        state.apply(Place(0, 2, 3))


def test_groups_of_the_other_colour_do_not_count():
    state = position("W2 B3 . .\n. . . .\n. . . .", mover=1)
    assert state.apply(Place(1, 1, 2)).board[5] == -2  # touches White's 2, joins Black's 3


# Ruling: a group must hold a number


def test_blank_standing_alone_is_illegal():
    state = position("W2 . W1\n. . .")
    with pytest.raises(IllegalMove, match="must join a group of yours that holds a number"):
        state.apply(Place(1, 1, "blank"))


def test_blank_beside_only_opponent_pieces_is_illegal():
    state = position("W2 . W1\nB1 . .")
    with pytest.raises(IllegalMove, match="must join a group of yours"):
        state.apply(Place(1, 1, "blank"))
    assert state.legal_moves() == []  # every other cell would overfill the 1 or the 2


# Taken cells and hands


def test_taken_cell_off_board_and_missing_piece_are_refused():
    state = position("W1 . .\n. . .")
    with pytest.raises(IllegalMove, match=r"Cell \[0, 0\] is taken"):
        state.apply(Place(0, 0, 2))
    with pytest.raises(IllegalMove, match=r"Cell \[2, 0\] is not on the 2 x 3 board"):
        state.apply(Place(2, 0, 2))
    with pytest.raises(IllegalMove, match="no 1 left"):
        state.apply(Place(1, 2, 1))


# Passing, the end, and the score


def test_seat_without_a_placement_passes_automatically():
    state = position(SEED_EXAMPLE, mover=0)
    assert not state.is_over() and state.to_move == 0
    assert state.legal_moves() == [] and state.forced_move() == Pass()
    after = state.apply(Pass())
    assert after.mover == 1 and after.last_number is None
    assert after.legal_moves() == [Place(1, 5, "blank")]


def test_pass_is_refused_while_a_placement_exists():
    with pytest.raises(IllegalMove, match="may not pass"):
        start().apply(Pass())


def test_seed_example_ends_with_black_ahead_13_to_12():
    final = step(position(SEED_EXAMPLE, mover=0).apply(Pass()), Place(1, 5, "blank"))
    outcome = final.outcome()
    assert (outcome.winner, outcome.reason, outcome.scores) == (1, "score", [12, 13])
    assert final.to_move is None and final.legal_moves() == []


def test_equal_counts_are_a_draw():
    state = position("W1 B2 Bb\nB1 W2 Wb")
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and outcome.scores == [3, 3]


def test_moves_after_the_end_are_refused():
    state = position("W1 B2 Bb\nB1 W2 Wb")
    with pytest.raises(IllegalMove, match="over"):
        state.apply(Pass())


# Moves as JSON


def test_parse_move_reads_places_and_passes():
    assert Ploid.parse_move({"type": "place", "row": 1, "col": 2, "piece": 3}) == Place(1, 2, 3)
    assert Ploid.parse_move({"type": "place", "row": 0, "col": 0, "piece": "blank"}) == Place(
        0, 0, "blank"
    )
    assert Ploid.parse_move({"type": "pass"}) == Pass()
    assert Place(1, 2, "blank").to_dict() == {"type": "place", "row": 1, "col": 2, "piece": "blank"}


@pytest.mark.parametrize(
    "data, field",
    [
        ({"type": "place", "row": 1, "col": 2, "piece": 0}, "move.piece"),
        ({"type": "place", "row": 1, "col": 2, "piece": True}, "move.piece"),
        ({"type": "place", "row": 1, "col": 2}, "move.piece"),
        ({"type": "place", "row": "1", "col": 2, "piece": 1}, "move.row"),
        ({"type": "drop", "row": 1, "col": 2, "piece": 1}, "move.type"),
    ],
)
def test_parse_move_names_the_bad_field(data, field):
    with pytest.raises(MalformedMove) as err:
        Ploid.parse_move(data)
    assert err.value.field == field


def test_groups_are_the_connected_pieces_of_one_colour():
    # against a flood fill over (row, col) cells, on every position of random playouts
    rng = random.Random(3)
    for n in (3, 5):
        state = start(n)
        while not state.is_over():
            for seat in (0, 1):
                label, sizes, limits = groups(state.board, n, seat)
                mine = lambda rc: owner(state.board[rc[0] * (n + 1) + rc[1]]) == seat
                for index, g in label.items():
                    cells = flood_fill((index // (n + 1), index % (n + 1)), n, n + 1, mine)
                    assert sizes[g] == len(cells)
                    assert limits[g] == min(abs(state.board[r * (n + 1) + c]) for r, c in cells)
                assert len(label) == state.placed(seat)
            state = state.apply(state.forced_move() or rng.choice(state.legal_moves()))


def test_the_facts_list_every_group_with_its_cells_size_and_limit():
    state = position("""
    W3 W2 .  B1
    Wb .  .  .
    .  .  B2 Bb
    """)
    assert state.facts()["groups"] == [
        {"seat": 0, "cells": [[0, 0], [0, 1], [1, 0]], "size": 3, "limit": 2},
        {"seat": 1, "cells": [[0, 3]], "size": 1, "limit": 1},
        {"seat": 1, "cells": [[2, 2], [2, 3]], "size": 2, "limit": 2},
    ]
    assert PloidState.from_dict(state.view()) == state


# The solver


def brute_force(state: PloidState) -> int:
    """The mover's final margin by plain minimax over every move: no table, no pruning."""
    if state.is_over():
        scores = state.outcome().scores
        return scores[state.mover] - scores[1 - state.mover]
    forced = state.forced_move()
    if forced is not None:
        return -brute_force(state.apply(forced))
    return max(-brute_force(state.apply(move)) for move in state.legal_moves())


def test_solver_agrees_with_brute_force_on_n2():
    solver = Solver(2)
    rng = random.Random(2)
    checked = 0
    for game in range(10):
        state = start(2, first=game % 2)
        while not state.is_over():
            if state.forced_move() is None:
                assert solver.value(state) == brute_force(state)
                checked += 1
            state = step(state, rng.choice(state.legal_moves()))
    assert checked > 30
    assert brute_force(start(2)) == 0


@pytest.mark.parametrize("n", (3, 5, 6))
def test_solver_masks_give_the_engines_placements(n):
    # the solver keeps each side as group masks updated placement by placement: after every
    # placement of random games its sides and moves must be the engine's, for both seats
    solver, rng = Solver(n), random.Random(n)
    checked = 0
    for game in range(6):
        state = start(n, first=game % 2)
        sides = solver.sides(state.board)
        while not state.is_over():
            for kept, fresh in zip(sides, solver.sides(state.board)):  # (groups in any order)
                assert (sorted(kept[0]), kept[1:]) == (sorted(fresh[0]), fresh[1:])
            empty = solver.full & ~(sides[0][3] | sides[1][3])
            for seat in (0, 1):
                assert sorted(solver.placements(sides[seat], empty)) == sorted(
                    placements(state.board, n, seat)
                )
                checked += 1
            move = state.forced_move() or rng.choice(state.legal_moves())
            if isinstance(move, Place):
                index, value = (
                    move.row * state.cols + move.col,
                    BLANK if move.piece == "blank" else move.piece,
                )
                sides = list(sides)
                sides[state.mover] = solver.placed_side(sides[state.mover], index, value)
                sides = tuple(sides)
            state = state.apply(move)
    assert checked > 100


def test_solver_values_agree_with_brute_force_on_n3_with_and_without_mirrors():
    # the table's key keeps only what decides the rest of the game (and, with mirrors, the least
    # mirror image): positions it merges must have one value, which brute force checks
    mirrored, plain, rng = Solver(3), Solver(3, mirrors=False), random.Random(3)
    checked = 0
    for game in range(16):
        state = start(3, first=game % 2)
        while not state.is_over():
            if state.forced_move() is None and state.board.count(0) <= 7:
                value = brute_force(state)
                assert mirrored.value(state) == plain.value(state) == value
                checked += 1
            state = step(state, rng.choice(state.legal_moves()))
    assert checked > 30


def test_solver_n2_start_is_a_draw():
    assert solve_start(2)["value"] == 0
    assert Solver(2).verdict(start(2)) == 0


def test_solver_n3_is_a_draw():
    result = solve_start(3)
    assert result["value"] == 0 and result["scores"] == [5, 5]


def test_board_symmetries_are_the_four_mirrors():
    perms = board_symmetries(2, 3)
    assert perms[0] == (0, 1, 2, 3, 4, 5)
    assert sorted(perms[1:]) == [(2, 1, 0, 5, 4, 3), (3, 4, 5, 0, 1, 2), (5, 4, 3, 2, 1, 0)]


def test_docstring_examples_run():
    import doctest

    import api.bots.ploid_solver
    import api.games.ploid

    for module in (api.games.ploid, api.bots.ploid_solver):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0


# ---------------------------------------------------------------- the board
# Ploid's board as the browser tests over every game drive it (tests/browser/drawn.py's
# `Board`): what it draws read back from the page, the same worked out from a server state, a legal
# move picked on the page, and options that keep a bot game short. Its moves made by hand are tested
# in test_web_client.py.


def drawn_for(state: dict) -> list:
    return [
        [f"{r},{c}", cell and {"seat": cell["seat"], "piece": str(cell["piece"])}]
        for r, row in enumerate(state["board"])
        for c, cell in enumerate(row)
    ]


def pick_on_page(page, move: dict) -> None:
    page.click(f".ploid button[data-piece='{move['piece']}']")
    page.click(f"[data-cell='{move['row']},{move['col']}']")


BOARD = Board(
    read="""() => [...document.querySelectorAll(".ploid [data-cell]")].map((cell) => [
        cell.dataset.cell, cell.dataset.seat === undefined ? null
            : { seat: Number(cell.dataset.seat), piece: cell.dataset.piece }])""",
    expected=drawn_for,
    pick=pick_on_page,
    short={"n": 3},
)
