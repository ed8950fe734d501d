"""The provers' one question, whether a seat wins with best play: a draw is a win for neither
seat, the seat to move or the other (Ploid and Partition have draws)."""

from __future__ import annotations

from api.games import get_game
from api.learn import provers


def test_a_drawn_position_is_won_by_neither_seat_and_no_move_wins_it():
    ploid = get_game("ploid")  # on the 2 x 3 board perfect play draws, 3 - 3 (its rules page)
    start = ploid.new(ploid.check_options({"n": 2}), 0, 0)
    assert not provers.wins(start, 0) and not provers.wins(start, 1)
    won, rest = provers.winning_moves(start)
    assert won == [] and len(rest) == len(start.legal_moves()) > 1
