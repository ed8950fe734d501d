"""Playtests end to end: chunks on real RQ workers against a real Redis, reports that add up,
the same seed giving the same games, and failed, lost or cancelled chunks reported, not lost."""

from __future__ import annotations

import pytest
from rq.job import Job

from api import playtests
from api.bots.base import BOTS, BotLevel
from api.playtests.storage import REPORTS
from api.store.playtests import PlaytestStore, chunk_job_id

SLUG = "factor-multiple"


def start(client, **body) -> dict:
    body = {
        "kind": SLUG,
        "bots": ["greedy", "random"],
        "games": 12,
        "seed": 7,
        "chunk_games": 5,
        "options": {"n": 40},
        **body,
    }
    response = client.post("/api/v1/playtests", json=body)
    assert response.status_code == 202, response.get_json()
    return response.get_json()


def read(client, playtest: dict) -> dict:
    response = client.get(f"/api/v1/playtests/{playtest['id']}")
    assert response.status_code == 200
    return response.get_json()


def without_game_ids(report: dict) -> dict:
    return {**report, "samples": [{**s, "game_id": None} for s in report["samples"]]}


def register_bot(monkeypatch, level: str, choose) -> None:
    monkeypatch.setitem(BOTS[SLUG], level, BotLevel(level, "A test bot.", choose))


def random_choice(state, rng, budget_s):
    return rng.choice(state.legal_moves())


def test_a_batch_runs_in_chunks_on_the_workers_and_its_report_adds_up(client, run_jobs):
    playtest = start(client)
    assert playtest["status"] == "running" and playtest["report"] is None
    assert (playtest["done"], playtest["total"]) == (0, 12)
    assert [(c["first_game"], c["games"], c["status"]) for c in playtest["chunks"]] == [
        (0, 5, "queued"),
        (5, 5, "queued"),
        (10, 2, "queued"),
    ]

    assert run_jobs() == 3
    done = read(client, playtest)
    assert done["status"] == "finished" and done["done"] == done["total"] == 12
    assert [(c["status"], c["done"]) for c in done["chunks"]] == [
        ("finished", 5),
        ("finished", 5),
        ("finished", 2),
    ]
    report = done["report"]
    assert report["games"] == 12 and report["budget_s"] == 0.1
    wins = report["wins"]
    assert sum(wins["by_seat"]) + wins["draws"] == 12
    assert sum(wins["by_bot"]) + wins["draws"] == 12
    for line, bot in zip(report["bots"], ["greedy", "random"]):
        assert line["bot"] == bot
        assert line["wins"] + line["losses"] + line["draws"] == 12
        assert sum(line["wins_by_seat"]) == line["wins"]
    assert [line["wins"] for line in report["bots"]] == wins["by_bot"]
    first = report["first_player"]
    assert first["wins"] + first["losses"] + first["draws"] == 12
    assert first["ci95"][0] <= first["win_rate"] <= first["ci95"][1]
    assert sum(report["reasons"].values()) == 12
    length = report["length"]
    assert sum(b["count"] for b in length["histogram"]) == 12
    assert length["min"] <= length["median"] <= length["max"]
    assert report["scores"] is None  # Factor/Multiple does not score


def test_sample_games_are_real_games_to_replay(client, run_jobs):
    playtest = start(client, games=6, samples=4)
    run_jobs()
    samples = read(client, playtest)["report"]["samples"]
    assert [s["index"] for s in samples] == [0, 1, 2, 3]
    assert {(tuple(s["levels"]), s["first"]) for s in samples} == {
        (("greedy", "random"), 0),
        (("random", "greedy"), 0),
        (("greedy", "random"), 1),
        (("random", "greedy"), 1),
    }
    for sample in samples:
        game = client.get(f"/api/v1/games/{sample['game_id']}").get_json()
        assert game["status"] == "finished" and game["kind"] == SLUG
        assert [s["bot"] for s in game["seats"]] == sample["levels"]
        assert game["first"] == sample["first"] and game["ply"] == sample["plies"]
        assert game["result"]["winner"] == sample["winner"]
        history = client.get(f"/api/v1/games/{sample['game_id']}/moves").get_json()
        assert [h["ply"] for h in history] == list(range(sample["plies"]))
        assert [h["move"]["number"] for h in history] == game["state"]["said"]


