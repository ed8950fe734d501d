"""A bot is offered only where it can play as its line says: Ploid's perfect bot up to n = 3."""

from __future__ import annotations

SEATS = [{"human": {"name": "Ada"}}, {"bot": "perfect"}]


def test_perfect_ploid_is_refused_on_an_unsolved_board(client):
    response = client.post(
        "/api/v1/games", json={"kind": "ploid", "options": {"n": 4}, "seats": SEATS}
    )
    assert response.status_code == 422
    body = response.get_json()
    assert "n = 3" in body["message"] and "seats.1.bot" in str(body)
    ok = client.post("/api/v1/games", json={"kind": "ploid", "options": {"n": 3}, "seats": SEATS})
    assert ok.status_code == 201


def test_a_playtest_with_it_is_refused_too(client):
    response = client.post(
        "/api/v1/playtests",
        json={"kind": "ploid", "options": {"n": 5}, "bots": ["perfect", "advanced"], "games": 2},
    )
    assert response.status_code == 422 and "n = 3" in response.get_json()["message"]
