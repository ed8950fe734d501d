"""Events in the web client, on the phone, against the real app and worker: an event created from
the form, joined from a second account, started by its organiser, paired by the worker, and a
paired game opened from the event page, which links back to it (and the lobby marks it); a
ladder joined and challenged; a player's profile listing the events played, with placing and
score, each linked. axe-core finds no serious violation on these pages."""

from __future__ import annotations

import time

import pytest
import requests

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


def _api(live_server: str, method: str, path: str, who: dict, **body) -> dict:
    response = requests.request(
        method,
        f"{live_server}/api/v1{path}",
        json=body,
        headers={"Authorization": f"Bearer {who['token']}"},
        timeout=10,
    )
    assert response.status_code in (200, 201), response.text
    return response.json()


def _poll(live_server: str, tid: str, condition) -> dict:
    """The tournament once `condition` holds of it (the worker's steps run meanwhile)."""
    deadline = time.monotonic() + 30
    while True:
        doc = requests.get(f"{live_server}/api/v1/tournaments/{tid}", timeout=10).json()
        if condition(doc):
            return doc
        assert time.monotonic() < deadline, doc
        time.sleep(0.1)


def test_a_profile_lists_the_events_played_with_placing_on_a_phone(
    new_page, live_server, screenshot
):
    ada, bo = _account(live_server, "pe_ada"), _account(live_server, "pe_bo")
    names = {who["account"]["username"]: who for who in (ada, bo)}
    spec = {
        "kind": "factor-multiple",
        "options": {"n": 10},
        "time_control": {"type": "none"},
        "starts_at": "2030-01-01T00:00:00Z",
    }
    done = _api(
        live_server,
        "POST",
        "/tournaments",
        ada,
        name="Cup played",
        format="swiss",
        rounds=1,
        max_players=2,
        **spec,
    )
    for who in (ada, bo):
        _api(live_server, "POST", f"/tournaments/{done['id']}/join", who)
    _api(live_server, "POST", f"/tournaments/{done['id']}/start", ada)
    (pairing,) = _poll(live_server, done["id"], lambda t: t["rounds"])["rounds"][0]["pairings"]
    winner, loser = pairing["seats"]
    _api(live_server, "POST", f"/games/{pairing['game_id']}/resign", names[loser])
    _poll(live_server, done["id"], lambda t: t["status"] == "finished")
    waiting = _api(
        live_server,
        "POST",
        "/tournaments",
        bo,
        name="Cup to come",
        format="knockout",
        max_players=4,
        **spec,
    )
    _api(live_server, "POST", f"/tournaments/{waiting['id']}/join", names[winner])

    page = new_page(f"/#/player/{winner}")
    rows = page.locator(".profile-events li.event-row")
    rows.nth(1).wait_for()
    assert [rows.nth(i).get_attribute("data-event") for i in range(2)] == [
        waiting["id"],
        done["id"],
    ]  # newest entry first
    played = page.locator(f".event-row[data-event='{done['id']}']")
    assert played.locator("a").inner_text() == "Cup played"
    assert played.locator(".placing").inner_text() == "1st place"
    assert played.locator(".score").inner_text() == "1 point"
    assert "Swiss" in played.inner_text()
    coming = page.locator(f".event-row[data-event='{waiting['id']}']")
    assert coming.locator(".placing").inner_text() == "not started"
    assert coming.locator(".score").inner_text() == "0 points"
    assert serious_violations(page) == []
    assert_fits_phone(page)
    screenshot(page, "profile-events")

    other = new_page(f"/#/player/{loser}")
    lost = other.locator(f".event-row[data-event='{done['id']}']")
    lost.wait_for()
    assert lost.locator(".placing").inner_text() == "2nd place"
    assert lost.locator(".score").inner_text() == "0 points"
    lost.locator("a").click()
    other.wait_for_url(f"**/#/event/{done['id']}")
    other.wait_for_selector(f".event-players a:has-text('{loser}')")
