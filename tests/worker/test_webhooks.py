"""Webhook deliveries to a real local HTTP receiver, made by the workers' Notifier (here run in the
test's process, step by step; tests/worker/test_webhook_faults.py runs real worker processes):
signatures verified with the standardwebhooks library, the game as the API shows it, retries
after a 500 under the same webhook-id, the endpoint disabled after the retry window (compressed
to a second), the address checked again at delivery time and the connection made to it, and an
account's settings and an endpoint's events respected."""

from __future__ import annotations

import json
import shutil
import subprocess
import time

import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from api.notify import delivery
from api.notify.delivery import Notifier, Policy
from api.store.webhooks import WebhookStore
from tests.api.helpers import auth, move
from tests.api.test_accounts import new_game, sign_up
from tests.webhook_receiver import Receiver

FAST = Policy(timeout_s=2.0, retry_base_s=0.1, retry_max_s=0.4, window_s=30.0)


@pytest.fixture(autouse=True)
def private_allowed(monkeypatch):
    monkeypatch.setenv("POSTPLAY_WEBHOOK_ALLOW_PRIVATE", "1")


@pytest.fixture
def notifier(redis_client):
    made = []

    def make(policy: Policy = FAST) -> Notifier:
        made.append(Notifier(redis_client, "test-notifier", policy))
        return made[-1]

    yield make
    for one in made:
        one.close()


def deliver(notifier: Notifier, until, timeout_s: float = 10.0):
    """Run the notifier until `until()` is truthy; its value."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        notifier.step(time.time(), block_ms=50)
        notifier.wait()
        if found := until():
            return found
    raise AssertionError("the notifier never got there")


def hook(client, token: str, url: str, events=("turn",)) -> dict:
    made = client.post(
        "/api/v1/me/webhooks", headers=auth(token), json={"url": url, "events": list(events)}
    )
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def two_players(client) -> tuple[str, str, dict]:
    """Ada and Bob, and a game between them where Ada moves first."""
    ada, bob = sign_up(client, "ada")["token"], sign_up(client, "bob")["token"]
    game = new_game(client, ada, [{"me": True}, {"player": "bob"}], options={"n": 30})
    client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bob))
    return ada, bob, client.get(f"/api/v1/games/{game['id']}").get_json()


def test_a_move_is_delivered_signed_with_the_game_as_the_api_shows_it(client, notifier):
    with Receiver() as receiver:
        ada, bob, game = two_players(client)
        endpoint = hook(client, bob, receiver.url)
        moved = move(client, game, ada, {"type": "say", "number": 4}).get_json()
        (got,) = deliver(notifier(), lambda: receiver.received)
    payload = Webhook(endpoint["secret"]).verify(got.body, got.headers)
    assert payload["type"] == "turn" and payload["data"]["id"] == game["id"]
    shown = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert payload["data"] == moved == shown
    assert got.headers["webhook-id"].startswith("msg_")
    assert got.headers["content-type"] == "application/json"
    with pytest.raises(WebhookVerificationError):  # another secret does not verify it
        Webhook(hook(client, bob, receiver.url)["secret"]).verify(got.body, got.headers)
    (attempt,) = client.get(
        f"/api/v1/me/webhooks/{endpoint['id']}/deliveries", headers=auth(bob)
    ).get_json()
    assert attempt["outcome"] == "delivered" and attempt["status"] == 200
    assert attempt["webhook_id"] == got.headers["webhook-id"] and attempt["latency_ms"] >= 0


def test_the_connection_goes_to_the_address_checked_with_the_name_as_host(client, notifier):
    with Receiver() as receiver:
        ada, bob, game = two_players(client)
        endpoint = hook(client, bob, f"http://localhost:{receiver.port}/hook?who=bob")
        move(client, game, ada, {"type": "say", "number": 4})
        (got,) = deliver(notifier(), lambda: receiver.received)
    assert got.headers["host"] == f"localhost:{receiver.port}"
    assert Webhook(endpoint["secret"]).verify(got.body, got.headers)["type"] == "turn"


def certificate(tmp_path, name: str) -> tuple[str, str]:
    """A self-signed certificate for `name` and its key (PEM files), made with openssl."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is missing: it makes the test's certificate")
    cert, key = tmp_path / f"{name}.pem", tmp_path / f"{name}.key"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            f"/CN={name}",
            "-addext",
            f"subjectAltName=DNS:{name}",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return str(cert), str(key)


