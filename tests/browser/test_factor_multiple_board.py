"""Factor/Multiple's board as the browser tests over every game drive it (tests/browser/drawn.py's
`Board`): what it draws read back from the page, the same worked out from a server state, a legal
move picked on the page, and options that keep a bot game short. Its moves made by hand are tested
in test_web_client.py."""

from __future__ import annotations

from tests.browser.drawn import Board


def expected(state: dict) -> list:
    return state["said"]


def pick(page, move: dict) -> None:
    page.click(f".fm-grid button[data-n='{move['number']}']")


BOARD = Board(
    read="""() => [...document.querySelectorAll(".fm-grid button[data-said]")]
        .sort((a, b) => a.dataset.said - b.dataset.said)
        .map((button) => Number(button.dataset.n))""",
    expected=expected,
    pick=pick,
    short={"n": 30},
)
