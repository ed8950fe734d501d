"""The load test's players (locust, FastHttpUser): correspondence players with accounts, each
holding about ten games. Every 30 s a player polls `GET /me/games` with the ETag it has; when it
is its turn somewhere, it moves in one of those games about one poll in ten (asking the game's
legal moves, then posting one): a person who looks in often and thinks a few minutes before a
move, which is brisk for correspondence (moves hours apart) and so a heavier load than it. Some play bots,
which answer on the workers. Each player comes from an address of its own (X-Forwarded-For,
one trusted proxy), so the rate limits are those each person would meet.

The player count steps up (LOADTEST_STEPS); each step is ramped to, left to settle for a poll
cycle, then measured (its own p99, errors and request mix, written to LOADTEST_RESULTS). A step
that misses p99 <= 250 ms or has any error is the last. Run by tests/benchmarks/loadtest.py.
"""

from __future__ import annotations

import gc
import itertools
import json
import os
import random
import time

import select

import gevent
import requests
from gevent import monkey
from geventhttpclient.connectionpool import ConnectionPool
from locust import FastHttpUser, LoadTestShape, constant_pacing, events, task
from prometheus_client.parser import text_string_to_metric_families

POLL_S = 30.0
MOVE_CHANCE = 1 / 10
P99_GOAL_MS = 250.0
STEPS = [int(n) for n in os.environ.get("LOADTEST_STEPS", "1000,2000,5000,10000").split(",")]
# players started a second: faster ramps (50, 500) left this locust measuring its own delays
# long after the ramp (a bare Flask endpoint at 40 requests/s: median 67 ms from locust, 2 ms
# from plain gevent or threaded clients at the same pace; 6 ms from locust ramped at 20)
SPAWN_RATE = float(os.environ.get("LOADTEST_SPAWN_RATE", "20"))
SETTLE_S = float(os.environ.get("LOADTEST_SETTLE_S", str(POLL_S)))
MEASURE_S = float(os.environ.get("LOADTEST_MEASURE_S", str(2 * POLL_S)))
with open(os.environ["LOADTEST_ACCOUNTS"]) as f:
    ACCOUNTS = itertools.cycle(json.load(f))  # users take the accounts in order
SERVER_HISTOGRAM = "postplay_http_request_duration_seconds"
_poll = monkey.get_original("select", "poll")  # the system's, not gevent's


def _is_socket_alive(self, sock) -> bool:
    """Whether a kept connection can carry the next request: open, nothing unread on it.
    geventhttpclient 2.6.1 asks `select()`, which refuses a descriptor >= 1024 (FD_SETSIZE),
    and counts the refusal as a dead connection: past the first thousand players every kept
    connection was closed and each request opened a new one (the server saw hundreds of
    connections a second, the players waited tens of seconds). The same question, by poll(),
    which has no such bound."""
    if sock is None or sock.fileno() < 0:
        return False
    poller = _poll()
    poller.register(sock.fileno(), select.POLLIN)
    return not poller.poll(0)


ConnectionPool._is_socket_alive = _is_socket_alive


_collecting: list[float] = []
full_collections: list[float] = []  # seconds each full collection took, since the last reset


def _time_full_collections(phase: str, info: dict) -> None:
    """How long each full (generation 2) collection held every player here: reported per step,
    as a pause the players' latencies would include."""
    if info["generation"] != 2:
        return
    if phase == "start":
        _collecting[:] = [time.perf_counter()]
    elif _collecting:
        full_collections.append(time.perf_counter() - _collecting.pop())


gc.callbacks.append(_time_full_collections)


@events.spawning_complete.add_listener
def freeze_the_players(**_):
    """Thousands of players are thousands of long-lived objects in this one process: a full
    collection walks them all with every player's request waiting, which the players would
    count as the server's latency. Frozen once spawned, a collection walks only what requests
    left."""
    gc.collect()
    gc.freeze()


def server_buckets(host: str) -> dict[tuple[str, float], float]:
    """The server's own latency histogram (its /metrics), as {(route, le): requests}: what the
    requests cost inside the web processes, whatever the players' side adds."""
    text = requests.get(f"{host}/metrics", timeout=30).text
    return {
        (sample.labels["route"], float(sample.labels["le"])): sample.value
        for family in text_string_to_metric_families(text)
        if family.name == SERVER_HISTOGRAM
        for sample in family.samples
        if sample.name.endswith("_bucket")
    }


def server_p99_ms(before: dict, after: dict) -> float | None:
    """The upper bound of the bucket holding the 99th percentile of the requests between the
    two readings, over every route (None when none was answered)."""
    edges: dict[float, float] = {}
    for (route, le), count in after.items():
        edges[le] = edges.get(le, 0.0) + count - before.get((route, le), 0.0)
    total = edges.get(float("inf"), 0.0)
    if not total:
        return None
    return next(le for le in sorted(edges) if edges[le] >= 0.99 * total) * 1000


