"""The header on the phone: one row, the designers' tools (Playtests, Sweeps) and the API (and
the pages the row has no room for) under the More menu, which opens by touch and by keyboard."""

from __future__ import annotations

import re
import uuid

import pytest
import requests
from playwright.sync_api import expect

from tests.browser.test_polish import (  # noqa: F401
    VIEWPORTS,
    open_page,
    serious_violations,
    signed_in_page,
)

MENU = "header.site details.site-menu"


def one_row(page) -> bool:
    """Whether the header's visible links and menu sit in one row, side by side on the screen:
    their middles within half a thumb's height of each other, none over the next or off the
    screen's edge."""
    boxes = page.locator("header.site :is(a, summary, button)").evaluate_all(
        """es => es.filter((e) => e.checkVisibility()).map((e) => e.getBoundingClientRect())
                   .map((b) => ({ left: b.left, right: b.right, middle: b.top + b.height / 2 }))"""
    )
    assert len(boxes) >= 5, "the header shows its links"
    boxes.sort(key=lambda b: b["left"])
    width = page.viewport_size["width"]
    apart = all(a["right"] <= b["left"] + 0.5 for a, b in zip(boxes, boxes[1:]))
    middles = [b["middle"] for b in boxes]
    on_screen = boxes[0]["left"] >= 0 and boxes[-1]["right"] <= width
    return apart and on_screen and max(middles) - min(middles) < 22


def test_the_header_is_one_row_on_the_phone_and_its_menu_opens_by_touch(open_page):
    page = open_page("/", "phone")
    page.wait_for_selector("header.site nav.account a")  # the account links are drawn too
    assert one_row(page)
    assert page.locator("header.site").bounding_box()["height"] < 2 * 44

    page.tap(f"{MENU} summary")
    expect(page.locator(MENU)).to_have_attribute("open", "")
    for name in ("Learn", "Leaderboards", "Events", "Playtests", "Sweeps", "API"):
        expect(page.locator(f"{MENU} a", has_text=re.compile(f"^{name}$"))).to_be_visible()
    page.tap(f"{MENU} a:has-text('Sweeps')")
    page.wait_for_url(re.compile(r"#/sweeps$"))
    expect(page.locator(MENU)).not_to_have_attribute("open", "")
    assert one_row(page)


def test_a_signed_in_players_header_is_one_row_on_the_phone_whatever_the_name(
    new_page, live_server
):
    name = f"hdr_{uuid.uuid4().hex[:16]}"  # 20 characters, the longest a username may be
    account = requests.post(
        f"{live_server}/api/v1/accounts",
        timeout=10,
        json={"username": name, "password": "a long enough password"},
    ).json()
    page = signed_in_page(new_page, "/#/", "phone", "light", account)
    me = page.locator("header.site nav.account summary.me")
    expect(me).to_have_attribute("title", name)
    expect(page.locator("header.site nav.account .bell summary")).to_be_visible()
    assert one_row(page)
    me.tap()
    panel = page.locator("header.site .account-menu-panel")
    expect(panel.locator("a:text-is('Profile')")).to_be_in_viewport(ratio=1)
    expect(panel.locator("button:text-is('Sign out')")).to_be_in_viewport(ratio=1)
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(me).to_be_focused()


def test_the_menu_opens_and_closes_by_keyboard(open_page):
    page = open_page("/", "phone")
    page.wait_for_selector("header.site nav.account a")
    summary = page.locator(f"{MENU} summary")
    for _ in range(10):  # Tab from the top of the page to the menu
        page.keyboard.press("Tab")
        if summary.evaluate("e => e === document.activeElement"):
            break
    expect(summary).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(MENU)).to_have_attribute("open", "")
    page.keyboard.press("Escape")
    expect(page.locator(MENU)).not_to_have_attribute("open", "")
    expect(summary).to_be_focused()
    page.keyboard.press("Enter")
    playtests = page.locator(f"{MENU} a:has-text('Playtests')")
    while not playtests.evaluate("e => e === document.activeElement"):
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"#/playtests$"))
    expect(page.locator(MENU)).not_to_have_attribute("open", "")


def test_on_the_desktop_only_the_designers_tools_and_the_api_are_under_the_menu(open_page):
    page = open_page("/", "desktop")
    for name in ("Lobby", "Rules", "Learn", "Leaderboards", "Events"):
        expect(
            page.locator("header.site nav > a", has_text=re.compile(f"^{name}$"))
        ).to_be_visible()
    page.click(f"{MENU} summary")
    visible = page.locator(f"{MENU} a:visible").all_inner_texts()
    assert [t.strip() for t in visible] == ["Playtests", "Sweeps", "API"]


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_open_menu_passes_axe(scheme, viewport, open_page):
    page = open_page("/", viewport, scheme)
    page.wait_for_selector("main#view :is(form, ul):visible")
    page.click(f"{MENU} summary")
    expect(page.locator(f"{MENU} a:has-text('API')")).to_be_visible()
    assert serious_violations(page) == []
