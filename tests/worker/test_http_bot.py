"""A whole Factor/Multiple game between a person (through the API) and examples/http_bot.py,
running as its own process against the real app (gunicorn) and a real worker: told by webhooks
(its receiver verifies their signatures, and refuses a forged one), and, with no address of its
own, by polling /me/games with ETags."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid

import pytest
import requests

from api.store.embedded import free_port
from tests.live import ROOT, live_app, stop

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(redis_url, tmp_path_factory):
    with live_app(redis_url, tmp_path_factory.mktemp("bot-live")) as base:
        yield base


def call(base: str, method: str, path: str, token: str | None = None, **body):
    response = requests.request(
        method,
        f"{base}/api/v1{path}",
        json=body or None,
        timeout=10,
        headers={"Authorization": f"Bearer {token}"} if token else {},
    )
    assert response.status_code < 300, response.text
    return response.json() if response.content else None


def bot_account(base: str) -> tuple[str, str]:
    """An account flagged bot, and a personal token for its program."""
    name = f"bot_{uuid.uuid4().hex[:8]}"
    session = call(base, "POST", "/accounts", username=name, password=PASSWORD)["token"]
    assert call(base, "PATCH", "/me", session, bot=True)["bot"] is True
    made = call(
        base,
        "POST",
        "/me/tokens",
        session,
        description="http_bot",
        scopes=["read", "play", "challenge", "webhooks"],
    )
    return name, made["token"]


def play_as_person(base: str, token: str, game_id: str, me: str, timeout_s: float = 60) -> dict:
    """Play the first legal move listed whenever it is my turn, until the game is over."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        game = call(base, "GET", f"/games/{game_id}")
        if game["status"] == "finished":
            return game
        seat = game["to_move"]
        if game["status"] == "active" and game["seats"][seat].get("player") == me:
            listing = call(base, "GET", f"/games/{game_id}/legal-moves")
            call(
                base,
                "POST",
                f"/games/{game_id}/moves",
                token,
                move=listing["moves"][0],
                ply=game["ply"],
            )
        else:
            time.sleep(0.1)
    raise AssertionError(f"the game did not end within {timeout_s} s")


@pytest.mark.parametrize("way", ["webhooks", "polling"])
def test_a_person_plays_a_whole_game_against_the_http_bot(server, tmp_path, way):
    bot, bot_token = bot_account(server)
    ada = f"ada_{uuid.uuid4().hex[:8]}"
    ada_token = call(server, "POST", "/accounts", username=ada, password=PASSWORD)["token"]
    port = free_port()
    how = ["--listen", f"127.0.0.1:{port}"] if way == "webhooks" else ["--poll", "--every", "0.3"]
    log = tmp_path / "bot.log"
    program = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "examples" / "http_bot.py"),
            "--server",
            server,
            "--token",
            bot_token,
            "--games",
            "1",
            "--seed",
            "7",
            *how,
        ],
        stdout=open(log, "w"),
        stderr=subprocess.STDOUT,
    )
    try:
        if way == "webhooks":  # its receiver is up and its webhook registered
            end = time.monotonic() + 20
            while not call(server, "GET", "/me/webhooks", bot_token) and time.monotonic() < end:
                time.sleep(0.1)
            forged = requests.post(
                f"http://127.0.0.1:{port}/",
                timeout=5,
                data=b"{}",
                headers={
                    "webhook-id": "msg_x",
                    "webhook-timestamp": str(int(time.time())),
                    "webhook-signature": "v1,AAAA",
                },
            )
            assert forged.status_code == 401
        game = call(
            server,
            "POST",
            "/games",
            ada_token,
            kind="factor-multiple",
            options={"n": 30},
            seats=[{"me": True}, {"player": bot}],
        )
        over = play_as_person(server, ada_token, game["id"], ada)
        assert program.wait(timeout=30) == 0, log.read_text()
    finally:
        stop(program)
    history = call(server, "GET", f"/games/{game['id']}/moves")
    seats = [entry["seat"] for entry in history]
    assert over["result"]["reason"] == "no-moves" and len(history) >= 2
    assert seats == [(over["first"] + i) % 2 for i in range(len(history))]  # turn by turn
    assert 1 in seats and over["seats"][1]["player"] == bot  # the bot played its seat
    said = log.read_text()
    assert "accepted the challenge" in said and f"game {game['id']} is over" in said
    profile = call(server, "GET", f"/players/{bot}")
    assert profile["bot"] is True
    if way == "webhooks":
        assert call(server, "GET", "/me/webhooks", bot_token) == []  # deleted as it stopped
