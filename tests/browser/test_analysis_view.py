"""The game page's analysis in headless Chromium, against the real app and worker: after the
game the value graph over the plies, and the move list marking the mistakes."""

from __future__ import annotations

import pytest
import requests

from tests.browser.conftest import wait_until
from tests.browser.test_web_client import open_with_tokens

pytestmark = pytest.mark.browser

SEED_GAME = (98, 49, 7, 77, 11, 55, 1, 97)  # the rules' example: 98 throws the win away


def test_a_finished_game_shows_its_value_graph_and_marks_mistakes(
    new_page, live_server, screenshot
):
    api = f"{live_server}/api/v1"
    game = requests.post(
        f"{api}/games",
        json={
            "kind": "factor-multiple",
            "first": 0,
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
        },
        timeout=10,
    ).json()
    tokens = game["tokens"]
    for ply, number in enumerate(SEED_GAME):
        response = requests.post(
            f"{api}/games/{game['id']}/moves",
            timeout=10,
            headers={"Authorization": f"Bearer {tokens[str(ply % 2)]}"},
            json={"move": {"type": "say", "number": number}, "ply": ply},
        )
        assert response.status_code == 201
    page = open_with_tokens(new_page(), game["id"], "factor-multiple", tokens)
    wait_until(page, "document.querySelector('.value-graph') !== null", timeout_s=30)
    assert page.get_attribute(".value-graph", "data-points") == str(len(SEED_GAME) + 1)
    assert "Exact" in page.inner_text(".analysis")
    first = page.locator(".moves li button").first
    assert "mistake" in first.get_attribute("class")
    assert "the best move was" in first.get_attribute("title")
    assert page.locator(".moves li button.mistake").count() >= 1
    page.locator(".value-point").nth(3).click()  # a point of the graph shows that ply
    wait_until(page, "document.querySelector('.where').textContent.includes('move 3 of 8')")
    screenshot(page, "analysis-factor-multiple")
