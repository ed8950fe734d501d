"""Factor Bingo rules (RULES.md §5), one test per rule and ruling (the random
playouts every game gets are tests/unit/test_conformance.py's).

Most positions fill letter k (A, B, ...) with the k-th divisor of 720, so the left board reads
1 2 3 4 5 / 6 8 9 10 12 / 15 16 18 20 24 / 30 36 40 45 48 / 60 72 80 90 120, and 144, 180, 240,
360 and 720 stay unused.
"""

import doctest
import json

import pytest

from api.games import factor_bingo
from api.games.base import BadOption, IllegalMove, MalformedMove
from api.games.factor_bingo import (
    CENTRE,
    DEFAULT_LETTERS,
    LETTERS,
    LINES,
    NUMBERS,
    Call,
    FactorBingo,
    FactorBingoState,
    Fill,
    Start,
    deal_letters,
    gray_cells,
    shares_a_line,
)
from api.games.registry import get_game
from tests.browser.drawn import Board


def new(starter=0, layout="default", seed=0):
    return FactorBingo.new(FactorBingo.check_options({"layout": layout}), starter, seed)


def filled(starter=0):
    """Every letter filled in alphabetical order with the divisors in increasing order."""
    state = new(starter)
    for letter, number in zip(LETTERS, NUMBERS):
        state = state.apply(Fill(letter, number))
    return state


def calls(state, numbers):
    for n in numbers:
        assert state.outcome() is None
        state = state.apply(Call(n))
    return state


# Setup: numbers, boards, options, time control


def test_the_numbers_are_the_30_divisors_of_720():
    assert len(NUMBERS) == 30 and all(720 % n == 0 for n in NUMBERS)
    assert new().to_dict()["numbers"] == [n for n in range(1, 721) if 720 % n == 0]


def test_default_boards_left_to_seat_0_right_to_seat_1():
    boards = new().to_dict()["boards"]
    assert boards[0][0] == list("ABCDE") and boards[0][4] == list("UVWXY")
    assert boards[1][0] == list("DPUNF") and boards[1][4] == list("VTHAE")


def test_default_gray_cells_are_g_i_m_q_s_and_no_line_is_shared():
    state = new()
    assert state.to_dict()["gray"] == [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]]
    assert [DEFAULT_LETTERS[0][c] for c in gray_cells(DEFAULT_LETTERS)] == list("GIMQS")
    assert not shares_a_line(DEFAULT_LETTERS)


def test_random_layout_properties_over_many_seeds():
    for seed in range(300):
        pair = deal_letters(seed)
        gray = gray_cells(pair)
        assert len(gray) == 5 and CENTRE in gray
        assert sorted(pair[1]) == list(LETTERS)
        assert not shares_a_line(pair)
    assert new(layout="random", seed=7).letters == deal_letters(7)
    assert deal_letters(1) != deal_letters(2)


def test_layout_option_is_checked():
    assert FactorBingo.check_options({}) == {"layout": "default"}
    with pytest.raises(BadOption) as err:
        FactorBingo.check_options({"layout": "spiral"})
    assert err.value.field == "options.layout"


def test_registered_with_its_default_time_control():
    assert get_game("factor-bingo") is FactorBingo
    assert FactorBingo.describe()["default_time_control"] == {
        "type": "byoyomi",
        "main_s": 0,
        "periods": 5,
        "period_s": 60,
    }


# Filling phase


def test_filling_starts_with_the_starter_and_alternates():
    state = new(starter=1)
    assert (state.phase, state.to_move) == ("filling", 1)
    assert state.apply(Fill("A", 1)).to_move == 0


def test_a_fill_writes_the_number_on_both_boards():
    boards = new().apply(Fill("M", 360)).to_dict()["boards"]
    assert boards[0][2][2] == 360 and boards[1][2][2] == 360
    boards = new().apply(Fill("A", 9)).to_dict()["boards"]
    assert boards[0][0][0] == 9 and boards[1][4][3] == 9


def test_a_letter_cannot_be_picked_twice():
    with pytest.raises(IllegalMove, match="Letter C already holds 48"):
        new().apply(Fill("C", 48)).apply(Fill("C", 12))


def test_a_number_cannot_be_picked_twice():
    with pytest.raises(IllegalMove, match="48 is already on the boards"):
        new().apply(Fill("C", 48)).apply(Fill("D", 48))


