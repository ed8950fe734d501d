"""What a board draws, read back from the page's data- attributes, beside what a server state says
it should draw; and a step through a whole game with the replay controls, checking every ply
against GET /games/{id}/positions."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from typing import Any

import requests

from api.games import GAMES
from tests.browser.conftest import wait_until


@dataclasses.dataclass(frozen=True)
class Board:
    """What the browser tests over every game need of one game's board, declared as `BOARD` by
    the game's own tests, tests/unit/test_<engine module>.py (`board_of`)."""

    # a function of the page returning what the board on show draws (JSON-able), read from its
    # data- attributes
    read: str
    # what the board should draw for a server state, in the shape `read` gives
    expected: Callable[[dict], Any]
    # does on the page what makes `move` (a legal one) the pending move, so that Play is enabled
    pick: Callable[[Any, dict], None]
    # options that keep a game between the kind's quickest bots to some 10 to 60 plies
    short: dict = dataclasses.field(default_factory=dict)


def board_of(kind: str) -> Board:
    """The `BOARD` of the registered game `kind`, from the module named for its engine's:
    api/games/prime_drop.py's is in tests/unit/test_prime_drop.py."""
    engine = GAMES[kind].__module__.rsplit(".", 1)[-1]
    return importlib.import_module(f"tests.unit.test_{engine}").BOARD


def assert_replay_matches(page, base: str, game_id: str) -> int:
    """Step through the whole game on the page from ply 0 to the last with the replay controls,
    checking the board at every ply against the server's position; leave it live. Returns the
    number of plies."""
    positions = requests.get(f"{base}/api/v1/games/{game_id}/positions", timeout=10).json()
    board = board_of(requests.get(f"{base}/api/v1/games/{game_id}", timeout=10).json()["kind"])
    last = positions[-1]["ply"]
    assert [p["ply"] for p in positions] == list(range(last + 1))
    wait_until(page, f"document.querySelectorAll('.moves li').length === {last}")
    if last:
        page.click("button[aria-label='First position']")
    for position in positions:
        ply = position["ply"]
        where = f"Replay: move {ply} of {last}" if ply < last else f"Live · {last} moves"
        assert page.locator(".replay-bar .where").inner_text() == where
        drawn, want = page.evaluate(board.read), board.expected(position["state"])
        assert drawn == want, f"ply {ply}: the board draws {drawn}, the server says {want}"
        if ply < last:
            page.click("button[aria-label='Next move']")
    return last
