"""A Redis outage, for real: a Redis of the test's own is stopped under a running app (rate
limiting on), every endpoint that needs Redis answers 503 with Retry-After and a message a
player can read, quickly; those that do not keep answering; and when a Redis comes back on the
same port and data the app carries on by itself, the earlier game still there."""

from __future__ import annotations

import time
from urllib.parse import urlsplit

import pytest

from api.store.embedded import start_redis
from tests.api.helpers import auth, create, move

PROMPT_S = 3.0  # the client's socket timeouts are 2 s; a refused connection is immediate


@pytest.fixture
def own_redis(tmp_path):
    """Start, stop and restart a Redis of this test's own, append-only so its data survives."""
    data = tmp_path / "redis"
    procs = []

    def start(port=None):
        proc, url = start_redis(data, port=port, appendonly=True)
        procs.append(proc)
        return url

    yield start, procs
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)


def _requests(game, token, playtest_id):
    return {
        "GET game": ("GET", f"/api/v1/games/{game['id']}", {}),
        "POST move": (
            "POST",
            f"/api/v1/games/{game['id']}/moves",
            {"headers": auth(token), "json": {"move": {"type": "say", "number": 98}, "ply": 0}},
        ),
        "POST games": (
            "POST",
            "/api/v1/games",
            {
                "json": {
                    "kind": "factor-multiple",
                    "seats": [{"human": {"name": "Ada"}}, {"bot": "greedy"}],
                }
            },
        ),
        "list games": ("GET", "/api/v1/games", {}),
        "health": ("GET", "/api/v1/health", {}),
        "list playtests": ("GET", "/api/v1/playtests", {}),
        "GET playtest": ("GET", f"/api/v1/playtests/{playtest_id}", {}),
        "POST playtest": (
            "POST",
            "/api/v1/playtests",
            {"json": {"kind": "factor-multiple", "bots": ["greedy", "random"], "games": 2}},
        ),
    }


def test_redis_outage_is_503_with_retry_after_then_the_service_resumes(own_redis):
    from api.web import create_app

    start, procs = own_redis
    url = start()
    app = create_app({"TESTING": True, "REDIS_URL": url, "RATELIMIT_ENABLED": True})
    client = app.test_client()
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"bot": "greedy"}], first=0)
    token = game["tokens"]["0"]
    playtest_id = client.post(
        "/api/v1/playtests",
        json={"kind": "factor-multiple", "bots": ["greedy", "random"], "games": 2},
    ).get_json()["id"]
    assert client.get("/api/v1/health").status_code == 200

    procs[0].terminate()
    procs[0].wait(timeout=10)
    for name, (method, path, kwargs) in _requests(game, token, playtest_id).items():
        began = time.monotonic()
        response = client.open(path, method=method, **kwargs)
        took = time.monotonic() - began
        assert response.status_code == 503, (name, response.status_code, response.get_data())
        assert int(response.headers["Retry-After"]) > 0, name
        body = response.get_json()
        assert body["code"] == 503 and "Redis" in body["message"], name
        assert "try again" in body["message"].lower(), name
        assert took < PROMPT_S, (name, took)
    # what needs no Redis is still served, the rate limiter failing open rather than failing
    assert client.get("/api/v1/kinds").status_code == 200
    assert client.get("/api/v1/kinds/factor-multiple/rules").status_code == 200
    assert client.get("/").status_code == 200

    start(port=urlsplit(url).port)
    assert client.get("/api/v1/health").status_code == 200
    again = client.get(f"/api/v1/games/{game['id']}")
    assert again.status_code == 200
    assert {k: again.get_json()[k] for k in ("id", "ply", "version", "seats")} == {
        k: game[k] for k in ("id", "ply", "version", "seats")
    }
    assert move(client, game, token, {"type": "say", "number": 98}).status_code == 201
    assert client.get(f"/api/v1/playtests/{playtest_id}").status_code == 200
    assert int(client.get("/api/v1/kinds").headers["X-RateLimit-Remaining"]) > 0
