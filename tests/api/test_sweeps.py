"""The sweep resources over HTTP: start (202), read, list, cancel by the owner only (an owner
token or the owner account), and every refusal naming its field with game creation's words."""

from __future__ import annotations

import json

import pytest

from api.store.games import hash_token
from api.store.keys import sweep_key
from tests.api.helpers import auth

SLUG = "factor-multiple"
URL = "/api/v1/playtests/sweeps"
PASSWORD = "correct horse battery"


def post(client, headers=None, **body):
    return client.post(
        URL,
        headers=headers or {},
        json={
            "kind": SLUG,
            "bots": ["greedy", "random"],
            "games_per_variant": 6,
            "vary": {"n": [20, 40]},
            **body,
        },
    )


def sign_up(client, username: str) -> str:
    response = client.post("/api/v1/accounts", json={"username": username, "password": PASSWORD})
    assert response.status_code == 201
    return response.get_json()["token"]


def test_start_answers_202_with_a_playtest_per_variant_on_one_seed(client):
    response = post(
        client, vary={"even_start": [True, False], "n": [20, 40]}, seed=9, chunk_games=4
    )
    assert response.status_code == 202
    sweep = response.get_json()
    assert sweep["status"] == "running" and sweep["comparison"] is None
    assert (sweep["done"], sweep["total"], sweep["seed"]) == (0, 24, 9)
    assert sweep["vary"] == {"n": [20, 40], "even_start": [True, False]}
    assert sweep["options"] == {} and sweep["owner"] is None
    assert [v["label"] for v in sweep["variants"]] == [
        "n=20, even_start=true",
        "n=20, even_start=false",
        "n=40, even_start=true",
        "n=40, even_start=false",
    ]
    for variant in sweep["variants"]:
        playtest = client.get(f"/api/v1/playtests/{variant['playtest_id']}").get_json()
        assert playtest["sweep"] == {"id": sweep["id"], "variant": variant["index"]}
        assert playtest["seed"] == 9 and playtest["games"] == 6
        assert playtest["options"] == variant["values"]
        assert [c["games"] for c in playtest["chunks"]] == [4, 2]
    # the variants' playtests are the sweep's, not listed among playtests
    assert client.get("/api/v1/playtests").get_json() == []
    owner_token = sweep.pop("owner_token")
    assert len(owner_token) >= 32
    assert client.get(f"{URL}/{sweep['id']}").get_json() == sweep


def test_a_bad_value_gets_game_creations_message_at_its_place_in_vary(client):
    created = client.post(
        "/api/v1/games",
        json={"kind": SLUG, "options": {"n": 5}, "seats": [{"bot": "greedy"}, {"bot": "greedy"}]},
    )
    assert created.status_code == 422
    swept = post(client, vary={"n": [20, 5]})
    assert swept.status_code == 422
    assert swept.get_json()["errors"]["json"] == {"vary.n.1": [created.get_json()["message"]]}
    assert swept.get_json()["message"] == created.get_json()["message"]


@pytest.mark.parametrize(
    "body, field, words",
    [
        ({"kind": "chess"}, "kind", "There is no game 'chess'"),
        ({"vary": {}}, "vary", "at least one option to vary"),
        ({"vary": {"size": [9, 11]}}, "vary.size", "has no option 'size'"),
        ({"vary": {"n": [20, 20]}}, "vary.n.1", "same as value 1"),
        ({"vary": {"n": list(range(10, 40))}}, "vary", "at most 24 variants; these values make 30"),
        ({"options": {"n": 30}}, "options.n", "both fixed (options) and varied"),
        ({"options": {"even_start": 1}}, "options.even_start", "true or false"),
        ({"games_per_variant": 0}, "games_per_variant", "1 to 1000 games per variant"),
        ({"bots": ["greedy", "grandmaster"]}, "bots.1", "has no bot 'grandmaster'"),
        ({"budget_s": 9}, "budget_s", "at most 2.0"),
        ({"samples": 21}, "samples", "0 to 20"),
    ],
)
def test_422_names_the_field_and_changes_nothing(client, redis_client, body, field, words):
    response = post(client, **body)
    assert response.status_code == 422
    payload = response.get_json()
    assert list(payload["errors"]["json"]) == [field]
    assert words in payload["message"]
    assert client.get(URL).get_json() == []
    assert redis_client.keys("pp:playtest:*") == []


@pytest.mark.parametrize(
    "body, field",
    [
        ({"vary": [20, 40]}, "vary"),
        ({"vary": {"n": 20}}, "vary.n"),
        ({"games_per_variant": "six"}, "games_per_variant"),
        ({"games": 10}, "games"),
        ({"bots": ["greedy"]}, "bots"),
    ],
)
def test_400_malformed_body_names_the_field(client, body, field):
    response = post(client, **body)
    assert response.status_code == 400
    assert field in response.get_json()["errors"]["json"]


