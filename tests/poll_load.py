"""The 304 poll's read-your-writes promise, checked under load against a server on this machine
(tests/api/test_poll_under_load.py): writers make moves in a few games and publish each version
as its 201 is received; poller processes send each poll only after reading what was published,
carrying the ETag from before the latest acknowledged move (or the latest one), and check every
answer against the version published before the poll was sent; a CPU hog spins beside them.

The published state is shared memory, each game's slot under a lock of its own: a writer
publishes a version only once its 201 has been received, so a poller that reads version v
before sending knows that v was acknowledged before its poll was sent."""

from __future__ import annotations

import multiprocessing
import threading
import time
from dataclasses import dataclass, field
from queue import Empty

import requests

# each a factor or a multiple of the one before, none said twice: 22 moves of one game
CHAIN = [1, 2, 6, 3, 15, 5, 35, 7, 77, 11, 143, 13, 221, 17, 323, 19, 437, 23, 667, 29, 899, 31]
NEW_GAME = {
    "kind": "factor-multiple",
    "options": {"n": 1000, "even_start": False},
    "seats": [{"human": {"name": "A"}}, {"human": {"name": "B"}}],
    "first": 0,
}
ID_BYTES, ETAG_BYTES = 16, 48
STALE_KEPT = 20  # the first stale answers of a poller kept whole, for the report


class Published:
    """Each game slot's latest acknowledged write, as its writer received it: the game's id,
    its version, the ETag of that version and of the version before, and when the 201 came."""

    def __init__(self, context, slots: int):
        self.locks = [context.Lock() for _ in range(slots)]
        self.ids = [context.RawArray("c", ID_BYTES) for _ in range(slots)]
        self.versions = context.RawArray("q", slots)
        self.etags = [context.RawArray("c", ETAG_BYTES) for _ in range(slots)]
        self.before = [context.RawArray("c", ETAG_BYTES) for _ in range(slots)]
        self.acknowledged_at = context.RawArray("d", slots)

    def publish(self, slot: int, game_id: str, version: int, etag: str, before: str) -> None:
        with self.locks[slot]:
            self.ids[slot].value = game_id.encode()
            self.versions[slot] = version
            self.etags[slot].value = etag.encode()
            self.before[slot].value = before.encode()
            self.acknowledged_at[slot] = time.monotonic()

    def read(self, slot: int) -> tuple[str, int, str, str, float]:
        with self.locks[slot]:
            return (
                self.ids[slot].value.decode(),
                self.versions[slot],
                self.etags[slot].value.decode(),
                self.before[slot].value.decode(),
                self.acknowledged_at[slot],
            )


@dataclass
class Tally:
    """What one process saw."""

    polls: int = 0
    answers: dict[int, int] = field(default_factory=dict)  # by status
    stale_304: int = 0
    stale_200: int = 0
    no_etag_304: int = 0
    moves: int = 0
    games: int = 0
    refused: dict[int, int] = field(default_factory=dict)  # a writer's non-201s, by status
    stale: list[dict] = field(default_factory=list)  # the first few, whole


def write(base: str, published: Published, slot: int, stop, tally: Tally) -> None:
    """Play games of the chain in `slot` until `stop`, publishing each acknowledged version."""
    session = requests.Session()
    while not stop.is_set():
        created = session.post(f"{base}/api/v1/games", json=NEW_GAME, timeout=30)
        if created.status_code != 201:
            tally.refused[created.status_code] = tally.refused.get(created.status_code, 0) + 1
            continue
        game = created.json()
        tally.games += 1
        etag = created.headers["ETag"]
        published.publish(slot, game["id"], game["version"], etag, "")
        for ply, number in enumerate(CHAIN):
            if stop.is_set():
                return
            moved = session.post(
                f"{base}/api/v1/games/{game['id']}/moves",
                headers={"Authorization": f"Bearer {game['tokens'][str(ply % 2)]}"},
                json={"move": {"type": "say", "number": number}, "ply": ply},
                timeout=30,
            )
            if moved.status_code != 201:
                tally.refused[moved.status_code] = tally.refused.get(moved.status_code, 0) + 1
                break
            tally.moves += 1
            before, etag = etag, moved.headers["ETag"]
            published.publish(slot, game["id"], moved.json()["version"], etag, before)


