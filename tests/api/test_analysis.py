"""GET /games/{id}/analysis: exact verdicts where a solver exists, else the strongest bot's
estimate, inline when quick, else on a worker (202); /analysis/plies judges every move."""

from __future__ import annotations

import pytest
from rq import Queue

from api.bots import levels
from api.followups import ANALYSIS_QUEUE
from tests.api.helpers import create, move

VS_BOT = [{"human": {"name": "Ada"}}, {"bot": "greedy"}]


def test_analysis_of_a_small_game_is_answered_at_once(client):
    game = create(client, seats=VS_BOT, first=0, options={"n": 100})
    response = client.get(f"/api/v1/games/{game['id']}/analysis")
    assert response.status_code == 200
    body = response.get_json()
    assert body["ply"] == 0 and body["to_move"] == 0 and body["to_move_wins"] is True
    verdicts = {m["move"]["number"]: m["wins"] for m in body["moves"]}
    assert set(verdicts) == set(range(2, 101, 2))
    assert verdicts[98] is False  # the seed's example opening loses


def test_large_boards_are_analysed_on_the_worker(client, run_jobs):
    game = create(client, seats=VS_BOT, first=0, options={"n": 1000})
    pending = client.get(f"/api/v1/games/{game['id']}/analysis")
    assert pending.status_code == 202 and pending.headers["Retry-After"] == "1"
    assert pending.get_json()["pending"] is True
    assert client.get(f"/api/v1/games/{game['id']}/analysis").status_code == 202
    assert run_jobs() == 1  # the second request did not queue the work again
    done = client.get(f"/api/v1/games/{game['id']}/analysis")
    assert done.status_code == 200 and len(done.get_json()["moves"]) == 500


def test_between_two_people_analysis_waits_for_the_end_then_covers_every_ply(client):
    game = create(client, first=0)
    tokens = game["tokens"]
    assert client.get(f"/api/v1/games/{game['id']}/analysis").status_code == 409
    for i, number in enumerate((98, 49, 7, 77, 11, 55, 1, 97)):
        game = move(client, game, tokens[str(i % 2)], {"type": "say", "number": number}).get_json()
    final = client.get(f"/api/v1/games/{game['id']}/analysis").get_json()
    assert final == {
        "ply": 8,
        "to_move": None,
        "exact": True,
        "value": None,
        "best": None,
        "winner": 1,
        "moves": [],
    }
    after_49 = client.get(f"/api/v1/games/{game['id']}/analysis?ply=2").get_json()
    assert after_49["to_move"] == 0 and {m["number"] for m in after_49["moves"]} == {1, 7}
    assert client.get(f"/api/v1/games/{game['id']}/analysis?ply=9").status_code == 409


def test_a_game_without_a_solver_gets_the_strongest_bots_estimate(client, run_jobs, monkeypatch):
    monkeypatch.setenv("POSTPLAY_ANALYSIS_BUDGET_S", "0.05")
    game = create(client, kind="ploid", seats=VS_BOT[:1] + [{"bot": "beginner"}], first=0)
    assert client.get(f"/api/v1/games/{game['id']}/analysis").status_code == 202
    run_jobs()
    body = client.get(f"/api/v1/games/{game['id']}/analysis").get_json()
    assert body["exact"] is False and -1 <= body["value"] <= 1
    assert body["best"]["type"] == "place" and body["to_move"] == 0


def test_the_seed_games_moves_are_judged_exactly(client, run_jobs):
    game = create(client, first=0)
    tokens = game["tokens"]
    for i, number in enumerate((98, 49, 7, 77, 11, 55, 1, 97)):
        game = move(client, game, tokens[str(i % 2)], {"type": "say", "number": number}).get_json()
    url = f"/api/v1/games/{game['id']}/analysis/plies"
    pending = client.get(url)
    assert pending.status_code == 202 and pending.get_json() == {"ply": 8, "pending": True}
    run_jobs()
    body = client.get(url).get_json()
    assert body["exact"] is True and len(body["plies"]) == 8 and len(body["graph"]) == 9
    opening = body["plies"][0]
    # n = 100 is a first-player win, and 98 throws it away (the seed's own example)
    assert body["graph"][0] == 1 and opening["move"] == {"type": "say", "number": 98}
    assert opening["verdict"] == "loss" and opening["mistake"] is True
    assert opening["best"]["type"] == "say" and opening["best"]["number"] != 98
    assert body["plies"][-1] == {**body["plies"][-1], "seat": 1, "verdict": "win", "mistake": False}
    assert body["graph"][-1] == -1  # seat 0 is to move with nothing left to say: it lost


