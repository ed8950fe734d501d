"""The client's first script (api/web/bundle.py): app.js is served with every module it and the
game page import statically, directly or not, inside it, and every other module takes those
modules' one instance from it rather than loading its own."""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

import pytest

from api.web.bundle import BundleError, bundle, namespace

JS = Path(__file__).resolve().parents[2] / "web" / "js"
STATIC_IMPORT = re.compile(r'^import\s[^;]*?from\s+"(\.[^"]+)"', re.M)


def imports(module: str, read=lambda m: (JS / m).read_text()) -> set[str]:
    """The modules `module` (a path under web/js) imports statically, directly or not."""
    seen, todo = set(), [module]
    while todo:
        current = todo.pop()
        for target in STATIC_IMPORT.findall(read(current)):
            path = posixpath.normpath(posixpath.join(posixpath.dirname(current), target))
            if path not in seen:
                seen.add(path)
                todo.append(path)
    return seen


@pytest.fixture(scope="module")
def served() -> dict[str, str]:
    return bundle(JS)


def test_app_js_holds_every_module_the_router_and_the_game_page_import(served):
    inside = {"app.js"} | imports("app.js") | imports("game.js") | {"game.js"}
    assert {"api.js", "storage.js", "dom.js", "format.js", "boards/common.js"} <= inside
    for module in inside:
        assert f"export const {namespace(module)} = " in served["app.js"], module
    # what the first frame needs and nothing else: no other page, no board, no panel
    made = set(re.findall(r"^// ---- (\S+)$", served["app.js"], re.M))
    assert made == inside


def test_no_served_module_imports_a_bundled_module_by_its_url(served):
    inside = {"app.js", "game.js"} | imports("app.js") | imports("game.js")
    for path in JS.rglob("*.js"):
        module = path.relative_to(JS).as_posix()
        text = served.get(module, path.read_text())
        for target in STATIC_IMPORT.findall(text):
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(module), target))
            assert resolved not in inside - {"app.js"}, (module, target)
    # served after the bundle: the board takes dom.js's names from it
    ploid = served["boards/ploid.js"]
    assert 'import { $dom } from "../app.js"; const { fill, h, s } = $dom;' in ploid


def test_a_bundled_module_s_url_serves_its_names_from_the_bundle(served):
    dom = served["dom.js"]
    assert 'import { $dom } from "./app.js";' in dom
    exported = set(re.findall(r"^export (?:async )?(?:function|class|const) (\w+)", (JS / "dom.js").read_text(), re.M))
    names = set(re.search(r"export const \{ ([^}]*) \}", dom)[1].split(", "))
    assert names == exported and "h" in names


def test_dynamic_imports_keep_their_targets_from_the_bundle_s_url(served):
    app = served["app.js"]
    assert 'import("./boards/ploid.js")' in app  # boards/common.js's, from js/
    assert 'import("./lobby.js")' in app
    assert "Promise.resolve($game)" in app  # the router's import of the game page: already here
    assert "import(\"./game.js\")" not in app


def test_a_module_outside_that_imports_none_of_the_bundle_s_is_served_as_it_is(served):
    inside = {"app.js", "game.js"} | imports("app.js") | imports("game.js")
    outside = [p.relative_to(JS).as_posix() for p in JS.rglob("*.js")]
    plain = [m for m in outside if m not in inside and not imports(m) & inside]
    assert "docs.js" in plain and not set(plain) & set(served)


def make(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_a_form_the_bundler_does_not_know_is_refused(tmp_path):
    js = make(tmp_path, {"app.js": 'import { a } from "./game.js";\n', "game.js": "export default 1;\n"})
    with pytest.raises(BundleError, match="export default"):
        bundle(js)


def test_a_tree_without_app_js_is_served_as_it_is(tmp_path):
    assert bundle(make(tmp_path, {"a.js": "export const a = 1;\n"})) == {}


def test_the_bundle_runs_each_module_after_those_it_imports(tmp_path):
    js = make(tmp_path, {
        "app.js": 'import { b } from "./b.js";\nimport * as a from "./a.js";\nb(a.A);\n',
        "a.js": "export const A = 1;\n",
        "b.js": 'import { A as first } from "./a.js";\nexport function b(x) { return x + first; }\n',
        "game.js": 'import { b } from "./b.js";\nexport class Game {}\n',
        "other.js": 'import { b } from "./b.js";\nimport { c } from "./c.js";\n',
        "c.js": "export const c = 3;\n",
    })
    served = bundle(js)
    app = served["app.js"]
    assert [m for m in re.findall(r"^// ---- (\S+)$", app, re.M)] == ["a.js", "b.js", "game.js", "app.js"]
    assert "const { A: first } = $a;" in app and "const a = $a;" in app
    assert "return Object.freeze({ b });" in app and "return Object.freeze({ Game });" in app
    assert served["other.js"].startswith('import { $b } from "./app.js"; const { b } = $b;\nimport { c } from "./c.js";')
    assert "c.js" not in served