def writers(base: str, published: Published, ready, stop, results) -> None:
    """One process, a thread for each game slot."""
    tallies = [Tally() for _ in published.locks]
    ready.put("writers")
    threads = [
        threading.Thread(target=write, args=(base, published, slot, stop, tally))
        for slot, tally in enumerate(tallies)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    total = Tally()
    for tally in tallies:
        total.moves += tally.moves
        total.games += tally.games
        for status, count in tally.refused.items():
            total.refused[status] = total.refused.get(status, 0) + count
    results.put(("writers", total))


def poll(base: str, published: Published, ready, stop, results, connections: int = 2) -> None:
    """Poll until `stop`, over `connections` kept-alive connections (so that the polls reach
    more than one web process): every other poll, the game written last, if this poller has
    not yet polled its new version, with the ETag from before that write; otherwise every game
    in turn with the ETag of its latest write (so that each process keeps the versions in its
    copy). Every answer is checked against the version read before the poll was sent."""
    sessions = [requests.Session() for _ in range(connections)]
    tally = Tally()
    slots = len(published.locks)
    turn = 0
    last_seen: tuple[str, int] | None = None
    ready.put("poller")
    while not stop.is_set():
        turn += 1
        latest = max(range(slots), key=lambda slot: published.acknowledged_at[slot])
        game_id, version, etag, before, acknowledged_at = published.read(latest)
        # every other poll, so that half keep the copies warm whatever the writers' pace
        sent_before = turn % 2 == 0 and bool(before) and (game_id, version) != last_seen
        if sent_before:
            last_seen = (game_id, version)
        else:
            game_id, version, etag, before, acknowledged_at = published.read(turn % slots)
        if not game_id:  # its writer has not made a game yet
            time.sleep(0.01)
            continue
        sent = before if sent_before else etag
        sent_at = time.monotonic()
        answer = sessions[turn % connections].get(
            f"{base}/api/v1/games/{game_id}", headers={"If-None-Match": sent}, timeout=30
        )
        tally.polls += 1
        tally.answers[answer.status_code] = tally.answers.get(answer.status_code, 0) + 1
        stale = None
        if answer.status_code == 304:
            if "ETag" not in answer.headers:
                tally.no_etag_304 += 1
            if sent_before:  # the version before one acknowledged before the poll was sent
                tally.stale_304 += 1
                stale = {"status": 304, "answered": "the version before"}
        elif answer.status_code == 200:
            answered = answer.json()["version"]
            if answered < version:
                tally.stale_200 += 1
                stale = {"status": 200, "answered": answered}
        if stale is not None and len(tally.stale) < STALE_KEPT:
            stale.update(
                game=game_id,
                acknowledged=version,
                sent_after_201_ms=round((sent_at - acknowledged_at) * 1000, 2),
            )
            tally.stale.append(stale)
    results.put(("poller", tally))


def hog(ready, stop) -> None:
    """A core kept busy until `stop`."""
    ready.put("hog")
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def run(base: str, seconds: float, slots: int = 8, pollers: int = 4) -> dict[str, Tally]:
    """The load for `seconds`: the writers' tally and the pollers' summed."""
    context = multiprocessing.get_context("spawn")  # no copy of the test process' threads
    published = Published(context, slots)
    ready, stop, results = context.Queue(), context.Event(), context.Queue()
    procs = [context.Process(target=writers, args=(base, published, ready, stop, results))]
    procs += [
        context.Process(target=poll, args=(base, published, ready, stop, results))
        for _ in range(pollers)
    ]
    procs.append(context.Process(target=hog, args=(ready, stop)))
    for proc in procs:
        proc.start()
    try:
        for _ in procs:  # the load's time counted from when all of it runs
            _get(ready, procs)
        time.sleep(seconds)
        stop.set()
        tallies = [_get(results, procs) for _ in range(1 + pollers)]
    finally:
        stop.set()
        for proc in procs:
            proc.join(timeout=30)
            if proc.is_alive():
                proc.kill()
    polled = Tally()
    wrote = Tally()
    for kind, tally in tallies:
        if kind == "writers":
            wrote = tally
            continue
        polled.polls += tally.polls
        for status, count in tally.answers.items():
            polled.answers[status] = polled.answers.get(status, 0) + count
        polled.stale_304 += tally.stale_304
        polled.stale_200 += tally.stale_200
        polled.no_etag_304 += tally.no_etag_304
        polled.stale += tally.stale
    return {"writers": wrote, "pollers": polled}


def _get(queue, procs: list, timeout_s: float = 120) -> object:
    """The next item on `queue`, waiting while every process lives (one that died says so)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return queue.get(timeout=1)
        except Empty:
            dead = [proc.exitcode for proc in procs if proc.exitcode not in (None, 0)]
            if dead or time.monotonic() > deadline:
                raise RuntimeError(f"a load process died or hung (exit codes {dead})") from None
