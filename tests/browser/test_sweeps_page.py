"""The sweeps page in headless Chromium at phone size, against the real app and a real worker: a
small 2 x 2 sweep picked from GET /kinds on the form, watched to the end, its comparison chart
(win rate per variant with interval whiskers and the 50 % line, lengths as box plots) and table
checked against the API, each variant linked to its playtest report, and both downloads."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
import requests

from tests.browser.test_web_client import assert_fits_phone

pytestmark = pytest.mark.browser

GAMES = 3
SWEEP_TIMEOUT_MS = 120000  # twelve short games on a shared, loaded machine


def test_a_sweep_from_the_page(new_page, live_server, console, screenshot):
    page = new_page()
    page.click("header .site-menu summary")  # the designers' tools are under the menu
    page.click("header nav a:has-text('Sweeps')")
    page.wait_for_url(re.compile(r"#/sweeps$"))
    page.select_option("select[name=kind]", "factor-multiple")
    page.select_option("select[name=bot-a]", "greedy")
    page.select_option("select[name=bot-b]", "random")
    page.fill("input[name=games]", str(GAMES))
    page.fill("input[name=budget]", "0.02")
    page.fill("input[name=seed]", "5")

    # the first option (n) is varied to begin with; nothing varied is refused before asking
    n_row = page.locator(".sweep-option[data-option='n']")
    even_row = page.locator(".sweep-option[data-option='even_start']")
    n_row.locator("input[aria-label='Vary n']").uncheck()
    page.click("button:has-text('Start the sweep')")
    page.wait_for_selector(".alert:has-text('Tick Vary on at least one option')")

    # a value the game refuses comes back with game creation's own sentence
    console.allow(r"422")
    n_row.locator("input[aria-label='Vary n']").check()
    n_row.locator("textarea").fill("20, 5")
    page.click("button:has-text('Start the sweep')")
    page.wait_for_selector(".alert:has-text('Option n must be at least 10.')")

    n_row.locator("textarea").fill("20, 30")
    even_row.locator("input[aria-label='Vary even start']").check()
    assert even_row.locator(".sweep-choices input:checked").count() == 2
    count = page.locator(".sweep-count").inner_text()
    assert count == f"4 variants × {GAMES} games = {4 * GAMES} games."
    assert_fits_phone(page)
    page.click("button:has-text('Start the sweep')")
    page.wait_for_url(re.compile(r"#/sweep/\w+$"))
    sweep_id = page.url.rsplit("/", 1)[1]
    page.wait_for_selector(".sweep-rates svg.chart", timeout=SWEEP_TIMEOUT_MS)
    assert page.locator(".pt-progress .status").inner_text() == "Finished."
    sweep = requests.get(f"{live_server}/api/v1/playtests/sweeps/{sweep_id}", timeout=10).json()
    assert sweep["seed"] == 5 and sweep["vary"] == {"n": [20, 30], "even_start": [True, False]}
    comparison = sweep["comparison"]

    # the chart: a bar per variant at the API's rate, each with its interval, and the 50 % line
    rates = page.eval_on_selector_all(
        ".sweep-rates rect.chart-bar", "els => els.map(e => Number(e.dataset.rate))"
    )
    assert rates == [row["first_player"]["win_rate"] for row in comparison["variants"]]
    whiskers = page.eval_on_selector_all(
        ".sweep-rates g.chart-ci",
        "els => els.map(e => [Number(e.dataset.lo), Number(e.dataset.hi)])",
    )
    assert whiskers == [row["first_player"]["ci95"] for row in comparison["variants"]]
    assert page.locator(".sweep-rates line.chart-even").count() == 1
    assert page.locator(".sweep-rates rect.chart-bar.balanced").count() == 1
    assert page.locator(".sweep-lengths g.chart-box").count() == 4

    # the table: a row per variant, linked to its playtest, one of them the most balanced
    rows = page.locator(".sweep-numbers tbody tr")
    assert rows.count() == 4
    verdicts = [rows.nth(i).locator("[data-stat='verdict']").inner_text() for i in range(4)]
    assert verdicts[comparison["balanced"]] == "most balanced"
    assert verdicts.count("most balanced") == 1
    for i, variant in enumerate(sweep["variants"]):
        link = rows.nth(i).locator("th a").first
        assert link.inner_text() == spoken(variant["values"])  # in words, not the raw label
        assert link.get_attribute("href") == f"#/playtest/{variant['playtest_id']}"
        samples = rows.nth(i).locator("small a")
        assert samples.count() == 2
        first_sample = variant["report"]["samples"][0]["game_id"]
        assert samples.first.get_attribute("href") == f"#/game/{first_sample}"

    # the downloads: the comparison as CSV, the sweep as JSON
    with page.expect_download() as got:
        page.click(".downloads a.csv")
    table = list(csv.DictReader(io.StringIO(open(got.value.path(), newline="").read())))
    assert [int(r["games"]) for r in table] == [GAMES] * 4
    assert [r["label"] for r in table] == [v["label"] for v in sweep["variants"]]
    assert [r["balanced"] for r in table].count("True") == 1
    with page.expect_download() as got:
        page.click(".downloads a.json")
    downloaded = json.loads(open(got.value.path()).read())
    assert downloaded["id"] == sweep_id and downloaded["comparison"] == comparison
    screenshot(page, "sweep")

    # a variant's link opens its playtest report, which links back to the sweep
    rows.nth(1).locator("th a").first.click()
    page.wait_for_selector(".report .results")
    page.click(f"a[href='#/sweep/{sweep_id}']")
    page.wait_for_selector(".sweep-rates svg.chart")


def spoken(values: dict) -> str:
    """A variant named in words, as the page names it: {"n": 20, "even_start": True} ->
    "n: 20, even start: on"."""
    return ", ".join(
        f"{name.replace('_', ' ')}: "
        + ("on" if value is True else "off" if value is False else str(value))
        for name, value in values.items()
    )