def test_the_same_seed_gives_the_same_games(client, run_jobs):
    first, again, other = start(client), start(client), start(client, seed=8)
    run_jobs()
    reports = [read(client, p)["report"] for p in (first, again, other)]
    assert without_game_ids(reports[0]) == without_game_ids(reports[1])
    assert without_game_ids(reports[0]) != without_game_ids(reports[2])
    spec = playtests.check_request(SLUG, {"n": 40}, ["greedy", "random"], 12, seed=7)
    local = playtests.report(
        spec, [playtests.record_of(i, playtests.play(spec, i)) for i in range(12)]
    )
    assert local == {**without_game_ids(reports[0]), "samples": []}


def test_a_failed_chunk_is_reported_and_the_others_counted(client, run_jobs, monkeypatch):
    def opens_badly(state, rng, budget_s):
        if not state.to_dict()["said"]:
            raise RuntimeError("this bot cannot open")
        return random_choice(state, rng, budget_s)

    register_bot(monkeypatch, "opens-badly", opens_badly)
    # it opens in games 0 and 3 (seats and first move alternate): chunks 0 and 3 fail
    playtest = start(client, bots=["opens-badly", "random"], games=4, chunk_games=1)
    assert run_jobs() == 2
    done = read(client, playtest)
    assert done["status"] == "failed" and done["done"] == 2
    assert [c["status"] for c in done["chunks"]] == ["failed", "finished", "finished", "failed"]
    assert done["chunks"][0]["error"] == "RuntimeError: this bot cannot open"
    assert done["report"]["games"] == 2
    assert [s["index"] for s in done["report"]["samples"]] == [1, 2]


def test_a_chunk_whose_job_is_gone_is_reported_failed(client, run_jobs, redis_client):
    playtest = start(client, games=10)
    Job.fetch(chunk_job_id(playtest["id"], 1), connection=redis_client).delete()
    run_jobs()
    done = read(client, playtest)
    assert done["status"] == "failed" and done["done"] == 5
    assert done["chunks"][1]["status"] == "failed" and "gone" in done["chunks"][1]["error"]
    assert done["report"]["games"] == 5


def test_a_cancel_stops_the_running_chunk_after_its_game_and_drops_queued_ones(
    client, run_jobs, redis_client, monkeypatch
):
    asked = []

    def cancels(state, rng, budget_s):
        if not asked:  # the first move of the batch asks for a cancel, as DELETE does
            asked.append(True)
            PlaytestStore(redis_client, REPORTS).cancel(playtest["id"])
        return random_choice(state, rng, budget_s)

    register_bot(monkeypatch, "cancels", cancels)
    playtest = start(client, bots=["cancels", "random"], games=6, chunk_games=3)
    assert run_jobs() == 1  # chunk 0 stops after game 0; chunk 1 never runs
    done = read(client, playtest)
    assert done["status"] == "cancelled" and done["done"] == 1
    assert [(c["status"], c["done"]) for c in done["chunks"]] == [
        ("cancelled", 1),
        ("cancelled", 0),
    ]
    assert done["report"]["games"] == 1


@pytest.mark.parametrize("games", [1, 3])
def test_small_batches_report_without_spread(client, run_jobs, games):
    playtest = start(client, games=games)
    run_jobs()
    report = read(client, playtest)["report"]
    assert report["games"] == games and len(report["length"]["histogram"]) >= 1


def test_a_chunk_whose_job_ends_while_it_is_read_keeps_its_own_record(
    client, run_jobs, redis_client
):
    # the chunks were read (still queued), then the job recorded its chunk and finished, then
    # the jobs were fetched: the chunk's own record stands, the batch is not taken as failed
    playtest = start(client, games=5)
    store = PlaytestStore(redis_client, REPORTS)
    stale = [{"status": "queued", "error": None}]
    assert run_jobs() == 1
    assert Job.fetch(chunk_job_id(playtest["id"], 0), connection=redis_client).is_finished
    (settled,) = store._settle(playtest["id"], stale)
    assert settled["status"] == "finished" and settled["error"] is None
    assert read(client, playtest)["status"] == "finished"
