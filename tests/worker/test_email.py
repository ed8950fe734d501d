"""E-mail through a real SMTP server on loopback (aiosmtpd), sent by the workers' Mailer: the
address verified by its link, the daily digest at the player's hour (a clock the test gives the
due checks), reminders before a flag falls once per turn (also with a worker killed with -9
mid-send, and one killed holding the reminders' due check), one-click unsubscribe with no
sign-in, and the refusals (503 with no SMTP server, 422 naming the field)."""

from __future__ import annotations

import json
import re
import signal
import time
from urllib.parse import parse_qs, urlsplit, urlunsplit

import pytest

from api.notify import digests
from api.notify.mail import Mailer
from api.play.background import Background
from api.store import keys
from tests.api.helpers import auth, move
from tests.api.test_accounts import new_game, sign_up
from tests.redis_proxy import FreezingProxy
from tests.smtp_receiver import SmtpReceiver
from tests.webhook_receiver import Receiver
from tests.worker.conftest import wait_for

DAY_S = 86400


@pytest.fixture
def smtp(monkeypatch):
    with SmtpReceiver() as receiver:
        monkeypatch.setenv("POSTPLAY_SMTP_URL", receiver.url)
        monkeypatch.setenv("POSTPLAY_EMAIL_FROM", "Postplay <games@postplay.example>")
        monkeypatch.setenv("POSTPLAY_PUBLIC_URL", "https://play.example")
        yield receiver


def send(redis_client, now: float | None = None) -> int:
    """Send every mail owed by `now` (the clock the test gave the due checks), as a worker's
    Mailer does."""
    return Mailer(redis_client).step(time.time() if now is None else now)


def verified(client, redis_client, smtp, username: str) -> str:
    """A new account with a verified address `<username>@example.org`; its token."""
    token = sign_up(client, username)["token"]
    assert (
        client.put(
            "/api/v1/me/email", headers=auth(token), json={"address": f"{username}@example.org"}
        ).status_code
        == 202
    )
    before = len(smtp.received)
    send(redis_client)
    link = re.search(r"#/email/verify/(\S+)", smtp.wait_for(before + 1, 5)[-1].text)
    assert client.post("/api/v1/email/verify", json={"token": link.group(1)}).status_code == 204
    return token


def unsubscribe_url(mail) -> str:
    return mail.message["List-Unsubscribe"].strip("<>")


def test_an_address_is_verified_by_the_link_mailed_to_it(client, redis_client, smtp):
    ada = sign_up(client, "ada")["token"]
    put = client.put("/api/v1/me/email", headers=auth(ada), json={"address": "ada@example.org"})
    assert put.status_code == 202, put.get_json()
    assert put.get_json() == {"address": "ada@example.org", "verified": False, "off": []}
    assert smtp.received == []  # the request only owes it: the worker sends it
    assert client.get("/api/v1/me", headers=auth(ada)).get_json()["email"]["verified"] is False
    assert send(redis_client) == 1
    (mail,) = smtp.wait_for(1, 5)
    assert mail.to == ["ada@example.org"] and "Confirm" in mail.message["Subject"]
    assert mail.message.get_content_type() == "text/plain"
    assert mail.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe_url(mail).startswith("https://play.example/api/v1/email/unsubscribe?")
    assert mail.message["Message-ID"].endswith("@postplay.example>")
    token = re.search(r"https://play\.example/#/email/verify/(\S+)", mail.text).group(1)
    wrong = client.post("/api/v1/email/verify", json={"token": token[:-4] + "AAAA"})
    assert wrong.status_code == 422 and "token" in wrong.get_json()["errors"]["json"]
    assert client.post("/api/v1/email/verify", json={"token": token}).status_code == 204
    assert client.get("/api/v1/me", headers=auth(ada)).get_json()["email"] == {
        "address": "ada@example.org",
        "verified": True,
        "off": [],
    }
    assert client.delete("/api/v1/me/email", headers=auth(ada)).status_code == 204
    assert client.get("/api/v1/me", headers=auth(ada)).get_json()["email"] is None


def test_nothing_but_the_verification_goes_to_an_unverified_address(
    client, redis_client, smtp, store
):
    ada = sign_up(client, "ada")["token"]
    bob = sign_up(client, "bob")["token"]
    client.put("/api/v1/me/email", headers=auth(bob), json={"address": "bob@example.org"})
    game = new_game(
        client,
        ada,
        [{"me": True}, {"player": "bob"}],
        options={"n": 30},
        time_control={"type": "correspondence", "days_per_move": 3},
    )
    client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bob))
    move(
        client,
        client.get(f"/api/v1/games/{game['id']}").get_json(),
        ada,
        {"type": "say", "number": 4},
    )
    background = Background(redis_client, "test")
    deadline = store.load(game["id"]).deadline()
    for now in (time.time() + DAY_S + 1, deadline - 3599):  # the digest, both reminders
        background.run_due(now)
    send(redis_client, deadline)
    mails = smtp.wait_for(1, 5)
    time.sleep(0.3)
    assert [m.message["Subject"] for m in smtp.received] == [mails[0].message["Subject"]]
    assert "Confirm" in mails[0].message["Subject"]


