"""The installable web app's server side: its service worker at /sw.js (served from the root so
its scope is the whole app), written with the client's version and the files of its shell, and
how long browsers may keep the client's static files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Flask, Response, request, send_from_directory
from werkzeug.wrappers import Response as WerkzeugResponse

WEB = Path(__file__).resolve().parents[2] / "web"
# files under web/ the offline shell does not need: the docs, the worker itself, the API page's
NOT_SHELL = {"README.md", "sw.js", "js/docs.js"}
# Pictures change only with a release and nothing breaks when one is a day old; the code (HTML,
# modules, styles, manifest) is not fingerprinted and its modules must change together, so it is
# revalidated on every load (no-cache with an ETag: a 304 while unchanged).
ICONS_MAX_AGE_S = 86400


def shell_files() -> list[Path]:
    """The client's files the service worker keeps for offline use, in a stable order."""
    return sorted(
        p for p in WEB.rglob("*") if p.is_file() and p.relative_to(WEB).as_posix() not in NOT_SHELL
    )


def shell_version(files: list[Path], root: Path = WEB) -> str:
    """A hash of the names (under `root`) and bytes of `files`, the shell's by default: it
    changes with any deployed change to the client."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(
            path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0"
        )
    return digest.hexdigest()[:16]


def service_worker() -> WerkzeugResponse:
    files = shell_files()
    version = shell_version(files)
    urls = ["/"] + [f"/static/{p.relative_to(WEB).as_posix()}" for p in files]
    body = (
        (WEB / "sw.js")
        .read_text(encoding="utf-8")
        .replace('"__SHELL_VERSION__"', json.dumps(version))
        .replace("__SHELL_FILES__", json.dumps(urls))
    )
    response = Response(body, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"  # browsers check for a new worker on each load
    response.set_etag(version)
    return response.make_conditional(request)


def favicon() -> Response:
    """The icon browsers ask for at /favicon.ico when a page names none (a picture or a JSON
    answer opened on its own)."""
    return send_from_directory(
        WEB, "favicon.svg", mimetype="image/svg+xml", max_age=ICONS_MAX_AGE_S
    )


def init_shell(app: Flask) -> None:
    app.add_url_rule("/sw.js", "service_worker", service_worker)
    app.add_url_rule("/favicon.ico", "favicon", favicon)
    default = app.get_send_file_max_age
    app.get_send_file_max_age = lambda filename: (  # type: ignore[method-assign]
        ICONS_MAX_AGE_S if filename and filename.startswith("icons/") else default(filename)
    )
