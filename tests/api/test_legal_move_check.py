"""GET /games/{id}/legal-moves?move=: the listing narrowed to one move, for the moves a listing
leaves out (Prime Drop's double downs): the move when it is legal now, else nothing and why."""

from __future__ import annotations

import json

from tests.api.helpers import create, move


def ask(client, game, mv):
    return client.get(
        f"/api/v1/games/{game['id']}/legal-moves", query_string={"move": json.dumps(mv)}
    )


def test_a_legal_double_down_is_listed_alone(client):
    game = create(client, kind="prime-drop", first=0, options={"size": 9})
    game = move(
        client, game, game["tokens"]["0"], {"type": "drop", "row": 4, "col": 4, "digit": 3}
    ).get_json()
    double = {
        "type": "double",
        "tiles": [{"row": 4, "col": 5, "digit": 1}, {"row": 4, "col": 6, "digit": 0}],
    }
    listing = ask(client, game, double).get_json()
    assert listing == {
        "seat": 1,
        "ply": 1,
        "moves": [double],
        "words": ["doubles down 1 at [4, 5], then 0 at [4, 6]"],
        "complete": True,
        "note": None,
    }


def test_an_illegal_move_lists_nothing_and_says_why_and_changes_nothing(client):
    game = create(client, kind="prime-drop", first=0, options={"size": 9})
    game = move(
        client, game, game["tokens"]["0"], {"type": "drop", "row": 4, "col": 4, "digit": 3}
    ).get_json()
    far = {
        "type": "double",
        "tiles": [{"row": 0, "col": 0, "digit": 1}, {"row": 0, "col": 1, "digit": 2}],
    }
    listing = ask(client, game, far).get_json()
    assert listing["moves"] == [] and listing["complete"] is True
    assert listing["note"] == (
        "The first tile of a double down must go next to a tile; [0, 0] has none beside it."
    )
    fm = create(client, first=0, options={"n": 10})
    assert (
        ask(client, fm, {"type": "say", "number": 7}).get_json()["note"]
        == "The first number must be even."
    )
    after = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert after["ply"] == 1 and after["version"] == game["version"]


def test_a_malformed_move_is_a_400_naming_it(client):
    game = create(client, first=0)
    bad_json = client.get(f"/api/v1/games/{game['id']}/legal-moves?move=%7Bnope")
    assert bad_json.status_code == 400 and "move" in bad_json.get_json()["message"]
    wrong_shape = ask(client, game, {"type": "say"})
    assert wrong_shape.status_code == 400 and "number" in wrong_shape.get_json()["message"]


def test_a_move_nested_past_the_bound_is_a_400_naming_it(client):
    game = create(client, first=0)
    deep = client.get(
        f"/api/v1/games/{game['id']}/legal-moves", query_string={"move": "[" * 1200}
    )  # a RecursionError, unbounded
    assert deep.status_code == 400 and "move" in deep.get_json()["errors"]["json"]
    assert "levels deep" in deep.get_json()["message"]
