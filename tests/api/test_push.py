"""The push, inbox and notification-settings routes: what they keep, and the 422 naming the field
of each thing they refuse (tests/worker/test_push.py sends the pushes)."""

from __future__ import annotations

import ipaddress
import time

import pytest

from api.notify import addresses, push
from api.notify.fanout import describe
from api.players.accounts import authenticate
from api.store import keys
from api.store.notices import NoticeStore
from tests.api.helpers import auth
from tests.api.test_accounts import sign_up
from tests.push_service import Browser, b64url, unb64url

ENDPOINT = "https://push.example.org/send/abc"


def subscription(endpoint: str = ENDPOINT, **keys) -> dict:
    found = Browser("phone").subscription(origin="")
    return {**found, "endpoint": endpoint, "keys": {**found["keys"], **keys}}


def refused(response, field: str, status: int = 422) -> str:
    """The errors naming `field` of a refusal: 422 (well formed, refused) or 400 (malformed)."""
    assert response.status_code == status, response.get_json()
    errors = response.get_json()["errors"]["json"]
    if field in errors:  # the server's own checks name the field with dots
        return str(errors[field])
    for part in field.split("."):  # the schema's, nested
        errors = errors[part]
    return str(errors)


@pytest.fixture
def public_host(monkeypatch):
    """push.example.org resolves to a public address here (no network is asked)."""
    resolve = addresses._resolve
    monkeypatch.setattr(
        addresses,
        "_resolve",
        lambda host, port: (
            [ipaddress.ip_address("93.184.215.14")]
            if host == "push.example.org"
            else resolve(host, port)
        ),
    )


def test_the_key_is_an_uncompressed_p256_point_kept_across_processes(client, redis_client):
    key = client.get("/api/v1/push/key").get_json()["key"]
    assert len(unb64url(key)) == 65 and unb64url(key)[0] == 4
    assert push.public_key(NoticeStore(redis_client)) == key
    assert client.get("/api/v1/push/key").get_json()["key"] == key


def test_a_given_private_key_is_the_servers(client, monkeypatch):
    monkeypatch.setenv("POSTPLAY_VAPID_PRIVATE_KEY", push._new_pem())
    given = client.get("/api/v1/push/key").get_json()["key"]
    monkeypatch.delenv("POSTPLAY_VAPID_PRIVATE_KEY")
    assert client.get("/api/v1/push/key").get_json()["key"] != given


def test_a_device_is_added_listed_and_removed(client, public_host):
    bob = sign_up(client, "bob")["token"]
    made = client.post(
        "/api/v1/me/push",
        headers=auth(bob),
        json={"subscription": subscription(), "device": "Phone"},
    )
    assert made.status_code == 201, made.get_json()
    device = made.get_json()
    assert device["device"] == "Phone" and "keys" not in device
    again = client.post(
        "/api/v1/me/push",
        headers=auth(bob),
        json={"subscription": subscription(), "device": "Phone, again"},
    )
    assert again.get_json()["id"] == device["id"]  # the same endpoint replaces it
    listed = client.get("/api/v1/me/push", headers=auth(bob)).get_json()
    assert [d["device"] for d in listed] == ["Phone, again"]
    assert client.delete(f"/api/v1/me/push/{device['id']}", headers=auth(bob)).status_code == 204
    assert client.get("/api/v1/me/push", headers=auth(bob)).get_json() == []
    assert client.delete(f"/api/v1/me/push/{device['id']}", headers=auth(bob)).status_code == 404


def test_push_needs_an_account(client):
    assert client.get("/api/v1/me/push").status_code == 401
    assert client.get("/api/v1/me/notifications").status_code == 401


@pytest.mark.parametrize(
    "endpoint, says",
    [
        ("http://push.example.org/send/abc", "https"),
        ("https://127.0.0.1/send", "private"),
        ("https://10.1.2.3/send", "private"),
        ("ftp://push.example.org/x", "https"),
        ("not a url", "https"),
    ],
)
def test_an_endpoint_not_https_on_a_public_address_is_refused(client, public_host, endpoint, says):
    bob = sign_up(client, "bob")["token"]
    answer = client.post(
        "/api/v1/me/push",
        headers=auth(bob),
        json={"subscription": subscription(endpoint), "device": "x"},
    )
    assert says in refused(answer, "subscription.endpoint")


