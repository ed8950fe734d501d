"""Events in the web client, on the phone, against the real app and worker: an event created from
the form, joined from a second account, started by its organiser, paired by the worker, and a
paired game opened from the event page, which links back to it (and the lobby marks it); a
ladder joined and challenged. axe-core finds no serious violation on these pages."""

from __future__ import annotations

import pytest

from tests.browser.test_polish import serious_violations
from tests.browser.test_ratings import _account
from tests.browser.test_web_client import assert_fits_phone

pytestmark = pytest.mark.browser


def _signed_in(new_page, who: dict, path: str):
    page = new_page("/#/rules")
    page.evaluate(
        "([u, t]) => localStorage.setItem('postplay.account', "
        "JSON.stringify({username: u, token: t}))",
        [who["account"]["username"], who["token"]],
    )
    page.goto(path)
    page.reload()
    return page


def test_an_event_is_created_joined_started_and_its_game_opened_on_a_phone(
    new_page, live_server, screenshot
):
    ada, bo = _account(live_server, "ev_ada"), _account(live_server, "ev_bo")
    page = _signed_in(new_page, ada, "/#/events")
    form = page.locator("form[aria-label='New event']")
    form.locator("input[name=name]").fill("Winter round-robin")
    form.locator("select[name=kind]").select_option("factor-multiple")
    form.locator("select[name=format]").select_option("round-robin")
    assert form.locator("input[name=rounds]").is_hidden()  # a Swiss field only
    form.locator("input[name=max_players]").fill("4")
    page.wait_for_selector(".event-list[data-status=open] :is(ul, p)")
    assert serious_violations(page) == []
    assert_fits_phone(page)
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/#/event/*")
    event_url = "/" + page.url.split("/", 3)[3]
    page.locator(".event-actions button:has-text('Join')").click()
    page.wait_for_selector(f".event-players a:has-text('{ada['account']['username']}')")

    other = _signed_in(new_page, bo, event_url)
    other.locator(".event-actions button:has-text('Join')").click()
    other.wait_for_selector(".event-actions button:has-text('Leave')")

    page.reload()
    page.wait_for_selector(f".event-players a:has-text('{bo['account']['username']}')")
    page.locator(".event-actions button:has-text('Start now')").click()
    pairing = page.locator(".event-round[data-round='1'] a.pairing")
    pairing.wait_for(timeout=30000)  # the worker pairs the round (and the page polls)
    assert pairing.inner_text() in (
        f"{ada['account']['username']} – {bo['account']['username']}",
        f"{bo['account']['username']} – {ada['account']['username']}",
    )
    page.wait_for_selector(".standings tbody tr >> nth=1")
    page.wait_for_selector(".crosstable")
    assert serious_violations(page) == []
    assert_fits_phone(page)
    screenshot(page, "event-running")
    game_id = pairing.get_attribute("href").split("/")[-1]
    pairing.click()
    page.wait_for_url(f"**/#/game/{game_id}")
    page.wait_for_selector(".fm-grid")
    assert page.locator(f"text={bo['account']['username']}").count() >= 1
    back = page.locator(".game-head .event-link a")
    assert back.inner_text() == "Round 1 of its event"
    assert back.get_attribute("href") == event_url[1:]
    page.goto("/#/")  # the lobby's list of the account's games marks the event's
    assert page.locator(f"li[data-game='{game_id}'] a.tag").inner_text() == "event"


def test_a_ladder_is_joined_and_challenged_up_on_a_phone(new_page, live_server, screenshot):
    ada, bo = _account(live_server, "ld_ada"), _account(live_server, "ld_bo")
    page = _signed_in(new_page, ada, "/#/ladder/partition")
    page.locator(".ladder button:has-text('Join this ladder')").click()
    page.wait_for_selector(f".ladder-ranks tr[data-player='{ada['account']['username']}']")

    other = _signed_in(new_page, bo, "/#/ladder/partition")
    other.locator(".ladder button:has-text('Join this ladder')").click()
    challenge = other.locator(
        f".ladder-ranks tr[data-player='{ada['account']['username']}'] button:has-text('Challenge')"
    )
    challenge.wait_for()
    assert serious_violations(other) == []
    assert_fits_phone(other)
    screenshot(other, "ladder")
    challenge.click()
    other.wait_for_url("**/#/game/*")
    other.goto("/#/ladder/partition")
    playing = other.locator(f".ladder-ranks tr[data-player='{bo['account']['username']}'] td a")
    assert playing.inner_text() == "playing"
