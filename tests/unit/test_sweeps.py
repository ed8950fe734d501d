"""Sweeps' pure side: every option of every game can be swept and is checked as game creation
checks it, the variants are the cross product in the game's order of options on one seed, and the
comparison's maths (the exact sign test, Holm's adjustment, the most balanced variant)."""

from __future__ import annotations

import importlib
import math

import pytest

from api import playtests
from api.games import GAMES, BadOption
from api.playtests import sweeps
from api.playtests.sweep_cli import parse_vary


def json_values(slug: str) -> dict:
    """A second valid value of each "json" option of the game, which GET /kinds cannot give: its
    own test module's `JSON_OPTION_VALUES` (tests/unit/test_<engine module>.py), by name."""
    engine = GAMES[slug].__module__.rsplit(".", 1)[-1]
    module = importlib.import_module(f"tests.unit.test_{engine}")
    return getattr(module, "JSON_OPTION_VALUES", {})


BAD_VALUES = {"int": "ten", "bool": "yes", "choice": "nope", "json": "not this"}


def other_value(slug: str, option) -> object:
    """A valid value of `option` other than its default."""
    if option.kind == "bool":
        return not option.default
    if option.choices:
        return next(c for c in option.choices if c != option.default)
    if option.kind == "int":
        return option.max if option.default != option.max else option.min
    return json_values(slug)[option.name]


def bots_of(slug: str) -> list[str]:
    from api.bots import levels

    first = next(iter(levels(slug)))
    return [first, first]


OPTIONS = [(slug, option) for slug, game in sorted(GAMES.items()) for option in game.options]


def test_every_json_option_has_a_second_value_in_its_games_tests():
    json_options = {(slug, o.name) for slug, o in OPTIONS if o.kind == "json"}
    declared = {(slug, name) for slug in GAMES for name in json_values(slug)}
    assert json_options == declared, "a JSON option needs a value in its game's JSON_OPTION_VALUES"


@pytest.mark.parametrize("slug, option", OPTIONS, ids=[f"{s}.{o.name}" for s, o in OPTIONS])
def test_every_option_of_every_game_can_be_swept(slug, option):
    values = [option.default, other_value(slug, option)]
    spec = sweeps.check_request(slug, bots_of(slug), 4, {option.name: values}, seed=11)
    assert [v["values"] for v in spec["variants"]] == [
        {option.name: GAMES[slug].check_options({option.name: value})[option.name]}
        for value in values
    ]
    assert [v["spec"]["options"][option.name] for v in spec["variants"]] == [
        v["values"][option.name] for v in spec["variants"]
    ]
    assert {v["spec"]["seed"] for v in spec["variants"]} == {11}
    assert option.name not in spec["options"]


@pytest.mark.parametrize("slug, option", OPTIONS, ids=[f"{s}.{o.name}" for s, o in OPTIONS])
def test_a_bad_value_is_refused_with_game_creations_message_pointing_into_vary(slug, option):
    bad = BAD_VALUES[option.kind]
    with pytest.raises(BadOption) as created:
        GAMES[slug].check_options({option.name: bad})
    with pytest.raises(BadOption) as swept:
        sweeps.check_request(slug, bots_of(slug), 4, {option.name: [option.default, bad]})
    assert created.value.field == f"options.{option.name}"
    assert swept.value.field == f"vary.{option.name}.1"
    assert swept.value.message == created.value.message


def test_the_variants_are_the_cross_product_in_the_games_order_of_options():
    spec = sweeps.check_request(
        "factor-multiple",
        ["greedy", "random"],
        10,
        {"even_start": [True, False], "n": [20, 40, 60]},
        seed=3,
    )
    assert [v["label"] for v in spec["variants"]] == [
        "n=20, even_start=true",
        "n=20, even_start=false",
        "n=40, even_start=true",
        "n=40, even_start=false",
        "n=60, even_start=true",
        "n=60, even_start=false",
    ]
    assert [v["index"] for v in spec["variants"]] == list(range(6))
    assert spec["vary"] == {"n": [20, 40, 60], "even_start": [True, False]}
    games = [[playtests.seating(v["spec"]["bots"], i) for i in range(4)] for v in spec["variants"]]
    assert all(g == games[0] for g in games)


def test_fixed_options_hold_in_every_variant_and_fill_their_defaults():
    spec = sweeps.check_request(
        "factor-multiple", ["greedy", "random"], 10, {"n": [20, 40]}, options={"even_start": False}
    )
    assert spec["options"] == {"even_start": False}
    assert [v["spec"]["options"] for v in spec["variants"]] == [
        {"n": 20, "even_start": False},
        {"n": 40, "even_start": False},
    ]


@pytest.mark.parametrize(
    "vary, options, field, words",
    [
        ({}, None, "vary", "at least one option to vary"),
        ({"n": []}, None, "vary.n", "no values"),
        ({"size": [9]}, None, "vary.size", "Factor/Multiple has no option 'size'"),
        ({"n": [20, 5]}, None, "vary.n.1", "Option n must be at least 10."),
        ({"n": [20, 30, 20]}, None, "vary.n.2", "value 3 is the same as value 1"),
        ({"n": [20, 30]}, {"n": 40}, "options.n", "both fixed (options) and varied"),
        ({"n": [20, 30]}, {"even_start": "yes"}, "options.even_start", "true or false"),
        (
            {"n": list(range(10, 35)), "even_start": [True]},
            None,
            "vary",
            "at most 24 variants; these values make 25 (25 x 1)",
        ),
    ],
)
def test_refusals_name_the_field(vary, options, field, words):
    with pytest.raises(BadOption) as refused:
        sweeps.check_request("factor-multiple", ["greedy", "random"], 10, vary, options)
    assert refused.value.field == field
    assert words in refused.value.message


