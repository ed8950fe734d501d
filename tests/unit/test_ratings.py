"""Glicko-2 through the project's rating code (api/players/ratings.py), and which new games are
rated."""

from __future__ import annotations

import pytest

from api.games import BadOption
from api.record import Seat
from api.players.ratings import (
    Rating,
    after_game,
    bot_account_id,
    decide_rated,
    rate,
    score_of_first,
)


def test_glickmans_worked_example():
    # Glickman, "Example of the Glicko-2 system": 1500/200 beats 1400/30, loses to 1550/100 and
    # to 1700/300 in one rating period (tau 0.5)
    player = Rating(1500, 200, 0.06)
    after = rate(player, [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.05)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.vol == pytest.approx(0.05999, abs=0.00001)
    assert after.games == 3


def test_a_new_player_starts_at_1500_350_and_is_provisional():
    start = Rating()
    assert (start.rating, start.rd, start.vol, start.games) == (1500, 350, 0.06, 0)
    assert start.provisional and start.view()["provisional"]


def test_one_game_is_its_own_period_and_moves_both_players_symmetrically():
    winner, loser = after_game(Rating(), Rating(), score_of_first(0))
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rd < 350 and loser.rd < 350
    assert (winner.games, loser.games) == (1, 1)


def test_a_draw_between_equals_changes_no_rating_but_shrinks_both_rds():
    a, b = after_game(Rating(1600, 80), Rating(1600, 80), score_of_first(None))
    assert a.rating == pytest.approx(1600) and b.rating == pytest.approx(1600)
    assert a.rd < 80


def test_rd_below_110_is_no_longer_provisional():
    assert Rating(1500, 110.0).provisional is False
    assert Rating(1500, 110.1).provisional is True


def test_bot_accounts_are_named_for_kind_and_level():
    assert bot_account_id("ploid", "advanced") == "bot-ploid-advanced"


def _account(name: str) -> Seat:
    return Seat.for_account(f"id-{name}", name)


def test_rated_by_default_between_accounts_and_against_a_server_bot():
    assert decide_rated([_account("ada"), _account("bo")], None) is True
    assert decide_rated([_account("ada"), Seat.for_bot("greedy")], None) is True
    assert decide_rated([_account("ada"), Seat.invite("id-bo", "bo")], None) is True


def test_casual_by_default_with_an_anonymous_or_open_seat_or_between_bots():
    assert decide_rated([_account("ada"), Seat.human("Bo")], None) is False
    assert decide_rated([_account("ada"), Seat.empty()], None) is False
    assert decide_rated([Seat.for_bot("greedy"), Seat.for_bot("random")], None) is False


def test_rated_false_makes_any_game_casual():
    assert decide_rated([_account("ada"), _account("bo")], False) is False


def test_a_rated_game_is_refused_where_it_cannot_be_rated():
    assert decide_rated([_account("ada"), Seat.empty()], True) is True  # joined by an account
    for seats in (
        [_account("ada"), Seat.human("Bo")],
        [Seat.for_bot("greedy"), Seat.for_bot("random")],
        [_account("ada"), _account("ada")],
    ):
        with pytest.raises(BadOption) as refused:
            decide_rated(seats, True)
        assert refused.value.field == "rated"