@pytest.mark.parametrize(
    "kind, options",
    [
        ("prime-drop", {"size": 9}),
        ("partition", {}),
        ("ploid", {"n": 3}),
        ("ploid", {"n": 4}),
        ("factor-bingo", {}),
    ],
)
def test_every_kind_judges_every_move_of_a_bot_game(client, run_jobs, monkeypatch, kind, options):
    monkeypatch.setenv("POSTPLAY_ANALYSIS_BUDGET_S", "0.02")
    weakest = next(iter(levels(kind)))
    game = create(
        client, kind=kind, options=options, first=0, seats=[{"bot": weakest}, {"bot": weakest}]
    )
    run_jobs()  # the whole game: each bot move enqueues the next
    game = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert game["status"] == "finished"
    url = f"/api/v1/games/{game['id']}/analysis/plies"
    assert client.get(url).status_code == 202
    run_jobs()
    body = client.get(url).get_json()
    history = client.get(f"/api/v1/games/{game['id']}/moves").get_json()
    assert [p["move"] for p in body["plies"]] == [h["move"] for h in history]
    assert len(body["graph"]) == len(history) + 1
    assert all(-1 <= v <= 1 for v in body["graph"])
    exact = kind == "ploid" and options["n"] == 3
    assert body["exact"] is exact
    for judged in body["plies"]:
        assert judged["best"] is not None and isinstance(judged["mistake"], bool)
        assert ("verdict" in judged) if exact else ("value" in judged or "verdict" in judged)


def _finished_game(client) -> dict:
    game = create(client, first=0)
    tokens = game["tokens"]
    for i, number in enumerate((98, 49, 7, 77, 11, 55, 1, 97)):
        game = move(client, game, tokens[str(i % 2)], {"type": "say", "number": number}).get_json()
    return game


def _analysis_jobs(redis_client) -> int:
    return Queue(ANALYSIS_QUEUE, connection=redis_client).count


def test_identical_records_are_analysed_once_and_share_it(client, redis_client, run_jobs):
    exported = client.get(f"/api/v1/games/{_finished_game(client)['id']}/export").get_json()
    copies = [client.post("/api/v1/games/import", json=exported).get_json()["id"] for _ in range(3)]
    for game_id in copies:
        assert client.get(f"/api/v1/games/{game_id}/analysis/plies").status_code == 202
    assert _analysis_jobs(redis_client) == 1
    assert run_jobs() == 1
    bodies = [client.get(f"/api/v1/games/{g}/analysis/plies").get_json() for g in copies]
    assert len(bodies[0]["plies"]) == 8 and bodies[1] == bodies[0] == bodies[2]


def test_a_client_has_at_most_two_whole_game_analyses_queued(client, redis_client):
    games = [_finished_game(client) for _ in range(3)]
    for game in games[:2]:
        assert client.get(f"/api/v1/games/{game['id']}/analysis/plies").status_code == 202
    refused = client.get(f"/api/v1/games/{games[2]['id']}/analysis/plies")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    assert "2 analyses of whole games" in refused.get_json()["message"]
    other = client.get(
        f"/api/v1/games/{games[2]['id']}/analysis/plies", environ_base={"REMOTE_ADDR": "10.0.0.2"}
    )
    assert other.status_code == 202  # the budget is the client's, not the server's
    assert _analysis_jobs(redis_client) == 3


def test_a_client_past_its_cpu_allowance_waits_for_the_next_hour(client, run_jobs, monkeypatch):
    monkeypatch.setenv("POSTPLAY_ANALYSIS_CPU_S_PER_HOUR", "0.000001")
    first, second = _finished_game(client), _finished_game(client)
    assert client.get(f"/api/v1/games/{first['id']}/analysis/plies").status_code == 202
    run_jobs()  # its CPU time is charged to the client
    assert client.get(f"/api/v1/games/{first['id']}/analysis/plies").status_code == 200
    refused = client.get(f"/api/v1/games/{second['id']}/analysis/plies")
    assert refused.status_code == 429 and 0 < int(refused.headers["Retry-After"]) <= 3601
    assert "CPU seconds" in refused.get_json()["message"]
