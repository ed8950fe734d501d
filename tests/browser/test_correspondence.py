"""Correspondence tools in headless Chromium on the phone viewport, against the real app and
worker: Ada explores two moves ahead (the server's explore answers), sets them as conditional
moves, and sees the reply played when Bo, in a browser of his own, makes the move she foresaw;
after a move, "Next game" (and the key n) goes to her account's next game awaiting her move."""

from __future__ import annotations

import re

import pytest
import requests

from tests.browser.test_accounts import PASSWORD, moves, new_username, say, signed_in_as
from tests.browser.test_in_game import two_players
from tests.browser.test_web_client import assert_fits_phone

pytestmark = pytest.mark.browser


def test_an_explored_line_set_as_conditional_is_played_when_the_opponent_moves(
    new_page, live_server, screenshot
):
    game_id, ada, bo = two_players(new_page, live_server)
    # each move once its legal moves are shown: the number's box plays only a listed move
    ada.wait_for_selector(".fm-grid button.legal")
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

    bo.wait_for_selector(".fm-grid button.legal")
    say(bo, 4)
    bo.wait_for_selector(".moves li:has-text('Ada: says 8')", timeout=30000)
    assert [e["move"]["number"] for e in moves(live_server, game_id)] == [2, 4, 8]
    game = requests.get(f"{live_server}/api/v1/games/{game_id}", timeout=10).json()
    assert game["ply"] == 3 and game["to_move"] == 1
    ada.click("button.explore-toggle")  # back to the game: the reply is on Ada's page too
    ada.wait_for_selector(".moves li:has-text('Ada: says 8')", timeout=30000)


def test_next_game_and_the_key_n_go_to_the_accounts_next_game_awaiting_its_move(
    new_page, live_server, screenshot
):
    username = new_username("ada")
    signed_up = requests.post(
        f"{live_server}/api/v1/accounts",
        json={"username": username, "password": PASSWORD},
        timeout=10,
    )
    assert signed_up.status_code == 201, signed_up.text
    token = signed_up.json()["token"]

    def new_game(first: int) -> dict:
        made = requests.post(
            f"{live_server}/api/v1/games",
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
            json={
                "kind": "factor-multiple",
                "options": {"n": 30},
                "first": first,
                "seats": [{"me": True}, {"human": {"name": "Bo"}}],
            },
        )
        assert made.status_code == 201, made.text
        return made.json()

    def bo_says(game: dict, number: int) -> None:
        said = requests.post(
            f"{live_server}/api/v1/games/{game['id']}/moves",
            headers={"Authorization": f"Bearer {game['tokens']['1']}"},
            timeout=10,
            json={"move": {"type": "say", "number": number}, "ply": 0},
        )
        assert said.status_code == 201, said.text

    # her move in `first`; Bo to move in the two others, so no game of hers waits
    first, second, bos_turn = new_game(0), new_game(1), new_game(1)
    page = new_page()
    page.evaluate(
        "([username, token]) => localStorage.setItem('postplay.account', "
        "JSON.stringify({ username, token }))",
        [username, token],
    )
    page.reload()  # the app starts signed in, as after a sign-in
    signed_in_as(page, username)
    page.goto(f"/#/game/{first['id']}")
    page.wait_for_selector(".status:has-text('Your turn')")
    page.wait_for_selector(".fm-grid button.legal")  # (as above)
    next_game = page.locator("a.next-game")
    # the page has asked /me/games as it opened (the link's key is set then): nothing waits
    page.wait_for_selector("a.next-game[aria-keyshortcuts='n']", state="attached")
    assert next_game.is_hidden()

    bo_says(second, 2)  # now `second` awaits her move
    say(page, 2)
    page.wait_for_selector(f".moves li:has-text('{username}: says 2')")
    page.wait_for_selector(".status:has-text('Bo to move')")
    next_game.wait_for(state="visible")
    listed = requests.get(
        f"{live_server}/api/v1/me/games",
        headers={"Authorization": f"Bearer {token}"},
        params={"status": "active"},
        timeout=10,
    ).json()
    waiting = [g["id"] for g in listed if g["to_move"] == 0 and g["id"] != first["id"]]
    assert waiting == [second["id"]] and bos_turn["id"] in [g["id"] for g in listed]
    assert next_game.get_attribute("href") == f"#/game/{waiting[0]}"
    screenshot(page, "next-game")
    assert_fits_phone(page)

    page.evaluate("document.activeElement.blur()")  # (n typed in the number's box is ignored)
    page.keyboard.press("n")
    page.wait_for_url(re.compile(f"#/game/{second['id']}$"))
    page.wait_for_selector(".moves li:has-text('Bo: says 2')")
    page.wait_for_selector(".status:has-text('Your turn')")
