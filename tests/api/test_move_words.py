"""The move's words over HTTP: the same notation beside each position's move, in the legal-moves
listing and in the refusal of a move."""

from __future__ import annotations

from tests.api.helpers import create, move

STICK = {"type": "stick", "edge": [6, 12]}
B1_C1 = "places a stick between B1 and C1"


def test_a_move_reads_the_same_in_the_positions_the_listing_and_its_refusal(client):
    game = create(client, kind="partition", first=0)
    listing = client.get(f"/api/v1/games/{game['id']}/legal-moves").get_json()
    assert listing["words"][listing["moves"].index(STICK)] == B1_C1
    played = move(client, game, game["tokens"]["0"], STICK)
    assert played.status_code == 201, played.get_json()

    positions = client.get(f"/api/v1/games/{game['id']}/positions").get_json()
    assert [p["words"] for p in positions] == [None, B1_C1]
    assert client.get(f"/api/v1/games/{game['id']}/positions?from=1").get_json()[0]["words"] == (
        B1_C1
    )

    again = move(client, played.get_json(), game["tokens"]["0"], STICK)
    assert again.status_code == 422
    body = again.get_json()
    assert body["words"] == B1_C1
    assert body["message"] == "The edge between B1 and C1 already has a stick."


def test_a_move_of_the_wrong_shape_has_no_words(client):
    game = create(client, kind="factor-multiple", first=0)
    response = move(client, game, game["tokens"]["0"], {"type": "say", "number": "twelve"})
    assert response.status_code == 400 and "words" not in response.get_json()
