"""Web Push and the inbox from the outbox, made by the workers' Notifier (run here in the test's
process, step by step) to a real local push service (tests/push_service.py) that checks each
push's VAPID JWT against the server's public key and decrypts it with the subscription's keys,
made as a browser makes them; a real worker killed with -9 mid-push; and the fan-out's e-mail
to a real local SMTP server (aiosmtpd, tests/worker/test_email.py's)."""

from __future__ import annotations

import signal
import time

import pytest

from api.notify.delivery import Notifier, Policy
from tests.api.helpers import auth, move
from tests.push_service import PushService
from tests.worker.conftest import wait_for
from tests.api.test_accounts import new_game
from tests.worker.test_email import smtp, verified  # noqa: F401 (smtp: a fixture)
from tests.worker.test_webhooks import deliver, two_players

FAST = Policy(timeout_s=2.0, retry_base_s=0.1, retry_max_s=0.4, window_s=30.0)


@pytest.fixture(autouse=True)
def private_allowed(monkeypatch):
    monkeypatch.setenv("POSTPLAY_WEBHOOK_ALLOW_PRIVATE", "1")


@pytest.fixture
def notifier(redis_client):
    made = Notifier(redis_client, "test-notifier", FAST)
    yield made
    made.close()


@pytest.fixture
def service(client):
    key = client.get("/api/v1/push/key").get_json()["key"]
    with PushService(key) as running:
        yield running


def subscribe(client, token: str, service: PushService, device: str = "phone") -> dict:
    made = client.post(
        "/api/v1/me/push",
        headers=auth(token),
        json={"subscription": service.browser(device).subscription(service), "device": device},
    )
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def inbox(client, token: str, unread: bool = False) -> list[dict]:
    found = client.get(
        f"/api/v1/me/notifications{'?unread=1' if unread else ''}", headers=auth(token)
    )
    assert found.status_code == 200, found.get_json()
    return found.get_json()


