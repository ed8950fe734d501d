"""Accounts in the web client, in headless Chromium against the real app and worker: a game
started on one device and played on from another after signing in there, signing up (the ten
recovery codes), a refused sign-in and signing out, a challenge by username accepted from the
other player's lobby, and a player's profile with a finished game and a rematch."""

from __future__ import annotations

import re
import uuid

import pytest
import requests

from tests.browser.conftest import wait_until
from tests.browser.test_web_client import assert_fits_phone, start_game

pytestmark = pytest.mark.browser

REFUSED = r"status of 4\d\d .* at \S+/api/v1/"  # the line Chromium logs for an API refusal
PASSWORD = "correct horse battery"


def new_username(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def sign_up(page, username: str, password: str = PASSWORD, screenshot=None) -> list[str]:
    """Sign up from the header's link; return the recovery codes, then go on to the lobby."""
    page.click("header nav.account a:has-text('Sign up')")
    page.fill("form[aria-label='Sign up'] input[name=username]", username)
    page.fill("form[aria-label='Sign up'] input[name=password]", password)
    page.click("form[aria-label='Sign up'] button[type=submit]")
    page.wait_for_selector(".recovery-codes li")
    codes = page.locator(".recovery-codes li").all_inner_texts()
    if screenshot:
        screenshot(page, "recovery-codes")
        assert_fits_phone(page)
    page.click("button:has-text('I have saved them: continue')")
    page.wait_for_selector("section.mine")
    return codes


def sign_in(page, username: str, password: str = PASSWORD) -> None:
    page.click("header nav.account a:has-text('Sign in')")
    page.fill("form[aria-label='Sign in'] input[name=username]", username)
    page.fill("form[aria-label='Sign in'] input[name=password]", password)
    page.click("form[aria-label='Sign in'] button[type=submit]")


def signed_in_as(page, username: str) -> None:
    page.wait_for_selector(f"header nav.account .me-name:text-is('{username}')")


def from_account_menu(page, item: str) -> None:
    """Open the header's menu under the player's name and click `item` in it."""
    page.click("header nav.account summary.me")
    page.click(f"header nav.account .account-menu-panel :is(a, button):text-is('{item}')")


def say(page, number: int) -> None:
    box = page.locator("input[aria-label='Number to say']")
    box.fill(str(number))
    box.press("Enter")


def moves(live_server: str, game_id: str) -> list[dict]:
    return requests.get(f"{live_server}/api/v1/games/{game_id}/moves", timeout=10).json()


def test_a_game_started_on_one_device_is_played_on_from_another(new_page, live_server):
    ada = new_username("ada")
    phone = new_page()
    sign_up(phone, ada)
    signed_in_as(phone, ada)
    game_id = start_game(phone, "factor-multiple", "bot:greedy", options={"n": 30}, player=None)
    phone.wait_for_selector(f".player .name a:text-is('{ada}')")
    say(phone, 4)
    phone.wait_for_selector(".moves li:has-text('Greedy bot')")  # the bot replied

    laptop = new_page()  # another browser context: no storage shared with the phone
    sign_in(laptop, ada)
    signed_in_as(laptop, ada)
    row = laptop.locator(f"section.mine li[data-game='{game_id}']")
    row.wait_for()
    assert "Your turn" in row.inner_text()
    row.locator("a").click()
    laptop.wait_for_url(re.compile(f"#/game/{game_id}$"))
    laptop.wait_for_selector(".player:has(.tag:text-is('you')) .name:has-text('%s')" % ada)
    assert laptop.evaluate("localStorage.getItem('postplay.games')") is None  # no seat token here

    laptop.wait_for_selector(".fm-grid button.legal")
    number = int(laptop.locator(".fm-grid button.legal").first.inner_text())
    laptop.locator(".fm-grid button.legal").first.click()
    laptop.click(".action-bar button:has-text('Play')")
    laptop.wait_for_selector(f".moves li:has-text('{ada}: says {number}')")

    wait_until(
        laptop,
        "document.querySelectorAll('.moves li').length >= 4 "
        "|| !document.querySelector('.banner').hidden",
    )
    history = moves(live_server, game_id)
    assert history[2]["seat"] == 0 and history[2]["move"] == {"type": "say", "number": number}
    game = requests.get(f"{live_server}/api/v1/games/{game_id}", timeout=10).json()
    assert game["seats"][0]["player"] == ada
    # the bot replied to the move made on the laptop (or the move left it none and it lost)
    assert len(history) >= 4 or (game["status"] == "finished" and game["result"]["winner"] == 0)


def test_sign_up_refuses_a_password_easy_to_guess_saying_why(new_page, console):
    page = new_page()
    page.wait_for_selector("header nav.account a:has-text('Sign in')")
    console.allow(REFUSED + r"accounts$")
    page.click("header nav.account a:has-text('Sign up')")
    page.fill("form[aria-label='Sign up'] input[name=username]", new_username("weak"))
    page.fill("form[aria-label='Sign up'] input[name=password]", "aaaaaaaaaa")
    page.click("form[aria-label='Sign up'] button[type=submit]")
    alert = page.locator("section.account-page > .alert")
    alert.wait_for()
    assert (
        alert.inner_text()
        .strip()
        .startswith('This password is too easy to guess. Repeats like "aaa" are easy to guess.')
    )
    assert page.locator("header nav.account .me").count() == 0


def test_sign_up_shows_ten_recovery_codes_and_sign_in_refuses_a_wrong_password(
    new_page, console, screenshot
):
    bo = new_username("bo")
    page = new_page()
    page.wait_for_selector("header nav.account a:has-text('Sign in')")
    codes = sign_up(page, bo, screenshot=screenshot)
    assert len(codes) == 10 and len(set(codes)) == 10 and all(c.strip() for c in codes)
    signed_in_as(page, bo)

    from_account_menu(page, "Sign out")
    page.wait_for_selector("header nav.account a:has-text('Sign up')")
    assert page.locator("header nav.account .me").count() == 0
    assert page.evaluate("localStorage.getItem('postplay.account')") is None

    console.allow(REFUSED + r"session$")
    sign_in(page, bo, "not the password at all")
    alert = page.locator("section.account-page > .alert")
    alert.wait_for()
    assert alert.inner_text().strip() == "Wrong username or password."
    assert page.locator("header nav.account .me").count() == 0
    screenshot(page, "sign-in")
    assert_fits_phone(page)

    # a recovery code signs in with a new password, once
    page.click("summary:has-text('Lost your password? Use a recovery code')")
    form = page.locator("form[aria-label='Recover your account']")
    form.locator("input[name=username]").fill(bo)
    form.locator("input[name=recovery_code]").fill(codes[3])
    form.locator("input[name=new_password]").fill("a brand new passphrase")
    form.locator("button[type=submit]").click()
    signed_in_as(page, bo)
    page.wait_for_selector("section.mine")
    from_account_menu(page, "Sign out")
    sign_in(page, bo, "a brand new passphrase")
    signed_in_as(page, bo)


def test_a_challenge_by_username_is_accepted_from_the_lobby(new_page, live_server, screenshot):
    ada, bo = new_username("ada"), new_username("bo")
    bos_phone = new_page()
    sign_up(bos_phone, bo)
    bos_phone.wait_for_selector("section.challenges .incoming :text('None right now.')")

    adas_phone = new_page()
    sign_up(adas_phone, ada)
    game_id = start_game(adas_phone, "factor-multiple", "challenge", player=None, challenge=bo)
    adas_phone.wait_for_selector(f".status:has-text('A challenge to {bo}')")
    polls = []  # Ada's lobby polls her games with the tag of the list it shows
    adas_phone.on(
        "request",
        lambda r: (
            r.url.endswith("/api/v1/me/games") and polls.append(r.headers.get("if-none-match"))
        ),
    )
    adas_phone.click("a.brand")
    adas_phone.wait_for_selector(f"section.challenges .outgoing li[data-game='{game_id}']")

    row = bos_phone.locator(f"section.challenges .incoming li[data-game='{game_id}']")
    row.wait_for()
    assert f"from {ada}" in row.inner_text()
    screenshot(bos_phone, "lobby-challenges")
    assert_fits_phone(bos_phone)
    row.locator("button:has-text('Accept')").click()
    bos_phone.wait_for_url(re.compile(f"#/game/{game_id}$"))
    bos_phone.wait_for_selector(f".status:has-text('{ada} to move')")

    game = requests.get(f"{live_server}/api/v1/games/{game_id}", timeout=10).json()
    assert game["status"] == "active" and game["to_move"] == 0
    assert [s.get("player") for s in game["seats"]] == [ada, bo]

    adas_phone.locator(f"section.mine li[data-game='{game_id}']:has-text('Your turn')").wait_for()
    assert len(polls) >= 2 and polls[0] is None and all(polls[1:]), polls


def test_the_profile_lists_a_finished_game_and_a_rematch_follows(new_page, live_server, screenshot):
    cy = new_username("cy")
    page = new_page()
    sign_up(page, cy)
    game_id = start_game(page, "factor-multiple", "bot:greedy", options={"n": 30}, player=None)
    say(page, 4)
    page.wait_for_selector(".moves li:has-text('Greedy bot')")
    page.click("button:has-text('Resign')")
    page.click("button:has-text('Yes, resign')")
    page.wait_for_selector(".banner:has-text('Greedy bot wins — you lose')")

    from_account_menu(page, "Profile")
    page.wait_for_url(re.compile(f"#/player/{cy}$"))
    page.wait_for_selector(f".profile h1:has-text('{cy}')")
    assert "Member since" in page.locator(".profile .since").inner_text()
    row = page.locator(f".profile li[data-game='{game_id}']")
    row.wait_for()
    assert row.locator(".outcome").inner_text().lower() == "loss"
    screenshot(page, "profile")
    assert_fits_phone(page)
    row.locator("a").click()

    page.wait_for_url(re.compile(f"#/game/{game_id}$"))
    page.click(".game-actions button:has-text('Rematch')")
    page.wait_for_url(lambda url: re.search(r"#/game/\w+$", url) and game_id not in url)
    rematch = requests.get(
        f"{live_server}/api/v1/games/{page.url.rsplit('/', 1)[1]}", timeout=10
    ).json()
    assert rematch["kind"] == "factor-multiple" and rematch["options"]["n"] == 30
    assert rematch["seats"][1].get("player") == cy and rematch["seats"][0]["bot"] == "greedy"


def test_signing_up_claims_the_games_this_browser_played_without_an_account(
    new_page, live_server, console
):
    """Each seat token the browser holds is offered to the new account once; a game whose seat
    the server will not bind stays listed from this browser's token."""
    dee = new_username("dee")
    page = new_page()
    played = start_game(page, "factor-multiple", "bot:greedy")
    say(page, 4)
    page.wait_for_selector(".moves li:has-text('Greedy bot')")

    # a game this browser holds a token for that no seat has: the server refuses to bind it
    other = requests.post(
        f"{live_server}/api/v1/games",
        timeout=10,
        json={
            "kind": "factor-multiple",
            "seats": [{"human": {"name": "Eve"}}, {"bot": "greedy"}],
            "first": 1,
        },
    ).json()
    page.evaluate(
        """([id]) => {
        const games = JSON.parse(localStorage.getItem("postplay.games"));
        games[id] = { kind: "factor-multiple", tokens: { "0": "not-a-seat-token" }, added: 0 };
        localStorage.setItem("postplay.games", JSON.stringify(games));
    }""",
        [other["id"]],
    )
    console.allow(REFUSED + rf"games/{other['id']}/claim$")

    page.goto("/#/")
    sign_up(page, dee)
    game = requests.get(f"{live_server}/api/v1/games/{played}", timeout=10).json()
    assert game["seats"][0]["player"] == dee
    page.locator(f"section.mine li[data-game='{played}']:has-text('Your turn')").wait_for()
    page.locator(f"section.mine li[data-game='{other['id']}']").wait_for()
    claims = page.evaluate("""Object.fromEntries(Object.entries(JSON.parse(
        localStorage.getItem("postplay.games"))).map(([id, g]) => [id, g.claim]))""")
    assert claims == {played: "claimed", other["id"]: "refused"}


def test_a_challenge_is_declined_from_its_game_page(new_page, live_server):
    ada, bo = new_username("ada"), new_username("bo")
    tokens = {
        name: requests.post(
            f"{live_server}/api/v1/accounts",
            timeout=10,
            json={"username": name, "password": PASSWORD},
        ).json()["token"]
        for name in (ada, bo)
    }
    game = requests.post(
        f"{live_server}/api/v1/games",
        timeout=10,
        headers={"Authorization": f"Bearer {tokens[ada]}"},
        json={"kind": "factor-multiple", "seats": [{"me": True}, {"player": bo}]},
    )
    assert game.status_code == 201, game.json()
    game_id = game.json()["id"]

    page = new_page()
    sign_in(page, bo)
    signed_in_as(page, bo)
    page.goto(f"/#/game/{game_id}")
    page.wait_for_selector(f".join:has-text('{ada} challenges you.')")
    assert page.locator(".join input[name=name]").count() == 0
    page.click(".join button:has-text('Decline')")
    page.wait_for_selector(".banner:has-text('Challenge not taken')")
    assert page.locator(".join").is_hidden()
    declined = requests.get(f"{live_server}/api/v1/games/{game_id}", timeout=10).json()
    assert declined["status"] == "finished" and declined["result"]["reason"] == "aborted"
