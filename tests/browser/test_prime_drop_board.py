"""Prime Drop's board as the browser tests over every game drive it (tests/browser/drawn.py's
`Board`): what it draws read back from the page, the same worked out from a server state, a legal
move picked on the page, and options that keep a bot game short. Its moves made by hand are tested
in test_web_client.py."""

from __future__ import annotations

from tests.browser.drawn import Board


def expected(state: dict) -> dict:
    return {
        "board": [
            [f"{r},{c}", d] for r, row in enumerate(state["board"]) for c, d in enumerate(row)
        ],
        "piles": [[pile[d] for d in "0123456789"] for pile in state["piles"]],
    }


def pick(page, move: dict) -> None:
    page.click(f".pd button[data-digit='{move['digit']}']")
    page.click(f"[data-cell='{move['row']},{move['col']}']")


BOARD = Board(
    read="""() => ({
        board: [...document.querySelectorAll(".pd [data-cell]")].map((cell) => [cell.dataset.cell,
            cell.dataset.digit === undefined ? null : Number(cell.dataset.digit)]),
        piles: [...document.querySelectorAll(".pd .panel[data-seat]")]
            .sort((a, b) => a.dataset.seat - b.dataset.seat).map((panel) =>
            [...panel.querySelectorAll(".chip")].map((chip) => Number(chip.dataset.count))),
    })""",
    expected=expected,
    pick=pick,
    # the bots trade challenges back and forth for ever on the full pile; 1s, 3s and 7s run out
    short={"size": 9, "tiles": {d: {"1": 5, "3": 3, "7": 4}.get(d, 0) for d in "0123456789"}},
)
