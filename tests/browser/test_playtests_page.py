"""The playtest page and invite-only seats in headless Chromium at phone size, against the real app
and a real worker (which serves the playtest queue): a small playtest started from the page,
watched to the end and its report checked against itself and the API; an invite-only game kept
out of another browser's open games but joined through its link."""

from __future__ import annotations

import re

import pytest
import requests

from tests.browser.conftest import wait_until
from tests.browser.test_web_client import assert_fits_phone, start_game

pytestmark = pytest.mark.browser

GAMES = 6
PLAYTEST_TIMEOUT_MS = 90000  # six short games on a shared, loaded machine


def stat(scope, name: str) -> int:
    return int(scope.locator(f"[data-stat='{name}']").inner_text())


def test_a_playtest_from_the_page(new_page, live_server, screenshot):
    page = new_page()
    page.click("header .site-menu summary")  # the designers' tools are under the menu
    page.click("header nav a:has-text('Playtests')")
    page.wait_for_url(re.compile(r"#/playtests$"))

    # the form checks its numbers before asking the server
    page.select_option("select[name=kind]", "factor-multiple")
    page.fill("input[name=games]", "0")
    page.click("button:has-text('Start the playtest')")
    # ... and says what is wrong right under the button, where the eye is
    page.wait_for_selector(
        "button:has-text('Start the playtest') + .refusal[role=alert]"
        ":has-text('Games must be a whole number from 1 to 1000.')"
    )

    page.fill("#opt-n", "30")
    page.select_option("select[name=bot-a]", "greedy")
    page.select_option("select[name=bot-b]", "random")
    page.fill("input[name=games]", str(GAMES))
    page.fill("input[name=budget]", "0.02")
    page.fill("input[name=seed]", "7")
    page.click("summary:has-text('More settings')")
    page.fill("input[name=chunk]", "3")  # two worker jobs
    assert_fits_phone(page)

    polls = []
    page.on(
        "request",
        lambda r: (
            r.method == "GET"
            and re.search(r"/api/v1/playtests/\w+$", r.url)
            and polls.append(r.headers.get("if-none-match"))
        ),
    )
    page.click("button:has-text('Start the playtest')")
    page.wait_for_url(re.compile(r"#/playtest/\w+$"))
    playtest_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector(".report .results", timeout=PLAYTEST_TIMEOUT_MS)
    assert page.locator(".pt-progress .done").inner_text() == f"{GAMES} of {GAMES} games"
    assert page.locator(".pt-progress .status").inner_text() == "Finished."

    # polling: If-None-Match after the first load, and it stops once the playtest is over
    assert polls and polls[0] is None and all(polls[1:]), polls
    count = len(polls)
    page.wait_for_timeout(2500)
    assert len(polls) == count, "still polling a finished playtest"

    # the numbers shown add up to the games played, and match the API's report
    results = page.locator(".report .results")
    games = stat(results, "games")
    assert games == GAMES
    bots = [results.locator(f"tr[data-bot='{i}']") for i in (0, 1)]
    draws = stat(bots[0], "draws")
    assert stat(bots[0], "wins") + stat(bots[1], "wins") + draws == games
    for row in bots:
        assert stat(row, "wins") + stat(row, "losses") + stat(row, "draws") == games
        assert stat(row, "wins-white") + stat(row, "wins-black") == stat(row, "wins")
    seats = {s: results.locator(f"tr[data-seat='{s}']") for s in ("0", "1", "first", "second")}
    assert stat(seats["0"], "wins") + stat(seats["1"], "wins") + draws == games
    assert stat(seats["first"], "wins") + stat(seats["second"], "wins") + draws == games
    split = page.eval_on_selector_all(
        ".results svg.chart [data-count]", "els => els.map(e => Number(e.dataset.count))"
    )
    assert sum(split) == games
    lengths = page.eval_on_selector_all(
        ".report .length svg.chart rect[data-count]", "els => els.map(e => Number(e.dataset.count))"
    )
    assert sum(lengths) == games
    assert page.locator(".report .rates .chart-ci").count() == 5  # 2 bots, 2 seats, first player
    url = f"{live_server}/api/v1/playtests/{playtest_id}"
    report = requests.get(url, timeout=10).json()["report"]
    assert report["wins"]["by_bot"] == [stat(row, "wins") for row in bots]
    assert report["wins"]["by_seat"] == [stat(seats["0"], "wins"), stat(seats["1"], "wins")]
    assert report["first_player"]["wins"] == stat(seats["first"], "wins")
    assert [b["count"] for b in report["length"]["histogram"]] == lengths
    # how the games ended, in the words GET /kinds gives each reason ("no legal move left")
    kinds = requests.get(f"{live_server}/api/v1/kinds", timeout=10).json()
    words = {
        r["reason"]: r["words"]
        for r in next(k for k in kinds if k["kind"] == "factor-multiple")["reasons"]
    }
    ended = page.locator(".report .reasons").inner_text()
    assert all(f"{words[reason]} {n}" in ended for reason, n in report["reasons"].items()), ended
    samples = page.locator(".samples li")
    assert samples.count() == len(report["samples"]) == 4

    screenshot(page, "playtest")
    assert_fits_phone(page)

    # a sample game opens in the game view and replays
    sample = report["samples"][0]
    samples.first.locator("a").click()
    page.wait_for_url(re.compile(f"#/game/{sample['game_id']}$"))
    page.wait_for_selector(".banner:not([hidden])")
    wait_until(page, f"document.querySelectorAll('.moves li').length === {sample['plies']}")
    page.click("button[aria-label='First position']")
    page.wait_for_selector(".replay-note:not([hidden])")
    assert page.locator(".fm-grid button.said").count() == 0

    # and the playtest is listed
    page.click("header .site-menu summary")  # the designers' tools are under the menu
    page.click("header nav a:has-text('Playtests')")
    row = page.locator(f".playtest-list li[data-playtest='{playtest_id}']")
    row.wait_for()
    assert "finished" in row.inner_text() and "greedy vs random" in row.inner_text()