@pytest.mark.parametrize("named, delivered", [("localhost", True), ("elsewhere.example", False)])
def test_https_connects_to_the_address_checked_and_checks_the_certificate_for_the_name(
    client, notifier, tmp_path, named, delivered
):
    cert = certificate(tmp_path, named)
    with Receiver(tls=cert) as receiver:
        ada, bob, game = two_players(client)
        endpoint = hook(client, bob, f"https://localhost:{receiver.port}/hook")
        move(client, game, ada, {"type": "say", "number": 4})
        trusting = notifier(Policy(timeout_s=2.0, retry_base_s=30.0, ca_bundle=cert[0]))

        def logged():
            return client.get(
                f"/api/v1/me/webhooks/{endpoint['id']}/deliveries", headers=auth(bob)
            ).get_json()

        (attempt,) = deliver(trusting, logged)
    if delivered:
        (got,) = receiver.received
        assert (
            attempt["outcome"] == "delivered"
            and got.headers["host"] == f"localhost:{receiver.port}"
        )
        assert Webhook(endpoint["secret"]).verify(got.body, got.headers)["type"] == "turn"
    else:  # the certificate names another host: refused before anything is sent
        assert receiver.received == [] and attempt["outcome"] == "retrying"
        assert "SSL" in attempt["error"] or "certificate" in attempt["error"]


def test_a_500_is_retried_with_backoff_under_the_same_webhook_id(client, notifier):
    with Receiver(statuses=[500, 503]) as receiver:
        ada, bob, game = two_players(client)
        endpoint = hook(client, bob, receiver.url)
        move(client, game, ada, {"type": "say", "number": 4})
        got = deliver(notifier(), lambda: len(receiver.received) >= 3 and receiver.received)
    assert len({r.headers["webhook-id"] for r in got}) == 1
    secret = Webhook(endpoint["secret"])
    assert all(secret.verify(r.body, r.headers)["type"] == "turn" for r in got)
    gaps = [b.at - a.at for a, b in zip(got, got[1:])]
    assert gaps[0] >= 0.1 and gaps[1] >= 0.2  # the delay doubles
    log = client.get(
        f"/api/v1/me/webhooks/{endpoint['id']}/deliveries", headers=auth(bob)
    ).get_json()
    assert [(a["attempt"], a["status"], a["outcome"]) for a in log] == [
        (3, 200, "delivered"),
        (2, 503, "retrying"),
        (1, 500, "retrying"),
    ]
    assert "HTTP 500" in log[2]["error"] and log[2]["next_attempt_at"]


def test_after_the_retry_window_the_endpoint_is_disabled_and_the_account_told(client, notifier):
    window = Policy(timeout_s=2.0, retry_base_s=0.1, retry_max_s=0.2, window_s=1.0)
    with Receiver(statuses=[500] * 100) as receiver:
        ada, bob, game = two_players(client)
        endpoint = hook(client, bob, receiver.url)
        move(client, game, ada, {"type": "say", "number": 4})
        running = notifier(window)

        def disabled():
            listed = client.get("/api/v1/me/webhooks", headers=auth(bob)).get_json()
            return listed[0]["disabled"] and listed[0]

        shown = deliver(running, disabled)
        tries = len(receiver.received)
        assert 4 <= tries <= 12  # 0.1, 0.2, 0.2... s apart for a second
        me = client.get("/api/v1/me", headers=auth(bob)).get_json()
        assert [h["id"] for h in me["webhooks_disabled"]] == [endpoint["id"]]
        assert "kept failing" in shown["disabled_reason"] and shown["disabled_at"]
        log = client.get(
            f"/api/v1/me/webhooks/{endpoint['id']}/deliveries", headers=auth(bob)
        ).get_json()
        assert log[0]["outcome"] == "failed" and {a["outcome"] for a in log[1:]} == {"retrying"}
        # a disabled endpoint gets nothing more
        again = client.get(f"/api/v1/games/{game['id']}").get_json()
        move(client, again, bob, {"type": "say", "number": 8})
        move(
            client,
            client.get(f"/api/v1/games/{game['id']}").get_json(),
            ada,
            {"type": "say", "number": 16},
        )
        for _ in range(10):
            running.step(time.time(), block_ms=50)
            running.wait()
        assert len(receiver.received) == tries


def test_the_address_is_checked_again_at_delivery_time(client, notifier, monkeypatch):
    with Receiver() as receiver:
        ada, bob, game = two_players(client)
        endpoint = hook(client, bob, receiver.url)  # allowed when it was registered
        monkeypatch.delenv("POSTPLAY_WEBHOOK_ALLOW_PRIVATE")
        move(client, game, ada, {"type": "say", "number": 4})

        def logged():
            return client.get(
                f"/api/v1/me/webhooks/{endpoint['id']}/deliveries", headers=auth(bob)
            ).get_json()

        log = deliver(notifier(), logged)
        assert receiver.received == []
    assert log[0]["status"] is None and "private" in log[0]["error"]
    assert log[0]["outcome"] == "retrying"