def test_a_number_must_divide_720():
    with pytest.raises(IllegalMove, match="7 is not a divisor of 720"):
        new().apply(Fill("C", 7))


def test_only_letters_a_to_y_exist():
    with pytest.raises(IllegalMove, match="no letter Z"):
        new().apply(Fill("Z", 1))


def test_only_fills_while_filling():
    with pytest.raises(IllegalMove, match="still being filled"):
        new().apply(Call(1))


# The start


def test_after_25_fills_the_starter_picks_the_current_number():
    for starter in (0, 1):
        state = filled(starter)
        assert (state.phase, state.to_move) == ("start", starter)
        assert state.unused == [144, 180, 240, 360, 720]
        assert sorted(m.number for m in state.legal_moves()) == [144, 180, 240, 360, 720]
        state = state.apply(Start(360))
        assert (state.phase, state.current, state.to_move) == ("calling", 360, 1 - starter)


def test_start_with_a_number_on_the_boards_is_illegal():
    with pytest.raises(IllegalMove, match="48 is on the boards"):
        filled().apply(Start(48))


def test_start_belongs_to_the_starter_alone():
    # Once the starter has picked, the other player's turn is a call, and a second start fails.
    state = filled(starter=0).apply(Start(720))
    assert state.to_move == 1
    with pytest.raises(IllegalMove, match="calling phase"):
        state.apply(Start(360))
    with pytest.raises(IllegalMove, match="starting player picks"):
        filled().apply(Call(1))


# Calling phase


def test_a_call_must_divide_or_be_a_multiple_of_the_current_number():
    state = filled().apply(Start(144))
    with pytest.raises(IllegalMove, match="5 is neither a divisor nor a multiple of 144"):
        state.apply(Call(5))
    assert state.apply(Call(48)).current == 48
    assert 5 not in [m.number for m in state.legal_moves()]


def test_any_number_once_no_divisor_or_multiple_is_left():
    # 16's divisors and multiples are 1 2 4 8 48 80 144 240 720, all called by now.
    state = calls(filled().apply(Start(144)), [48, 240, 80, 720, 1, 2, 4, 8, 16])
    remaining = [n for n in NUMBERS if n not in state.called and n != 144]
    assert sorted(m.number for m in state.legal_moves()) == remaining
    assert state.apply(Call(5)).current == 5


def test_a_number_is_called_once_and_the_start_never():
    state = calls(filled().apply(Start(720)), [4])
    with pytest.raises(IllegalMove, match="4 has already been called"):
        state.apply(Call(4))
    with pytest.raises(IllegalMove, match="720 has already been called"):
        state.apply(Call(720))


def test_calls_alternate_from_the_other_player():
    state = filled(starter=1).apply(Start(720))
    assert [calls(state, seq).to_move for seq in ([], [4], [4, 2])] == [0, 1, 0]


def test_a_row_on_the_left_board_wins_for_seat_0_whoever_calls():
    state = calls(filled().apply(Start(720)), [4, 2, 12, 3, 15, 5, 1])  # seat 1 calls the 1
    assert state.outcome().to_dict() == {"winner": 0, "reason": "bingo", "scores": [1, 0]}
    assert state.to_move is None and state.legal_moves() == []


def test_a_row_on_the_right_board_wins_for_seat_1():
    state = calls(filled().apply(Start(720)), [60, 30, 6, 12, 4, 20])  # D P U N F
    assert state.outcome().to_dict() == {"winner": 1, "reason": "bingo", "scores": [0, 1]}


def test_a_column_counts():
    state = calls(filled().apply(Start(720)), [60, 30, 15, 1, 6])  # A F K P U
    assert state.outcome().scores == [1, 0]


def test_a_diagonal_counts_and_more_lines_win_on_a_shared_call():
    # 18 (M) finishes both left diagonals and the right board's diagonal D G M S E.
    state = calls(filled(starter=1).apply(Start(720)), [120, 60, 10, 5, 45, 1, 8, 4, 36, 18])
    assert state.outcome().to_dict() == {"winner": 0, "reason": "bingo", "scores": [2, 1]}
    assert len(state.called) % 2 == 0  # seat 1 made the last call and still lost


