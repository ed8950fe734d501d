"""The web client's first load of a game page in headless Chromium against the real app under
gunicorn on localhost: when the board is drawn after navigation (the page's `postplay:board`
performance mark, set once the board's first frame is painted; target 300 ms), as a ratio
against the baseline of the same navigation's
DOMContentLoaded (the shell parsed, before any module ran), and the bytes transferred (target
100 KB), for each game, from an empty cache and again with the browser's cache warm.

Run: `make bench` (all benchmarks) or `.venv/bin/python -m tests.benchmarks.bench_web`.
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from api.store.embedded import free_port, start_redis

CHROMIUM = "/usr/bin/chromium"
ROUNDS = int(os.environ.get("BENCH_WEB_ROUNDS", "7"))
KINDS = ["prime-drop", "partition", "ploid", "factor-multiple", "factor-bingo"]


def _serve(env: dict) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--worker-class",
            "gthread",
            "--threads",
            "8",
            "api.web.wsgi:app",
        ],
        env=env,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/api/v1/health")
            conn.getresponse().read()
            return proc, port
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the app did not start")


def _new_game(port: int, kind: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    conn.request(
        "POST",
        "/api/v1/games",
        headers={"Content-Type": "application/json"},
        body=json.dumps(
            {
                "kind": kind,
                "seats": [{"human": {"name": "A"}}, {"human": {"name": "B"}}],
                "first": 0,
            }
        ),
    )
    return json.loads(conn.getresponse().read())["id"]


def _load(context, url: str, cold: bool) -> tuple[float, float, int]:
    """One navigation: (board drawn ms, DOMContentLoaded ms, bytes transferred)."""
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.setCacheDisabled", {"cacheDisabled": cold})
    sizes: dict[str, int] = {}
    session.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]),
    )
    page.goto(url)
    # polled from outside the page, at intervals: wait_for_selector would inject Playwright's
    # selector engine into the page (tens of ms of its main thread) while the board is being drawn
    while not page.evaluate("performance.getEntriesByName('postplay:board').length"):
        page.wait_for_timeout(50)
    assert page.evaluate("document.querySelector('[data-board]') !== null"), (
        "the mark came before the board"
    )
    board, loaded = page.evaluate("""[performance.getEntriesByName('postplay:board')[0].startTime,
        performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd]""")
    page.wait_for_load_state("networkidle")
    page.close()
    return board, loaded, sum(sizes.values())


def main() -> None:
    from playwright.sync_api import sync_playwright

    tmp = tempfile.mkdtemp(prefix="bench-web-")
    redis_proc, url = start_redis(tmp, appendonly=False)
    env = {**os.environ, "REDIS_URL": url, "POSTPLAY_RATELIMIT": "off"}
    web, port = _serve(env)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            print(
                f"{'game':16} {'cache':5} {'board drawn':>12} {'DOMContentLoaded':>17} {'ratio':>6} {'bytes':>8}"
            )
            for kind in KINDS:
                game_url = f"http://127.0.0.1:{port}/#/game/{_new_game(port, kind)}"
                for cold in (True, False):
                    # a context per kind, service workers off: the first load, then the cache as it left it
                    context = browser.new_context(
                        viewport={"width": 390, "height": 844}, service_workers="block"
                    )
                    _load(context, game_url, cold=True)  # the server's own first answers warmed
                    runs = [_load(context, game_url, cold) for _ in range(ROUNDS)]
                    context.close()
                    board = statistics.median(r[0] for r in runs)
                    loaded = statistics.median(r[1] for r in runs)
                    size = statistics.median(r[2] for r in runs)
                    print(
                        f"{kind:16} {'cold' if cold else 'warm':5} {board:9.0f} ms {loaded:14.0f} ms "
                        f"{board / loaded:6.2f} {size:8.0f}  (targets: board <= 300 ms, bytes <= 100000)"
                    )
            browser.close()
    finally:
        web.terminate()
        web.wait(timeout=10)
        redis_proc.terminate()
        redis_proc.wait(timeout=10)


if __name__ == "__main__":
    main()