def test_deliveries_follow_the_endpoints_events_and_the_accounts_settings(client, notifier):
    with Receiver() as receiver:
        ada, bob = sign_up(client, "ada")["token"], sign_up(client, "bob")["token"]
        to_bob = Webhook(hook(client, bob, receiver.url, events=["game-over"])["secret"])
        to_ada = Webhook(hook(client, ada, receiver.url, events=["turn", "game-over"])["secret"])
        client.patch("/api/v1/me", headers=auth(ada), json={"notify": {"game-over": False}})
        game = new_game(client, ada, [{"me": True}, {"player": "bob"}], options={"n": 30})
        client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bob))  # ada's turn
        game = client.get(f"/api/v1/games/{game['id']}").get_json()
        move(client, game, ada, {"type": "say", "number": 4})  # bob's: he takes no turns
        client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(bob))  # ada: off
        running = notifier()
        deliver(running, lambda: len(receiver.received) >= 2)
        for _ in range(10):
            running.step(time.time(), block_ms=50)
            running.wait()
    # (made at once, by the pool's threads: in either order)
    turn, over = sorted(receiver.received, key=lambda r: json.loads(r.body)["type"] != "turn")
    assert to_ada.verify(turn.body, turn.headers)["type"] == "turn"
    assert to_bob.verify(over.body, over.headers)["type"] == "game-over"
    assert len(receiver.received) == 2


def test_a_challenge_is_delivered_to_the_account_challenged(client, notifier):
    with Receiver() as receiver:
        ada, bob = sign_up(client, "ada")["token"], sign_up(client, "bob")["token"]
        endpoint = hook(client, bob, receiver.url, events=["challenge"])
        game = new_game(client, ada, [{"me": True}, {"player": "bob"}])
        (got,) = deliver(notifier(), lambda: receiver.received)
    payload = Webhook(endpoint["secret"]).verify(got.body, got.headers)
    assert payload["type"] == "challenge" and payload["data"]["id"] == game["id"]
    assert payload["data"]["seats"][1]["invited"] == "bob"


def test_an_event_read_by_a_worker_that_died_before_fanning_it_out_is_delivered(
    client, redis_client, notifier, monkeypatch
):
    with Receiver() as receiver:
        ada, bob, game = two_players(client)
        hook(client, bob, receiver.url)
        move(client, game, ada, {"type": "say", "number": 4})
        store = WebhookStore(redis_client)
        store.ensure_group()
        read = store.read_outbox("a-worker-that-died", 100, None)  # and never fanned out
        assert [e["type"] for _, e in read][-1] == "turn"
        assert notifier().step(time.time()) == 0  # pending with the dead worker: not new
        monkeypatch.setattr(delivery, "OUTBOX_IDLE_MS", 0)  # its claim has run out
        (got,) = deliver(notifier(), lambda: receiver.received)
    assert json.loads(got.body)["type"] == "turn"
    assert store.outbox_length() == 0


def test_a_draw_offer_a_takeback_request_and_a_chat_line_reach_the_opponent(client, notifier):
    with Receiver() as receiver:
        ada, bob, game = two_players(client)
        endpoint = hook(client, bob, receiver.url, events=("draw-offer", "takeback", "chat"))
        base = f"/api/v1/games/{game['id']}"
        assert (
            client.post(f"{base}/draw", headers=auth(ada), json={"action": "offer"}).status_code
            == 201
        )
        move(client, game, ada, {"type": "say", "number": 4})  # the offer lapses with the move
        assert (
            client.post(f"{base}/takeback", headers=auth(ada), json={"action": "ask"}).status_code
            == 201
        )
        assert (
            client.post(
                f"{base}/chat", headers=auth(ada), json={"text": "sorry, misclick"}
            ).status_code
            == 201
        )
        assert (
            client.post(
                f"{base}/chat",
                headers=auth(bob),  # his own line tells him nothing
                json={"text": "no problem"},
            ).status_code
            == 201
        )
        working = notifier()
        deliver(working, lambda: len(receiver.received) >= 3)
        _drain(working, 1.0)  # Bob's own line must not follow
        received = list(receiver.received)
    types = [Webhook(endpoint["secret"]).verify(g.body, g.headers)["type"] for g in received]
    assert sorted(types) == ["chat", "draw-offer", "takeback"], types  # sent in parallel


def _drain(notifier: Notifier, seconds: float) -> None:
    """Let the notifier deliver whatever else is owed for `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        notifier.step(time.time(), block_ms=50)
        notifier.wait()
