"""The whole path of telling a player away from the board, end to end with real parts: the
workers' Notifier (stepped in the test's process, as tests/worker/test_push.py does), their due
checks and Mailer on a clock the test gives them (as tests/worker/test_email.py does), a real
local push service that checks each push's VAPID JWT and decrypts it with the keys a browser
made, and a real SMTP server on loopback (aiosmtpd)."""

from __future__ import annotations

import time

from api.notify import digests
from api.play.background import Background
from api.store import keys
from api.store.notices import NoticeStore
from tests.api.helpers import auth, move
from tests.api.test_accounts import new_game
from tests.worker.conftest import wait_for
from tests.worker.test_email import send, smtp, verified  # noqa: F401 (smtp: a fixture)
from tests.worker.test_push import (  # noqa: F401 (notifier, private_allowed, service: fixtures)
    inbox,
    notifier,
    private_allowed,
    service,
    settle,
    subscribe,
    turns,
)  # noqa: F401 (fixtures)
from tests.worker.test_webhooks import deliver

PRESENT_S = 3  # the presence window, shortened so that the test can wait it out


def test_told_once_by_push_while_away_once_by_the_digest_and_not_at_all_while_present(
    client, redis_client, notifier, service, smtp, monkeypatch
):
    monkeypatch.setenv("POSTPLAY_PRESENT_S", str(PRESENT_S))
    ada, bob = (verified(client, redis_client, smtp, name) for name in ("ada", "bob"))
    settings = {"digest_hour": 6, "timezone": "Asia/Tokyo"}
    assert client.patch("/api/v1/me", headers=auth(bob), json=settings).status_code == 200
    subscribe(client, bob, service)
    made = new_game(
        client,
        ada,
        [{"me": True}, {"player": "bob"}],
        options={"n": 30},
        time_control={"type": "correspondence", "days_per_move": 3},
    )
    assert client.post(f"/api/v1/games/{made['id']}/accept", headers=auth(bob)).status_code == 201
    deliver(notifier, lambda: inbox(client, bob))  # the challenge, told at once
    settle(notifier)
    pushes, mails = len(service.received), len(smtp.received)
    bob_id = redis_client.get(keys.username_key("bob")).decode()

    # 1. Bob read the game, then nothing for longer than the presence window: he is away
    game = client.get(f"/api/v1/games/{made['id']}", headers=auth(bob)).get_json()
    notices = NoticeStore(redis_client)
    assert notices.present(bob_id, game["id"])
    assert wait_for(lambda: not notices.present(bob_id, game["id"]), PRESENT_S + 5)
    moved = move(client, game, ada, {"type": "say", "number": 4}).get_json()
    deliver(notifier, lambda: len(service.received) > pushes)
    settle(notifier)
    (pushed,) = service.received[pushes:]
    assert pushed.error is None, pushed.error  # its VAPID JWT checked, its payload decrypted
    assert pushed.message["type"] == "turn" and pushed.message["game"] == game["id"]
    assert pushed.message["body"] == "Your move against ada (Factor/Multiple)"
    assert len(smtp.received) == mails, "a turn is never mailed by itself"

    # 2. Bob's digest hour comes, on the clock the test gives the due checks: one mail
    due = redis_client.zscore(keys.due_key(), f"{bob_id}|digest")
    assert due == digests.next_digest_ts(settings, time.time())
    background = Background(redis_client, "test")
    background.run_due(due - 1)
    assert send(redis_client, due - 1) == 0  # not yet the hour
    background.run_due(due + 1)
    assert send(redis_client, due + 1) == 1
    (digest,) = smtp.wait_for(mails + 1, 5)[mails:]
    assert digest.to == ["bob@example.org"]
    assert "Your move in 1 game" in digest.message["Subject"]
    assert f"https://play.example/#/game/{game['id']}" in digest.text and "ada" in digest.text
    background.run_due(due + 2)
    assert send(redis_client, due + 2) == 0, "one digest a day"
    mails += 1

    # 3. Bob answers and reads the game; Ada moves again within the window: he is present
    answered = move(client, moved, bob, {"type": "say", "number": 8}).get_json()
    assert client.get(f"/api/v1/games/{game['id']}", headers=auth(bob)).status_code == 200
    move(client, answered, ada, {"type": "say", "number": 16})
    deliver(notifier, lambda: len(turns(client, bob)) == 2)
    assert notices.present(bob_id, game["id"]), "the window ran out before the fan-out"
    settle(notifier)
    assert send(redis_client) == 0
    time.sleep(0.3)  # a mail on its way would have come by now
    assert len(service.received) == pushes + 1, "no push while Bob is at the board"
    assert len(smtp.received) == mails, "no mail while Bob is at the board"
    latest, earlier = turns(client, bob)
    assert latest["game"] == game["id"] and latest["text"] == pushed.message["body"]
    assert earlier["text"] == pushed.message["body"] and latest["at"] >= earlier["at"]


def test_a_tournament_is_told_by_its_name_and_its_pairing_by_the_game(
    client, redis_client, notifier, service, smtp
):
    ada, bob = (verified(client, redis_client, smtp, name) for name in ("ada", "bob"))
    subscribe(client, bob, service)
    made = client.post(
        "/api/v1/tournaments",
        headers=auth(ada),
        json={
            "name": "Spring cup",
            "kind": "factor-multiple",
            "options": {"n": 10},
            "format": "round-robin",
            "max_players": 2,
            "starts_at": "2099-01-01T00:00:00Z",
            "time_control": {"type": "none"},
        },
    )
    assert made.status_code == 201, made.get_json()
    cup = made.get_json()
    for token in (ada, bob):
        assert client.post(
            f"/api/v1/tournaments/{cup['id']}/join", json={}, headers=auth(token)
        ).status_code in (200, 201)
    pushes, mails = len(service.received), len(smtp.received)
    assert (
        client.post(f"/api/v1/tournaments/{cup['id']}/start", headers=auth(ada)).status_code == 201
    )
    Background(redis_client, "test").run_due(time.time())  # the worker's step: started, paired
    deliver(
        notifier, lambda: len([n for n in inbox(client, bob) if n["type"] == "tournament"]) == 2
    )
    settle(notifier)
    (pairing,) = client.get(f"/api/v1/tournaments/{cup['id']}").get_json()["rounds"][0]["pairings"]
    # the start has no game: it is told by the tournament's name, and links to the site
    told = [p.message for p in service.received[pushes:] if p.message["type"] == "tournament"]
    assert sorted((m["body"], m["game"], m["url"]) for m in told) == [
        (
            "A game of Spring cup against ada (Factor/Multiple)",
            pairing["game_id"],
            f"https://play.example/#/game/{pairing['game_id']}",
        ),
        ("Spring cup has started", None, "https://play.example/#/"),
    ]
    got = [m for m in smtp.wait_for(mails + 4, 5)[mails:] if m.to == ["bob@example.org"]]
    assert sorted(m.message["Subject"] for m in got) == [
        "Spring cup has started",
        "Your game of Spring cup against ada",
    ]
    assert all("your opponent" not in m.text for m in got)
    assert any(f"https://play.example/#/game/{pairing['game_id']}" in m.text for m in got)
