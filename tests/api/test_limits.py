"""Rate limits: one budget per client shared by every endpoint, stricter limits on creating games
and playtests, and the client's address taken from X-Forwarded-For only through the configured
number of trusted proxies."""

from __future__ import annotations

import pytest

GAME = {"kind": "factor-multiple", "seats": [{"human": {"name": "Ada"}}, {"bot": "greedy"}]}
PLAYTEST = {"kind": "factor-multiple", "bots": ["greedy", "random"], "games": 1}


@pytest.fixture
def limited_app(redis_url, redis_client):
    from api.web import create_app

    def make(**config):
        return create_app(
            {"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": True, **config}
        )

    return make


def assert_refused(response):
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) > 0
    assert response.get_json()["message"] == "Too many requests: slow down and try again shortly."


def test_a_rematch_counts_as_a_new_game(limited_app):
    client = limited_app(LIMIT_NEW_GAME="2 per minute").test_client()
    game = client.post(
        "/api/v1/games",
        json={
            "kind": "factor-multiple",
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
        },
    )
    token = {"Authorization": f"Bearer {game.get_json()['tokens']['0']}"}
    url = f"/api/v1/games/{game.get_json()['id']}"
    assert client.post(f"{url}/resign", headers=token).status_code == 201
    assert client.post(f"{url}/rematch", headers=token).status_code == 201
    assert_refused(client.post(f"{url}/rematch", headers=token))
    assert_refused(client.post("/api/v1/games", json=GAME))


def test_one_budget_is_shared_by_every_endpoint(limited_app):
    client = limited_app(RATELIMIT_APPLICATION="4 per minute").test_client()
    game = client.post("/api/v1/games", json=GAME)
    assert game.status_code == 201
    assert client.get(f"/api/v1/games/{game.get_json()['id']}").status_code == 200
    assert client.get("/api/v1/kinds").status_code == 200
    assert client.get("/api/v1/playtests").status_code == 200
    assert_refused(client.get("/api/v1/games"))
    assert_refused(client.get("/api/v1/kinds"))
    # another client has a budget of its own
    other = client.get("/api/v1/kinds", environ_base={"REMOTE_ADDR": "192.0.2.9"})
    assert other.status_code == 200 and other.headers["X-RateLimit-Remaining"] == "3"


def test_creating_games_and_playtests_has_a_stricter_limit(limited_app):
    client = limited_app(
        LIMIT_NEW_GAME="2 per minute", LIMIT_NEW_PLAYTEST="1 per minute"
    ).test_client()
    assert [client.post("/api/v1/games", json=GAME).status_code for _ in range(2)] == [201, 201]
    assert_refused(client.post("/api/v1/games", json=GAME))
    assert client.post("/api/v1/playtests", json=PLAYTEST).status_code == 202
    assert_refused(client.post("/api/v1/playtests", json=PLAYTEST))
    # the rest of the API still answers: only creating is held back
    assert client.get("/api/v1/games").status_code == 200
    assert client.get("/api/v1/playtests").status_code == 200


def test_health_checks_neither_spend_the_budget_nor_are_refused(limited_app):
    client = limited_app(RATELIMIT_APPLICATION="2 per minute").test_client()
    assert [client.get("/api/v1/health").status_code for _ in range(5)] == [200] * 5
    assert [client.get("/api/v1/kinds").status_code for _ in range(3)] == [200, 200, 429]
    assert client.get("/api/v1/health").status_code == 200


def test_cors_preflight_does_not_spend_the_budget(limited_app):
    client = limited_app(RATELIMIT_APPLICATION="2 per minute").test_client()
    preflight = {
        "Origin": "https://client.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type",
    }
    for _ in range(3):
        assert client.options("/api/v1/games", headers=preflight).status_code == 200
    assert [client.get("/api/v1/kinds").status_code for _ in range(3)] == [200, 200, 429]


@pytest.mark.parametrize("proxies, limited", [(0, True), (1, False)])
def test_x_forwarded_for_counts_only_through_trusted_proxies(limited_app, proxies, limited):
    client = limited_app(
        RATELIMIT_APPLICATION="2 per minute", TRUSTED_PROXIES=proxies
    ).test_client()
    # one proxy at 10.0.0.1 forwarding three different clients, two requests each
    statuses = [
        client.get(
            "/api/v1/kinds",
            environ_base={"REMOTE_ADDR": "10.0.0.1"},
            headers={"X-Forwarded-For": f"198.51.100.{n}"},
        ).status_code
        for n in (1, 1, 2, 2, 3, 3)
    ]
    if limited:  # the header is anyone's to write: all six come from the proxy's address
        assert statuses == [200, 200, 429, 429, 429, 429]
    else:
        assert statuses == [200] * 6
        assert (
            client.get(
                "/api/v1/kinds",
                environ_base={"REMOTE_ADDR": "10.0.0.1"},
                headers={"X-Forwarded-For": "198.51.100.1"},
            ).status_code
            == 429
        )
        # a client that writes its own X-Forwarded-For gets only the address the proxy saw
        spoofed = {"X-Forwarded-For": "203.0.113.7, 198.51.100.1"}
        assert (
            client.get(
                "/api/v1/kinds", environ_base={"REMOTE_ADDR": "10.0.0.1"}, headers=spoofed
            ).status_code
            == 429
        )


def test_chat_messages_have_a_stricter_limit(limited_app):
    client = limited_app(LIMIT_CHAT="2 per minute").test_client()
    game = client.post(
        "/api/v1/games",
        json={
            "kind": "factor-multiple",
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
        },
    ).get_json()
    headers = {"Authorization": f"Bearer {game['tokens']['0']}"}
    chat = f"/api/v1/games/{game['id']}/chat"
    assert [
        client.post(chat, headers=headers, json={"text": "hi"}).status_code for _ in range(2)
    ] == [201, 201]
    assert_refused(client.post(chat, headers=headers, json={"text": "hi"}))
    assert client.get(chat, headers=headers).status_code == 200  # reading is not held back
