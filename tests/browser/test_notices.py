"""The tab that notices, in headless Chromium against the real app and worker: signed in on any
page, a hidden tab polls the account's games at most once a minute, and after the opponent's
move its title counts the game waiting ("(1) Postplay"), its favicon gets a badge, and the
browser notification switched on in the account menu appears. The Page Visibility state is
emulated (an init script owns `document.hidden`), and the page's clock is Playwright's, so a
minute passes at once."""

from __future__ import annotations

import urllib.parse
import uuid

import pytest
import requests

from tests.browser.conftest import PHONE, wait_for, wait_until
from tests.browser.test_accounts import PASSWORD, sign_in, signed_in_as

pytestmark = pytest.mark.browser

# the tab's visibility, as the test sets it; and every notification the page shows, recorded
VISIBILITY = """
(() => {
  let hidden = false;
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(Document.prototype, "visibilityState",
    { configurable: true, get: () => (hidden ? "hidden" : "visible") });
  window.__setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
  window.__notifications = [];
  if (window.Notification) {
    const Shown = window.Notification;
    window.Notification = class extends Shown {
      constructor(title, options) {
        super(title, options);
        window.__notifications.push({ title, body: options?.body, tag: options?.tag });
      }
    };
  }
})();
"""


def account(base: str, prefix: str) -> tuple[str, str]:
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    made = requests.post(
        f"{base}/api/v1/accounts", json={"username": name, "password": PASSWORD}, timeout=10
    )
    assert made.status_code == 201, made.text
    return name, made.json()["token"]


def api(base: str, method: str, path: str, token: str, **body) -> dict:
    response = requests.request(
        method,
        f"{base}/api/v1{path}",
        timeout=10,
        json=body or None,
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code in (200, 201), response.text
    return response.json()


def test_a_hidden_tab_counts_the_games_waiting_after_the_opponents_move(
    browser, live_server, console, screenshot
):
    ada, ada_token = account(live_server, "ada")
    bob, bob_token = account(live_server, "bob")
    game = api(
        live_server,
        "POST",
        "/games",
        ada_token,
        kind="factor-multiple",
        options={"n": 30},
        seats=[{"me": True}, {"player": bob}],
        first=1,
    )
    api(live_server, "POST", f"/games/{game['id']}/accept", bob_token)  # Bob moves first

    context = browser.new_context(viewport=PHONE, base_url=live_server)
    context.grant_permissions(["notifications"], origin=live_server)
    context.add_init_script(VISIBILITY)
    polls: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda msg: msg.type == "error" and console.record(msg.text))
        page.on("pageerror", lambda exc: console.record(f"uncaught: {exc}"))
        page.on("request", lambda r: "/api/v1/me/games" in r.url and polls.append(r.url))
        page.clock.install()
        page.goto("/")
        sign_in(page, ada)
        signed_in_as(page, ada)
        page.goto("/#/rules")  # any page: the rules index polls nothing of its own
        page.wait_for_selector("h1")
        page.click("header nav.account summary.me")
        page.click("summary:has-text('Notices')")
        page.check("input[name=notify]")
        assert page.evaluate("JSON.parse(localStorage['postplay.notices']).notify") is True
        screenshot(page, "notices-menu")
        wait_until(page, "document.title === 'Postplay'")  # nothing waits for Ada yet

        page.evaluate("window.__setHidden(true)")
        page.clock.fast_forward(1000)
        before = len(polls)
        api(
            live_server,
            "POST",
            f"/games/{game['id']}/moves",
            bob_token,
            move={"type": "say", "number": 4},
            ply=0,
        )
        page.clock.fast_forward(30_000)  # hidden: not polled again within the minute
        page.wait_for_timeout(300)
        assert len(polls) == before and page.title() == "Postplay"

        page.clock.fast_forward(31_000)
        wait_until(page, "document.title === '(1) Postplay'")
        assert len(polls) == before + 1
        icon = page.evaluate("document.querySelector('link[rel=icon]').getAttribute('href')")
        assert icon.startswith("data:image/svg+xml,")
        drawn = urllib.parse.unquote(icon.removeprefix("data:image/svg+xml,"))
        assert "<circle" in drawn and ">1</text>" in drawn and drawn.rstrip().endswith("</svg>")
        shown = page.evaluate("window.__notifications")
        assert shown == [
            {
                "title": "Your move on Postplay",
                "body": f"factor-multiple against {bob}",
                "tag": f"postplay-{game['id']}",
            }
        ]

        # back to the tab, which polls at once; that poll answered, Ada moves elsewhere (a move
        # made while it is in flight could be answered with the game before it, and its next
        # poll be timed on the page's clock after the test has moved that clock on)
        sent = len(polls)
        page.evaluate("window.__setHidden(false)")
        wait_for(page, lambda: len(polls) > sent, "the visible tab's poll")
        page.wait_for_timeout(500)  # (its answer, from a server this close, within that)
        api(
            live_server,
            "POST",
            f"/games/{game['id']}/moves",
            ada_token,
            move={"type": "say", "number": 8},
            ply=1,
        )
        page.clock.fast_forward(21_000)
        wait_until(page, "document.title === 'Postplay'")
        plain = page.evaluate("document.querySelector('link[rel=icon]').getAttribute('href')")
        assert plain == "/static/favicon.svg"
        assert len(page.evaluate("window.__notifications")) == 1  # visible: no notification
    finally:
        context.close()
    assert console.unexpected() == [], "errors in the browser console"


def test_the_tab_counts_what_the_game_page_says_and_the_pop_up_closes_on_leaving(
    new_page, live_server
):
    ada, ada_token = account(live_server, "ada")
    bob, bob_token = account(live_server, "bob")
    game = api(
        live_server,
        "POST",
        "/games",
        ada_token,
        kind="factor-multiple",
        options={"n": 30},
        seats=[{"me": True}, {"player": bob}],
        first=0,
    )
    api(live_server, "POST", f"/games/{game['id']}/accept", bob_token)  # Ada moves first
    page = new_page()
    sign_in(page, ada)
    signed_in_as(page, ada)
    page.goto("/#/rules")
    page.wait_for_selector("h1")
    wait_until(page, "document.title === '(1) Postplay'")  # the game waits for Ada's move

    page.click("header nav.account summary.me")
    page.click("summary:has-text('Notices')")
    assert page.locator("details.notices-menu:not(.bell)").evaluate("d => d.open") is True
    page.goto(f"/#/game/{game['id']}")
    page.wait_for_selector("input[aria-label='Number to say']")
    assert page.locator("details.notices-menu:not(.bell)").evaluate("d => d.open") is False
    wait_until(page, "document.title.startsWith('(1) Your turn')")

    page.evaluate("""() => { window.__titles = [];
        new MutationObserver(() => window.__titles.push(document.title))
          .observe(document.querySelector("title"), { childList: true, subtree: true }); }""")
    page.fill("input[aria-label='Number to say']", "4")
    page.click(".fm .action-bar button:has-text('Play')")
    wait_until(page, f"document.title.startsWith({bob!r} + ' to move')")
    titles = page.evaluate("window.__titles")
    shown = [t for t in titles if "to move" in t]
    assert shown and not any(t.startswith("(") for t in shown), titles  # never "(1) bob to move"
