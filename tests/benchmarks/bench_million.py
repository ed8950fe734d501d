"""A million finished games in one Redis: Redis bytes per game, and `GET /games/{id}` latency as
the store grows (at 1 k, 100 k and 1 M games). Goals (issue 22): at most 1.5 KB a game, and the
latency at 1 M within 20 % of that at 1 k.

The games are real: a few bot games of every kind (the two weakest bots), each then stored many
times over with its own id, seed, players and times, through the store's own encoder (the writes
of `GameStore.create`, archive included), a thousand games to a pipeline. The mix: half a person
against a bot (one seat token), a quarter two people by invitation (two tokens), a quarter two
accounts (in their accounts' game indexes). Moves are hours apart, as by correspondence. The
events the games tell their accounts of (`game-over`, with the game) go onto the outbox in the
same writes; the workers' own fan-out (`api.notify.delivery.Notifier`) then takes them off, as a
running worker does within moments, so what is measured is what a finished game leaves in Redis.

Prime Drop's bot games cycle until the 2,000-ply abort; the repetition rule (RULES.md: the third
time a position arises, the game ends) ends them far earlier, so each sample is cut where its
position (board, piles, tiles left, seat to move) arises for the third time: that is the length
the rule gives these bots' games, and the figure used.

Run: `make million` (in the background: several minutes), or
`.venv/bin/python -m tests.benchmarks bench_million [GAMES]`. It uses an embedded Redis of its
own on a free port, without persistence, and deletes its data after.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import shutil
import statistics
import sys
import tempfile
import time

import redis

from api.bots import choose_move, levels
from api.clocks import iso, parse_iso
from api.games import GAMES, Outcome, get_game
from api.games.base import play_forced
from api.notify.events import GAME_EVENTS
from api.record import GameRecord, Seat, history_entry
from api.notify.delivery import Notifier
from api.store.embedded import start_redis
from api.store.games import Change, GameStore
from api.store.webhooks import WebhookStore

SAMPLES_PER_KIND = 6
TIMINGS = 40  # the times each sample is played at: 1,200 different histories in all
CHECKPOINTS = (1_000, 100_000, 1_000_000)
BATCH = 1000
ACCOUNTS = 20_000
GET_SAMPLES = 3000
ENCODERS = 2  # processes making the games' writes
MEAN_GAP_S = 2 * 3600  # correspondence: a move every couple of hours
GOAL_BYTES = 1536
GOAL_FLAT = 1.20


def sample_game(slug: str, seed: int) -> tuple[list[tuple[int, object]], object, Outcome, int]:
    """A bot game: (history of (seat, move)), its final state, its outcome, who moved first."""
    game = get_game(slug)
    bots = list(levels(slug))[:2] if len(levels(slug)) > 1 else list(levels(slug)) * 2
    rng = random.Random(seed)
    first = seed % 2
    state, history = play_forced(game.new(game.check_options({}), first, seed))
    seen: dict[str, int] = {}
    while not state.is_over():
        if slug == "prime-drop":  # the repetition rule, applied to the bots' game
            data = state.to_dict()
            position = json.dumps([data["board"], data["piles"], data["tiles_left"], data["mover"]])
            seen[position] = seen.get(position, 0) + 1
            if seen[position] == 3:
                left = data["tiles_left"]
                return (
                    history,
                    state,
                    Outcome(None if left[0] == left[1] else int(left[1] < left[0]), "aborted"),
                    first,
                )
        seat = state.to_move
        move = choose_move(state, bots[seat], rng, 0.005)
        state, forced = play_forced(state.apply(move))
        history += [(seat, move), *forced]
    return history, state, state.outcome(), first


def templates(now: float, rng: random.Random) -> dict[str, list[tuple[dict, list]]]:
    """Per kind, SAMPLES_PER_KIND (record document, TIMINGS timings of its history) to vary."""
    out = {}
    for slug, game in GAMES.items():
        out[slug] = []
        for seed in range(SAMPLES_PER_KIND):
            history, final, outcome, first = sample_game(slug, seed)
            record = GameRecord.create(
                f"{slug}-{seed}",
                slug,
                game.check_options({}),
                seed,
                first,
                [Seat.human("A"), Seat.human("B")],
                final,
                len(history),
                game.default_time_control,
                None,
                0.0,
            )
            record.first_move_ts = 0.0
            record.finish(outcome)
            entries = [history_entry(i, seat, move, 0.0) for i, (seat, move) in enumerate(history)]
            out[slug].append((record.to_dict(), [timed(rng, entries, now) for _ in range(TIMINGS)]))
        plies = [len(timings[0][1]) for _, timings in out[slug]]
        print(
            f"  {slug:16s} sample plies {statistics.median(plies):5.0f} (median of "
            f"{len(plies)}: {min(plies)}-{max(plies)})",
            flush=True,
        )
    return out


def timed(rng: random.Random, history: list[dict], now: float) -> tuple[float, list[dict]]:
    """The history played by correspondence: begun some time in the past year, each move a
    random while (hours on average) after the one before. (When it began, and the entries.)"""
    created = now - rng.uniform(0, 365 * 86400)
    at, entries = created, []
    for entry in history:
        at += rng.expovariate(1 / MEAN_GAP_S)
        entries.append({**entry, "at": iso(at)})
    return created, entries


def variant(
    rng: random.Random, n: int, template: tuple[dict, list[tuple[float, list[dict]]]]
) -> Change:
    """Game number `n`: the template with its own id, seed and seats, and one of its timings."""
    doc, timings = template
    created, entries = rng.choice(timings)
    at = parse_iso(entries[-1]["at"]) if entries else created
    mix = n % 4
    tokens = {}
    if mix in (0, 1):  # a person against a bot
        seats = [
            {"name": f"Player {rng.randrange(10**6)}", "bot": None, "open": False},
            {"name": "Medium bot", "bot": "medium", "open": False},
        ]
        tokens = {0: f"{n:032x}"}
    elif mix == 2:  # two people by invitation
        seats = [
            {"name": f"Player {rng.randrange(10**6)}", "bot": None, "open": False} for _ in range(2)
        ]
        tokens = {0: f"{n:031x}a", 1: f"{n:031x}b"}
    else:  # two accounts
        a, b = rng.sample(range(ACCOUNTS), 2)
        seats = [
            {"name": f"player{a}", "bot": None, "open": False, "account": f"acct{a:011d}"},
            {"name": f"player{b}", "bot": None, "open": False, "account": f"acct{b:011d}"},
        ]
    record = GameRecord.from_dict(
        {
            **doc,
            "id": f"{n:012x}",
            "seed": rng.getrandbits(32),
            "seats": seats,
            "turn_started_ts": at,
            "created_ts": created,
            "updated_ts": at,
            "first_move_ts": created,
            "version": len(entries) + 2,
        }
    )
    return Change(record, entries, tokens)


def store_games(url: str, start: int, stop: int, kinds) -> None:
    """Games `start` to `stop`, through the store's own writes (archive included), by
    ENCODERS processes, a batch of games to a pipeline."""
    jobs = [(url, batch, min(batch + BATCH, stop)) for batch in range(start, stop, BATCH)]
    global _KINDS
    _KINDS = kinds  # the processes are forked: they find the samples here
    with multiprocessing.get_context("fork").Pool(ENCODERS) as pool:
        for _ in pool.imap_unordered(_store_batch, jobs):
            pass
        for _ in pool.imap_unordered(_fan_out, [url] * ENCODERS):
            pass


def _fan_out(url: str) -> None:
    """The outbox's entries fanned out by a worker's Notifier, until none is left."""
    client = redis.Redis.from_url(url)
    outbox = WebhookStore(client)
    outbox.ensure_group()
    notifier = Notifier(client, f"bench-{multiprocessing.current_process().name}")
    try:
        while outbox.outbox_length():
            notifier.step(time.time(), block_ms=100)
    finally:
        notifier.close()


_KINDS: dict = {}


def _store_batch(job: tuple[str, int, int]) -> None:
    url, start, stop = job
    rng, slugs = random.Random(start), list(_KINDS)
    client = redis.Redis.from_url(url)
    store = GameStore(client, GAME_EVENTS)
    with client.pipeline(transaction=False) as pipe:
        for n in range(start, stop):
            change = variant(rng, n, rng.choice(_KINDS[slugs[n % len(slugs)]]))
            # the writes GameStore.create makes of a finished game (its history archived)
            for command in store.creation_writes(change.record, change.tokens, change.moves):
                pipe.execute_command(*command)
        pipe.execute()


def get_latency(url: str, stored: int, rng: random.Random) -> tuple[float, float]:
    """Median and 99th percentile of `GET /games/{id}` through the app, in ms."""
    from api.web import create_app

    app = create_app({"REDIS_URL": url, "RATELIMIT_ENABLED": False})
    client = app.test_client()
    for _ in range(300):  # warm: the first requests of an app pay for its first imports
        client.get(f"/api/v1/games/{rng.randrange(stored):012x}")
    times = []
    for _ in range(GET_SAMPLES):
        path = f"/api/v1/games/{rng.randrange(stored):012x}"
        began = time.perf_counter()
        response = client.get(path)
        times.append(time.perf_counter() - began)
        assert response.status_code == 200, (path, response.status_code)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.99)] * 1000


def main() -> None:
    total = int(sys.argv[1]) if len(sys.argv) > 1 else CHECKPOINTS[-1]
    checkpoints = [c for c in CHECKPOINTS if c < total] + [total]
    data = tempfile.mkdtemp(prefix="postplay-million-")
    proc, url = start_redis(data, appendonly=False)
    try:
        client = redis.Redis.from_url(url)
        print("sample games (the two weakest bots of each kind):", flush=True)
        rng = random.Random(22)
        kinds = templates(time.time(), rng)
        base = client.info("memory")["used_memory"]
        stored, figures = 0, []
        began = time.perf_counter()
        for checkpoint in checkpoints:
            store_games(url, stored, checkpoint, kinds)
            stored = checkpoint
            per_game = (client.info("memory")["used_memory"] - base) / stored
            median, p99 = get_latency(url, stored, rng)
            figures.append((stored, per_game, median, p99))
            print(
                f"{stored:>9,} games  {per_game:7.0f} bytes/game  GET median {median:6.2f} ms"
                f"  p99 {p99:6.2f} ms  ({time.perf_counter() - began:.0f} s)",
                flush=True,
            )
        check = GameStore(client, GAME_EVENTS)
        some = f"{rng.randrange(stored):012x}"
        assert check.load(some) is not None and check.moves(some)
        first, last = figures[0], figures[-1]
        print(
            f"Redis bytes per finished game at {last[0]:,}: {last[1]:.0f}  (goal <= {GOAL_BYTES})"
        )
        print(
            f"GET latency at {last[0]:,} / at {first[0]:,}: median {last[2] / first[2]:.2f}, "
            f"p99 {last[3] / first[3]:.2f}  (goal <= {GOAL_FLAT:.2f})"
        )
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
