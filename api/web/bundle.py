"""The client's first script: app.js and the modules a game page's first frame needs (the router,
the API, storage, dom, format, the game page and its boards' common code), made into one module
when the static snapshot is made (api/web/static_files.py), so that the browser fetches, compiles
and links one module before the board rather than eight (each costs it a few ms, and the game
page's were asked for one import level after another: web/README.md, "Loading").

Each module keeps one instance. A bundled module's code runs in a function of its own, in the
order the modules' imports give, and its exports become a frozen namespace object that the bundle
exports (`$dom` for dom.js, `$boards_common` for boards/common.js); every other module's imports
of a bundled one are rewritten to take that object from the bundle (`import { $dom } from
"./app.js"; const { h, fill } = $dom;`), and the bundled modules' own URLs serve that object's
names again (`export const { h, fill } = $dom;`), for anything that imports them by URL. A dynamic
import of a bundled module resolves to its object; one of a module outside keeps its URL, made
relative to app.js. With the app in debug mode Flask serves web/ as it is, unbundled.

Written by hand rather than with a bundler (esbuild, Rollup): both run on Node.js, which the
server does not otherwise need, and neither keeps the modules left out of a bundle importing its
instances rather than loading their own copies. It accepts the few forms the client's modules
use (`import {...} from "./x.js";` and `import * as x from "./x.js";` on one line, `export`
before a function, class or const, `import("./x.js")`) and refuses any other `import` or `export`
line, so that a new form fails the tests rather than the page.
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

# the bundle's entry (served at its own URL, as the bundle) and the modules bundled with it: these
# and what they import statically, directly or not
ENTRY = "app.js"
BUNDLED = ("game.js",)

STATIC = re.compile(r'^import\s+(?:\*\s+as\s+(?P<star>\w+)|\{(?P<names>[^}]*)\})\s+from\s+"(?P<path>\.[^"]+)";[ \t]*$',
                    re.M)
DYNAMIC = re.compile(r'\bimport\("(\.[^"]+)"\)')
EXPORT = re.compile(r'^export\s+(?:async\s+)?(?:function\*?|class|const)\s+(\w+)', re.M)
ANY_IMPORT_OR_EXPORT = re.compile(r"^(?:import|export)\b.*$", re.M)


class BundleError(ValueError):
    """A module uses a form the bundler does not know."""


def _resolve(module: str, target: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(module), target))


def _relative(module: str, target: str) -> str:
    path = posixpath.relpath(target, posixpath.dirname(module) or ".")
    return path if path.startswith("../") else "./" + path


def namespace(module: str) -> str:
    """The name of `module`'s namespace object in the bundle: `$boards_common`."""
    return "$" + re.sub(r"\W", "_", module.removesuffix(".js"))


def _check(module: str, source: str) -> None:
    for match in ANY_IMPORT_OR_EXPORT.finditer(source):
        line = match.group(0)
        if not (STATIC.fullmatch(line) or EXPORT.match(line)):
            raise BundleError(f"{module}: a form the bundler does not know: {line!r}")


def _bindings(match: re.Match) -> str:
    """The destructuring that takes an import's names (`{ a, b as c }`) from a namespace."""
    if match["star"]:
        return match["star"]
    names = [n.split() for n in match["names"].split(",") if n.strip()]
    return "{ " + ", ".join(n[0] if len(n) == 1 else f"{n[0]}: {n[2]}" for n in names) + " }"


def _order(sources: dict[str, str]) -> list[str]:
    """The bundled modules in the order ES modules would run them (imports first, depth first
    in the order written), from BUNDLED's and the entry's static imports."""
    order: list[str] = []
    visiting: set[str] = set()

    def visit(module: str) -> None:
        if module in order:
            return
        if module in visiting:
            raise BundleError(f"{module}: a cycle of static imports")
        if module not in sources:
            raise BundleError(f"{module}: imported but not found")
        visiting.add(module)
        for match in STATIC.finditer(sources[module]):
            visit(_resolve(module, match["path"]))
        visiting.discard(module)
        order.append(module)

    for root in (*BUNDLED, ENTRY):  # the entry last: what it runs at once is defined before it
        visit(root)
    return order


def bundle(js: Path) -> dict[str, str]:
    """The served text of every module under `js` that bundling changes: {path under js: text}.
    Empty when `js` has no entry."""
    sources = {p.relative_to(js).as_posix(): p.read_text(encoding="utf-8")
               for p in sorted(js.rglob("*.js"))}
    if ENTRY not in sources:
        return {}
    for module, source in sources.items():
        _check(module, source)
    order = _order(sources)
    bundled = set(order)
    served: dict[str, str] = {}

    def dynamic(module: str, text: str, at: str) -> str:
        """import("./x.js") in `module`'s text as it runs at `at`'s URL."""
        def one(match: re.Match) -> str:
            target = _resolve(module, match[1])
            if target in bundled:
                return f"Promise.resolve({namespace(target)})"
            return f'import("{_relative(at, target)}")'
        return DYNAMIC.sub(one, text)

    parts = [f"// Made by api/web/bundle.py from {', '.join(order)}: edit those, not this.\n"]
    for module in order:
        source = sources[module]
        if "import.meta" in source and posixpath.dirname(module) != posixpath.dirname(ENTRY):
            raise BundleError(f"{module}: import.meta would name the bundle's URL")
        names = EXPORT.findall(source)
        body = STATIC.sub(lambda m: f"const {_bindings(m)} = {namespace(_resolve(module, m['path']))};",
                          source)
        body = re.sub(r"^export\s+", "", body, flags=re.M)
        body = dynamic(module, body, ENTRY)
        parts.append(f"\n// ---- {module}\nexport const {namespace(module)} = (() => {{\n{body}\n"
                     f"return Object.freeze({{ {', '.join(names)} }});\n}})();\n")
    served[ENTRY] = "".join(parts)

    entry = posixpath.basename(ENTRY)
    for module, source in sources.items():
        to_entry = _relative(module, ENTRY)
        if module in bundled and module != ENTRY:
            names = ", ".join(EXPORT.findall(source))
            served[module] = (f"// {module} is served inside {entry} (api/web/bundle.py): its names, "
                              f"from there.\nimport {{ {namespace(module)} }} from \"{to_entry}\";\n"
                              f"export const {{ {names} }} = {namespace(module)};\n")
        elif module not in bundled:
            def rewrite(match: re.Match, module: str = module, to_entry: str = to_entry) -> str:
                target = _resolve(module, match["path"])
                if target not in bundled:
                    return match.group(0)
                ns = namespace(target)
                return f'import {{ {ns} }} from "{to_entry}"; const {_bindings(match)} = {ns};'
            text = STATIC.sub(rewrite, source)
            if text != source:
                served[module] = text
    return served


def write_bundle(js: Path) -> None:
    """Bundle the modules under `js` in place (a copy of web/js: the snapshot's)."""
    for module, text in bundle(js).items():
        (js / module).write_text(text, encoding="utf-8")