def test_equal_lines_the_last_caller_loses():
    # 18 (M) finishes A G M S Y on the left and D G M S E on the right.
    state = calls(filled(starter=0).apply(Start(720)), [120, 8, 4, 1, 5, 45, 90, 18])
    assert state.outcome().to_dict() == {"winner": 1, "reason": "bingo", "scores": [1, 1]}
    state = calls(filled(starter=1).apply(Start(720)), [120, 8, 4, 1, 5, 45, 90, 18])
    assert state.outcome().winner == 0


def test_the_facts_give_each_seat_s_complete_lines_as_cells():
    state = calls(filled(starter=0).apply(Start(720)), [120, 8, 4, 1, 5, 45, 90, 18])
    diagonal = [[i, i] for i in range(5)]
    assert state.facts()["bingo_lines"] == [[diagonal], [diagonal]]  # A G M S Y, D G M S E
    assert [len(lines) for lines in state.facts()["bingo_lines"]] == state.lines()
    assert filled().facts()["bingo_lines"] == [[], []]


def test_the_game_is_over_after_a_line():
    state = calls(filled().apply(Start(720)), [60, 30, 15, 1, 6])
    with pytest.raises(IllegalMove, match="over"):
        state.apply(Call(2))


# Moves and state on the wire


def test_parse_move_reads_each_kind():
    assert FactorBingo.parse_move({"type": "fill", "letter": "c", "number": 48}) == Fill("C", 48)
    assert FactorBingo.parse_move({"type": "start", "number": 5}) == Start(5)
    assert FactorBingo.parse_move({"type": "call", "number": 5}).to_dict() == {
        "type": "call",
        "number": 5,
    }


@pytest.mark.parametrize(
    "data, field",
    [
        ({"type": "fill", "number": 48}, "move.letter"),
        ({"type": "fill", "letter": "CD", "number": 48}, "move.letter"),
        ({"type": "fill", "letter": "C", "number": "48"}, "move.number"),
        ({"type": "call"}, "move.number"),
        ({"type": "say", "number": 4}, "move.type"),
        ([1, 2], "move"),
    ],
)
def test_malformed_moves_name_the_field(data, field):
    with pytest.raises(MalformedMove) as err:
        FactorBingo.parse_move(data)
    assert err.value.field == field


def test_state_shape_follows_the_api():
    state = calls(filled(starter=1).apply(Start(720)), [4, 2])
    data = state.to_dict()
    assert {"phase", "boards", "numbers", "unused", "current", "called", "lines", "starter"} <= set(
        data
    )
    assert (data["phase"], data["current"], data["called"], data["lines"], data["starter"]) == (
        "calling",
        2,
        [4, 2],
        [0, 0],
        1,
    )
    assert data["unused"] == [144, 180, 240, 360, 720]
    assert FactorBingoState.from_dict(json.loads(json.dumps(data))) == state


def test_every_line_is_five_cells():
    assert len(LINES) == 12 and all(len(set(line)) == 5 for line in LINES)


def test_the_module_examples_hold():
    assert doctest.testmod(factor_bingo).failed == 0


# ---------------------------------------------------------------- the board
# Factor Bingo's board as the browser tests over every game drive it (tests/browser/drawn.py's
# `Board`): what it draws read back from the page, the same worked out from a server state, a legal
# move picked on the page, and options that keep a bot game short. Its moves made by hand are tested
# in test_web_client.py.


def drawn_for(state: dict) -> dict:
    values = [v for board in state["boards"] for row in board for v in row]
    return {
        "values": [str(v) for v in values],
        "stamped": sorted(set(state["called"]) & set(values)),
        "called": [n for n in state["numbers"] if n in state["called"]],
    }


def pick_on_page(page, move: dict) -> None:
    page.click(f".fb [data-value='{move['letter']}']")
    page.click(f".fb-numbers button[data-n='{move['number']}']")


BOARD = Board(
    read="""() => ({
        values: [...document.querySelectorAll(".fb [data-value]")].map((g) => g.dataset.value),
        stamped: [...new Set([...document.querySelectorAll(".fb [data-value][data-called]")]
            .map((g) => Number(g.dataset.value)))].sort((a, b) => a - b),
        called: [...document.querySelectorAll(".fb-numbers button.called")]
            .map((b) => Number(b.dataset.n)),
    })""",
    expected=drawn_for,
    pick=pick_on_page,
)
