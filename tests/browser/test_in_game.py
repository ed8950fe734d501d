"""In a game, in headless Chromium against the real app and worker: a draw offered in one browser
and accepted in another, with a chat message shown as text (never as HTML) and the export; a
takeback asked and granted between two browsers; the vacation switch on one's own profile."""

from __future__ import annotations

import pytest
import requests

from tests.browser.conftest import wait_until
from tests.browser.test_accounts import new_username, say, sign_up
from tests.browser.test_web_client import assert_fits_phone, open_with_tokens

pytestmark = pytest.mark.browser


def two_players(new_page, live_server) -> tuple[str, object, object]:
    """A Factor/Multiple game between Ada (seat 0, to move) and Bo, each in a browser of their
    own holding only their seat's token."""
    game = requests.post(
        f"{live_server}/api/v1/games",
        timeout=10,
        json={
            "kind": "factor-multiple",
            "options": {"n": 30},
            "first": 0,
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
        },
    ).json()
    tokens = game["tokens"]
    ada = open_with_tokens(new_page(), game["id"], game["kind"], {"0": tokens["0"]})
    bo = open_with_tokens(new_page(), game["id"], game["kind"], {"1": tokens["1"]})
    for page in (ada, bo):
        page.wait_for_selector(".fm-grid")
    return game["id"], ada, bo


def test_a_draw_is_agreed_between_two_browsers(new_page, live_server, screenshot):
    game_id, ada, bo = two_players(new_page, live_server)

    # the chat beside the board: markup a player types is shown as the text it is
    ada.fill(".chat textarea", "<b>Good luck</b> & <i>have fun</i>")
    ada.click(".chat button:has-text('Send')")
    bo.wait_for_selector(".chat-message:has-text('Good luck')", timeout=30000)
    assert bo.locator(".chat-message .text").inner_text() == "<b>Good luck</b> & <i>have fun</i>"
    assert bo.locator(".chat-messages b, .chat-messages i").count() == 0

    assert bo.locator("button.offer-draw").count() == 0  # not Bo's turn: no offer to make
    ada.click("button.offer-draw")
    ada.wait_for_selector(".offer-draw:has-text('You offered a draw')")
    bo.wait_for_selector(".offer-draw:has-text('Ada offers a draw.')", timeout=30000)
    screenshot(bo, "draw-offer")
    assert_fits_phone(bo)
    bo.click("button:has-text('Accept the draw')")
    for page in (bo, ada):
        page.wait_for_selector(".banner:not([hidden]):has-text('Draw by agreement')", timeout=30000)
        assert "The players agreed a draw." in page.locator(".banner").inner_text()
    assert ada.locator(".offers button").count() == 0

    link = ada.locator("a.export")
    assert link.get_attribute("download") == f"factor-multiple-{game_id}.json"
    exported = requests.get(live_server + link.get_attribute("href"), timeout=10).json()
    assert exported["result"] == {"winner": None, "reason": "agreement", "scores": None}
    # after the game everyone reads the chat: a spectator's browser shows it too
    spectator = new_page(f"/#/game/{game_id}")
    spectator.wait_for_selector(".chat-message:has-text('Good luck')")


def test_a_takeback_is_asked_and_granted_between_two_browsers(new_page, live_server, screenshot):
    game_id, ada, bo = two_players(new_page, live_server)
    say(ada, 4)
    ada.wait_for_selector(".moves li:has-text('Ada: says 4')")
    ada.click("button.offer-takeback")
    ada.wait_for_selector(".offer-takeback:has-text('You asked to take your move back')")
    bo.wait_for_selector(
        ".offer-takeback:has-text('Ada asks to take back their last move.')", timeout=30000
    )
    screenshot(bo, "takeback-request")
    bo.click("button:has-text('Grant the takeback')")
    bo.wait_for_selector(".status:has-text('Ada to move')")
    ada.wait_for_selector(".status:has-text('Your turn')", timeout=30000)
    wait_until(ada, "document.querySelectorAll('.moves li').length === 0")
    assert requests.get(f"{live_server}/api/v1/games/{game_id}/moves", timeout=10).json() == []

    say(ada, 6)  # a new line from the same position: the page holds no move taken back
    ada.wait_for_selector(".moves li:has-text('Ada: says 6')")
    bo.wait_for_selector(".moves li:has-text('Ada: says 6')", timeout=30000)
    assert [t.strip() for t in bo.locator(".moves li").all_inner_texts()] == ["Ada: says 6"]


def test_the_vacation_switch_on_ones_own_profile(new_page, live_server, screenshot):
    page = new_page()
    name = new_username("vac")
    sign_up(page, name)
    page.goto(f"/#/player/{name}")
    page.wait_for_selector(".vacation .vacation-line:has-text('2.5 days of vacation left')")
    page.click("button.vacation-switch:has-text('Go on vacation')")
    page.wait_for_selector(".vacation-line:has-text('You are on vacation')")
    screenshot(page, "vacation")
    assert_fits_phone(page)
    page.click("button.vacation-switch:has-text('Come back from vacation')")
    page.wait_for_selector(".vacation-line:has-text('days of vacation left')")
    # someone else's profile has no switch
    other = new_page(f"/#/player/{name}")
    other.wait_for_selector(".profile h1")
    assert other.locator(".vacation").count() == 0
