"""A game's chat: players write plain text (1 to 500 characters), spectators read it only once the
game is over, and each message is a new version of the game (pollers see it)."""

from __future__ import annotations

import pytest

from api.store import keys
from tests.api.helpers import auth, create
from tests.api.test_accounts import new_game, sign_up


def say(client, game, token, text):
    return client.post(
        f"/api/v1/games/{game['id']}/chat",
        headers=auth(token) if token else {},
        json={"text": text},
    )


def test_players_chat_and_read_it_while_the_game_runs(client, redis_client):
    game = create(client, first=0)
    ada, bo = game["tokens"]["0"], game["tokens"]["1"]
    etag = client.get(f"/api/v1/games/{game['id']}").headers["ETag"]
    sent = say(client, game, ada, "  Good luck! <b>not bold</b>\nsecond line  ")
    assert sent.status_code == 201
    message = sent.get_json()
    assert message["seat"] == 0 and message["name"] == "Ada"
    assert message["text"] == "Good luck! <b>not bold</b>\nsecond line"  # stored as text
    assert say(client, game, bo, "Thanks").status_code == 201
    read = client.get(f"/api/v1/games/{game['id']}/chat", headers=auth(bo)).get_json()
    assert [(m["name"], m["text"]) for m in read] == [
        ("Ada", "Good luck! <b>not bold</b>\nsecond line"),
        ("Bo", "Thanks"),
    ]
    now = client.get(f"/api/v1/games/{game['id']}")
    assert now.get_json()["chat_count"] == 2 and now.headers["ETag"] != etag
    assert redis_client.llen(keys.chat_key(game["id"])) == 2  # kept beside the game


def test_spectators_read_the_chat_only_once_the_game_is_over(client):
    game = create(client, first=0)
    say(client, game, game["tokens"]["0"], "gg")
    hidden = client.get(f"/api/v1/games/{game['id']}/chat")
    assert hidden.status_code == 403 and "once the game is over" in hidden.get_json()["message"]
    other = create(client)
    with_other_token = client.get(
        f"/api/v1/games/{game['id']}/chat", headers=auth(other["tokens"]["0"])
    )
    assert with_other_token.status_code == 403
    client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(game["tokens"]["1"]))
    shown = client.get(f"/api/v1/games/{game['id']}/chat")
    assert shown.status_code == 200 and [m["text"] for m in shown.get_json()] == ["gg"]


def test_a_spectator_cannot_write(client):
    game = create(client, first=0)
    anonymous = say(client, game, None, "hello")
    assert anonymous.status_code == 401
    other = create(client)
    assert say(client, game, other["tokens"]["0"], "hello").status_code == 403
    someone = sign_up(client, "carol")
    assert say(client, game, someone["token"], "hello").status_code == 403
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["chat_count"] == 0


def test_an_account_chats_in_its_seat_and_reads_as_a_player(client):
    ada = sign_up(client, "ada")
    game = new_game(client, ada["token"], [{"me": True}, {"bot": "greedy"}])
    assert say(client, game, ada["token"], "hi bot").get_json()["name"] == "ada"
    assert (
        len(client.get(f"/api/v1/games/{game['id']}/chat", headers=auth(ada["token"])).get_json())
        == 1
    )


@pytest.mark.parametrize(
    "text, status",
    [
        ("", 422),
        ("   ", 422),
        ("x" * 501, 422),
        ("right\u202eto left", 422),
        ("bell\x07", 422),
        (42, 400),
        (None, 400),
    ],
)
def test_a_message_must_be_1_to_500_printable_characters(client, text, status):
    game = create(client, first=0)
    response = say(client, game, game["tokens"]["0"], text)
    assert response.status_code == status
    assert "text" in response.get_json()["errors"]["json"]
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["chat_count"] == 0


def test_500_characters_and_windows_line_breaks_are_fine(client):
    game = create(client, first=0)
    assert say(client, game, game["tokens"]["0"], "é" * 500).status_code == 201
    assert say(client, game, game["tokens"]["0"], "a\r\nb").get_json()["text"] == "a\nb"
