"""The client's files at /static/: served from a compressed snapshot of web/ by WhiteNoise, with
the pages' security headers and the client's caching (tests/api/test_headers.py checks the
headers every response shares)."""

from __future__ import annotations

import brotli

from api.web.shell import WEB
from api.web.static_files import snapshot


def test_a_file_is_served_as_it_is_in_web_and_compressed_as_asked(client):
    plain = client.get("/static/css/app.css")
    assert plain.status_code == 200 and plain.data == (WEB / "css/app.css").read_bytes()
    assert plain.headers["Content-Type"].startswith("text/css")
    packed = client.get("/static/css/app.css", headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["Content-Encoding"] == "br"
    assert brotli.decompress(packed.data) == plain.data
    assert packed.headers["ETag"] == plain.headers["ETag"]


def test_modules_are_served_as_they_are_in_web(client):
    for module in ("js/app.js", "js/game.js", "js/boards/common.js"):
        served = client.get(f"/static/{module}", headers={"Accept-Encoding": "gzip, br"})
        assert served.headers["Content-Type"].startswith("text/javascript"), module
        assert brotli.decompress(served.data) == (WEB / module).read_bytes(), module


def test_code_is_revalidated_and_icons_kept_a_day(client):
    assert client.get("/static/css/app.css").headers["Cache-Control"] == "no-cache"
    icon = client.get("/static/icons/icon-192.png")
    assert (
        icon.headers["Content-Type"] == "image/png"
        and "max-age=86400" in icon.headers["Cache-Control"]
    )
    assert (
        client.get("/static/manifest.webmanifest").headers["Content-Type"]
        == "application/manifest+json"
    )


def test_what_is_not_a_read_of_a_file_gets_the_apps_json_answer(client):
    for response in (client.post("/static/js/app.js"), client.get("/static/js/no-such.js")):
        assert response.status_code in (404, 405)
        assert response.is_json and response.get_json()["message"]


def test_the_snapshot_is_made_once_per_version_of_the_files(tmp_path):
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    (web / "js" / "a.js").write_text("export const a = 1;\n" * 100)
    first = snapshot(web)
    assert snapshot(web) == first
    assert (first / "js" / "a.js").read_bytes() == (web / "js" / "a.js").read_bytes()
    assert (
        brotli.decompress((first / "js" / "a.js.br").read_bytes())
        == (web / "js" / "a.js").read_bytes()
    )
    (web / "js" / "a.js").write_text("export const a = 2;\n" * 100)
    second = snapshot(web)
    assert second != first and (second / "js" / "a.js").read_text().startswith(
        "export const a = 2;"
    )


def test_in_debug_mode_flask_serves_web_as_edited(redis_url, redis_client):
    from api.web import create_app

    app = create_app(
        {"TESTING": True, "DEBUG": True, "REDIS_URL": redis_url, "RATELIMIT_ENABLED": False}
    )
    response = app.test_client().get("/static/js/app.js")
    assert response.status_code == 200 and response.data == (WEB / "js/app.js").read_bytes()
    assert "Permissions-Policy" in response.headers  # Flask's answer, with Talisman's headers
