"""Prime Drop's timeout rule, evaluated on the worker after the threshold and after every turn."""

from __future__ import annotations

import time

from api.games import Outcome
from api.record import Status
from tests.api.helpers import create, move


def test_timeout_rule_defaults_on_with_a_clock_and_off_without(client):
    timed = create(
        client,
        kind="prime-drop",
        time_control={"type": "fischer", "initial_s": 600, "increment_s": 5},
    )
    assert timed["options"]["timeout_rule"] == {"after_s": 3600, "streak": 10}
    untimed = create(client, kind="prime-drop")
    assert untimed["options"]["timeout_rule"] is None


def test_timeout_rule_ends_a_prime_drop_game(client, store, run_jobs):
    game = create(
        client, kind="prime-drop", first=0, options={"timeout_rule": {"after_s": 1, "streak": 2}}
    )
    tokens = game["tokens"]

    def play(seat, body):
        nonlocal game
        response = move(client, game, tokens[str(seat)], body)
        assert response.status_code == 201, response.get_json()
        game = response.get_json()
        run_jobs(with_due_checks=True)

    play(0, {"type": "drop", "row": 0, "col": 0, "digit": 1})  # 36 vs 37, before the rule
    time.sleep(1.1)
    play(1, {"type": "drop", "row": 5, "col": 5, "digit": 1})  # 36 vs 36: nobody leads
    play(
        0,
        {
            "type": "double",
            "tiles": [{"row": 0, "col": 1, "digit": 3}, {"row": 5, "col": 6, "digit": 7}],
        },
    )  # 34 vs 36
    assert store.load(game["id"]).status is Status.ACTIVE  # a streak of one so far
    play(1, {"type": "drop", "row": 10, "col": 10, "digit": 1})  # 34 vs 35: two in a row
    record = store.load(game["id"])
    assert record.status is Status.FINISHED
    assert record.result == Outcome(0, "timeout-rule")