def test_email_is_off_without_an_smtp_server_and_bad_input_is_refused(client, monkeypatch, smtp):
    ada = sign_up(client, "ada")["token"]
    for bad in (
        "ada",
        "ada@",
        "@example.org",
        "ada@localhost",
        "a da@example.org",
        "ada@example.org\r\nBcc: eve@example.org",
    ):
        refused = client.put("/api/v1/me/email", headers=auth(ada), json={"address": bad})
        assert refused.status_code == 422, bad
        assert "address" in refused.get_json()["errors"]["json"]
    assert client.put("/api/v1/me/email", headers=auth(ada), json={}).status_code == 400
    monkeypatch.delenv("POSTPLAY_SMTP_URL")
    off = client.put("/api/v1/me/email", headers=auth(ada), json={"address": "ada@example.org"})
    assert off.status_code == 503 and "E-mail is off" in off.get_json()["message"]
    unknown = client.post("/api/v1/email/unsubscribe?token=nonsense")
    assert unknown.status_code == 422 and "token" in unknown.get_json()["errors"]["json"]


@pytest.mark.parametrize(
    "field, value",
    [
        ("reminder_minutes", [60, 0]),
        ("reminder_minutes", [-5]),
        ("reminder_minutes", [1] * 6),
        ("digest_hour", 24),
        ("digest_hour", -1),
        ("timezone", "Mars/Olympus_Mons"),
        ("timezone", "../../etc/passwd"),
    ],
)
def test_a_bad_setting_is_a_422_naming_its_field(client, field, value):
    ada = sign_up(client, "ada")["token"]
    refused = client.patch("/api/v1/me", headers=auth(ada), json={field: value})
    assert refused.status_code == 422, refused.get_json()
    named = refused.get_json()["errors"]["json"]
    assert [n.partition(".")[0] for n in named] == [field], named  # reminder_minutes.1, ...


def test_the_settings_are_kept_and_shown(client):
    ada = sign_up(client, "ada")["token"]
    settings = client.get("/api/v1/me", headers=auth(ada)).get_json()["settings"]
    assert settings["reminder_minutes"] == [1440, 60] and settings["timezone"] == "UTC"
    changed = client.patch(
        "/api/v1/me",
        headers=auth(ada),
        json={"reminder_minutes": [30], "digest_hour": 19, "timezone": "America/Sao_Paulo"},
    )
    assert changed.status_code == 200, changed.get_json()
    assert {
        k: changed.get_json()["settings"][k]
        for k in ("reminder_minutes", "digest_hour", "timezone")
    } == {"reminder_minutes": [30], "digest_hour": 19, "timezone": "America/Sao_Paulo"}


def test_the_next_digest_is_at_the_hour_in_the_players_time_zone():
    settings = {"digest_hour": 7, "timezone": "Europe/Paris"}
    # 2025-03-29 12:00 UTC: the next 07:00 in Paris is on the 30th, the day summer time starts
    at = digests.next_digest_ts(settings, 1743249600.0)
    assert at == 1743310800.0  # 2025-03-30 05:00 UTC = 07:00 CEST


def _game_awaiting(client, ada: str, bob: str, tc: dict) -> dict:
    """A game between Ada and Bob where Ada has moved and Bob is to move."""
    game = new_game(
        client, ada, [{"me": True}, {"player": "bob"}], options={"n": 30}, time_control=tc
    )
    client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bob))
    return move(
        client,
        client.get(f"/api/v1/games/{game['id']}").get_json(),
        ada,
        {"type": "say", "number": 4},
    ).get_json()


