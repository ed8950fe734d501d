"""The Content-Security-Policy as Chromium enforces it: the client and the API page (Swagger UI)
load and work with no CSP violation in the console (any console error fails a test)."""

from __future__ import annotations

import pytest
import requests

pytestmark = pytest.mark.browser


def test_the_client_runs_under_its_content_security_policy(new_page, live_server):
    csp = requests.get(live_server, timeout=10).headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    page = new_page()
    page.wait_for_selector("header nav a:has-text('Lobby')")
    page.wait_for_selector("main#view form")  # the lobby's new-game form: the modules ran


def test_the_api_page_runs_under_its_content_security_policy(new_page, live_server):
    assert (
        "unsafe-inline"
        not in requests.get(f"{live_server}/docs", timeout=10).headers["Content-Security-Policy"]
    )
    page = new_page("/docs")
    page.wait_for_selector(".swagger-ui .opblock-tag", timeout=20000)
    assert page.locator(".swagger-ui .opblock").count() > 10
    page.locator(".swagger-ui .opblock-summary").first.click()  # an operation opens
    page.wait_for_selector(".swagger-ui .opblock-body")
