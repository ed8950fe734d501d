"""Factor/Multiple engine: one test per rule of RULES.md §4 (the random playouts every game gets
are tests/unit/test_conformance.py's)."""

import pytest

from api.games.base import BadOption, IllegalMove, MalformedMove, Pass
from api.games.factor_multiple import FactorMultiple, Say
from tests.browser.drawn import Board


def start(n=100, even_start=True, first=0):
    options = FactorMultiple.check_options({"n": n, "even_start": even_start})
    return FactorMultiple.new(options, first=first, seed=0)


def play(state, *numbers):
    for k in numbers:
        state = state.apply(Say(k))
    return state


# Rule: numbers 1..n, option n in 10..1000 (default 100), even_start default true.


def test_options_default_to_n_100_with_even_start():
    assert FactorMultiple.check_options({}) == {"n": 100, "even_start": True}


@pytest.mark.parametrize("n", [10, 1000])
def test_options_accept_the_ends_of_the_range(n):
    assert FactorMultiple.check_options({"n": n})["n"] == n


@pytest.mark.parametrize(
    "raw", [{"n": 9}, {"n": 1001}, {"n": True}, {"n": "100"}, {"even_start": 1}, {"size": 11}]
)
def test_options_out_of_range_or_unknown_raise_bad_option(raw):
    with pytest.raises(BadOption) as error:
        FactorMultiple.check_options(raw)
    assert error.value.field == f"options.{next(iter(raw))}"


def test_numbers_outside_1_to_n_are_refused():
    for k in (0, 11):
        with pytest.raises(IllegalMove, match="not a number from 1 to 10"):
            play(start(n=10, even_start=False), k)


# Rule: the first number must be even (option even_start).


def test_first_number_must_be_even():
    state = start(n=10)
    assert state.legal_numbers() == [2, 4, 6, 8, 10]
    with pytest.raises(IllegalMove, match="must be even"):
        state.apply(Say(7))


def test_without_even_start_any_first_number_is_allowed():
    state = start(n=10, even_start=False)
    assert state.legal_numbers() == list(range(1, 11))
    assert play(state, 7).said == (7,)


# Rule: every later number is a factor or a multiple of the previous one.


def test_later_numbers_are_factors_or_multiples_of_the_last():
    state = play(start(n=30), 12)
    assert state.legal_numbers() == [1, 2, 3, 4, 6, 24]
    assert play(state, 24).current == 24
    with pytest.raises(IllegalMove, match="neither a factor nor a multiple of 12"):
        state.apply(Say(8))


# Rule: no number may be said twice.


def test_a_number_said_before_is_refused():
    state = play(start(n=30), 12, 6)
    assert 12 not in state.legal_numbers()
    with pytest.raises(IllegalMove, match="12 has already been said"):
        state.apply(Say(12))


# Rule: a player with no legal number loses.


def test_the_player_with_no_number_left_loses():
    state = play(start(n=10, first=1), 8, 1, 7)  # 7's only neighbour, 1, is used
    assert state.legal_numbers() == []
    assert state.to_move is None and state.mover == 0
    assert state.outcome().winner == 1 and state.outcome().reason == "no-moves"
    with pytest.raises(IllegalMove, match="over"):
        state.apply(Say(1))


def test_a_game_runs_while_the_mover_has_a_number():
    state = play(start(n=10), 8, 1)
    assert state.outcome() is None and state.to_move == 0


# Rule: the seed's example game replays exactly so.


def test_seed_example_game_replays_to_the_first_players_loss():
    state = start(first=0)
    for ply, k in enumerate((98, 49, 7, 77, 11, 55, 1, 97)):
        assert state.outcome() is None and state.to_move == ply % 2
        state = state.apply(Say(k))
    assert state.legal_numbers() == []  # 97's neighbours are 1 and nothing else
    assert state.outcome().winner == 1 and state.outcome().reason == "no-moves"
    assert state.to_dict() == {
        "n": 100,
        "even_start": True,
        "first": 0,
        "said": [98, 49, 7, 77, 11, 55, 1, 97],
        "current": 97,
    }


# Moves and states as the API carries them.


def test_parse_move_reads_a_say_and_names_the_faulty_field():
    assert FactorMultiple.parse_move({"type": "say", "number": 12}) == Say(12)
    with pytest.raises(MalformedMove) as error:
        FactorMultiple.parse_move({"type": "say", "number": "12"})
    assert error.value.field == "move.number"
    with pytest.raises(MalformedMove) as error:
        FactorMultiple.parse_move({"type": "pass"})
    assert error.value.field == "move.type"


def test_only_say_moves_apply_and_apply_leaves_the_old_state_alone():
    state = start(n=10)
    with pytest.raises(IllegalMove):
        state.apply(Pass())
    after = state.apply(Say(4))
    assert state.said == () and after.said == (4,)
    assert state.forced_move() is None


def test_divisibility_neighbours_are_every_factor_and_multiple_in_increasing_order():
    from api.games.factor_multiple import divisibility_neighbours

    for n in (1, 2, 10, 100, 1000):
        for k in range(1, n + 1):
            expected = [d for d in range(1, k) if k % d == 0] + list(range(2 * k, n + 1, k))
            assert divisibility_neighbours(k, n) == expected, (k, n)


# ---------------------------------------------------------------- the board
# Factor/Multiple's board as the browser tests over every game drive it (tests/browser/drawn.py's
# `Board`): what it draws read back from the page, the same worked out from a server state, a legal
# move picked on the page, and options that keep a bot game short. Its moves made by hand are tested
# in test_web_client.py.


def drawn_for(state: dict) -> list:
    return state["said"]


def pick_on_page(page, move: dict) -> None:
    page.click(f".fm-grid button[data-n='{move['number']}']")


BOARD = Board(
    read="""() => [...document.querySelectorAll(".fm-grid button[data-said]")]
        .sort((a, b) => a.dataset.said - b.dataset.said)
        .map((button) => Number(button.dataset.n))""",
    expected=drawn_for,
    pick=pick_on_page,
    short={"n": 30},
)
