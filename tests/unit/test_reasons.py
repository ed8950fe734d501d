"""The reasons a game ends by: typed on every outcome, declared by each game (`Game.reasons`), and
each with its words in the record's one table."""

from __future__ import annotations

import random

import pytest

from api.games import GAMES, Outcome, Reason
from api.games.base import play_forced
from api.record.reasons import ANY_GAME, REASONS, reasons_of

PLY_CAP = 400


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_random_playout_ends_by_a_reason_its_game_declares(slug):
    game = GAMES[slug]
    ended = 0
    for seed in range(3):
        rng = random.Random(seed)
        state, _ = play_forced(game.new(game.check_options({}), seed % 2, seed))
        for _ in range(PLY_CAP):
            if state.is_over():
                break
            state, _ = play_forced(state.apply(rng.choice(state.legal_moves())))
        outcome = state.outcome()
        if outcome is not None:
            assert type(outcome.reason) is Reason and outcome.reason in game.reasons, outcome
            ended += 1
    assert ended, f"no random {slug} game ended within {PLY_CAP} plies"


def test_an_outcome_types_its_reason_and_refuses_an_unknown_one():
    assert Outcome(0, "time").reason is Reason.TIME
    assert Outcome(0, "time").to_dict() == {"winner": 0, "reason": "time", "scores": None}
    with pytest.raises(ValueError):
        Outcome(0, "checkmate")


def test_every_reason_has_its_words_and_whom_it_lets_win():
    assert set(REASONS) == set(Reason)
    for reason, ending in REASONS.items():
        assert ending.words and (ending.win or ending.draw), reason
    assert REASONS[Reason.RESIGN].winner == "seat"
    assert REASONS[Reason.AGREEMENT].winner == "nobody"
    assert REASONS[Reason.SCORE].winner == "either"


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_kind_lists_its_rules_endings_then_those_of_every_game(slug):
    listed = [r["reason"] for r in reasons_of(GAMES[slug])]
    assert listed == [r.value for r in (*GAMES[slug].reasons, *ANY_GAME)]
    assert len(set(listed)) == len(listed)
