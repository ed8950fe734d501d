"""Webhooks in a chat app's format, to a real local HTTP receiver: a Discord or Slack endpoint is
posted that service's incoming-webhook JSON (a line of text and a link to the game), unsigned; a
format that is not one of the three is a 422 naming it."""

from __future__ import annotations

import json

import pytest

from tests.api.helpers import auth, move
from tests.webhook_receiver import Receiver
from tests.worker.test_webhooks import deliver, notifier, private_allowed, two_players  # noqa: F401


@pytest.mark.parametrize("fmt, field", [("discord", "content"), ("slack", "text")])
def test_a_chat_app_webhook_gets_a_line_and_a_link_unsigned(
    client, notifier, monkeypatch, fmt, field
):
    monkeypatch.setenv("POSTPLAY_PUBLIC_URL", "https://play.example")
    with Receiver() as receiver:
        ada, bob, game = two_players(client)
        made = client.post(
            "/api/v1/me/webhooks",
            headers=auth(bob),
            json={"url": receiver.url, "events": ["turn"], "format": fmt},
        )
        assert made.status_code == 201 and made.get_json()["format"] == fmt
        move(client, game, ada, {"type": "say", "number": 4})
        (got,) = deliver(notifier(), lambda: receiver.received)
    body = json.loads(got.body)
    assert list(body) == [field]
    assert body[field].startswith("Your move in Factor/Multiple against ada")
    assert f"https://play.example/#/game/{game['id']}" in body[field]
    assert "webhook-signature" not in got.headers


def test_an_unknown_format_is_a_422_naming_it(client, private_allowed):  # noqa: F811
    ada, _, _ = two_players(client)
    refused = client.post(
        "/api/v1/me/webhooks",
        headers=auth(ada),
        json={"url": "http://127.0.0.1:9/hook", "events": ["turn"], "format": "irc"},
    )
    assert refused.status_code == 422 and "format" in refused.get_json()["errors"]["json"]
