"""The client's files (web/ at /static/), served by WhiteNoise in front of Flask.

A page's first load asks for several of them, and the panels beside a game's board for more.
Through Flask each cost a request context, the hooks of every extension and, first time, a
brotli compression (1–2 ms of the server's CPU each), on a machine whose cores the browser's own
work competes for; WhiteNoise answers each from a table made at start (headers, ETag,
Last-Modified, 304s, the compressed variant the browser accepts). The files are copied and
compressed once per version of the client into a directory under the system's temporary one
(`snapshot`), which every process of the machine then shares, so a running server never serves
half of a deployment.

Every file carries the security headers Talisman gives a page over plain http (no HSTS: the
documents, served by Flask, carry it over https) and the caching the client's files have always
had: revalidated on every load (`no-cache`: its modules are not fingerprinted and must change
together), its icons kept a day. With the app in debug mode Flask serves web/ itself, as edited.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from flask import Flask
from whitenoise import WhiteNoise
from whitenoise.compress import Compressor

from api.web.shell import ICONS_MAX_AGE_S, WEB, shell_version

PREFIX = "/static/"


def snapshot(web: Path = WEB) -> Path:
    """A copy of `web` with a gzip and a brotli variant beside each compressible file, made once
    per version of its files (a process that loses the race to make it keeps the other's)."""
    files = sorted(p for p in web.rglob("*") if p.is_file())
    target = Path(tempfile.gettempdir()) / f"postplay-static-{shell_version(files, web)}"
    if target.is_dir():
        return target
    building = Path(tempfile.mkdtemp(prefix=target.name + "-", dir=target.parent))
    shutil.copytree(web, building, dirs_exist_ok=True)
    compressor = Compressor(quiet=True)
    for path in files:
        if compressor.should_compress(path.name):
            for _ in compressor.compress(str(building / path.relative_to(web))):
                pass
    try:
        os.rename(building, target)
    except OSError:  # made meanwhile by another process
        shutil.rmtree(building, ignore_errors=True)
    return target


class StaticFiles(WhiteNoise):
    """WhiteNoise for reads; any other method goes to the app, which refuses it in JSON as it
    refuses everything else."""

    def __call__(self, environ, start_response):
        if environ["REQUEST_METHOD"] not in ("GET", "HEAD"):
            return self.application(environ, start_response)
        return super().__call__(environ, start_response)


def page_headers(app: Flask) -> list[tuple[str, str]]:
    """The headers the app's response hooks (Talisman's, init_headers) add to an answer to a
    plain-http request for a client file, less compression's `Vary` (WhiteNoise sets its own)."""
    with app.test_request_context(PREFIX + "js/app.js"):
        plain = app.response_class()
        before = set(plain.headers.items())
        added = app.process_response(plain).headers.items()
    return [
        (name, value) for name, value in added if (name, value) not in before and name != "Vary"
    ]


def init_static_files(app: Flask) -> None:
    """Serve web/ at /static/ through WhiteNoise (after init_headers, whose policy it copies)."""
    if app.debug:
        return
    security = page_headers(app)

    def add_headers(headers, path: str, url: str) -> None:
        for name, value in security:
            headers[name] = value
        icon = url.startswith(PREFIX + "icons/")
        headers["Cache-Control"] = f"public, max-age={ICONS_MAX_AGE_S}" if icon else "no-cache"

    # middleware as Flask documents it (replacing the method: mypy refuses without the ignore)
    app.wsgi_app = StaticFiles(  # type: ignore[method-assign]
        app.wsgi_app,
        root=str(snapshot()),
        prefix=PREFIX,
        max_age=None,
        allow_all_origins=False,
        add_headers_function=add_headers,
        mimetypes={".webmanifest": "application/manifest+json"},
    )