@pytest.mark.parametrize(
    "name, value", [("p256dh", b64url(b"\x04" * 10)), ("auth", b64url(b"x" * 5)), ("auth", "!!")]
)
def test_keys_not_a_browsers_are_refused(client, public_host, name, value):
    bob = sign_up(client, "bob")["token"]
    answer = client.post(
        "/api/v1/me/push", headers=auth(bob), json={"subscription": subscription(**{name: value})}
    )
    assert "PushSubscription" in refused(answer, f"subscription.keys.{name}")


def test_a_missing_key_is_named(client):
    bob = sign_up(client, "bob")["token"]
    body = subscription()
    del body["keys"]["auth"]
    answer = client.post("/api/v1/me/push", headers=auth(bob), json={"subscription": body})
    refused(answer, "subscription.keys.auth", 400)


def test_an_expiration_time_is_a_number_or_null(client, public_host):
    """The document's nullable number: a browser's milliseconds or null are taken, words are not."""
    bob = sign_up(client, "bob")["token"]
    for taken in (None, 1767225600000):
        body = {"subscription": {**subscription(), "expirationTime": taken}, "device": "x"}
        answer = client.post("/api/v1/me/push", headers=auth(bob), json=body)
        assert answer.status_code == 201, answer.get_json()
    body = {"subscription": {**subscription(), "expirationTime": "soon"}}
    answer = client.post("/api/v1/me/push", headers=auth(bob), json=body)
    assert "number" in refused(answer, "subscription.expirationTime", 400)


def test_settings_choose_channels_per_event_and_quiet_when_present(client):
    bob = sign_up(client, "bob")["token"]
    me = client.get("/api/v1/me", headers=auth(bob)).get_json()
    assert me["settings"]["quiet_when_present"] is True and me["unread"] == 0
    client.patch("/api/v1/me", headers=auth(bob), json={"notify": {"chat": ["inbox"]}})
    patched = client.patch(
        "/api/v1/me",
        headers=auth(bob),
        json={
            "notify": {"turn": ["push", "inbox", "push"], "game-over": False},
            "quiet_when_present": False,
        },
    )
    assert patched.status_code == 200, patched.get_json()
    settings = patched.get_json()["settings"]
    assert settings["notify"] == {"chat": ["inbox"], "turn": ["push", "inbox"], "game-over": False}
    assert settings["quiet_when_present"] is False


@pytest.mark.parametrize(
    "body, field, status",
    [
        ({"notify": {"moves": ["push"]}}, "notify.moves.key", 422),
        ({"notify": {"turn": ["pigeon"]}}, "notify.turn.value", 422),
        ({"notify": {"turn": "push"}}, "notify.turn.value", 400),
        ({"quiet_when_present": "yes"}, "quiet_when_present", 400),
    ],
)
def test_unknown_events_and_channels_are_refused(client, body, field, status):
    bob = sign_up(client, "bob")["token"]
    answer = client.patch("/api/v1/me", headers=auth(bob), json=body)
    refused(answer, field, status)
    assert client.get("/api/v1/me", headers=auth(bob)).get_json()["settings"]["notify"] == {}


