"""Browser fixtures: the real app (gunicorn, as `postplay serve` runs it) and a real RQ worker on
127.0.0.1 against the session's Redis, and headless Chromium (Debian's `chromium`) driven by
Playwright. Every page fails its test on a browser console error unless the test allows it.

These fixtures live for the browser package only, so the worker is gone before other packages'
tests flush Redis or run their own burst workers.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
import requests

from tests.live import live_app

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="package")
def chromium_path():
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is missing: install it with `apt-get install chromium`"
        if os.environ.get("CI") == "true":
            pytest.fail(message + " (CI=true: the browser tests must run)")
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="package")
def live_server(redis_url, tmp_path_factory):
    """The base URL of the app, served by gunicorn with a real RQ worker behind it."""
    with live_app(redis_url, tmp_path_factory.mktemp("live")) as base:
        yield base


@pytest.fixture(scope="package")
def kinds(live_server) -> dict[str, dict]:
    return {k["kind"]: k for k in requests.get(f"{live_server}/api/v1/kinds", timeout=10).json()}


@pytest.fixture
def require_kind(kinds):
    """Skip the test when the server does not offer `kind` yet (its engine is not registered)."""

    def require(kind: str) -> dict:
        if kind not in kinds:
            pytest.skip(
                f"{kind} is not registered with the server yet: GET /api/v1/kinds does "
                f"not list it (it lists {', '.join(sorted(kinds))})"
            )
        return kinds[kind]

    return require


@pytest.fixture(scope="package")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def wait_until(page, expression: str, timeout_s: float = 15) -> None:
    """Wait until the JavaScript `expression` is true on the page, as `page.wait_for_function`
    would; that one evaluates its predicate with eval() in the page, which the app's
    Content-Security-Policy refuses, while `page.evaluate` comes from outside the page."""
    wait_for(page, lambda: page.evaluate(expression), expression, timeout_s)


def wait_for(page, condition, what: str, timeout_s: float = 15) -> None:
    """Wait (in real time, whatever the page's clock) until `condition()` holds, the page's
    events taken in meanwhile."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout_s} s: {what}")
        page.wait_for_timeout(100)


class Console:
    """The browser console's errors and uncaught exceptions, minus those a test allows."""

    def __init__(self):
        self.errors: list[str] = []
        self.allowed: list[re.Pattern] = []

    def allow(self, pattern: str) -> None:
        """Allow errors matching `pattern`: the network line Chromium logs for an API refusal
        the test provokes on purpose (it names the status and the URL)."""
        self.allowed.append(re.compile(pattern))

    def record(self, text: str) -> None:
        self.errors.append(text)

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


# every test's browser reaches the server from one address, whose whole-game analyses queued or
# running are capped (2): one test's analysis may be refused while another's runs, and the page
# asks again after Retry-After (web/js/analysis.js), so that refusal is no error of the page's
ANALYSIS_BUSY = r"status of 429 .* at \S+/api/v1/games/\w+/analysis/plies$"


@pytest.fixture
def console() -> Console:
    console = Console()
    console.allow(ANALYSIS_BUSY)
    return console


@pytest.fixture
def new_page(browser, live_server, console):
    """Open a fresh phone-sized browser (own storage) at the app: `new_page()` -> page;
    `new_page(path, viewport=DESKTOP_SIZE, color_scheme="dark")` for another size or scheme (a
    viewport other than the phone's is a desktop: no touch)."""
    contexts = []

    def open_page(path: str = "/", viewport: dict = PHONE, color_scheme: str = "light"):
        phone = viewport == PHONE
        context = browser.new_context(
            viewport=viewport,
            is_mobile=phone,
            has_touch=phone,
            base_url=live_server,
            color_scheme=color_scheme,
        )
        context.set_default_timeout(15000)
        contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda msg: (
                msg.type == "error"
                and console.record(f"{msg.text} at {msg.location.get('url', '')}")
            ),
        )
        page.on("pageerror", lambda exc: console.record(f"uncaught: {exc}"))
        page.goto(path)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert console.unexpected() == [], "errors in the browser console"


@pytest.fixture
def screenshot():
    """Save a phone-sized picture of the page under test-artifacts/."""

    def take(page, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
