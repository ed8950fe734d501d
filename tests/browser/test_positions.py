"""Replays draw the server's positions: a whole bot-vs-bot game of every kind, played by the real
worker, stepped through on the page from the first position to the last, the board checked at
every ply against GET /games/{id}/positions."""

from __future__ import annotations

import re
import time

import pytest
import requests

from api.games import GAMES
from tests.browser.drawn import assert_replay_matches, board_of

pytestmark = pytest.mark.browser


def finished_bot_game(base: str, kind: dict) -> dict:
    """A game between two of the kind's first-listed (weakest, quickest) bots, played out, with
    the options its board's module gives to keep it short (`Board.short`)."""
    level = kind["bots"][0]["level"]
    game = requests.post(
        f"{base}/api/v1/games",
        timeout=10,
        json={
            "kind": kind["kind"],
            "options": board_of(kind["kind"]).short,
            "first": 0,
            "seats": [{"bot": level}, {"bot": level}],
        },
    ).json()
    deadline = time.monotonic() + 120
    while game["status"] != "finished":
        assert time.monotonic() < deadline, f"the bots are still playing at ply {game['ply']}"
        time.sleep(0.5)
        game = requests.get(f"{base}/api/v1/games/{game['id']}", timeout=10).json()
    return game


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_replay_draws_every_position(slug, new_page, require_kind, live_server):
    game = finished_bot_game(live_server, require_kind(slug))
    assert game["result"]["reason"] != "aborted", game["result"]
    page = new_page()
    requested = []
    page.on(
        "request",
        lambda r: (
            re.search(r"/games/\w+/(moves|positions)", r.url)
            and requested.append(r.url.split("/api/v1/games/", 1)[1])
        ),
    )
    page.goto(f"/#/game/{game['id']}")
    plies = assert_replay_matches(page, live_server, game["id"])
    assert plies == game["ply"] > 0
    # one fetch of the positions, from the start; the move list comes from it too
    assert requested == [f"{game['id']}/positions?from=0"], requested
