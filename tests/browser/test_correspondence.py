"""Correspondence tools in headless Chromium on the phone viewport, against the real app and
worker: Ada explores two moves ahead (the server's explore answers), sets them as conditional
moves, and sees the reply played when Bo, in a browser of his own, makes the move she foresaw."""

from __future__ import annotations

import pytest
import requests

from tests.browser.test_accounts import moves, say
from tests.browser.test_in_game import two_players
from tests.browser.test_web_client import assert_fits_phone

pytestmark = pytest.mark.browser


def test_an_explored_line_set_as_conditional_is_played_when_the_opponent_moves(
    new_page, live_server, screenshot
):
    game_id, ada, bo = two_players(new_page, live_server)
    say(ada, 2)
    ada.wait_for_selector(".moves li:has-text('Ada: says 2')")
    bo.wait_for_selector(".status:has-text('Your turn')", timeout=30000)

    ada.click("button.explore-toggle")
    ada.wait_for_selector(".corr-status:has-text('Exploring: 0 moves from move 1')")
    say(ada, 4)  # Bo's move, as Ada foresees it
    ada.wait_for_selector(".corr-status:has-text('Exploring: 1 move from move 1')")
    say(ada, 8)  # and her answer
    ada.wait_for_selector(".corr-status:has-text('Exploring: 2 moves from move 1')")
    ada.click(".explore-controls button:has-text('Back')")
    ada.wait_for_selector(".corr-status:has-text('Exploring: 1 move')")
    ada.click(".explore-controls button:has-text('Forward')")
    ada.wait_for_selector(".corr-status:has-text('Exploring: 2 moves')")
    assert [e["move"]["number"] for e in moves(live_server, game_id)] == [2]  # the game: untouched
    ada.click("button.set-conditional")
    ada.wait_for_selector(".corr-tree:has-text('Conditional moves set: if 4 then 8')")
    screenshot(ada, "conditional-moves")
    assert_fits_phone(ada)

    say(bo, 4)
    bo.wait_for_selector(".moves li:has-text('Ada: says 8')", timeout=30000)
    assert [e["move"]["number"] for e in moves(live_server, game_id)] == [2, 4, 8]
    game = requests.get(f"{live_server}/api/v1/games/{game_id}", timeout=10).json()
    assert game["ply"] == 3 and game["to_move"] == 1
    ada.click("button.explore-toggle")  # back to the game: the reply is on Ada's page too
    ada.wait_for_selector(".moves li:has-text('Ada: says 8')", timeout=30000)
