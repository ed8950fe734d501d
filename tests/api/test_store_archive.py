"""Finished games archived in one compressed value: what a client sees of a game (the game, its
history, its positions, its ETag, its seat tokens) is the same before and after, the history's
list and the seat hashes are gone from Redis, and a history of any shape comes back exactly."""

from __future__ import annotations

from api.clocks import iso
from api.store import archive, keys
from tests.api.helpers import auth, create, move


def _finished_game(client):
    """A game of three moves, then a resignation; and how it read while it still ran."""
    game = create(client, first=0, options={"n": 20})
    tokens = game["tokens"]
    for ply, number in enumerate([2, 4, 8]):
        response = move(
            client, {**game, "ply": ply}, tokens[str(ply % 2)], {"type": "say", "number": number}
        )
        assert response.status_code == 201, response.get_json()
    url = f"/api/v1/games/{game['id']}"
    before = {
        "moves": client.get(f"{url}/moves").get_json(),
        "positions": client.get(f"{url}/positions").get_json(),
    }
    assert client.post(f"{url}/resign", headers=auth(tokens["1"])).status_code == 201
    return game, before


def test_a_game_is_archived_when_it_ends_and_reads_the_same(client, redis_client):
    game, before = _finished_game(client)
    url = f"/api/v1/games/{game['id']}"
    over = client.get(url)
    assert over.get_json()["status"] == "finished"
    raw = redis_client.get(keys.game_key(game["id"]))
    assert archive.is_archive(raw)
    assert not redis_client.exists(keys.moves_key(game["id"]), keys.seat_hashes_key(game["id"]))
    history = client.get(f"{url}/moves").get_json()
    assert history == before["moves"] and len(history) == 3
    assert client.get(f"{url}/positions").get_json() == before["positions"]
    # the version is read from the archive alone: a matching poll is 304
    assert client.get(url, headers={"If-None-Match": over.headers["ETag"]}).status_code == 304
    # a seat token still opens its seat (a rematch), and the other game's token is told apart
    rematch = client.post(f"{url}/rematch", headers=auth(game["tokens"]["0"]))
    assert rematch.status_code == 201
    other = create(client)
    assert client.post(f"{url}/rematch", headers=auth(other["tokens"]["0"])).status_code == 403


def test_an_archived_game_changes_and_is_deleted_like_any_other(client, store, redis_client):
    game, _ = _finished_game(client)
    before = store.moves(game["id"])

    def rename(record):
        from api.store.games import Change

        record.seats[0].name = "Renamed"
        return Change(record, at=record.updated_ts + 1)

    store.update(game["id"], rename)
    assert store.load(game["id"]).seats[0].name == "Renamed"
    assert store.moves(game["id"]) == before  # the archive was written again, history and all
    token_keys = [
        keys.token_key(h)
        for h in archive.decode(redis_client.get(keys.game_key(game["id"])))[2].values()
    ]
    assert len(token_keys) == 2 and redis_client.exists(*token_keys) == 2
    assert store.delete(game["id"])
    assert store.load(game["id"]) is None and redis_client.exists(*token_keys) == 0


def test_any_history_comes_back_exactly():
    regular = [
        {
            "ply": 3 + i,
            "seat": i % 2,
            "at": iso(1.7e9 + i * 3600.25),
            "move": {"type": "say", "number": i} if i % 3 else {"type": "pass"},
        }
        for i in range(40)
    ]
    regular = [{k: e[k] for k in ("ply", "seat", "move", "at")} for e in regular]
    odd = regular[:3] + [{"ply": 99, "seat": 0, "move": {"edge": [1, 2]}, "at": "yesterday"}]
    for history in (regular, odd, []):
        doc, back, hashes = archive.decode(
            archive.encode({"id": "g", "version": 7}, history, {"0": "ab"})
        )
        assert back == history and [list(e) for e in back] == [list(e) for e in history]
        assert doc == {"id": "g", "version": 7} and hashes == {"0": "ab"}
    assert len(archive.encode({"id": "g", "version": 7}, regular, {})) < 200  # columns, packed