class Player(FastHttpUser):
    wait_time = constant_pacing(POLL_S)
    network_timeout = connection_timeout = 30.0  # a request longer than this is an error

    def on_start(self):
        self.username, token, address = next(ACCOUNTS)
        self.headers = {"Authorization": f"Bearer {token}", "X-Forwarded-For": address}
        # the games where it is this player's turn, as its last full answer listed them: all
        # a poll decides from (a 304 changes nothing). Only their ids are kept, not the answer:
        # ten thousand players keeping ten parsed games each made every full collection in this
        # process walk them, with every player's request waiting
        self.etag, self.my_turn = None, []
        gevent.sleep(random.uniform(0, POLL_S))  # players look in at their own moments

    @task
    def poll(self):
        headers = dict(self.headers, **({"If-None-Match": self.etag} if self.etag else {}))
        with self.client.get(
            "/api/v1/me/games", headers=headers, name="GET /me/games", catch_response=True
        ) as response:
            if response.status_code == 200:
                self.etag = response.headers.get("ETag")
                self.my_turn = [
                    g["id"]
                    for g in response.json()
                    if g["status"] == "active"
                    and g["to_move"] is not None
                    and g["seats"][g["to_move"]].get("player") == self.username
                ]
            elif response.status_code != 304:
                response.failure(f"{response.status_code}: {(response.text or '')[:200]}")
                return
        if self.my_turn and random.random() < MOVE_CHANCE:
            self.move(random.choice(self.my_turn))

    def move(self, game_id: str) -> None:
        with self.client.get(
            f"/api/v1/games/{game_id}/legal-moves",
            headers=self.headers,
            name="GET /games/{id}/legal-moves",
            catch_response=True,
        ) as response:
            if response.status_code != 200:
                response.failure(f"{response.status_code}: {(response.text or '')[:200]}")
                return
            legal = response.json()
        if legal["seat"] is None or not legal["moves"]:
            return
        with self.client.post(
            f"/api/v1/games/{game_id}/moves",
            headers=self.headers,
            json={"move": random.choice(legal["moves"]), "ply": legal["ply"]},
            name="POST /games/{id}/moves",
            catch_response=True,
        ) as response:
            if response.status_code != 201:
                response.failure(f"{response.status_code}: {(response.text or '')[:200]}")


class Steps(LoadTestShape):
    """Each step: ramp to its count, settle, measure; stop after the first step that fails."""

    def __init__(self):
        super().__init__()
        self.results: list[dict] = []
        self.step, self.phase, self.phase_ends = 0, None, 0.0

    def tick(self):
        now = self.get_run_time()
        if self.phase == "settle" and self.runner.user_count < STEPS[self.step]:
            # the ramp runs behind its nominal time (at 10,000 players by about a minute): the
            # poll cycle of settling starts once every player is there, so that neither the
            # last of the ramp nor the collection that freezes the players falls in the measure
            self.phase_ends = max(self.phase_ends, now + SETTLE_S)
        if self.phase is None or now >= self.phase_ends:
            if not self.advance(now):
                self.write()
                return None
        return STEPS[self.step], SPAWN_RATE

    def advance(self, now: float) -> bool:
        """Move to the next phase; False once the test is over."""
        if self.phase == "measure":
            result = self.measure()
            self.results.append(result)
            self.write()  # (each step as it ends: a locust that fails later leaves these)
            self.step += 1
            if not result["held"] or self.step == len(STEPS):
                return False
        if self.phase in (None, "measure"):
            before = STEPS[self.step - 1] if self.step else 0
            self.phase, self.phase_ends = (
                "settle",
                now + (STEPS[self.step] - before) / SPAWN_RATE + SETTLE_S,
            )
        else:
            self.runner.stats.reset_all()
            full_collections.clear()
            self.server_before = server_buckets(self.runner.environment.host)
            self.phase, self.phase_ends = "measure", now + MEASURE_S
        return True

    def measure(self) -> dict:
        stats = self.runner.stats
        total = stats.total
        p99 = total.get_response_time_percentile(0.99) if total.num_requests else None
        errors = total.num_failures
        return {
            "players": STEPS[self.step],
            "requests": total.num_requests,
            "rate": total.num_requests / MEASURE_S,
            "p99_ms": p99,
            "errors": errors,
            "failures": [
                f"{e.name}: {e.error} x{e.occurrences}" for e in list(stats.errors.values())[:5]
            ],
            "cpu_locust": self.runner.current_cpu_usage,
            "locust_full_collections": len(full_collections),
            "locust_longest_collection_ms": 1000 * max(full_collections, default=0.0),
            "users": self.runner.user_count,
            "held": p99 is not None and p99 <= P99_GOAL_MS and errors == 0,
            "server_p99_ms": server_p99_ms(
                self.server_before, server_buckets(self.runner.environment.host)
            ),
            "mix": {name: entry.num_requests for (name, _), entry in stats.entries.items()},
            "p99_by_request": {
                name: entry.get_response_time_percentile(0.99)
                for (name, _), entry in stats.entries.items()
                if entry.num_requests
            },
        }

    def write(self) -> None:
        with open(os.environ["LOADTEST_RESULTS"], "w") as f:
            json.dump(self.results, f, indent=2)
