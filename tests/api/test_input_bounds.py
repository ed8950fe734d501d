"""Issue 16's bad inputs, one by one: each is a 4xx with a JSON `message`, and nothing changes."""

from __future__ import annotations

import io
import json

import pytest

from api.web.input_bounds import MAX_BODY_BYTES, MAX_INT_DIGITS, MAX_JSON_DEPTH, MAX_PAGE
from tests.api.helpers import auth, create, move

OPEN_SEATS = [{"open": True}, {"open": True}]


def refused(response, status: int, field: str | None = None) -> dict:
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert response.content_type == "application/json"
    body = response.get_json()
    assert isinstance(body["message"], str) and body["message"]
    if field is not None:
        assert any(field in fields for fields in body["errors"].values()), body
    return body


def game_count(client) -> int:
    return json.loads(client.get("/api/v1/games").headers["X-Pagination"])["total"]


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/playtests"])
@pytest.mark.parametrize("page", ["4611686018427387905", str(MAX_PAGE + 1), "0"])
def test_a_page_out_of_range_is_a_422_naming_it(client, path, page):
    refused(client.get(f"{path}?page={page}"), 422, "page")


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/playtests"])
def test_a_page_size_out_of_range_is_a_422_naming_it(client, path):
    refused(client.get(f"{path}?page_size=101"), 422, "page_size")
    assert client.get(f"{path}?page={MAX_PAGE}&page_size=100").status_code == 200


@pytest.mark.parametrize("nested", ["[" * 1000 + "]" * 1000, '{"a": ' * 1000 + "1" + "}" * 1000])
def test_a_body_nested_too_deep_is_a_400(client, nested):
    body = refused(client.post("/api/v1/games", data=nested, content_type="application/json"), 400)
    assert f"{MAX_JSON_DEPTH} levels" in body["message"]
    assert game_count(client) == 0


def test_nesting_inside_strings_does_not_count(client):
    response = client.post(
        "/api/v1/games",
        content_type="application/json",
        data=json.dumps(
            {"kind": "factor-multiple", "seats": [{"human": {"name": "[[[[" * 10}}, {"open": True}]}
        ),
    )
    assert response.status_code == 201


@pytest.mark.parametrize("digits", [5000, MAX_INT_DIGITS + 1])
def test_a_ply_of_too_many_digits_is_a_400_and_changes_nothing(client, digits):
    game = create(client, first=0)
    data = '{"move": {"type": "say", "number": 4}, "ply": ' + "9" * digits + "}"
    body = refused(
        client.post(
            f"/api/v1/games/{game['id']}/moves",
            data=data,
            headers={**auth(game["tokens"]["0"]), "Content-Type": "application/json"},
        ),
        400,
    )
    assert f"more than {MAX_INT_DIGITS} digits" in body["message"]
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["version"] == game["version"]


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json(client, constant):
    data = (
        '{"kind": "factor-multiple", "seats": [{"open": true}, {"open": true}], '
        '"time_control": {"type": "fischer", "initial_s": ' + constant + ', "increment_s": 1}}'
    )
    refused(client.post("/api/v1/games", data=data, content_type="application/json"), 400)
    assert game_count(client) == 0


def test_a_huge_query_number_is_a_400_not_a_500(client):
    game = create(client, first=0)
    refused(client.get(f"/api/v1/games/{game['id']}/positions?from={'9' * 5000}"), 400, "from")
    refused(client.get(f"/api/v1/games/{game['id']}/analysis?ply={'9' * 5000}"), 400, "ply")


@pytest.mark.parametrize(
    "name",
    [
        "   ",
        "",
        "x" * 41,
        "Ada\u202eevil",
        "Bo\u2066x\u2069",
        "a\x07b",
        "tab\there",
        "zero\u200bwidth",
        "\ud800",
    ],
)
def test_a_name_that_is_no_name_is_a_422_naming_it(client, name):
    waiting = create(client, seats=[{"human": {"name": "Ada"}}, {"open": True}])
    refused(client.post(f"/api/v1/games/{waiting['id']}/join", json={"name": name}), 422, "name")
    after = client.get(f"/api/v1/games/{waiting['id']}").get_json()
    assert after["version"] == waiting["version"] and after["seats"][1]["open"]
    refused(
        client.post(
            "/api/v1/games",
            json={"kind": "factor-multiple", "seats": [{"human": {"name": name}}, {"open": True}]},
        ),
        422,
        "seats.0.human.name",
    )
    assert game_count(client) == 1


def test_a_name_is_stripped_and_may_be_any_printable_text(client):
    waiting = create(client, seats=[{"human": {"name": "Ada"}}, {"open": True}])
    joined = client.post(f"/api/v1/games/{waiting['id']}/join", json={"name": "  Zoë 🎲 אב  "})
    assert joined.status_code == 201 and joined.get_json()["seats"][1]["name"] == "Zoë 🎲 אב"