def settle(notifier: Notifier, seconds: float = 0.5) -> None:
    """Let the notifier work for a while (to see that nothing more is sent)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        notifier.step(time.time(), block_ms=50)
        notifier.wait()


def players(client, notifier: Notifier, service: PushService, *devices: str):
    """Ada and Bob in a game where Ada moves first, Bob's challenge told already, and his devices
    subscribed."""
    ada, bob, game = two_players(client)
    settle(notifier, 0.2)
    for device in devices or ("phone",):
        subscribe(client, bob, service, device)
    return ada, bob, game


def turns(client, token: str, unread: bool = False) -> list[dict]:
    return [n for n in inbox(client, token, unread) if n["type"] == "turn"]


def test_a_move_while_away_pushes_once_and_a_move_while_present_does_not(client, notifier, service):
    ada, bob, game = players(client, notifier, service)
    moved = move(client, game, ada, {"type": "say", "number": 4}).get_json()
    (pushed,) = deliver(notifier, lambda: service.received)
    settle(notifier)
    assert len(service.received) == 1, "one turn, one push"
    assert pushed.error is None, pushed.error
    assert pushed.message["body"] == "Your move against ada (Factor/Multiple)"
    assert pushed.message["game"] == game["id"] and pushed.message["type"] == "turn"
    assert pushed.message["url"].endswith(f"/#/game/{game['id']}")
    assert len(pushed.headers["topic"]) <= 32 and pushed.headers["ttl"]
    assert [n["text"] for n in turns(client, bob)] == [pushed.message["body"]]

    # Bob reads the game, Ada answers: he is looking at it, so nothing is pushed
    assert client.get(f"/api/v1/games/{game['id']}", headers=auth(bob)).status_code == 200
    move(client, game, bob, {"type": "say", "number": 8}, ply=moved["ply"])
    again = client.get(f"/api/v1/games/{game['id']}").get_json()
    move(client, again, ada, {"type": "say", "number": 16})
    deliver(notifier, lambda: len(turns(client, bob)) == 2)
    settle(notifier)
    assert len(service.received) == 1, "no push while Bob is at the board"
    latest = turns(client, bob, unread=True)
    assert len(latest) == 2 and latest[0]["at"] >= latest[1]["at"]  # newest first, unread
    assert client.get("/api/v1/me", headers=auth(bob)).get_json()["unread"] == 3  # + challenge


def test_quiet_when_present_switched_off_pushes_anyway(client, notifier, service):
    ada, bob, game = players(client, notifier, service)
    client.patch("/api/v1/me", headers=auth(bob), json={"quiet_when_present": False})
    client.get("/api/v1/me/games", headers=auth(bob))  # present: his list of games
    move(client, game, ada, {"type": "say", "number": 4})
    (pushed,) = deliver(notifier, lambda: service.received)
    assert pushed.error is None and pushed.message["type"] == "turn"


def test_the_channels_chosen_per_event_are_kept(client, notifier, service):
    ada, bob, game = players(client, notifier, service)
    patched = client.patch("/api/v1/me", headers=auth(bob), json={"notify": {"turn": ["inbox"]}})
    assert patched.get_json()["settings"]["notify"] == {"turn": ["inbox"]}
    move(client, game, ada, {"type": "say", "number": 4})
    deliver(notifier, lambda: turns(client, bob))
    settle(notifier)
    assert service.received == []


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_removed(client, notifier, service, status):
    ada, bob, game = players(client, notifier, service)
    service.statuses = [status]
    move(client, game, ada, {"type": "say", "number": 4})
    deliver(notifier, lambda: service.received)
    deliver(notifier, lambda: client.get("/api/v1/me/push", headers=auth(bob)).get_json() == [])
    settle(notifier)
    assert len(service.received) == 1, "a gone subscription is not tried again"


@pytest.mark.parametrize("status", [429, 500, 503])
def test_a_push_refused_for_now_is_retried_under_the_same_topic(client, notifier, service, status):
    ada, bob, game = players(client, notifier, service)
    service.statuses = [status, status]
    move(client, game, ada, {"type": "say", "number": 4})
    got = deliver(notifier, lambda: len(service.received) >= 3 and service.received)
    settle(notifier)
    assert len(service.received) == 3
    assert len({p.headers["topic"] for p in got}) == 1
    assert all(p.error is None and p.message["type"] == "turn" for p in got)
    assert len(client.get("/api/v1/me/push", headers=auth(bob)).get_json()) == 1


def test_every_device_gets_its_push(client, notifier, service):
    ada, _, game = players(client, notifier, service, "phone", "laptop")
    move(client, game, ada, {"type": "say", "number": 4})
    got = deliver(notifier, lambda: len(service.received) == 2 and service.received)
    assert {p.device for p in got} == {"phone", "laptop"}
    assert all(p.error is None for p in got)


def test_a_worker_killed_mid_push_leaves_it_to_another(client, start_worker, monkeypatch, service):
    timeout_s = 3.0  # the workers' per-attempt timeout: the lease is 2 * 3 + 5 s
    monkeypatch.setenv("POSTPLAY_WEBHOOK_TIMEOUT_S", str(timeout_s))
    ada, bob, game = two_players(client)
    subscribe(client, bob, service)
    # the challenge, still in the outbox, is not pushed: the one push is the turn's
    client.patch("/api/v1/me", headers=auth(bob), json={"notify": {"challenge": ["inbox"]}})
    service.stall.set()  # the first push hangs until its worker is dead
    doomed = start_worker()
    move(client, game, ada, {"type": "say", "number": 4})
    assert service.wait_for(1, timeout_s=20), "the worker never began the push"
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=5)
    service.stall.clear()
    start_worker()
    lease_s = Policy(timeout_s=timeout_s).lease_s
    got = service.wait_for(2, timeout_s=lease_s + 20)
    assert len(got) == 2, "the push was lost with its worker"
    time.sleep(2)  # a third would be a second repeat
    assert len(service.received) == 2
    first, second = got
    assert first.headers["topic"] == second.headers["topic"]
    assert first.message == second.message and second.message["type"] == "turn"
    assert wait_for(lambda: len(turns(client, bob)) == 1, timeout_s=10)


def test_a_challenge_is_mailed_at_once_unless_present(client, notifier, redis_client, smtp):
    """The fan-out's e-mail channel (api.notify.mail's sender): a challenge goes at once to a
    verified address, under a Message-ID made from the notification's id; with the player at
    the board (their list of games read), nothing is mailed, and the inbox keeps it."""
    ada, bob = (verified(client, redis_client, smtp, name) for name in ("ada", "bob"))
    before = len(smtp.received)
    game = new_game(client, ada, [{"me": True}, {"player": "bob"}], options={"n": 30})
    deliver(notifier, lambda: inbox(client, bob))
    settle(notifier)
    (mail,) = smtp.wait_for(before + 1, 5)[before:]
    assert mail.to == ["bob@example.org"]
    assert inbox(client, bob)[0]["id"] in mail.message["Message-ID"]
    assert f"https://play.example/#/game/{game['id']}" in mail.text

    client.get("/api/v1/me/games", headers=auth(bob))  # Bob is at the board
    new_game(client, ada, [{"me": True}, {"player": "bob"}], options={"n": 30})
    deliver(notifier, lambda: len(inbox(client, bob)) == 2)
    settle(notifier)
    assert len(smtp.received) == before + 1
