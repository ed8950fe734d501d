"""Starting a 200-player round-robin (all 19,900 games created in the step that starts it), in
games created per second, as a ratio to `POST /games`' own rate measured in the same run against
the same Redis (the Flask app in process, no HTTP server, no rate limit).
`python -m tests.benchmarks bench_event_start`."""

from __future__ import annotations

import tempfile
import time

import redis

from api.events import service as events
from api.players.accounts import Principal
from api.store.embedded import start_redis
from api.store.tournaments import TournamentStore, Written

PLAYERS = 200
BASELINE_GAMES = 500
ORGANISER = Principal(
    {"id": "org", "username": "org"}, {"scopes": ["read", "play"], "kind": "session"}
)


def post_games_rate(app) -> float:
    """Games per second created one `POST /games` at a time."""
    client = app.test_client()
    body = {
        "kind": "factor-multiple",
        "time_control": {"type": "correspondence", "days_per_move": 3},
        "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
    }
    started = time.perf_counter()
    for _ in range(BASELINE_GAMES):
        made = client.post("/api/v1/games", json=body)
        assert made.status_code == 201, made.get_json()
    return BASELINE_GAMES / (time.perf_counter() - started)


def round_robin_rate(app, client: redis.Redis) -> tuple[int, float]:
    """The games the start of a PLAYERS-player round-robin created, and how many a second."""
    ext = app.extensions["postplay"]
    tournaments = TournamentStore(client)
    doc = events.create(
        tournaments,
        ORGANISER,
        {
            "name": "bench",
            "kind": "factor-multiple",
            "options": None,
            "format": "round-robin",
            "max_players": PLAYERS,
            "starts_at": time.time() + 3600,
            "rated": False,
            "time_control": {"type": "correspondence", "days_per_move": 3},
        },
    )

    def enter(doc):  # entrants written straight in: the benchmark is the start, not the joins
        doc["players"] += [
            {
                "id": f"acct{i}",
                "name": f"player{i}",
                "bot": None,
                "rating": 1500.0,
                "withdrawn": False,
                "joined_ts": 0,
            }
            for i in range(PLAYERS)
        ]
        return Written()

    tournaments.update(doc["id"], enter)
    events.start(tournaments, doc["id"], ORGANISER)
    started = time.perf_counter()
    created = events.advance(tournaments, ext["store"], ext["followups"], doc["id"])
    elapsed = time.perf_counter() - started
    assert len(created) == PLAYERS * (PLAYERS - 1) // 2
    assert tournaments.load(doc["id"])["status"] == "running"
    return len(created), len(created) / elapsed


def main() -> None:
    from api.web import create_app

    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_redis(tmp, appendonly=False)
        try:
            app = create_app({"TESTING": True, "REDIS_URL": url, "RATELIMIT_ENABLED": False})
            baseline = post_games_rate(app)
            games, rate = round_robin_rate(app, redis.Redis.from_url(url))
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(
        f"Round-robin of {PLAYERS}: {games:,} games at {rate:,.0f}/s, {rate / baseline:.1f}x "
        f"POST /games ({baseline:,.0f}/s, {BASELINE_GAMES} games one request at a time)"
    )


if __name__ == "__main__":
    main()
