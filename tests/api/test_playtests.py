"""The playtest resources over HTTP: start (202), read, list, cancel, and every refusal."""

from __future__ import annotations

import json

import pytest

from api.store.games import hash_token
from api.store.keys import playtest_key

SLUG = "factor-multiple"


def post(client, **body):
    return client.post(
        "/api/v1/playtests", json={"kind": SLUG, "bots": ["greedy", "random"], "games": 20, **body}
    )


def test_start_answers_202_with_an_id_a_seed_and_the_planned_chunks(client):
    response = post(client, games=25)
    assert response.status_code == 202
    playtest = response.get_json()
    assert playtest["id"] and isinstance(playtest["seed"], int)
    assert playtest["status"] == "running" and playtest["report"] is None
    assert (playtest["done"], playtest["total"]) == (0, 25)
    assert playtest["options"] == {"n": 100, "even_start": True}
    assert (playtest["budget_s"], playtest["chunk_games"], playtest["samples"]) == (0.1, 10, 4)
    assert [
        (c["index"], c["first_game"], c["games"], c["status"], c["done"])
        for c in playtest["chunks"]
    ] == [(0, 0, 10, "queued", 0), (1, 10, 10, "queued", 0), (2, 20, 5, "queued", 0)]
    owner_token = playtest.pop("owner_token")
    assert len(owner_token) >= 32
    assert client.get(f"/api/v1/playtests/{playtest['id']}").get_json() == playtest


@pytest.mark.parametrize(
    "body, field, words",
    [
        ({"kind": "chess"}, "kind", "There is no game 'chess'"),
        ({"bots": ["greedy", "grandmaster"]}, "bots.1", "has no bot 'grandmaster'"),
        ({"options": {"n": 5}}, "options.n", "at least"),
        ({"options": {"size": 5}}, "options.size", "has no option 'size'"),
        ({"games": 0}, "games", "1 to 1000 games"),
        ({"games": 1001}, "games", "1 to 1000 games"),
        ({"budget_s": 0}, "budget_s", "budget_s"),
        ({"budget_s": 60}, "budget_s", "at most 2.0"),
        ({"chunk_games": 0}, "chunk_games", "1 to 100"),
        ({"samples": 21}, "samples", "0 to 20"),
        ({"seed": -1}, "seed", "seed"),
    ],
)
def test_422_names_the_field_and_says_why(client, body, field, words):
    response = post(client, **body)
    assert response.status_code == 422
    payload = response.get_json()
    assert list(payload["errors"]["json"]) == [field]
    assert words in payload["message"]
    assert client.get("/api/v1/playtests").get_json() == []


@pytest.mark.parametrize(
    "body, field",
    [
        ({"bots": ["greedy"]}, "bots"),
        ({"games": "ten"}, "games"),
        ({"games": None}, "games"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_400_malformed_body_names_the_field(client, body, field):
    response = post(client, **body)
    assert response.status_code == 400
    assert field in response.get_json()["errors"]["json"]


def test_404_unknown_playtest(client):
    assert client.get("/api/v1/playtests/nope").status_code == 404
    response = client.delete("/api/v1/playtests/0123456789ab")
    assert response.status_code == 404 and response.get_json()["message"]


def test_list_is_newest_first_and_paginated(client):
    ids = [post(client, games=3).get_json()["id"] for _ in range(3)]
    listed = client.get("/api/v1/playtests")
    assert [p["id"] for p in listed.get_json()] == ids[::-1]
    assert all(p["report"] is None for p in listed.get_json())
    page = client.get("/api/v1/playtests?page=2&page_size=2")
    assert [p["id"] for p in page.get_json()] == ids[:1]


def test_read_carries_etag_and_304_until_progress(client, run_jobs):
    playtest = post(client, games=3).get_json()
    url = f"/api/v1/playtests/{playtest['id']}"
    etag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    run_jobs()
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200


def owner(playtest: dict) -> dict:
    return {"Authorization": f"Bearer {playtest['owner_token']}"}


def test_only_the_owner_token_cancels(client, redis_client):
    playtest, other = post(client, games=30).get_json(), post(client, games=3).get_json()
    url = f"/api/v1/playtests/{playtest['id']}"
    missing = client.delete(url)
    assert missing.status_code == 401 and "owner token" in missing.get_json()["message"]
    for token in ("nope", other["owner_token"]):
        wrong = client.delete(url, headers={"Authorization": f"Bearer {token}"})
        assert wrong.status_code == 403 and "owner token" in wrong.get_json()["message"]
    assert client.get(url).get_json()["status"] == "running"
    assert client.delete(url, headers=owner(playtest)).status_code == 200
    # kept only as a hash, like seat tokens
    stored = redis_client.get(playtest_key(playtest["id"]))
    assert playtest["owner_token"].encode() not in stored
    assert json.loads(stored)["owner_hash"] == hash_token(playtest["owner_token"])


def test_cancel_before_any_chunk_ran_then_409_on_a_second_cancel(client, run_jobs):
    playtest = post(client, games=30).get_json()
    response = client.delete(f"/api/v1/playtests/{playtest['id']}", headers=owner(playtest))
    assert response.status_code == 200
    cancelled = response.get_json()
    assert cancelled["status"] == "cancelled" and cancelled["done"] == 0
    assert {c["status"] for c in cancelled["chunks"]} == {"cancelled"}
    assert run_jobs() == 0
    assert cancelled["report"]["games"] == 0 and cancelled["report"]["length"] is None
    again = client.delete(f"/api/v1/playtests/{playtest['id']}", headers=owner(playtest))
    assert again.status_code == 409 and "over" in again.get_json()["message"]


def test_a_client_may_run_only_so_many_playtests(client, monkeypatch):
    monkeypatch.setenv("POSTPLAY_MAX_PLAYTESTS_PER_CLIENT", "2")
    body = {
        "kind": "factor-multiple",
        "bots": ["random", "greedy"],
        "games": 4,
        "options": {"n": 20},
    }
    started = [client.post("/api/v1/playtests", json=body) for _ in range(2)]
    assert [r.status_code for r in started] == [202, 202]
    refused = client.post("/api/v1/playtests", json=body)
    assert refused.status_code == 429 and "2 playtests running" in refused.get_json()["message"]
    first = started[0].get_json()
    cancelled = client.delete(
        f"/api/v1/playtests/{first['id']}",
        headers={"Authorization": f"Bearer {first['owner_token']}"},
    )
    assert cancelled.status_code in (200, 202, 204)
    assert client.post("/api/v1/playtests", json=body).status_code == 202
