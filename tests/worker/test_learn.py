"""Puzzles mined on the workers: each game of a fixed playtest mined in a job of its own on the
playtest queue, giving the stated set of puzzles with none twice, and the same jobs run again
adding nothing; a finished game mined after its last move; a mining worker killed with -9 half-way,
and the game's puzzles all stored once by the worker that takes the job over."""

from __future__ import annotations

import signal

import pytest
from rq import Queue
from rq.job import Job, JobStatus

from api.bots.match import play_game
from api.followups import PLAYTEST_QUEUE, mining_job_id
from api.learn import puzzles
from api.store import keys
from api.store.puzzles import PuzzleStore
from tests.api.helpers import create, move
from tests.worker.conftest import alive, children, wait_for

# the playtest below (random against greedy, Factor/Multiple to 40, seed 7, 12 games) holds
# these puzzles, found by `api.learn.puzzles.mine` over its games
# (21 found, three of them the same position reached in two games: 18 stored)
STATED = {
    "2a733b67150e2756",
    "356cbafa8a55d22a",
    "3a1f17c5689f3ef0",
    "455173e1cdc86e44",
    "49b957ffae85b1ce",
    "513806d038bb557e",
    "5b2fbe440d42c143",
    "8cb7aedddd646145",
    "8d70a8b26806b468",
    "8f6c58cc4f7ef0e2",
    "9816e880d22676e0",
    "a1be62a55c2e25bd",
    "a4693d18d20ae7d7",
    "a60ad1a0bfaa9b10",
    "d024e1f012421b59",
    "d7f94b0d9f431347",
    "ec352b94e7a3e51a",
    "ef8f3fe41c7cbb85",
}


@pytest.fixture
def mining(monkeypatch):
    monkeypatch.setenv("POSTPLAY_PUZZLE_MINING", "on")


def _mined_ids(redis_client) -> list[str]:
    return sorted(
        m.decode()
        for m in redis_client.zrange(keys.puzzles_by_rating_key("factor-multiple"), 0, -1)
    )


def test_a_fixed_playtest_is_mined_into_the_stated_puzzles_once(
    client, run_jobs, mining, redis_client
):
    response = client.post(
        "/api/v1/playtests",
        json={
            "kind": "factor-multiple",
            "bots": ["random", "greedy"],
            "games": 12,
            "seed": 7,
            "chunk_games": 12,
            "options": {"n": 40},
        },
    )
    assert response.status_code == 202
    assert run_jobs() == 1 + 12  # the chunk, then one mining job per game
    ids = _mined_ids(redis_client)
    assert len(ids) == len(set(ids))
    assert set(ids) == STATED
    store = PuzzleStore(redis_client)
    for puzzle_id in ids:
        puzzle = store.get(puzzle_id)
        assert puzzles.check(puzzle) and puzzle["source"]["playtest"] == response.get_json()["id"]
    # the same games mined again (a job run twice): nothing new
    queue = Queue(PLAYTEST_QUEUE, connection=redis_client)
    source = store.get(ids[0])["source"]
    queue.enqueue("worker.learn.mine_played", "factor-multiple", {"n": 40}, 0, 0, [], source)
    run_jobs()
    assert _mined_ids(redis_client) == ids


def test_a_finished_game_is_mined_after_its_last_move(client, run_jobs, mining, redis_client):
    game = create(client, options={"n": 40}, first=0)
    tokens = game.pop("tokens")
    # after 34, only 1 wins (then 23 leaves seat 0 no number): game 1 of the playtest above
    for ply, number in enumerate((34, 1, 23)):
        game = move(
            client, game, tokens[str(ply % 2)], {"type": "say", "number": number}
        ).get_json()
    assert game["status"] == "finished"
    run_jobs()
    ids = _mined_ids(redis_client)
    assert ids == ["a1be62a55c2e25bd"]
    assert PuzzleStore(redis_client).get(ids[0])["source"] == {"game_id": game["id"], "ply": 1}
    assert redis_client.sismember(keys.puzzles_mined_key(), f"game:{game['id']}")


# a game of random play to 400 whose mining takes its worker a couple of seconds (each position
# a tenth of one: far inside the mining's budget, so that every run finds the same puzzles)
KILLED_GAME = {"n": 400}, 2


def test_a_worker_killed_mid_mining_leaves_every_puzzle_to_be_stored_once(
    client, store, redis_client, mining, start_worker
):
    options, seed = KILLED_GAME
    played = [
        m.to_dict()
        for _, m in play_game(
            "factor-multiple", options, ("random",) * 2, seed, first=0, budget_s=0.01
        ).history
    ]
    doomed = start_worker()
    game = create(client, options=options, first=0)
    tokens = game.pop("tokens")
    for ply, data in enumerate(played):
        game = move(client, game, tokens[str(ply % 2)], data).get_json()
    assert game["status"] == "finished"
    record = store.load(game["id"])
    expected = puzzles.mine(
        "factor-multiple",
        record.options,
        record.first,
        record.seed,
        played,
        {"game_id": game["id"]},
        budget_s=3600.0,
    )
    assert expected, "the game holds no puzzle to lose"

    def mining_started():
        job = Job.fetch(mining_job_id(game["id"]), connection=redis_client)
        return job.get_status(refresh=True) == JobStatus.STARTED and children(doomed.pid)

    horses = wait_for(mining_started, timeout_s=30, step_s=0.02)
    assert horses, "the worker never started mining the game"
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=5)
    assert wait_for(lambda: not any(alive(h) for h in horses), timeout_s=5)
    puzzle_store = PuzzleStore(redis_client)
    assert not puzzle_store.mined(f"game:{game['id']}"), "killed after the mining had ended"
    start_worker()  # the reconciler finds the mining lost with its worker and enqueues it again
    assert wait_for(lambda: puzzle_store.mined(f"game:{game['id']}"), timeout_s=60, step_s=0.2)
    stored = [puzzle_store.get(i) for i in _mined_ids(redis_client)]  # (the seeds' among them)
    of_game = sorted(p["id"] for p in stored if p["source"].get("game_id") == game["id"])
    assert of_game == sorted(p["id"] for p in expected)
    for puzzle in expected:
        again = puzzle_store.get(puzzle["id"])
        assert again["source"] == puzzle["source"] and again["line"] == puzzle["line"]
    assert puzzle_store.mining_owed(float("inf")) == []
