"""Webhook endpoints through the API: register (the secret once), list, delete, the delivery log,
scopes, every refusal (not http(s), credentials in the URL, private, loopback and link-local
targets unless POSTPLAY_WEBHOOK_ALLOW_PRIVATE=1, too many), and the outbox written with the
change itself, for account games only."""

from __future__ import annotations

import json

import pytest

from api.notify import endpoints
from api.store import keys
from tests.api.helpers import auth, create, move
from tests.api.test_accounts import new_game, sign_up

HOOKS = "/api/v1/me/webhooks"


@pytest.fixture
def private_allowed(monkeypatch):
    monkeypatch.setenv("POSTPLAY_WEBHOOK_ALLOW_PRIVATE", "1")


@pytest.fixture
def private_refused(monkeypatch):
    monkeypatch.delenv("POSTPLAY_WEBHOOK_ALLOW_PRIVATE", raising=False)


def register(client, token: str, url: str = "http://127.0.0.1:9/hook", events=("turn",)):
    return client.post(HOOKS, headers=auth(token), json={"url": url, "events": list(events)})


def test_a_webhook_is_registered_listed_and_deleted_and_its_secret_shown_once(
    client, private_allowed
):
    ada = sign_up(client, "ada")["token"]
    made = register(client, ada, events=["turn", "game-over", "turn"])
    assert made.status_code == 201, made.get_json()
    hook = made.get_json()
    assert hook["secret"].startswith("whsec_") and hook["events"] == ["turn", "game-over"]
    assert hook["disabled"] is False
    listed = client.get(HOOKS, headers=auth(ada)).get_json()
    assert [h["id"] for h in listed] == [hook["id"]] and "secret" not in listed[0]
    log = client.get(f"{HOOKS}/{hook['id']}/deliveries", headers=auth(ada))
    assert log.status_code == 200 and log.get_json() == []
    assert client.delete(f"{HOOKS}/{hook['id']}", headers=auth(ada)).status_code == 204
    assert client.get(HOOKS, headers=auth(ada)).get_json() == []
    gone = client.delete(f"{HOOKS}/{hook['id']}", headers=auth(ada))
    assert gone.status_code == 404 and "no webhook" in gone.get_json()["message"]
    assert client.get(f"{HOOKS}/{hook['id']}/deliveries", headers=auth(ada)).status_code == 404


def test_another_accounts_webhook_is_not_yours(client, private_allowed):
    ada, bob = sign_up(client, "ada")["token"], sign_up(client, "bob")["token"]
    hook = register(client, ada).get_json()
    assert client.delete(f"{HOOKS}/{hook['id']}", headers=auth(bob)).status_code == 404
    assert client.get(HOOKS, headers=auth(bob)).get_json() == []


def test_webhooks_need_the_webhooks_scope(client, private_allowed):
    ada = sign_up(client, "ada")["token"]
    made = client.post(
        "/api/v1/me/tokens",
        headers=auth(ada),
        json={"description": "bot", "scopes": ["read", "play"]},
    )
    reader = made.get_json()["token"]
    refused = register(client, reader)
    assert refused.status_code == 403 and "webhooks" in refused.get_json()["message"]
    assert client.get(HOOKS, headers=auth(reader)).status_code == 403
    hooks = client.post(
        "/api/v1/me/tokens", headers=auth(ada), json={"description": "bot", "scopes": ["webhooks"]}
    ).get_json()["token"]
    assert register(client, hooks).status_code == 201
    assert client.get(HOOKS).status_code == 401


@pytest.mark.parametrize(
    "url, says",
    [
        ("http://127.0.0.1:8000/hook", "private, loopback or link-local"),
        ("http://localhost/hook", "private, loopback or link-local"),
        ("http://10.1.2.3/", "private, loopback or link-local"),
        ("http://192.168.0.10/", "private, loopback or link-local"),
        ("https://169.254.169.254/latest/meta-data", "private, loopback or link-local"),
        ("http://[::1]:80/", "private, loopback or link-local"),
        ("http://[::ffff:127.0.0.1]/", "private, loopback or link-local"),
        ("http://0.0.0.0/", "private, loopback or link-local"),
        ("ftp://example.org/hook", "http:// or https://"),
        ("not a url", "http:// or https://"),
        ("http://user:secret@example.org/", "user name or password"),
        ("http://example.invalid/", "cannot be found"),
    ],
)
def test_urls_that_are_not_public_http_are_refused_422(client, private_refused, url, says):
    ada = sign_up(client, "ada")["token"]
    refused = register(client, ada, url=url)
    assert refused.status_code == 422, refused.get_json()
    body = refused.get_json()
    assert says in body["message"] and "url" in body["errors"]["json"]
    assert client.get(HOOKS, headers=auth(ada)).get_json() == []


def test_a_malformed_body_names_the_field(client, private_allowed):
    ada = sign_up(client, "ada")["token"]
    for body, field in [
        ({"url": "http://127.0.0.1/"}, "events"),
        ({"url": "http://127.0.0.1/", "events": ["moves"]}, "events.0"),
        ({"url": "http://127.0.0.1/", "events": []}, "events"),
        ({"events": ["turn"]}, "url"),
    ]:
        response = client.post(HOOKS, headers=auth(ada), json=body)
        assert response.status_code == 400 and field in response.get_json()["errors"]["json"]


def test_an_account_has_at_most_ten_webhooks(client, private_allowed):
    ada = sign_up(client, "ada")["token"]
    for _ in range(endpoints.MAX_ENDPOINTS):
        assert register(client, ada).status_code == 201
    refused = register(client, ada)
    assert refused.status_code == 422 and "at most" in refused.get_json()["message"]


def _outbox(redis_client) -> list[dict]:
    return [json.loads(fields[b"event"]) for _, fields in redis_client.xrange(keys.outbox_key())]


def test_a_change_to_an_account_game_writes_its_events_to_the_outbox(client, redis_client):
    ada, bob = sign_up(client, "ada")["token"], sign_up(client, "bob")
    game = new_game(client, ada, [{"me": True}, {"player": "bob"}])
    assert [(e["type"], e["game"]) for e in _outbox(redis_client)] == [("challenge", game["id"])]
    client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bob["token"]))
    moved = move(
        client,
        client.get(f"/api/v1/games/{game['id']}").get_json(),
        ada,
        {"type": "say", "number": 4},
    )
    assert moved.status_code == 201
    told = [(e["type"], e["account"]) for e in _outbox(redis_client)]
    bob_id = redis_client.get(keys.username_key("bob")).decode()
    assert told[1:] == [("turn", told[1][1]), ("turn", bob_id)]  # ada first, then bob
    last = json.loads(_outbox(redis_client)[-1]["body"])
    assert last["type"] == "turn" and last["data"]["ply"] == 1 and last["data"]["to_move"] == 1


def test_games_without_accounts_write_nothing_to_the_outbox(client, redis_client):
    game = create(client, first=0)
    move(client, game, game["tokens"]["0"], {"type": "say", "number": 4})
    create(client, seats=[{"bot": "greedy"}, {"bot": "random"}])
    assert redis_client.xlen(keys.outbox_key()) == 0