def test_two_values_that_mean_the_same_are_one_variant_twice():
    with pytest.raises(BadOption) as refused:
        sweeps.check_request(
            "prime-drop",
            ["beginner", "beginner"],
            2,
            {"tiles": [{"1": 3, "2": 0}, {"2": 0, "1": 3, "3": 0}]},
        )
    assert refused.value.field == "vary.tiles.1"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"games_per_variant": 0}, "games_per_variant"),
        ({"kind": "chess"}, "kind"),
        ({"bots": ["greedy", "nobody"]}, "bots.1"),
        ({"budget_s": 3}, "budget_s"),
    ],
)
def test_the_playtest_fields_are_checked_as_a_playtests(body, field):
    request = {
        "kind": "factor-multiple",
        "bots": ["greedy", "random"],
        "games_per_variant": 5,
        "vary": {"n": [20, 40]},
        **body,
    }
    with pytest.raises(BadOption) as refused:
        sweeps.check_request(**request)
    assert refused.value.field == field


def binomial_p(better: int, worse: int) -> float:
    """The same test summed the other way: every outcome no likelier than the one seen."""
    n = better + worse
    seen = math.comb(n, better)
    return min(1.0, sum(math.comb(n, k) for k in range(n + 1) if math.comb(n, k) <= seen) / 2**n)


@pytest.mark.parametrize(
    "better, worse", [(0, 0), (1, 0), (5, 5), (9, 1), (2, 14), (30, 18), (0, 12), (40, 60)]
)
def test_the_sign_test_is_the_exact_two_sided_binomial_test(better, worse):
    assert sweeps.sign_test(better, worse) == pytest.approx(binomial_p(better, worse))
    assert sweeps.sign_test(better, worse) == sweeps.sign_test(worse, better)


def test_holm_adjusts_step_down_and_keeps_the_order():
    assert sweeps.holm([]) == []
    assert sweeps.holm([0.2]) == [0.2]
    assert sweeps.holm([0.04, 0.01, 0.5]) == [0.08, 0.03, 0.5]
    assert sweeps.holm([0.6, 0.6]) == [1.0, 1.0]


def records(results: list[str], first_index: int = 0) -> list[dict]:
    """Game records from the first player's results ('w', 'd' or 'l'), first seat alternating."""
    out = []
    for i, result in enumerate(results, first_index):
        first = (i // 2) % 2
        winner = {"w": first, "l": 1 - first, "d": None}[result]
        out.append(
            {
                "index": i,
                "levels": ["a", "b"],
                "first": first,
                "winner": winner,
                "reason": "score",
                "scores": [3, 3] if winner is None else [5 if winner == s else 2 for s in (0, 1)],
                "plies": 10 + i,
            }
        )
    return out


def test_the_comparison_picks_the_most_balanced_and_tests_the_others_on_paired_games():
    even = records(["w", "l"] * 15)  # 15 of 30: balanced
    first_wins = records(["w"] * 28 + ["l", "l"])  # 28 of 30
    drawish = records(["d", "w", "l"] * 10)  # a score of 1/2, but later in order
    comparison = sweeps.compare([first_wins, even, drawish])
    assert comparison["balanced"] == 1
    assert comparison["alpha"] == 0.05 and "sign test" in comparison["test"]
    rows = comparison["variants"]
    assert [r["variant"] for r in rows] == [0, 1, 2]
    assert rows[1]["vs_balanced"] is None
    fp = rows[0]["first_player"]
    assert (fp["wins"], fp["draws"], fp["losses"], fp["win_rate"]) == (28, 0, 2, 0.9333)
    assert fp["ci95"] == playtests.wilson(28, 30) and fp["score"] == 0.9333
    test = rows[0]["vs_balanced"]
    # pairs: where `even` lost (15 games) the first player here won 14 times (game 29 lost too)
    assert (test["paired_games"], test["better"], test["worse"], test["ties"]) == (30, 14, 1, 15)
    assert test["p_value"] == round(sweeps.sign_test(14, 1), 6)
    assert test["differs"] is True
    assert rows[2]["first_player"]["score"] == 0.5 and rows[2]["draw_rate"] == 0.3333
    assert rows[2]["vs_balanced"]["differs"] is False
    assert (
        rows[0]["vs_balanced"]["p_adjusted"]
        == sweeps.holm([test["p_value"], rows[2]["vs_balanced"]["p_value"]])[0]
    )
    assert rows[0]["score_margin"]["mean"] == pytest.approx((28 * 3 - 2 * 3) / 30, abs=1e-3)
    assert rows[0]["length"]["min"] == 10 and rows[0]["length"]["max"] == 39


def test_pairs_are_the_game_indexes_both_variants_played():
    cancelled_early = records(["w"] * 6)
    full = records(["w", "l"] * 10)
    comparison = sweeps.compare([full, cancelled_early])
    assert comparison["balanced"] == 0
    assert comparison["variants"][1]["vs_balanced"]["paired_games"] == 6


def test_a_variant_without_games_is_shown_and_not_compared():
    comparison = sweeps.compare([records(["w", "l"]), []])
    assert comparison["balanced"] == 0
    empty = comparison["variants"][1]
    assert empty["games"] == 0 and empty["first_player"]["win_rate"] is None
    assert empty["length"] is None and empty["vs_balanced"] is None
    assert sweeps.compare([[], []])["balanced"] is None


def test_the_command_lines_vary_reads_json_lists_or_words():
    assert parse_vary(["singleton_rule=true,false", "layout=default,random"]) == {
        "singleton_rule": [True, False],
        "layout": ["default", "random"],
    }
    assert parse_vary(['timeout_rule=null,{"after_s": 60, "streak": 3}']) == {
        "timeout_rule": [None, {"after_s": 60, "streak": 3}]
    }
