"""The client's first modules: served as they are (no bundle), and index.html names every module
the router and the game page's first frame import statically, directly or not, in a
`<link rel="modulepreload">`, so that the browser fetches them all while it parses the page
rather than one import level after another (web/README.md, "Loading")."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
JS = WEB / "js"
# every static import, on one line or several (`import { a,\n b } from "./x.js";`)
STATIC_IMPORT = re.compile(r'^import\s[^;]*?from\s+"(\.[^"]+)"', re.M)
PRELOAD = re.compile(r'<link rel="modulepreload" href="/static/js/([^"]+)">')


def imports(module: str) -> set[str]:
    """The modules `module` (a path under web/js) imports statically, directly or not."""
    seen, todo = set(), [module]
    while todo:
        current = todo.pop()
        for target in STATIC_IMPORT.findall((JS / current).read_text()):
            path = posixpath.normpath(posixpath.join(posixpath.dirname(current), target))
            if path not in seen:
                seen.add(path)
                todo.append(path)
    return seen


def test_index_html_preloads_exactly_what_the_router_and_the_game_page_import():
    html = (WEB / "index.html").read_text()
    preloaded = PRELOAD.findall(html)
    first = imports("app.js") | {"game.js"} | imports("game.js")
    assert {"api.js", "storage.js", "dom.js", "format.js", "boards/common.js"} <= first
    assert sorted(preloaded) == sorted(first)  # each once, and nothing the first frame skips
    assert '<script type="module" src="/static/js/app.js"' in html


def test_no_page_or_board_is_imported_statically_by_the_first_modules():
    # the other pages and the boards load on first use (dynamic imports), not with every page
    first = imports("app.js") | {"game.js"} | imports("game.js")
    assert not {m for m in first if m.startswith("boards/") and m != "boards/common.js"}
    assert not first & {"lobby.js", "playtests.js", "sweeps.js", "charts.js", "rules.js"}
