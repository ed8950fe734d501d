"""What every response carries on its way out: security headers (flask-talisman), CORS for
third-party web clients on the API paths (flask-cors), and compression (flask-compress)."""

from __future__ import annotations

import re
from typing import Any

import flask_compress
from flask import Flask
from flask_cors import CORS
from flask_talisman import Talisman

# The client and the docs page load only their own files: no inline script or style, no other
# origin. Pictures may be data: URLs (Swagger UI's icons). Nobody may frame a page.
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# Third-party web clients may call the API from any origin. No cookie is ever involved (seat and
# owner tokens travel in Authorization), so there are no credentials to allow.
CORS_RESOURCES: dict[str | re.Pattern[str], dict[str, Any]] = {
    r"/api/*": {
        "origins": "*",
        "methods": ["GET", "HEAD", "POST", "PATCH", "DELETE", "OPTIONS"],
        "allow_headers": ["Authorization", "Content-Type", "If-None-Match"],
        "expose_headers": [
            "ETag",
            "Retry-After",
            "X-Pagination",
            "X-RateLimit-Limit",
            "X-RateLimit-Remaining",
            "X-RateLimit-Reset",
        ],
        "send_wildcard": True,  # "*" rather than the Origin echoed back: the same answer for every site
        "supports_credentials": False,
        "max_age": 600,
    }
}


class Compress(flask_compress.Compress):
    """flask-compress, keeping the ETag the view set. The ETag names a game's version (or a
    file's), not the bytes sent: flask-compress would append `:gzip` or `:br` to it, and the
    client would send that back in If-None-Match, where the view's own check (flask-smorest's,
    send_file's) no longer recognises it and answers 200 instead of 304. `Vary: Accept-Encoding`
    keeps shared caches from mixing the encodings."""

    def after_request(self, response):
        etag = response.headers.get("ETag")
        response = super().after_request(response)
        if etag is not None:
            response.headers["ETag"] = etag
        return response


def init_headers(app: Flask) -> None:
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "gzip"])  # files are streamed
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)  # smaller bodies gain less than they cost
    # the views answer conditional requests themselves, before any body is made
    app.config.setdefault("COMPRESS_EVALUATE_CONDITIONAL_REQUEST", False)
    Compress(app)
    CORS(app, resources=CORS_RESOURCES)
    Talisman(  # whose headers the static files copy (api/web/static_files.py)
        app,
        # On 127.0.0.1 there is no TLS to redirect to. A deployment behind a TLS-terminating
        # proxy (which sets X-Forwarded-Proto) sets POSTPLAY_FORCE_HTTPS=on and
        # POSTPLAY_TRUSTED_PROXIES: plain http is then redirected to https, and HSTS is sent.
        force_https=app.config["FORCE_HTTPS"],
        frame_options="DENY",
        content_security_policy=CONTENT_SECURITY_POLICY,
        referrer_policy="strict-origin-when-cross-origin",
        # the app sets no cookie; were one added, it would be HTTPS-only where HTTPS is forced
        session_cookie_secure=app.config["FORCE_HTTPS"],
    )
