"""What a board draws, read back from the page's data- attributes, beside what a server state says
it should draw; and a step through a whole game with the replay controls, checking every ply
against GET /games/{id}/positions."""

from __future__ import annotations

import requests

from tests.browser.conftest import wait_until

# Per kind, a function of the page returning what the board on show draws (JSON-able).
READ = {
    "prime-drop": """() => ({
        board: [...document.querySelectorAll(".pd [data-cell]")].map((cell) => [cell.dataset.cell,
            cell.dataset.digit === undefined ? null : Number(cell.dataset.digit)]),
        piles: [...document.querySelectorAll(".pd .panel[data-seat]")]
            .sort((a, b) => a.dataset.seat - b.dataset.seat).map((panel) =>
            [...panel.querySelectorAll(".chip")].map((chip) => Number(chip.dataset.count))),
    })""",
    "partition": """() => ({
        colours: [...document.querySelectorAll(".pt [data-hex]")]
            .map((hex) => hex.dataset.colour ?? null),
        closed: [...document.querySelectorAll(".pt [data-hex][data-closed]")]
            .map((hex) => Number(hex.dataset.hex)),
        sticks: [...document.querySelectorAll(".pt [data-stick]")]
            .map((line) => line.dataset.stick).sort(),
        seats: [...document.querySelectorAll(".pt .panel[data-seat]")].map((panel) =>
            [...panel.querySelectorAll(".stats b")].slice(0, 2).map((b) => Number(b.textContent))),
    })""",
    "ploid": """() => [...document.querySelectorAll(".ploid [data-cell]")].map((cell) => [
        cell.dataset.cell, cell.dataset.seat === undefined ? null
            : { seat: Number(cell.dataset.seat), piece: cell.dataset.piece }])""",
    "factor-bingo": """() => ({
        values: [...document.querySelectorAll(".fb [data-value]")].map((g) => g.dataset.value),
        stamped: [...new Set([...document.querySelectorAll(".fb [data-value][data-called]")]
            .map((g) => Number(g.dataset.value)))].sort((a, b) => a - b),
        called: [...document.querySelectorAll(".fb-numbers button.called")]
            .map((b) => Number(b.dataset.n)),
    })""",
    "factor-multiple": """() => [...document.querySelectorAll(".fm-grid button[data-said]")]
        .sort((a, b) => a.dataset.said - b.dataset.said)
        .map((button) => Number(button.dataset.n))""",
}


def expected(kind: str, state: dict):
    """What the board for `kind` should draw for `state`, in the shape READ gives."""
    if kind == "prime-drop":
        return {
            "board": [
                [f"{r},{c}", d] for r, row in enumerate(state["board"]) for c, d in enumerate(row)
            ],
            "piles": [[pile[d] for d in "0123456789"] for pile in state["piles"]],
        }
    if kind == "partition":
        return {
            "colours": state["colours"],
            "closed": sorted(
                x for region in state["regions"] if region["closed"] for x in region["hexes"]
            ),
            "sticks": sorted("-".join(map(str, sorted(edge))) for edge in state["sticks"]),
            "seats": [[state["subdivisions_left"][seat], state["points"][seat]] for seat in (0, 1)],
        }
    if kind == "ploid":
        return [
            [f"{r},{c}", cell and {"seat": cell["seat"], "piece": str(cell["piece"])}]
            for r, row in enumerate(state["board"])
            for c, cell in enumerate(row)
        ]
    if kind == "factor-bingo":
        values = [v for board in state["boards"] for row in board for v in row]
        return {
            "values": [str(v) for v in values],
            "stamped": sorted(set(state["called"]) & set(values)),
            "called": [n for n in state["numbers"] if n in state["called"]],
        }
    return state["said"]


def assert_replay_matches(page, base: str, game_id: str) -> int:
    """Step through the whole game on the page from ply 0 to the last with the replay controls,
    checking the board at every ply against the server's position; leave it live. Returns the
    number of plies."""
    positions = requests.get(f"{base}/api/v1/games/{game_id}/positions", timeout=10).json()
    kind = requests.get(f"{base}/api/v1/games/{game_id}", timeout=10).json()["kind"]
    last = positions[-1]["ply"]
    assert [p["ply"] for p in positions] == list(range(last + 1))
    wait_until(page, f"document.querySelectorAll('.moves li').length === {last}")
    if last:
        page.click("button[aria-label='First position']")
    for position in positions:
        ply = position["ply"]
        where = f"Replay: move {ply} of {last}" if ply < last else f"Live · {last} moves"
        assert page.locator(".replay-bar .where").inner_text() == where
        drawn, want = page.evaluate(READ[kind]), expected(kind, position["state"])
        assert drawn == want, f"ply {ply}: the board draws {drawn}, the server says {want}"
        if ply < last:
            page.click("button[aria-label='Next move']")
    return last
