"""The game store against a real Redis: optimistic concurrency, and documents kept exactly."""
from __future__ import annotations

from api.store import keys
from api.store.games import Change, GameStore
from tests.api.helpers import create, move


def test_a_change_made_from_an_older_document_runs_again_on_the_newer_one(redis_client):
    store = GameStore(redis_client)
    store.create({"id": "g1", "kind": "factor-multiple", "status": "active", "created_ts": 1.5,
                  "version": 1, "notes": []}, {})
    seen = []

    def slow(doc: dict) -> Change:
        seen.append(doc["version"])
        if len(seen) == 1:  # another writer lands while this change is being made
            store.update("g1", lambda d: Change({**d, "version": 2, "notes": d["notes"] + ["b"]}))
        return Change({**doc, "version": doc["version"] + 1, "notes": doc["notes"] + ["a"]})

    store.update("g1", slow)
    assert seen == [1, 2]
    assert store.load("g1") == {"id": "g1", "kind": "factor-multiple", "status": "active",
                                "created_ts": 1.5, "version": 3, "notes": ["b", "a"]}
    assert redis_client.zscore(keys.lobby_key("active", "factor-multiple"), "g1") == 1.5


def test_names_beyond_ascii_survive_every_write(client):
    game = create(client, seats=[{"human": {"name": "Zoë 🎲"}}, {"open": True}], first=0)
    joined = client.post(f"/api/v1/games/{game['id']}/join", json={"name": "Łukasz 碁"})
    assert joined.status_code == 201, joined.get_json()
    after = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).get_json()
    assert [seat["name"] for seat in after["seats"]] == ["Zoë 🎲", "Łukasz 碁"]
