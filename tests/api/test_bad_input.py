"""Bad input gets a clear error and changes nothing, in every game: never a 500."""

from __future__ import annotations

import pytest

from api.games import GAMES
from tests.api.helpers import create, move

JUNK_VALUES = [None, True, -1, 10**30, 2.5, "x", [1, 2, 3], ["a", "b"], {"a": 1}]
FIELDS = [
    "row",
    "col",
    "digit",
    "number",
    "letter",
    "piece",
    "hex",
    "edge",
    "close",
    "from",
    "to",
    "factor",
    "tiles",
]
TYPES = [
    "drop",
    "double",
    "challenge",
    "stick",
    "claim",
    "subdivide",
    "place",
    "say",
    "fill",
    "start",
    "call",
    "pass",
    "nonsense",
    7,
    None,
]


def junk_moves():
    yield from ("not an object", 5, None, [], {})
    for kind in TYPES:
        yield {"type": kind}
        for field in FIELDS:
            for value in JUNK_VALUES:
                yield {"type": kind, field: value}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_junk_moves_are_refused_with_a_message_and_change_nothing(client, kind):
    game = create(client, kind=kind, first=0)
    token = game["tokens"]["0"]
    for junk in junk_moves():
        response = move(client, game, token, junk)
        assert response.status_code in (400, 422), (junk, response.get_json())
        assert response.get_json()["message"]
    after = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert after["version"] == game["version"] and after["ply"] == 0


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_junk_options_are_refused_naming_the_option(client, kind):
    for option in [o["name"] for o in GAMES[kind].describe()["options"]]:
        for value in JUNK_VALUES:
            response = client.post(
                "/api/v1/games",
                json={"kind": kind, "options": {option: value}, "seats": [{"open": True}] * 2},
            )
            assert response.status_code in (201, 400, 422), (option, value)
            if response.status_code != 201:
                assert f"options.{option}" in response.get_json()["errors"]["json"]
