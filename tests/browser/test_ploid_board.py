"""Ploid's board as the browser tests over every game drive it (tests/browser/drawn.py's
`Board`): what it draws read back from the page, the same worked out from a server state, a legal
move picked on the page, and options that keep a bot game short. Its moves made by hand are tested
in test_web_client.py."""

from __future__ import annotations

from tests.browser.drawn import Board


def expected(state: dict) -> list:
    return [
        [f"{r},{c}", cell and {"seat": cell["seat"], "piece": str(cell["piece"])}]
        for r, row in enumerate(state["board"])
        for c, cell in enumerate(row)
    ]


def pick(page, move: dict) -> None:
    page.click(f".ploid button[data-piece='{move['piece']}']")
    page.click(f"[data-cell='{move['row']},{move['col']}']")


BOARD = Board(
    read="""() => [...document.querySelectorAll(".ploid [data-cell]")].map((cell) => [
        cell.dataset.cell, cell.dataset.seat === undefined ? null
            : { seat: Number(cell.dataset.seat), piece: cell.dataset.piece }])""",
    expected=expected,
    pick=pick,
    short={"n": 3},
)