def test_a_name_that_is_not_a_string_stays_a_400(client):
    waiting = create(client, seats=[{"human": {"name": "Ada"}}, {"open": True}])
    refused(client.post(f"/api/v1/games/{waiting['id']}/join", json={"name": 7}), 400, "name")


@pytest.mark.parametrize(
    "kind, extra",
    [
        ("factor-multiple", {"type": "say", "number": 4, "evil": 1}),
        ("prime-drop", {"type": "drop", "row": 5, "col": 5, "digit": 7, "note": "hi"}),
        ("ploid", {"type": "place", "row": 0, "col": 0, "piece": 1, "seat": 1}),
    ],
)
def test_an_unknown_field_inside_a_move_is_a_422_naming_it(client, kind, extra):
    game = create(client, kind=kind, first=0)
    (unknown,) = set(extra) - {"type", "number", "row", "col", "digit", "piece"}
    refused(move(client, game, game["tokens"]["0"], extra), 422, f"move.{unknown}")
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["version"] == game["version"]


def test_an_unknown_field_inside_a_double_down_tile_is_a_422_naming_it(client):
    game = create(client, kind="prime-drop", first=0)
    double = {
        "type": "double",
        "tiles": [{"row": 5, "col": 5, "digit": 1}, {"row": 5, "col": 6, "digit": 3, "x": 0}],
    }
    refused(move(client, game, game["tokens"]["0"], double), 422, "move.tiles[1].x")


def test_an_unknown_option_is_a_422_naming_it(client):
    response = client.post(
        "/api/v1/games", json={"kind": "ploid", "options": {"evil": 1}, "seats": OPEN_SEATS}
    )
    refused(response, 422, "options.evil")


@pytest.mark.parametrize("first", [0.0, 1.0, True, False, "0", 2, None])
def test_first_is_exactly_0_1_or_random(client, first):
    response = client.post(
        "/api/v1/games", json={"kind": "factor-multiple", "first": first, "seats": OPEN_SEATS}
    )
    refused(response, 400, "first")
    assert game_count(client) == 0
    for good in (0, 1, "random"):
        assert create(client, seats=OPEN_SEATS, first=good)["first"] in (0, 1)


@pytest.mark.parametrize(
    "rule",
    [
        {"after_s": 10**12, "streak": 10},
        {"after_s": 30 * 24 * 3600 + 1, "streak": 10},
        {"after_s": 60, "streak": 10**9},
    ],
)
def test_a_timeout_rule_out_of_range_is_refused_before_anything_is_written(
    client, redis_client, rule
):
    response = client.post(
        "/api/v1/games",
        json={
            "kind": "prime-drop",
            "options": {"timeout_rule": rule},
            "seats": OPEN_SEATS,
            "time_control": {"type": "fischer", "initial_s": 600, "increment_s": 5},
        },
    )
    refused(response, 422, "options.timeout_rule")
    assert redis_client.dbsize() == 0


def test_the_longest_timeout_rule_is_accepted(client):
    game = create(
        client,
        kind="prime-drop",
        seats=OPEN_SEATS,
        options={"timeout_rule": {"after_s": 30 * 24 * 3600, "streak": 10000}},
    )
    assert game["options"]["timeout_rule"] == {"after_s": 30 * 24 * 3600, "streak": 10000}


def chunked(client, body: bytes):
    """A body with no Content-Length, as gunicorn hands on a chunked one (the real thing is in
    test_gunicorn_limits.py)."""
    return client.post(
        "/api/v1/games",
        input_stream=io.BytesIO(body),
        content_type="application/json",
        environ_overrides={"wsgi.input_terminated": True, "HTTP_TRANSFER_ENCODING": "chunked"},
    )


def test_a_chunked_body_over_the_limit_is_a_413(client):
    body = json.dumps({"kind": "factor-multiple", "seats": OPEN_SEATS}).encode()
    refused(chunked(client, body + b" " * MAX_BODY_BYTES), 413)
    assert game_count(client) == 0


def test_a_chunked_body_under_the_limit_is_read(client):
    body = json.dumps({"kind": "factor-multiple", "seats": OPEN_SEATS}).encode()
    response = chunked(client, body + b" " * (MAX_BODY_BYTES - len(body)))
    assert response.status_code == 201, response.get_json()


@pytest.mark.parametrize(
    "method, path, status",
    [
        ("GET", "/api/v1/nope", 404),
        ("GET", "/nope", 404),
        ("POST", "/api/v1/games/x/nope", 404),
        ("DELETE", "/api/v1/kinds", 405),
        ("PUT", "/api/v1/games", 405),
        ("DELETE", "/api/v1/games/0123456789ab", 405),
        ("GET", "/api/v1/games/abc:moves", 404),
    ],
)
def test_unknown_routes_and_methods_are_json(client, method, path, status):
    refused(client.open(path, method=method), status)
