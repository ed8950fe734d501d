"""The service worker's Web Push side, in headless Chromium against the real app: a push
delivered to the real service worker through CDP (`ServiceWorker.deliverPushMessage`, what
DevTools' Push button does) is shown as a notification (read back with
`registration.getNotifications()`: headless Chromium draws no notification one could click),
and the code its `notificationclick` handler runs, `openGame(notification.data.url)`, run in the
service worker with the notification shown, sends the open tab to the game. The Notifications
settings page sends the choices it shows to the server: channels, quiet when present, the
digest hour."""

from __future__ import annotations

import json

import pytest
import requests

from tests.browser.conftest import wait_for, wait_until
from tests.browser.test_notices import account, api

pytestmark = pytest.mark.browser


def signed_in(new_page, live_server, username: str, token: str, path: str = "/"):
    page = new_page("/")
    page.context.grant_permissions(["notifications"], origin=live_server)
    page.evaluate(
        "([u, t]) => localStorage.setItem('postplay.account', "
        "JSON.stringify({username: u, token: t}))",
        [username, token],
    )
    page.goto(path)
    page.reload()
    return page


def registration_id(page) -> str:
    """The service worker's registration id, as CDP names it, once its worker is activated (a
    push to a worker still activating, or to a registration CDP reported before it was
    replaced, is dropped without a word)."""
    wait_until(page, "navigator.serviceWorker.ready.then((r) => r.active.state === 'activated')")
    cdp = page.context.new_cdp_session(page)
    live: dict[str, bool] = {}  # registration id -> not deleted, as of CDP's latest report

    def updated(event) -> None:
        scope = page.url.split("#")[0].rstrip("/")
        for r in event["registrations"]:
            if r["scopeURL"].rstrip("/") == scope:
                live[r["registrationId"]] = not r["isDeleted"]

    cdp.on("ServiceWorker.workerRegistrationUpdated", updated)
    cdp.send("ServiceWorker.enable")
    wait_for(page, lambda: [k for k, v in live.items() if v], "the service worker's registration")
    page.__cdp = cdp
    (found,) = [k for k, v in live.items() if v]
    return found


def test_a_push_is_shown_and_its_click_opens_the_game(new_page, live_server):
    ada, ada_token = account(live_server, "ada")
    bob, bob_token = account(live_server, "bob")
    game = api(
        live_server,
        "POST",
        "/games",
        ada_token,
        kind="factor-multiple",
        first=0,
        seats=[{"me": True}, {"player": bob}],
        options={"n": 30},
    )
    api(live_server, "POST", f"/games/{game['id']}/accept", bob_token)
    page = signed_in(new_page, live_server, bob, bob_token)
    wait_until(page, "navigator.serviceWorker.controller !== null")
    registration = registration_id(page)
    url = f"{live_server}/#/game/{game['id']}"
    payload = {
        "id": "msg_test",
        "type": "turn",
        "game": game["id"],
        "title": "Factor/Multiple",
        "body": f"Your move against {ada} (Factor/Multiple)",
        "url": url,
    }
    page.__cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_server, "registrationId": registration, "data": json.dumps(payload)},
    )
    shown = []

    def notifications():
        shown[:] = page.evaluate("""navigator.serviceWorker.ready
            .then((r) => r.getNotifications())
            .then((ns) => ns.map((n) => ({title: n.title, body: n.body, tag: n.tag,
                                         data: n.data})))""")
        return shown

    wait_for(page, notifications, "the push's notification")
    assert shown == [
        {
            "title": "Postplay: Factor/Multiple",
            "body": f"Your move against {ada} (Factor/Multiple)",
            "tag": "msg_test",
            "data": {"url": url, "game": game["id"]},
        }
    ]

    (worker,) = page.context.service_workers
    worker.evaluate("""self.registration.getNotifications()
        .then((ns) => openGame(ns[0].data.url)).then(() => true)""")
    wait_until(page, f"location.hash === '#/game/{game['id']}'")
    page.wait_for_selector(".game h1")


def test_the_settings_page_saves_channels_and_quiet_when_present(new_page, live_server, screenshot):
    bob, bob_token = account(live_server, "bob")
    page = signed_in(new_page, live_server, bob, bob_token)
    page.click("#account summary.me")  # the player's menu in the header links to the page
    page.click("#account .account-menu-panel a[href='#/notifications']")
    page.wait_for_selector("input[name='chat.push']")
    assert page.is_checked("input[name='turn.push']")
    assert page.is_checked("input[name='turn.email']")
    assert not page.is_checked("input[name='chat.email']")
    page.uncheck("input[name='chat.push']")
    page.uncheck("input[name=quiet_when_present]")

    def settings():
        return requests.get(
            f"{live_server}/api/v1/me", timeout=10, headers={"Authorization": f"Bearer {bob_token}"}
        ).json()["settings"]

    wait_for(page, lambda: settings().get("quiet_when_present") is False, "quiet saved")
    assert settings()["notify"] == {"chat": ["inbox"]}
    assert page.is_visible("button[name=push-on]")  # nothing asked of the browser before a click
    assert page.input_value("input[name=digest_hour]") == "8"
    assert page.input_value("input[name=reminder_minutes]") == "1440, 60"
    page.fill("input[name=digest_hour]", "6")
    page.dispatch_event("input[name=digest_hour]", "change")
    wait_for(page, lambda: settings().get("digest_hour") == 6, "the digest hour saved")
    assert page.inner_text("#email-state") == "No address set."
    assert page.locator("header .bell summary").count() == 1
    screenshot(page, "notifications-settings")
