"""Factor Bingo's board as the browser tests over every game drive it (tests/browser/drawn.py's
`Board`): what it draws read back from the page, the same worked out from a server state, a legal
move picked on the page, and options that keep a bot game short. Its moves made by hand are tested
in test_web_client.py."""

from __future__ import annotations

from tests.browser.drawn import Board


def expected(state: dict) -> dict:
    values = [v for board in state["boards"] for row in board for v in row]
    return {
        "values": [str(v) for v in values],
        "stamped": sorted(set(state["called"]) & set(values)),
        "called": [n for n in state["numbers"] if n in state["called"]],
    }


def pick(page, move: dict) -> None:
    page.click(f".fb [data-value='{move['letter']}']")
    page.click(f".fb-numbers button[data-n='{move['number']}']")


BOARD = Board(
    read="""() => ({
        values: [...document.querySelectorAll(".fb [data-value]")].map((g) => g.dataset.value),
        stamped: [...new Set([...document.querySelectorAll(".fb [data-value][data-called]")]
            .map((g) => Number(g.dataset.value)))].sort((a, b) => a - b),
        called: [...document.querySelectorAll(".fb-numbers button.called")]
            .map((b) => Number(b.dataset.n)),
    })""",
    expected=expected,
    pick=pick,
)
