"""Retention, per RULES.md "Abandoned games": a lobby game nobody joins is aborted after 14 days,
an untimed game whose first move never comes after 7; a game that ended with no move made is
deleted a week later, every key with it; playtests leave with their sample games. Time is moved
by handing the workers' code a later `now`, the one thing these tests do not wait for."""

from __future__ import annotations

import time

from api.games import Outcome
from api.play.background import PLAYTEST_KEPT_S, Background, collect_garbage
from api.playtests.storage import REPORTS
from api.record import EMPTY_KEPT_S, UNJOINED_S, UNSTARTED_S, Status
from api.store.playtests import PlaytestStore, sample_game_id
from tests.api.helpers import create, move

DAY_S = 86400


def _keys_of(redis_client, game_id: str) -> list[bytes]:
    """Every key and index entry that still names the game."""
    found = [k for k in redis_client.scan_iter("*") if game_id.encode() in k]
    for key in redis_client.scan_iter("pp:*"):
        if redis_client.type(key) == b"zset" and any(
            game_id.encode() in m for m in redis_client.zrange(key, 0, -1)
        ):
            found.append(key)
    return found


def test_a_lobby_game_nobody_joins_is_aborted_after_14_days_then_deleted(
    client, store, redis_client
):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"open": True}])
    background = Background(redis_client, "test")
    created = store.load(game["id"]).created_ts
    background.run_due(created + UNJOINED_S - 60)
    assert store.load(game["id"]).status is Status.WAITING
    background.run_due(created + UNJOINED_S + 1)
    record = store.load(game["id"])
    assert record.status is Status.FINISHED and record.result == Outcome(None, "aborted")
    assert client.get("/api/v1/games?status=waiting").get_json() == []
    assert collect_garbage(redis_client, record.updated_ts + EMPTY_KEPT_S - 60)["games"] == 0
    assert collect_garbage(redis_client, record.updated_ts + EMPTY_KEPT_S + 1)["games"] == 1
    assert client.get(f"/api/v1/games/{game['id']}").status_code == 404
    assert _keys_of(redis_client, game["id"]) == []


def test_an_untimed_game_whose_first_move_never_comes_is_aborted_after_7_days(
    client, store, redis_client
):
    game = create(client, first=0)
    played = create(client, first=0)
    move(client, played, played["tokens"]["0"], {"type": "say", "number": 4})
    start = store.load(game["id"]).turn_started_ts
    Background(redis_client, "test").run_due(start + UNSTARTED_S + 1)
    assert store.load(game["id"]).result == Outcome(None, "aborted")
    kept = store.load(played["id"])
    assert kept.status is Status.ACTIVE and kept.deletable_at() is None
    collect_garbage(redis_client, time.time() + 365 * DAY_S)
    assert store.load(played["id"]) is not None  # a game with a move in it is never deleted


def test_playtests_leave_with_their_sample_games(client, store, redis_client, run_jobs):
    started = client.post(
        "/api/v1/playtests",
        json={
            "kind": "factor-multiple",
            "bots": ["random", "greedy"],
            "games": 4,
            "options": {"n": 20},
            "samples": 2,
        },
    )
    assert started.status_code == 202, started.get_json()
    playtest_id = started.get_json()["id"]
    run_jobs()
    samples = [sample_game_id(playtest_id, i) for i in range(2)]
    assert all(store.load(g) is not None for g in samples)
    created = PlaytestStore(redis_client, REPORTS).load(playtest_id)["created_ts"]
    assert collect_garbage(redis_client, created + PLAYTEST_KEPT_S - 60)["playtests"] == 0
    assert collect_garbage(redis_client, created + PLAYTEST_KEPT_S + 1)["playtests"] == 1
    assert client.get(f"/api/v1/playtests/{playtest_id}").status_code == 404
    assert all(_keys_of(redis_client, g) == [] for g in samples)
    assert _keys_of(redis_client, playtest_id) == []
