"""Sweeps end to end: every variant's chunks on a real RQ worker (burst mode) against a real
Redis, four reports and a comparison that agree with each other, paired games on one seed, the
jobs round-robin across the variants, a cancel mid-way, retention, and `postplay sweep` on a real
`postplay worker` and in process."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

from rq import Queue

from api.bots.base import BOTS, BotLevel
from api.followups import PLAYTEST_QUEUE
from api.play.background import PLAYTEST_KEPT_S, collect_garbage
from api.playtests import sweeps
from api.playtests.storage import REPORTS
from api.store.keys import sweep_key
from api.store.sweeps import SweepStore

SLUG = "factor-multiple"
URL = "/api/v1/playtests/sweeps"


def start(client, **body) -> dict:
    body = {
        "kind": SLUG,
        "bots": ["greedy", "random"],
        "games_per_variant": 8,
        "seed": 21,
        "chunk_games": 4,
        "samples": 2,
        "vary": {"n": [20, 40], "even_start": [True, False]},
        **body,
    }
    response = client.post(URL, json=body)
    assert response.status_code == 202, response.get_json()
    return response.get_json()


def read(client, sweep: dict) -> dict:
    response = client.get(f"{URL}/{sweep['id']}")
    assert response.status_code == 200
    return response.get_json()


def test_a_two_by_two_sweep_completes_with_four_reports_and_a_comparison(
    client, run_jobs, redis_client
):
    sweep = start(client)
    assert run_jobs() == 8  # 4 variants x 2 chunks
    done = read(client, sweep)
    assert done["status"] == "finished" and done["done"] == done["total"] == 32
    assert len(done["variants"]) == 4
    comparison = done["comparison"]
    rows = comparison["variants"]
    assert [r["variant"] for r in rows] == [0, 1, 2, 3]
    for variant, row in zip(done["variants"], rows):
        report = variant["report"]
        assert variant["status"] == "finished" and report["games"] == row["games"] == 8
        first = report["first_player"]
        assert (
            row["first_player"]["wins"],
            row["first_player"]["losses"],
            row["first_player"]["draws"],
        ) == (first["wins"], first["losses"], first["draws"])
        assert row["first_player"]["ci95"] == first["ci95"]
        assert row["length"]["mean"] == report["length"]["mean"]
        playtest = client.get(f"/api/v1/playtests/{variant['playtest_id']}").get_json()
        assert playtest["report"] == report
    balanced = comparison["balanced"]
    scores = [abs(r["first_player"]["score"] - 0.5) for r in rows]
    assert scores[balanced] == min(scores)
    assert rows[balanced]["vs_balanced"] is None
    others = [r for r in rows if r["variant"] != balanced]
    assert all(r["vs_balanced"]["paired_games"] == 8 for r in others)
    assert all(
        r["vs_balanced"]["better"] + r["vs_balanced"]["worse"] + r["vs_balanced"]["ties"] == 8
        for r in others
    )
    assert sweeps.holm([r["vs_balanced"]["p_value"] for r in others]) == [
        r["vs_balanced"]["p_adjusted"] for r in others
    ]
    # over, it never changes again: the view is kept (for a day) and read back as it was
    assert 0 < redis_client.ttl(sweep_key(sweep["id"], "view")) <= 86400
    assert read(client, sweep) == done


def test_the_variants_play_paired_games_seat_for_seat_and_seed_for_seed(client, run_jobs):
    sweep = start(client)
    run_jobs()
    samples = [v["report"]["samples"] for v in read(client, sweep)["variants"]]
    games = [
        [client.get(f"/api/v1/games/{s['game_id']}").get_json() for s in variant]
        for variant in samples
    ]
    for index in range(2):
        pair = [variant[index] for variant in games]
        assert len({g["seed"] for g in pair}) == 1
        assert len({g["first"] for g in pair}) == 1
        assert len({tuple(s["bot"] for s in g["seats"]) for g in pair}) == 1
    assert [g[0]["options"] for g in games] == [
        {"n": 20, "even_start": True},
        {"n": 20, "even_start": False},
        {"n": 40, "even_start": True},
        {"n": 40, "even_start": False},
    ]


def test_the_chunks_are_queued_round_robin_across_the_variants(client, redis_client):
    sweep = start(client)
    ids = [v["playtest_id"] for v in sweep["variants"]]
    queued = Queue(PLAYTEST_QUEUE, connection=redis_client).job_ids
    assert queued == [f"playtest-{pid}-{chunk}" for chunk in (0, 1) for pid in ids]


def test_a_cancel_mid_way_stops_every_variant_and_compares_what_was_played(
    client, run_jobs, redis_client, monkeypatch
):
    asked = []

    def cancels(state, rng, budget_s):
        # the first move of variant 1 (even_start false) asks for a cancel, as DELETE does
        if not asked and state.to_dict()["even_start"] is False:
            asked.append(True)
            SweepStore(redis_client, REPORTS).cancel(sweep["id"])
        return rng.choice(state.legal_moves())

    monkeypatch.setitem(BOTS[SLUG], "cancels", BotLevel("cancels", "A test bot.", cancels))
    sweep = start(client, bots=["cancels", "random"])
    run_jobs()
    done = read(client, sweep)
    assert done["status"] == "cancelled"
    # variant 0 played its first chunk; variant 1 stopped after its first game; the rest never ran
    assert [v["done"] for v in done["variants"]] == [4, 1, 0, 0]
    assert {v["status"] for v in done["variants"]} == {"cancelled"}
    rows = done["comparison"]["variants"]
    assert [r["games"] for r in rows] == [4, 1, 0, 0]
    assert done["comparison"]["balanced"] in (0, 1)
    other = rows[1 - done["comparison"]["balanced"]]
    assert other["vs_balanced"]["paired_games"] == 1
    assert rows[2]["vs_balanced"] is None and rows[3]["vs_balanced"] is None


def test_sweeps_leave_with_their_playtests_and_sample_games(client, redis_client, run_jobs):
    sweep = start(client, games_per_variant=2, vary={"n": [20, 30]})
    run_jobs()
    samples = [
        s["game_id"] for v in read(client, sweep)["variants"] for s in v["report"]["samples"]
    ]
    assert len(samples) == 4
    created = SweepStore(redis_client, REPORTS).load(sweep["id"])["created_ts"]
    assert collect_garbage(redis_client, created + PLAYTEST_KEPT_S - 60)["sweeps"] == 0
    assert collect_garbage(redis_client, created + PLAYTEST_KEPT_S + 1)["sweeps"] == 1
    assert client.get(f"{URL}/{sweep['id']}").status_code == 404
    for variant in sweep["variants"]:
        assert client.get(f"/api/v1/playtests/{variant['playtest_id']}").status_code == 404
    assert all(client.get(f"/api/v1/games/{g}").status_code == 404 for g in samples)
    assert redis_client.keys(f"*{sweep['id']}*") == []


def test_a_running_sweep_is_kept_past_its_retention(client, redis_client):
    sweep = start(client)
    created = SweepStore(redis_client, REPORTS).load(sweep["id"])["created_ts"]
    assert collect_garbage(redis_client, created + PLAYTEST_KEPT_S + 1)["sweeps"] == 0
    assert client.get(f"{URL}/{sweep['id']}").status_code == 200


CLI_ARGS = [
    "sweep",
    SLUG,
    "--bots",
    "greedy",
    "random",
    "--games",
    "6",
    "--seed",
    "21",
    "--vary",
    "n=20,40",
    "--vary",
    "even_start=true,false",
    "--chunk-games",
    "3",
]


def cli(args: list[str], env: dict, tmp_path) -> tuple[subprocess.CompletedProcess, dict, list]:
    """`postplay sweep ...` in a process of its own, with its JSON and CSV."""
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "api.cli",
            *args,
            "--json",
            str(tmp_path / "sweep.json"),
            "--csv",
            str(tmp_path / "sweep.csv"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert out.returncode == 0, out.stderr
    with open(tmp_path / "sweep.csv", newline="") as table:
        return out, json.loads((tmp_path / "sweep.json").read_text()), list(csv.DictReader(table))


def test_postplay_sweep_on_a_real_worker_matches_local_play(
    client, redis_url, start_worker, tmp_path
):
    start_worker()
    env = {**os.environ, "REDIS_URL": redis_url}
    out, on_workers, table = cli(CLI_ARGS, env, tmp_path)
    assert on_workers["status"] == "finished" and on_workers["done"] == 24
    assert "most balanced" in out.stdout and "n=40, even_start=false" in out.stdout
    assert on_workers == read(client, on_workers)  # the sweep as the API shows it
    assert [row["label"] for row in table] == [v["label"] for v in on_workers["variants"]]
    assert [row["balanced"] for row in table].count("True") == 1
    assert [int(row["first_wins"]) for row in table] == [
        r["first_player"]["wins"] for r in on_workers["comparison"]["variants"]
    ]
    # greedy and random do not depend on the clock: the same seed plays the same games here
    _, local, _ = cli([*CLI_ARGS, "--local"], {**os.environ}, tmp_path)
    assert local["comparison"] == on_workers["comparison"]
    assert local["id"] is None and [v["playtest_id"] for v in local["variants"]] == [None] * 4


def test_postplay_sweep_names_a_bad_value_where_it_is(tmp_path):
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "api.cli",
            "sweep",
            SLUG,
            "--bots",
            "greedy",
            "random",
            "--vary",
            "n=20,5",
            "--local",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert out.stderr.strip() == "postplay sweep: vary.n.1: Option n must be at least 10."
