"""What every response carries: security headers, CORS on the API paths only, compression that
keeps ETags and 304s as they were, and validators on the static files."""

from __future__ import annotations

import gzip

import brotli
import pytest

from tests.api.helpers import create

ORIGIN = {"Origin": "https://client.example"}


@pytest.mark.parametrize("path", ["/", "/docs", "/api/v1/kinds", "/static/js/app.js"])
def test_security_headers(client, path):
    response = client.get(path)
    assert response.status_code == 200  # plain http on 127.0.0.1: no redirect to https
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert "Strict-Transport-Security" not in response.headers


def test_no_inline_script_in_the_pages(client):
    for path in ("/", "/docs"):
        page = client.get(path).get_data(as_text=True)
        assert "<script>" not in page and "onload=" not in page and "<style" not in page


def test_force_https_redirects_when_configured(redis_url, redis_client):
    from api.web import create_app

    app = create_app(
        {"TESTING": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": False, "FORCE_HTTPS": True}
    )
    response = app.test_client().get("/api/v1/kinds")
    assert response.status_code == 302 and response.location.startswith("https://")


@pytest.mark.parametrize("proxies, believed", [(0, False), (1, True)])
def test_x_forwarded_proto_is_believed_only_from_trusted_proxies(
    redis_url, redis_client, proxies, believed
):
    from api.web import create_app

    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": redis_url,
            "RATELIMIT_ENABLED": False,
            "FORCE_HTTPS": True,
            "TRUSTED_PROXIES": proxies,
        }
    )
    response = app.test_client().get(
        "/api/v1/kinds", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "192.0.2.1"}
    )
    assert response.status_code == (200 if believed else 302)
    assert ("Strict-Transport-Security" in response.headers) is believed


@pytest.mark.parametrize("proxies", [0, 1])
def test_unique_x_forwarded_protos_keep_the_learnt_headers_bounded(
    redis_url, redis_client, proxies
):
    from api.web import create_app
    from api.web.fast_paths import PollAnswers

    app = create_app(
        {
            "TESTING": True,
            "REDIS_URL": redis_url,
            "RATELIMIT_ENABLED": False,
            "TRUSTED_PROXIES": proxies,
        }
    )
    answers = app.wsgi_app
    while not isinstance(answers, PollAnswers):  # the middlewares name what they wrap .app,
        answers = getattr(answers, "app", None) or answers.application  # whitenoise .application
    client = app.test_client()
    game = create(client)
    url = f"/api/v1/games/{game['id']}"
    etag = client.get(url).headers["ETag"]
    polls = [
        client.get(
            url,
            headers={
                "If-None-Match": etag,
                "X-Forwarded-For": "192.0.2.1",
                "X-Forwarded-Proto": f"proto-{i}",
            },
        ).status_code
        for i in range(1500)
    ]
    assert polls == [304] * 1500
    # one entry for the game's polls over plain http; at most two a polled route in any case
    assert len(answers.headers) == 1 <= 2 * len(answers.polls)


def test_cors_reads_are_open_and_never_credentialed(client):
    game = create(client)
    response = client.get(f"/api/v1/games/{game['id']}", headers=ORIGIN)
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response.headers
    exposed = response.headers["Access-Control-Expose-Headers"]
    assert "ETag" in exposed and "Retry-After" in exposed and "X-Pagination" in exposed


def test_cors_preflight_on_api_paths_only(client):
    asked = {
        **ORIGIN,
        "Access-Control-Request-Method": "DELETE",
        "Access-Control-Request-Headers": "authorization, content-type",
    }
    preflight = client.options("/api/v1/playtests/0123456789ab", headers=asked)
    assert preflight.status_code == 200
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed and "content-type" in allowed
    assert "DELETE" in preflight.headers["Access-Control-Allow-Methods"]
    assert "Access-Control-Allow-Credentials" not in preflight.headers
    for path in ("/", "/docs", "/static/js/app.js"):
        page = client.options(path, headers=asked)
        assert "Access-Control-Allow-Origin" not in page.headers, path


@pytest.mark.parametrize("encoding, decode", [("gzip", gzip.decompress), ("br", brotli.decompress)])
def test_json_and_static_files_are_compressed(client, encoding, decode):
    for path in ("/api/v1/kinds", "/static/js/playtests.js", "/static/css/app.css", "/"):
        plain = client.get(path).get_data()
        packed = client.get(path, headers={"Accept-Encoding": encoding})
        assert packed.headers["Content-Encoding"] == encoding, path
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert decode(packed.get_data()) == plain and len(packed.get_data()) < len(plain)


def test_tiny_bodies_are_not_compressed(client):
    response = client.get("/api/v1/games/nosuchgame", headers={"Accept-Encoding": "gzip, br"})
    assert response.status_code == 404 and "Content-Encoding" not in response.headers


def test_compression_keeps_the_game_etag_and_its_304(client):
    game = create(client, kind="partition")  # a game object well over the 500-byte threshold
    url = f"/api/v1/games/{game['id']}"
    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "br"
    assert packed.headers["ETag"] == plain.headers["ETag"]
    again = client.get(
        url, headers={"Accept-Encoding": "gzip, br", "If-None-Match": packed.headers["ETag"]}
    )
    assert again.status_code == 304 and again.data == b""


def test_static_files_revalidate_with_304(client):
    for path in ("/", "/static/js/app.js"):
        first = client.get(path, headers={"Accept-Encoding": "br"})
        first.get_data()
        assert first.headers["Cache-Control"] == "no-cache"
        assert first.headers["ETag"] and first.headers["Last-Modified"]
        again = client.get(
            path, headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]}
        )
        assert again.status_code == 304, path
    docs_asset = client.get("/docs/assets/swagger-ui-bundle.js")
    assert "max-age=86400" in docs_asset.headers["Cache-Control"]