def test_the_inbox_keeps_each_notification_once_newest_first_with_an_etag(client, redis_client):
    bob = sign_up(client, "bob")
    notices = NoticeStore(redis_client)
    who = authenticate(client.application.extensions["postplay"]["accounts"], bob["token"])
    now = time.time()
    for n, ts in enumerate([now - 40 * 86400, now - 60, now - 30]):
        item = {
            "id": f"msg_{n}",
            "type": "turn",
            "game": "g1",
            "title": "Ploid",
            "text": "Your move against ada (Ploid)",
            "url": "/#/game/g1",
            "ts": ts,
        }
        notices.record(who.id, item, now)
        notices.record(who.id, item, now)  # a repeated delivery
    listed = client.get("/api/v1/me/notifications", headers=auth(bob["token"]))
    assert [n["id"] for n in listed.get_json()] == ["msg_2", "msg_1"]  # 30 days, newest first
    etag = listed.headers["ETag"]
    assert (
        client.get(
            "/api/v1/me/notifications", headers={**auth(bob["token"]), "If-None-Match": etag}
        ).status_code
        == 304
    )
    assert client.get("/api/v1/me", headers=auth(bob["token"])).get_json()["unread"] == 2
    assert (
        client.post(
            "/api/v1/me/notifications/read", headers=auth(bob["token"]), json={"ids": ["msg_2"]}
        ).status_code
        == 204
    )
    unread = client.get("/api/v1/me/notifications?unread=1", headers=auth(bob["token"]))
    assert [n["id"] for n in unread.get_json()] == ["msg_1"]
    assert (
        client.get(
            "/api/v1/me/notifications", headers={**auth(bob["token"]), "If-None-Match": etag}
        ).status_code
        == 200
    )
    client.post("/api/v1/me/notifications/read", headers=auth(bob["token"]), json={"all": True})
    assert client.get("/api/v1/me", headers=auth(bob["token"])).get_json()["unread"] == 0
    notices.record(
        who.id,
        {
            "id": "msg_2",
            "type": "turn",
            "game": "g1",
            "title": "Ploid",
            "text": "",
            "url": "",
            "ts": now - 30,
        },
        now,
    )
    assert client.get("/api/v1/me", headers=auth(bob["token"])).get_json()["unread"] == 0


@pytest.mark.parametrize(
    "body, field, status",
    [
        ({}, "ids", 422),
        ({"ids": ["a"], "all": True}, "ids", 422),
        ({"all": False}, "ids", 422),
        ({"ids": "a"}, "ids", 400),
        ({"everything": True}, "everything", 400),
    ],
)
def test_marking_read_takes_ids_or_all(client, body, field, status):
    bob = sign_up(client, "bob")["token"]
    answer = client.post("/api/v1/me/notifications/read", headers=auth(bob), json=body)
    refused(answer, field, status)


def test_a_line_names_the_opponent_and_the_game():
    game = {
        "kind": "ploid",
        "seats": [{"name": "Ada", "player": "Ada"}, {"name": "bob", "player": "bob"}],
        "result": {"winner": 1},
    }
    assert describe("turn", game, "bob") == ("Ploid", "Your move against Ada (Ploid)")
    assert describe("game-over", game, "bob")[1] == "You won against Ada (Ploid)"
    assert describe("game-over", game, "ada")[1] == "You lost against bob (Ploid)"
    assert describe("challenge", game, "bob")[1] == "Ada challenges you to Ploid"
    assert (
        describe("reminder", game, "bob", 60)[1] == "1 hour left for your move against Ada (Ploid)"
    )


def test_reading_a_game_or_ones_games_signed_in_marks_presence(client, redis_client):
    bob = sign_up(client, "bob")["token"]
    who = authenticate(client.application.extensions["postplay"]["accounts"], bob)
    notices = NoticeStore(redis_client)
    game = client.post(
        "/api/v1/games",
        json={
            "kind": "factor-multiple",
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
        },
    ).get_json()
    client.get(f"/api/v1/games/{game['id']}")  # anonymous: nobody is marked
    assert not notices.present(who.id, game["id"])
    read = client.get(f"/api/v1/games/{game['id']}", headers=auth(bob))
    assert notices.present(who.id, game["id"]) and not notices.present(who.id, "other")
    redis_client.delete(keys.presence_key(who.id, game["id"]))
    polled = client.get(
        f"/api/v1/games/{game['id']}", headers={**auth(bob), "If-None-Match": read.headers["ETag"]}
    )
    assert polled.status_code == 304 and notices.present(who.id, game["id"])  # a poll counts
    redis_client.flushdb()
    bob = sign_up(client, "bob")["token"]
    who = authenticate(client.application.extensions["postplay"]["accounts"], bob)
    assert client.get("/api/v1/me/games", headers=auth(bob)).status_code == 200
    assert notices.present(who.id, "any-game")  # at its list: present at every game of it
    ttl = redis_client.ttl(keys.presence_key(who.id, "games"))
    assert 0 < ttl <= 120
