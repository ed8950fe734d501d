"""Ratings in the web client, in headless Chromium against the real app and worker: a rated
game's rating changes on its page once the worker applies them, a profile's rating-history
chart, and the leaderboard page with its tabs per game."""

from __future__ import annotations

import time

import pytest
import requests

from tests.browser.conftest import wait_until
from tests.browser.test_accounts import PASSWORD, new_username
from tests.browser.test_web_client import assert_fits_phone

pytestmark = pytest.mark.browser


def _account(live_server: str, prefix: str) -> dict:
    made = requests.post(
        f"{live_server}/api/v1/accounts",
        timeout=10,
        json={"username": new_username(prefix), "password": PASSWORD},
    )
    assert made.status_code == 201, made.text
    return made.json()


def _rated_win(live_server: str, winner: dict, loser: dict) -> str:
    """A rated Factor/Multiple game the loser resigns after the winner's first move."""

    def auth(who: dict) -> dict:
        return {"Authorization": f"Bearer {who['token']}"}

    api = f"{live_server}/api/v1/games"
    game = requests.post(
        api,
        headers=auth(winner),
        timeout=10,
        json={
            "kind": "factor-multiple",
            "first": 0,
            "seats": [{"me": True}, {"player": loser["account"]["username"]}],
        },
    ).json()
    assert (
        requests.post(f"{api}/{game['id']}/accept", headers=auth(loser), timeout=10).status_code
        == 201
    )
    assert (
        requests.post(
            f"{api}/{game['id']}/moves",
            headers=auth(winner),
            timeout=10,
            json={"move": {"type": "say", "number": 4}, "ply": 0},
        ).status_code
        == 201
    )
    assert (
        requests.post(f"{api}/{game['id']}/resign", headers=auth(loser), timeout=10).status_code
        == 201
    )
    return game["id"]


def _rated(live_server: str, game_id: str) -> dict:
    for _ in range(100):
        game = requests.get(f"{live_server}/api/v1/games/{game_id}", timeout=10).json()
        if game["rating_changes"]:
            return game
        time.sleep(0.1)
    raise AssertionError("the worker never applied the game's ratings")


def test_a_profile_charts_the_rating_history_and_a_game_shows_its_rating_changes(
    new_page, live_server, screenshot
):
    ada, bob = _account(live_server, "ada"), _account(live_server, "bob")
    name = ada["account"]["username"]
    first = _rated_win(live_server, ada, bob)
    _rated(live_server, _rated_win(live_server, ada, bob))
    changes = _rated(live_server, first)["rating_changes"]

    page = new_page(f"/#/game/{first}")
    page.wait_for_selector(".banner .rating-change[data-seat='0']")
    line = page.locator(".banner .rating-change[data-seat='0']").inner_text()
    assert f"1500 → {round(changes[0]['after'])}" in line and "(+" in line

    page.goto(f"/#/player/{name}")
    chart = page.locator(".ratings li[data-kind='factor-multiple'] svg.chart")
    chart.wait_for()
    points = chart.locator("circle.chart-point")
    assert points.count() == 2
    history = requests.get(f"{live_server}/api/v1/players/{name}", timeout=10).json()[
        "rating_history"
    ]["factor-multiple"]
    drawn = [float(points.nth(i).get_attribute("data-rating")) for i in range(2)]
    assert drawn == [h["rating"] for h in history] and drawn[0] < drawn[1]
    assert chart.locator("polygon.chart-band").count() == 1
    assert "2 rated games" in page.locator(".ratings li[data-kind='factor-multiple']").inner_text()
    screenshot(page, "profile-rating-chart")
    assert_fits_phone(page)


def test_the_leaderboard_page_ranks_players_and_marks_provisional_ratings(
    new_page, live_server, screenshot
):
    ada, bob = _account(live_server, "ada"), _account(live_server, "bob")
    _rated(live_server, _rated_win(live_server, ada, bob))
    page = new_page("/#/leaderboards")
    page.click(".kind-tabs a:has-text('Factor/Multiple')")
    winner, loser = ada["account"]["username"], bob["account"]["username"]
    page.wait_for_selector(f"tr[data-player='{loser}']")
    players = page.locator("table.board tbody tr").evaluate_all(
        "rows => rows.map(r => r.dataset.player)"
    )
    assert players.index(winner) < players.index(loser)
    row = page.locator(f"tr[data-player='{winner}'] td").all_inner_texts()
    board = requests.get(f"{live_server}/api/v1/leaderboards/factor-multiple", timeout=10).json()[
        "players"
    ]
    mine = next(p for p in board if p["username"] == winner)
    assert row[1] == f"{mine['rating']}?" and row[3] == "1"  # provisional after one game
    screenshot(page, "leaderboard")
    assert_fits_phone(page)
    page.click(".kind-tabs a:has-text('Ploid')")
    wait_until(page, "location.hash === '#/leaderboard/ploid'")
    page.wait_for_selector(".leaderboard h2:text-is('Ploid')")
