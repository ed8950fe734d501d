"""The game store against a real Redis: optimistic concurrency, and records kept exactly."""

from __future__ import annotations

import threading
import time
from typing import Callable
from urllib.parse import urlsplit

import pytest
import redis

from api.games import get_game
from api.notify.events import GAME_EVENTS
from api.record import GameRecord, Seat
from api.store import keys
from api.store.connection import RedisConfig
from api.store.embedded import redacted
from api.store.games import Change, GameStore
from tests.api.helpers import create, move


def test_a_change_made_from_an_older_record_runs_again_on_the_newer_one(redis_client):
    store = GameStore(redis_client, GAME_EVENTS)
    game = get_game("factor-multiple")
    options = game.check_options({})
    store.create(
        GameRecord.create(
            "g1",
            game.slug,
            options,
            1,
            0,
            [Seat.human("A"), Seat.human("B")],
            game.new(options, 0, 1),
            0,
            {"type": "none"},
            None,
            now=1.5,
        ),
        {},
    )
    seen = []

    def rename(seat: int, name: str) -> Callable[[GameRecord], Change]:
        def change(record: GameRecord) -> Change:
            record.seats[seat] = Seat.human(name)
            return Change(record, at=2.0)

        return change

    def slow(record: GameRecord) -> Change:
        seen.append(record.version)
        if len(seen) == 1:  # another writer lands while this change is being made
            store.update("g1", rename(1, "Bo"))
        return rename(0, "Ada")(record)

    store.update("g1", slow)
    assert seen == [1, 2]
    record = store.load("g1")
    assert record.version == 3 and [s.name for s in record.seats] == ["Ada", "Bo"]
    assert redis_client.zscore(keys.lobby_key("active", "factor-multiple"), "g1") == 1.5


def test_the_store_sets_every_written_record_to_the_next_version(redis_client):
    store = GameStore(redis_client, GAME_EVENTS)
    game = get_game("factor-multiple")
    options = game.check_options({})
    store.create(
        GameRecord.create(
            "g1",
            game.slug,
            options,
            1,
            0,
            [Seat.human("A"), Seat.human("B")],
            game.new(options, 0, 1),
            0,
            {"type": "none"},
            None,
            now=1.5,
        ),
        {},
    )

    def careless(record: GameRecord) -> Change:
        record.version = 99  # whatever a change sets, the store writes version + 1
        return Change(record, at=7.5)

    written = store.update("g1", careless).record
    assert written.version == 2 and written.updated_ts == 7.5
    assert store.load("g1").version == store.version("g1") == 2
    assert store.update("g1", Change).record.version == 3  # a change of nothing is one too
    assert store.load("g1").updated_ts > 7.5  # without `at`: the time it was written


def test_names_beyond_ascii_survive_every_write(client):
    game = create(client, seats=[{"human": {"name": "Zoë 🎲"}}, {"open": True}], first=0)
    joined = client.post(f"/api/v1/games/{game['id']}/join", json={"name": "Łukasz 碁"})
    assert joined.status_code == 201, joined.get_json()
    after = move(client, game, game["tokens"]["0"], {"type": "say", "number": 4}).get_json()
    assert [seat["name"] for seat in after["seats"]] == ["Zoë 🎲", "Łukasz 碁"]


def test_a_command_that_finds_every_connection_busy_waits_for_one(redis_url):
    """Past its connections a client queues a command rather than failing it at once: with one
    connection, held by a blocking pop, a PING from another thread waits and is answered; one
    that would wait longer than the client's timeout fails as the store being out of reach."""
    config = RedisConfig.from_mapping(
        {"REDIS_URL": redis_url, "POSTPLAY_REDIS_MAX_CONNECTIONS": "1"}
    )
    client = config.connect(timeout_s=5.0)

    def hold(seconds: float) -> threading.Thread:
        held = threading.Thread(target=client.blpop, args=(["postplay-test:never"], seconds))
        held.start()
        time.sleep(0.2)  # (the pop has the connection)
        return held

    held = hold(0.5)
    assert client.ping()
    held.join()
    client.connection_pool.timeout = 0.2  # the wait for a connection, cut short
    held = hold(1.5)
    with pytest.raises(redis.ConnectionError, match="No connection available"):
        client.ping()
    held.join()


def test_every_client_made_from_the_config_carries_the_urls_password(redis_url):
    """The embedded Redis wants its password: the app's and workers' client, the rate
    limiter's storage and rq-dashboard's URL all carry it, under Sentinel too."""
    password = urlsplit(redis_url).password
    if password is None:
        pytest.skip("the session's Redis (REDIS_URL) has no password")
    config = RedisConfig.from_mapping({"REDIS_URL": redis_url})
    assert config.connect().ping()
    assert config.limiter_storage()[0] == config.dashboard_url() == redis_url
    with pytest.raises(redis.AuthenticationError):
        RedisConfig.from_mapping({"REDIS_URL": redacted(redis_url)}).connect().ping()
    sentinel = RedisConfig.from_mapping(
        {
            "REDIS_URL": f"redis://:{password}@/3",
            "REDIS_SENTINELS": "sentinel-a:26379,sentinel-b:26379",
        }
    )
    assert sentinel.limiter_storage()[1] == {"db": 3, "password": password}
    assert (
        sentinel.dashboard_url()
        == f"redis+sentinel://:{password}@sentinel-a:26379,sentinel-b:26379/postplay/3"
    )
