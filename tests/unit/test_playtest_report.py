"""The playtest maths: planning, seating, seeds, the Wilson interval, summaries, histograms and
the report, on small explicit records."""

from __future__ import annotations

import pytest

from api.bots.match import play_game
from api.games import BadOption
from api.playtests import (
    check_request,
    game_seed,
    histogram,
    plan_chunks,
    report,
    seating,
    summary,
    wilson,
)


def spec(bots=("a", "b")) -> dict:
    return {"bots": list(bots), "budget_s": 0.1}


def record(index: int, winner, plies: int, scores=None, game_id=None) -> dict:
    (levels, first) = seating(["a", "b"], index)
    return {
        "index": index,
        "levels": list(levels),
        "first": first,
        "winner": winner,
        "reason": "score" if scores else "no-moves",
        "scores": scores,
        "plies": plies,
        "game_id": game_id,
    }


def test_chunks_cover_every_game_once_in_order():
    for games, size in [(1, 10), (10, 10), (11, 10), (1000, 7), (5, 1)]:
        chunks = plan_chunks(games, size)
        assert [g for start, stop in chunks for g in range(start, stop)] == list(range(games))
        assert all(0 < stop - start <= size for start, stop in chunks)


def test_every_four_games_seat_each_bot_in_each_seat_moving_first_and_second():
    combos = {seating(["a", "b"], i) for i in range(4)}
    assert combos == {(("a", "b"), 0), (("b", "a"), 0), (("a", "b"), 1), (("b", "a"), 1)}
    assert [seating(["a", "b"], i) for i in range(4, 8)] == [
        seating(["a", "b"], i) for i in range(4)
    ]


def test_game_seeds_depend_on_the_batch_seed_and_the_index_only():
    assert game_seed(7, 3) == game_seed(7, 3)
    assert len({game_seed(7, i) for i in range(100)}) == 100
    assert game_seed(7, 1) != game_seed(8, 0)  # neighbouring batches do not share games
    assert all(0 <= game_seed(s, i) < 2**32 for s in (0, 2**62) for i in (0, 999))


def test_wilson_interval():
    assert wilson(0, 0) is None
    assert wilson(50, 100) == [0.4038, 0.5962]
    assert wilson(10, 10) == [0.7225, 1.0]
    assert wilson(0, 10) == [0.0, 0.2775]
    lo, hi = wilson(30, 40)
    assert lo < 0.75 < hi
    narrow = wilson(300, 400)
    assert lo < narrow[0] and narrow[1] < hi  # more games, narrower interval


def test_summary_of_one_value_has_no_spread():
    assert summary([7]) == {
        "mean": 7.0,
        "median": 7,
        "stdev": 0.0,
        "min": 7,
        "max": 7,
        "p25": 7,
        "p75": 7,
    }


