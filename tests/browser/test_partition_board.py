"""Partition's board as the browser tests over every game drive it (tests/browser/drawn.py's
`Board`): what it draws read back from the page, the same worked out from a server state, a legal
move picked on the page, and options that keep a bot game short. Its moves made by hand are tested
in test_web_client.py."""

from __future__ import annotations

from tests.browser.drawn import Board


def expected(state: dict) -> dict:
    return {
        "colours": state["colours"],
        "closed": sorted(
            x for region in state["regions"] if region["closed"] for x in region["hexes"]
        ),
        "sticks": sorted("-".join(map(str, sorted(edge))) for edge in state["sticks"]),
        "seats": [[state["subdivisions_left"][seat], state["points"][seat]] for seat in (0, 1)],
    }


def pick(page, move: dict) -> None:
    page.click(f"[data-edge='{'-'.join(map(str, sorted(move['edge'])))}']")


BOARD = Board(
    read="""() => ({
        colours: [...document.querySelectorAll(".pt [data-hex]")]
            .map((hex) => hex.dataset.colour ?? null),
        closed: [...document.querySelectorAll(".pt [data-hex][data-closed]")]
            .map((hex) => Number(hex.dataset.hex)),
        sticks: [...document.querySelectorAll(".pt [data-stick]")]
            .map((line) => line.dataset.stick).sort(),
        seats: [...document.querySelectorAll(".pt .panel[data-seat]")].map((panel) =>
            [...panel.querySelectorAll(".stats b")].slice(0, 2).map((b) => Number(b.textContent))),
    })""",
    expected=expected,
    pick=pick,
)