def test_the_digest_comes_once_at_the_players_hour_listing_the_games_awaiting_a_move(
    client, redis_client, smtp
):
    ada, bob = (verified(client, redis_client, smtp, name) for name in ("ada", "bob"))
    for token in (ada, bob):
        client.patch(
            "/api/v1/me", headers=auth(token), json={"digest_hour": 6, "timezone": "Asia/Tokyo"}
        )
    game = _game_awaiting(client, ada, bob, {"type": "correspondence", "days_per_move": 3})
    account_id = redis_client.get(keys.username_key("bob")).decode()
    due = redis_client.zscore(keys.due_key(), f"{account_id}|digest")
    assert due == digests.next_digest_ts({"digest_hour": 6, "timezone": "Asia/Tokyo"}, time.time())
    before = len(smtp.received)
    background = Background(redis_client, "test")
    background.run_due(due - 1)
    assert send(redis_client) == 0  # not yet the hour
    background.run_due(due + 1)
    digests.run_digest(
        background.accounts, background.store, background.mails, account_id, due + 2
    )  # the check run twice (a worker killed after it) owes one mail
    assert send(redis_client, due + 2) == 1
    mails = smtp.wait_for(before + 1, 5)[before:]
    assert [m.to for m in mails] == [["bob@example.org"]]  # Ada is not to move: no digest
    assert "Your move in 1 game" in mails[0].message["Subject"]
    assert f"https://play.example/#/game/{game['id']}" in mails[0].text
    assert game["deadline"] in mails[0].text and "ada" in mails[0].text
    next_due = redis_client.zscore(keys.due_key(), f"{account_id}|digest")
    assert next_due == pytest.approx(due + DAY_S)  # tomorrow, at the same hour