@pytest.mark.parametrize(
    "values",
    [
        [5],
        [0, 1000],
        list(range(-30, 31)),
        [3, 3, 3, 97],
        [17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
    ],
)
def test_histogram_bins_are_contiguous_equal_and_count_everything(values):
    bins = histogram(values)
    assert 1 <= len(bins) <= 20
    assert sum(b["count"] for b in bins) == len(values)
    widths = {b["to"] - b["from"] + 1 for b in bins}
    assert len(widths) == 1
    assert all(a["to"] + 1 == b["from"] for a, b in zip(bins, bins[1:]))
    assert bins[0]["from"] <= min(values) and max(values) <= bins[-1]["to"]


def test_report_counts_wins_by_seat_by_bot_first_player_and_draws():
    records = [
        record(0, 0, 10),
        record(1, 0, 12),
        record(2, 1, 14),
        record(3, None, 20),
        record(4, 0, 10),
        record(5, 1, 11),
    ]
    # game: a sits in seat 0 in even games; first mover is seat (i // 2) % 2
    #   0: a wins, first; 1: b wins, first; 2: b wins, first; 3: draw; 4: a wins, first;
    #   5: a wins (seat 1), second
    out = report(spec(), records)
    assert out["games"] == 6 and out["budget_s"] == 0.1
    assert out["wins"] == {
        "by_seat": [3, 2],
        "ci95_by_seat": [wilson(3, 6), wilson(2, 6)],
        "by_bot": [3, 2],
        "draws": 1,
    }
    a, b = out["bots"]
    assert (a["bot"], a["wins"], a["losses"], a["draws"], a["wins_by_seat"]) == (
        "a",
        3,
        2,
        1,
        [2, 1],
    )
    assert (b["bot"], b["wins"], b["losses"], b["draws"], b["wins_by_seat"]) == (
        "b",
        2,
        3,
        1,
        [1, 1],
    )
    assert a["win_rate"] == 0.5 and a["ci95"] == wilson(3, 6)
    first = out["first_player"]
    assert (first["wins"], first["losses"], first["draws"]) == (4, 1, 1)
    assert first["win_rate"] == round(4 / 6, 4) and first["ci95"] == wilson(4, 6)
    assert out["reasons"] == {"no-moves": 6}
    assert out["length"]["mean"] == 12.833 and out["length"]["median"] == 11.5
    assert (out["length"]["min"], out["length"]["max"]) == (10, 20)
    assert out["scores"] is None and out["samples"] == []


def test_a_mirror_match_keeps_the_two_bots_apart():
    out = report(spec(("greedy", "greedy")), [record(0, 0, 5), record(1, 0, 5)])
    assert [(line["bot"], line["wins"]) for line in out["bots"]] == [("greedy", 1), ("greedy", 1)]


def test_score_spread_by_seat_by_bot_and_margin_of_the_first_bot():
    records = [record(0, 0, 9, [30, 20]), record(1, 1, 9, [10, 25]), record(2, None, 9, [15, 15])]
    scores = report(spec(), records)["scores"]
    assert scores["games"] == 3
    assert [s["mean"] for s in scores["by_seat"]] == [pytest.approx(55 / 3, abs=1e-3), 20.0]
    # bot a: 30 (seat 0), 25 (seat 1), 15 (seat 0); bot b: 20, 10, 15
    assert [s["max"] for s in scores["by_bot"]] == [30, 20]
    assert scores["margin"]["min"] == 0 and scores["margin"]["max"] == 15
    assert sum(b["count"] for b in scores["margin"]["histogram"]) == 3


def test_samples_are_the_games_stored_to_replay():
    out = report(
        spec(), [record(1, 0, 4, game_id="g1"), record(0, 1, 6, game_id="g0"), record(2, 0, 5)]
    )
    assert [(s["game_id"], s["index"], s["plies"]) for s in out["samples"]] == [
        ("g0", 0, 6),
        ("g1", 1, 4),
    ]


def test_request_checks_name_the_field():
    good = check_request("factor-multiple", {}, ["greedy", "random"], 25, seed=3)
    assert good["chunks"] == [[0, 10], [10, 20], [20, 25]] and good["seed"] == 3
    assert isinstance(check_request("factor-multiple", {}, ["random", "random"], 1)["seed"], int)
    assert check_request("factor-multiple", {}, ["random", "random"], 2)["samples"] == 2
    for kwargs, field in [
        ({"kind": "go"}, "kind"),
        ({"bots": ["random", "x"]}, "bots.1"),
        ({"games": 1001}, "games"),
        ({"options": {"n": 1}}, "options.n"),
    ]:
        args = {
            "kind": "factor-multiple",
            "options": {},
            "bots": ["random", "greedy"],
            "games": 10,
            **kwargs,
        }
        with pytest.raises(BadOption) as caught:
            check_request(**args)
        assert caught.value.field == field


def test_a_game_past_the_ply_limit_is_aborted_not_endless():
    game = play_game("factor-multiple", {}, ("random", "random"), seed=1, max_plies=2)
    assert game.outcome.winner is None and game.outcome.reason == "aborted"
    assert len(game.history) == 2 and not game.final.is_over()
    full = play_game("factor-multiple", {}, ("random", "random"), seed=1)
    assert full.history[:2] == game.history and full.final.is_over()