def test_an_invite_only_game_is_joined_through_its_link(new_page, live_server):
    # a listed open game, so the guest's list is known to be loaded when it is checked
    listed = requests.post(
        f"{live_server}/api/v1/games",
        timeout=10,
        json={
            "kind": "factor-multiple",
            "seats": [{"human": {"name": "Cy"}}, {"open": True}],
        },
    ).json()["id"]

    host = new_page()
    game_id = start_game(host, "factor-multiple", "invite")
    host.wait_for_selector(".status:has-text('Waiting for an opponent')")
    assert "not listed under Open games" in host.locator(".share").inner_text()
    link = host.locator(".share input").input_value()
    assert link.endswith(f"/#/game/{game_id}")
    waiting = [
        g["id"]
        for g in requests.get(
            f"{live_server}/api/v1/games", timeout=10, params={"status": "waiting"}
        ).json()
    ]
    assert listed in waiting and game_id not in waiting

    guest = new_page()
    guest.locator(f".open .game-list li[data-game='{listed}']").wait_for()
    assert guest.locator(f".game-list li[data-game='{game_id}']").count() == 0

    guest.goto(link)
    guest.fill(".join input[name=name]", "Bo")
    guest.click("button:has-text('Take the open seat')")
    guest.wait_for_selector(".player:has-text('Bo') .tag:has-text('you')")
    guest.wait_for_selector(".status:has-text('Ada to move')")
    host.wait_for_selector(".player:has-text('Bo')")
    host.wait_for_selector(".status:has-text('Your turn')")
    assert_fits_phone(guest)


def test_only_the_browser_that_started_a_playtest_may_cancel_it(new_page, live_server):
    # someone else's playtest (long, so it keeps the worker busy while the page's waits in queue)
    others = requests.post(
        f"{live_server}/api/v1/playtests",
        timeout=10,
        json={
            "kind": "factor-multiple",
            "bots": ["greedy", "random"],
            "games": 1000,
            "chunk_games": 100,
            "budget_s": 0.05,
        },
    ).json()
    try:
        page = new_page(f"/#/playtest/{others['id']}")
        page.wait_for_selector(".pt-progress .status:has-text('Running')")
        assert page.locator(".playtest button:has-text('Cancel')").count() == 0

        page.goto("/#/playtests")
        page.select_option("select[name=kind]", "factor-multiple")
        page.fill("input[name=games]", "300")
        page.fill("input[name=budget]", "0.05")
        page.click("button:has-text('Start the playtest')")
        page.wait_for_url(re.compile(r"#/playtest/\w+$"))
        mine = page.url.rsplit("/", 1)[1]
        token = page.evaluate("JSON.parse(localStorage.getItem('postplay.playtests'))")[mine]
        assert (
            token
            and requests.delete(f"{live_server}/api/v1/playtests/{mine}", timeout=10).status_code
            == 401
        )
        page.click("button:has-text('Cancel the playtest')")
        page.wait_for_selector(".pt-progress .status:has-text('Cancel')")
        page.wait_for_selector(".report .card", timeout=PLAYTEST_TIMEOUT_MS)
        assert (
            requests.get(f"{live_server}/api/v1/playtests/{mine}", timeout=10).json()["status"]
            == "cancelled"
        )
    finally:
        requests.delete(
            f"{live_server}/api/v1/playtests/{others['id']}",
            timeout=10,
            headers={"Authorization": f"Bearer {others['owner_token']}"},
        )
