"""Small helpers the API tests share."""

from __future__ import annotations

import re


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(client, kind="factor-multiple", seats=None, **body):
    seats = seats or [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}]
    response = client.post("/api/v1/games", json={"kind": kind, "seats": seats, **body})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def move(client, game, token, move, ply=None):
    return client.post(
        f"/api/v1/games/{game['id']}/moves",
        headers=auth(token),
        json={"move": move, "ply": game["ply"] if ply is None else ply},
    )


def requests_counted(client, method: str, route: str, status: str) -> float:
    """The request metrics' count of `method` `route` answered `status`, as /metrics shows it."""
    text = client.get("/metrics").get_data(as_text=True)
    found = re.search(
        rf'postplay_http_requests_total\{{method="{method}",route="'
        rf'{re.escape(route)}",status="{status}"\}} (\S+)',
        text,
    )
    return float(found[1]) if found else 0.0
