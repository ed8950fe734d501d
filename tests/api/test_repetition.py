"""Prime Drop's repetition rule through the API: the third occurrence of a position ends the
game as the move that made it is stored (RULES.md §1)."""

from __future__ import annotations

from tests.api.helpers import create, move

DROP = {"type": "drop", "row": 8, "col": 8, "digit": 4}
TAKE_BACK = {"type": "challenge", "from": [8, 8], "to": [8, 8], "factor": 2}


def test_the_third_occurrence_of_the_start_ends_the_game_drawn(client):
    game = create(client, kind="prime-drop", options={"size": 9}, first=0)
    tokens = game["tokens"]
    for k in range(4):
        assert game["status"] == "active"
        game = move(client, game, tokens[str(k % 2)], DROP if k % 2 == 0 else TAKE_BACK).get_json()
    assert game["status"] == "finished" and game["ply"] == 4
    assert game["result"] == {"winner": None, "reason": "repetition", "scores": None}
    again = move(client, game, tokens["0"], DROP)
    assert again.status_code == 409
