"""Screenshots of each kind's board on the phone (390 x 844, touch), a game in progress, as a
player opens it: for a closing note's before and after. Not a test (pytest collects test_*.py
only). Run from the root of the worktree whose server and client to show:

    PYTHONPATH=$PWD .venv/bin/python -m tests.browser.shots /work/shots/after

It starts that worktree's server the way its browser tests do (`tests.live.live_app`: gunicorn
and an RQ worker, on an embedded Redis of its own), makes one game per kind between two humans,
plays the same few legal moves in each (from the server's listing, seeded by the kind), opens
it in Debian's Chromium with both seats' tokens, and saves what the screen shows as
<out>/<kind>.png. The same command from an older commit's worktree, with this file's path,
shows that commit's boards:

    cd /work/wt/before && PYTHONPATH=$PWD .venv/bin/python /work/wt/web/tests/browser/shots.py \\
        /work/shots/before
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

import requests
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import sync_playwright

from api.store.embedded import start_redis
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.live import live_app

KINDS = ["prime-drop", "partition", "ploid", "factor-multiple", "factor-bingo"]
PLIES = 6  # moves into the game: a position with pieces on the board and moves listed


def game_in_progress(base: str, kind: str) -> dict:
    """A game of `kind` between Ada and Bo, `PLIES` legal moves in (challenges left out)."""
    response = requests.post(
        f"{base}/api/v1/games",
        timeout=10,
        json={
            "kind": kind,
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
            "first": 0,
        },
    )
    response.raise_for_status()
    game = response.json()
    tokens = game["tokens"]
    rng = random.Random(kind)
    for _ in range(PLIES):
        listing = requests.get(f"{base}/api/v1/games/{game['id']}/legal-moves", timeout=10).json()
        moves = [m for m in listing["moves"] if m["type"] != "challenge"]
        if not moves or game["to_move"] is None:
            break
        played = requests.post(
            f"{base}/api/v1/games/{game['id']}/moves",
            timeout=10,
            headers={"Authorization": f"Bearer {tokens[str(game['to_move'])]}"},
            json={"move": rng.choice(moves), "ply": game["ply"]},
        )
        played.raise_for_status()
        game = played.json()
    return {**game, "tokens": tokens}


def shoot(browser, base: str, game: dict, path: Path) -> None:
    """Open the game on a phone, both seats this browser's, and save the screen as it shows."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, base_url=base)
    page = context.new_page()
    page.goto("/static/favicon.svg")  # the app's origin, to put the seat tokens in its storage
    page.evaluate(
        """([id, kind, tokens]) => localStorage.setItem("postplay.games",
             JSON.stringify({ [id]: { kind, tokens, added: Date.now() } }))""",
        [game["id"], game["kind"], game["tokens"]],
    )
    page.goto(f"/#/game/{game['id']}")
    page.wait_for_selector("[data-board]")
    try:  # the legal moves loaded, where the client says it waits for them
        page.locator(".board-controls .hint:has-text('Loading')").wait_for(
            state="detached", timeout=10_000
        )
    except PlaywrightTimeout:
        pass
    page.evaluate("document.fonts.ready")
    page.screenshot(path=str(path))
    context.close()


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        redis, url = start_redis(Path(tmp), appendonly=False)
        try:
            with (
                live_app(url, Path(tmp)) as base,
                sync_playwright() as playwright,
            ):
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for kind in KINDS:
                    shoot(browser, base, game_in_progress(base, kind), out / f"{kind}.png")
                    print(out / f"{kind}.png")
                browser.close()
        finally:
            redis.terminate()
            redis.wait(timeout=10)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shots/after"))
