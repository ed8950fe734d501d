"""The shell's preload list stays whole: every module app.js imports statically, directly or
not, is fetched at once (a `modulepreload` in index.html), not one import level after another."""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "web" / "js"
STATIC_IMPORT = re.compile(r'^import\s[^;]*?from\s+"(\.[^"]+)"', re.M)


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


def shell_preloads() -> set[str]:
    html = (JS.parent / "index.html").read_text()
    return set(re.findall(r'<link rel="modulepreload" href="/static/js/([^"]+)">', html))


def test_the_shell_preloads_every_module_app_js_imports():
    assert imports("app.js") <= shell_preloads()  # and format.js, which every page imports
