"""Tournaments run to the end on real workers between bot accounts: a 6-player Swiss of 3 rounds
and a 4-player double round-robin, a worker killed with -9 while rounds are being paired. The
standings must match the games' results, and no round may be paired twice."""

from __future__ import annotations

import signal
import time

from api.events import service as events
from api.events.standings import Played, standings
from api.players.accounts import Principal
from api.record import Status
from api.store.ratings import RatingStore
from api.store.tournaments import TournamentStore, Written
from tests.worker.conftest import wait_for

ORGANISER = Principal(
    {"id": "org", "username": "org"}, {"scopes": ["read", "play"], "kind": "session"}
)
BOTS = ["bot-factor-multiple-random", "bot-factor-multiple-greedy", "bot-factor-multiple-perfect"]


def _event(redis_client, fmt: str, players: int, **extra) -> str:
    tournaments = TournamentStore(redis_client)
    doc = events.create(
        tournaments,
        ORGANISER,
        {
            "name": fmt,
            "kind": "factor-multiple",
            "options": {"n": 12},
            "format": fmt,
            "max_players": players,
            "starts_at": time.time() + 3600,
            "rated": False,
            "time_control": {"type": "none"},
            **extra,
        },
    )
    for bot in BOTS[:players]:
        events.join(tournaments, RatingStore(redis_client), doc["id"], ORGANISER, player=bot)
    return doc["id"]


def _fill_with_levels(redis_client, tid: str, names: list[str]) -> None:
    """More bot entrants than levels: the same levels under other entrant ids (a test's
    shortcut: the pairing sees distinct players, each seat a server bot of that level)."""
    tournaments = TournamentStore(redis_client)

    def change(doc):
        for i, name in enumerate(names):
            doc["players"].append(
                {
                    "id": name,
                    "name": name,
                    "bot": ["random", "greedy"][i % 2],
                    "rating": 1500.0,
                    "withdrawn": False,
                    "joined_ts": 0,
                }
            )
        return Written()

    tournaments.update(tid, change)


def _check_finished(store, redis_client, tid: str, rounds: int) -> None:
    doc = TournamentStore(redis_client).load(tid)
    assert doc["status"] == "finished", doc["status"]
    assert [r["round"] for r in doc["rounds"]] == list(range(1, rounds + 1))  # none twice
    game_ids = [p["game_id"] for r in doc["rounds"] for p in r["pairings"]]
    assert len(game_ids) == len(set(game_ids))
    records = {r.id: r for r in store.load_many(game_ids)}
    assert len(records) == len(game_ids)
    played, byes = [], [b for r in doc["rounds"] for b in r["byes"]]
    for r in doc["rounds"]:
        for p in r["pairings"]:
            record = records[p["game_id"]]
            assert record.status is Status.FINISHED
            assert p["result"]["winner"] == record.result.winner
            assert [s.bot for s in record.seats] == [
                next(x["bot"] for x in doc["players"] if x["id"] == who) for who in p["seats"]
            ]
            played.append(Played(*p["seats"], record.result.winner))
    ids = [p["id"] for p in doc["players"]]
    assert doc["final"] == standings(
        ids, played, byes, doc["format"], {p["id"]: p["seed"] for p in doc["players"]}, {}
    )


def test_a_swiss_and_a_double_round_robin_run_to_the_end_through_a_kill(
    store, redis_client, start_worker
):
    swiss = _event(redis_client, "swiss", 6, rounds=3)
    _fill_with_levels(redis_client, swiss, ["b1", "b2", "b3"])
    robin = _event(redis_client, "round-robin", 4, double=True)
    _fill_with_levels(redis_client, robin, ["r1"])
    doomed = start_worker()
    start_worker()
    tournaments = TournamentStore(redis_client)
    for tid in (swiss, robin):
        events.start(tournaments, tid, ORGANISER)
    # kill one worker -9 while the Swiss's rounds are being paired (after round one, before
    # the last)
    assert wait_for(lambda: len(tournaments.load(swiss)["rounds"]) >= 1, timeout_s=30)
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=5)
    start_worker()
    for tid in (swiss, robin):
        assert wait_for(lambda: tournaments.load(tid)["status"] == "finished", timeout_s=60), (
            tournaments.load(tid)
        )
    _check_finished(store, redis_client, swiss, 3)
    _check_finished(store, redis_client, robin, 6)
    robin_doc = tournaments.load(robin)
    assert len([p for r in robin_doc["rounds"] for p in r["pairings"]]) == 12
