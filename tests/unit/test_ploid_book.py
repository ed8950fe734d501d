"""Ploid's opening book (api/bots/ploid_book.py): its moves are the solver's, and it covers
every position the perfect bot can meet before a fresh solve is quick."""

from __future__ import annotations

import pytest

from api.bots import ploid_book
from api.bots.ploid_solver import Solver, place_move
from api.games.ploid import Ploid, PloidState


def book_state(book: ploid_book.Book, key: str) -> PloidState:
    """The position a key names, the mover as seat 0 (keys are from the mover's side)."""
    board, banned = key.split("/")
    return PloidState(
        book.n,
        tuple(int(c) for c in board.split(",")),
        0,
        None if banned == "None" else int(banned),
    )


@pytest.fixture(scope="module")
def book() -> ploid_book.Book:
    loaded = ploid_book.load(3)
    assert loaded is not None, "api/bots/data/ploid-book-3.json is missing: run make ploid-book"
    return loaded


def test_every_book_move_is_the_solvers(book):
    # Each entry's value v and moves are proved, not recomputed: every book move's reply
    # position is worth exactly -v to its mover, every other placement's more (the mover's
    # placement does worse than v). That proves v the best value and the moves all that keep it.
    solver = Solver(3)
    for key, entry in book.positions.items():
        state = book_state(book, key)
        value, booked = entry["value"], {tuple(m) for m in entry["moves"]}
        for placement in state.legal_placements():
            child = state.apply(place_move(state, *placement))
            expected = 0 if placement in booked else 1  # the reply's value vs -v
            assert solver.compare(child, -value) == expected, (key, placement)
        assert booked <= set(state.legal_placements()), key


def test_the_book_keeps_the_start_drawn(book):
    value, moves = book.entry(Ploid.new({"n": 3}, first=1, seed=0))
    assert value == 0 and moves


def test_the_book_covers_every_line_of_its_own_moves(book):
    # whichever seat the bot holds, and whatever its opponent plays, each position it must move
    # in with at most book.pieces pieces down is in the book
    for bot_seat in (0, 1):
        frontier = [Ploid.new({"n": 3}, first=0, seed=0)]
        while frontier:
            state = frontier.pop()
            if not book.covers(state) or state.is_over():
                continue
            if state.mover == bot_seat:
                entry = book.entry(state)
                assert entry is not None, state.board
                placements = entry[1]
            else:
                placements = state.legal_placements()
            frontier.extend(state.apply(place_move(state, *p)) for p in placements)


def test_book_moves_map_onto_a_mirrored_board(book):
    start = Ploid.new({"n": 3}, first=0, seed=0)
    for placement in start.legal_placements():
        child = start.apply(place_move(start, *placement))
        _, moves = book.entry(child)
        legal = set(child.legal_placements())
        assert moves and set(moves) <= legal