def test_404_unknown_sweep(client):
    assert client.get(f"{URL}/nope").status_code == 404  # not an id's shape: no route
    response = client.delete(f"{URL}/0123456789ab")
    assert response.status_code == 404 and "no sweep" in response.get_json()["message"]


def test_list_is_newest_first_and_paginated(client):
    ids = [post(client).get_json()["id"] for _ in range(3)]
    listed = client.get(URL).get_json()
    assert [s["id"] for s in listed] == ids[::-1]
    assert all(s["comparison"] is None and s["status"] == "running" for s in listed)
    page = client.get(f"{URL}?page=2&page_size=2")
    assert [s["id"] for s in page.get_json()] == ids[:1]


def test_a_strangers_cancel_is_refused_and_the_owners_cancels_every_variant(
    client, redis_client, run_jobs
):
    sweep, other = post(client).get_json(), post(client).get_json()
    url = f"{URL}/{sweep['id']}"
    missing = client.delete(url)
    assert missing.status_code == 401 and "owner token" in missing.get_json()["message"]
    stranger = sign_up(client, "stranger")
    for token in ("nope", other["owner_token"], stranger):
        refused = client.delete(url, headers=auth(token))
        assert refused.status_code == 403 and "owner token" in refused.get_json()["message"]
    assert client.get(url).get_json()["status"] == "running"
    cancelled = client.delete(url, headers=auth(sweep["owner_token"]))
    assert cancelled.status_code == 200
    view = cancelled.get_json()
    assert view["status"] == "cancelled" and view["done"] == 0
    assert {v["status"] for v in view["variants"]} == {"cancelled"}
    assert view["comparison"]["balanced"] is None
    run_jobs()
    assert client.get(f"{URL}/{other['id']}").get_json()["status"] == "finished"
    again = client.delete(url, headers=auth(sweep["owner_token"]))
    assert again.status_code == 409 and "over" in again.get_json()["message"]
    # kept only as a hash, like seat tokens
    stored = redis_client.get(sweep_key(sweep["id"]))
    assert sweep["owner_token"].encode() not in stored
    assert json.loads(stored)["owner_hash"] == hash_token(sweep["owner_token"])


def test_a_sweep_started_with_an_account_token_is_the_accounts(client):
    owner = sign_up(client, "designer")
    started = post(client, headers=auth(owner))
    assert started.status_code == 202
    sweep = started.get_json()
    assert "owner_token" not in sweep and sweep["owner"] == "designer"
    url = f"{URL}/{sweep['id']}"
    assert client.delete(url, headers=auth(sign_up(client, "rival"))).status_code == 403
    read_only = client.post(
        "/api/v1/me/tokens",
        headers=auth(owner),
        json={"description": "dashboard", "scopes": ["read"]},
    ).get_json()
    refused = client.delete(url, headers=auth(read_only["token"]))
    assert refused.status_code == 403 and "'play'" in refused.get_json()["message"]
    variant = sweep["variants"][0]["playtest_id"]
    assert client.get(f"/api/v1/playtests/{variant}").get_json()["owner"] == "designer"
    # from another device: a new sign-in is the same account
    signed_in = client.post(
        "/api/v1/session", json={"username": "designer", "password": PASSWORD}
    ).get_json()["token"]
    assert client.delete(url, headers=auth(signed_in)).status_code == 200


def test_a_playtest_started_with_an_account_token_is_the_accounts(client):
    owner = sign_up(client, "tester")
    started = client.post(
        "/api/v1/playtests",
        headers=auth(owner),
        json={"kind": SLUG, "bots": ["greedy", "random"], "games": 30},
    )
    playtest = started.get_json()
    assert started.status_code == 202 and "owner_token" not in playtest
    assert playtest["owner"] == "tester"
    url = f"/api/v1/playtests/{playtest['id']}"
    assert client.delete(url, headers=auth(sign_up(client, "other"))).status_code == 403
    assert client.delete(url, headers=auth(owner)).status_code == 200


def test_an_account_token_that_is_no_longer_good_is_401(client):
    response = post(client, headers=auth("pp.revoked-or-made-up"))
    assert response.status_code == 401


def test_a_client_may_run_only_so_many_sweeps(client, monkeypatch):
    monkeypatch.setenv("POSTPLAY_MAX_SWEEPS_PER_CLIENT", "1")
    first = post(client)
    assert first.status_code == 202
    refused = post(client)
    assert refused.status_code == 429 and "1 sweep running" in refused.get_json()["message"]
    sweep = first.get_json()
    client.delete(f"{URL}/{sweep['id']}", headers=auth(sweep["owner_token"]))
    assert post(client).status_code == 202


def test_read_carries_etag_and_304_until_progress(client, run_jobs):
    sweep = post(client).get_json()
    url = f"{URL}/{sweep['id']}"
    etag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    run_jobs()
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200