def test_the_unsubscribe_link_of_a_mail_posted_with_no_sign_in_turns_that_kind_off(
    client, redis_client, smtp
):
    ada, bob = (verified(client, redis_client, smtp, name) for name in ("ada", "bob"))
    _game_awaiting(client, ada, bob, {"type": "correspondence", "days_per_move": 3})
    account_id = redis_client.get(keys.username_key("bob")).decode()
    due = redis_client.zscore(keys.due_key(), f"{account_id}|digest")
    before = len(smtp.received)
    Background(redis_client, "test").run_due(due + 1)
    send(redis_client, due + 1)
    (digest,) = smtp.wait_for(before + 1, 5)[before:]
    url = urlsplit(unsubscribe_url(digest))
    assert url.path == "/api/v1/email/unsubscribe"
    # as a mail client does it (RFC 8058): a POST of the one-click body, no cookie, no token
    done = client.post(
        f"{url.path}?{url.query}",
        data="List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert done.status_code == 204
    assert client.get("/api/v1/me", headers=auth(bob)).get_json()["email"]["off"] == ["digest"]
    Background(redis_client, "test").run_due(due + DAY_S + 1)
    assert send(redis_client, due + DAY_S + 1) == 0  # the next day's digest is not sent
    assert parse_qs(url.query)["token"]


def inbox(client, token: str) -> list[dict]:
    return client.get("/api/v1/me/notifications", headers=auth(token)).get_json()


def _reminders(redis_client) -> list[dict]:
    entries = redis_client.xrange(keys.outbox_key())
    return [
        e
        for e in (json.loads(fields[b"event"]) for _, fields in entries)
        if e["type"] == "reminder"
    ]


def test_each_reminder_fires_once_per_turn_and_only_below_the_turns_time(
    client, redis_client, smtp, store
):
    ada, bob = (verified(client, redis_client, smtp, name) for name in ("ada", "bob"))
    client.patch("/api/v1/me", headers=auth(bob), json={"reminder_minutes": [1440, 60, 5000]})
    game = _game_awaiting(
        client, ada, bob, {"type": "fischer", "initial_s": 2 * DAY_S, "increment_s": 0}
    )
    deadline = store.load(game["id"]).deadline()
    background = Background(redis_client, "test")
    before = len(smtp.received)
    background.run_due(time.time())  # the turn starts: nothing is due yet
    assert _reminders(redis_client) == []
    due = redis_client.zscore(keys.due_key(), f"{game['id']}|reminder")
    assert due == pytest.approx(deadline - 1440 * 60)  # the first threshold's moment
    for now in (due + 1, due + 2, deadline - 3599, deadline - 3598, deadline - 10):
        background.run_due(now)
        background.store.redis.zadd(keys.due_key(), {f"{game['id']}|reminder": now})  # again
        background.run_due(now)
    fired = _reminders(redis_client)
    assert [(e["account"], e["minutes"]) for e in fired] == [
        (fired[0]["account"], 1440),
        (fired[0]["account"], 60),
    ]  # 5000 > the turn: never
    sent = send(redis_client, deadline)  # the reminders, and Bob's digests of those days
    mails = [
        m for m in smtp.wait_for(before + sent, 5)[before:] if "left in" in m.message["Subject"]
    ]
    assert [m.to for m in mails] == [["bob@example.org"]] * 2
    assert "1 day left" in mails[0].message["Subject"]
    assert "1 hour left" in mails[1].message["Subject"]
    assert f"https://play.example/#/game/{game['id']}" in mails[1].text
    # Bob moves: Ada's turn is new, and Ada is reminded in it in turn
    move(
        client,
        client.get(f"/api/v1/games/{game['id']}").get_json(),
        bob,
        {"type": "say", "number": 8},
    )
    new_deadline = store.load(game["id"]).deadline()
    background.run_due(new_deadline - 3599)
    assert [e["minutes"] for e in _reminders(redis_client)] == [1440, 60, 1440, 60]


def test_a_worker_killed_mid_send_of_a_reminder_leaves_it_to_another_once(
    client, redis_client, smtp, store, start_worker, monkeypatch
):
    monkeypatch.setenv("POSTPLAY_WEBHOOK_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("POSTPLAY_SMTP_TIMEOUT_S", "2")  # the lease of a mail: 9 s
    ada, bob = (verified(client, redis_client, smtp, name) for name in ("ada", "bob"))
    # (the challenge's mail, sent at once by the fan-out, would come first: not this test's)
    client.patch(
        "/api/v1/me",
        headers=auth(bob),
        json={"reminder_minutes": [1], "notify": {"challenge": ["push", "inbox"]}},
    )
    with Receiver() as hooks:
        made = client.post(
            "/api/v1/me/webhooks",
            headers=auth(bob),
            json={"url": hooks.url, "events": ["reminder"]},
        )
        assert made.status_code == 201, made.get_json()
        before = len(smtp.received)
        smtp.stall.set()  # the server takes the reminder's mail and never answers
        doomed = start_worker()
        game = _game_awaiting(
            client, ada, bob, {"type": "fischer", "initial_s": 63, "increment_s": 0}
        )
        assert len(smtp.wait_for(before + 1, 20)) == before + 1, "the reminder never came"
        doomed.send_signal(signal.SIGKILL)  # mid-send: it never heard the server's answer
        doomed.wait(timeout=5)
        smtp.stall.clear()
        start_worker()
        mails = smtp.wait_for(before + 2, 30)[before:]
        time.sleep(1.0)  # a third copy, if any, would have come by now
        (hook,) = hooks.wait_for(1, 10)
    assert len(smtp.received) - before == 2
    assert {m.message["Message-ID"] for m in mails} == {mails[0].message["Message-ID"]}
    assert "1 minute left" in mails[0].message["Subject"]
    assert json.loads(hook.body)["type"] == "reminder"  # the event, once, to the webhook too
    assert json.loads(hook.body)["data"]["id"] == game["id"]


def test_a_worker_killed_holding_a_reminders_check_leaves_it_to_another_that_fires_it_once(
    client, redis_client, redis_url, smtp, store, start_worker, monkeypatch
):
    ada, bob = (verified(client, redis_client, smtp, name) for name in ("ada", "bob"))
    client.patch(
        "/api/v1/me",
        headers=auth(bob),
        json={"reminder_minutes": [1], "notify": {"challenge": ["inbox"]}},
    )
    before = len(smtp.received)
    upstream = urlsplit(redis_url)
    # the doomed worker reaches Redis through a proxy that freezes it once it has claimed the
    # reminders' check: it holds the claim, and dies with -9 before running it
    with FreezingProxy(upstream.port, b"|reminder") as proxy:
        doomed = start_worker(
            url=urlunsplit(
                upstream._replace(
                    netloc=upstream.netloc.replace(f":{upstream.port}", f":{proxy.port}")
                )
            )
        )
        game = _game_awaiting(
            client, ada, bob, {"type": "fischer", "initial_s": 62, "increment_s": 0}
        )
        assert proxy.frozen.wait(20), "the worker never claimed the reminders' check"
        claimed_until = redis_client.zscore(keys.due_key(), f"{game['id']}|reminder")
        assert claimed_until > time.time(), "the check is held under its lease"
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(timeout=5)
    record = store.load(game["id"])
    mark = keys.reminded_key(record.id, record.turn_started_ts, 1)
    assert not redis_client.exists(mark), "the doomed worker never ran the check"
    start_worker()
    mails = smtp.wait_for(before + 1, 25)[before:]
    told = wait_for(lambda: [n for n in inbox(client, bob) if n["type"] == "reminder"], 10)
    time.sleep(0.5)  # a second reminder, if any, would have come by now
    assert redis_client.exists(mark)
    (mail,) = smtp.received[before:]
    assert mails == [mail] and "1 minute left" in mail.message["Subject"]
    assert mail.to == ["bob@example.org"] and game["id"] in mail.text
    assert len(told) == 1 and [n["type"] for n in inbox(client, bob)].count("reminder") == 1
