"""GET /games/{id}/analysis: perfect-play verdicts, inline when quick, else on a worker (202)."""
from __future__ import annotations

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
        game = move(client, game, tokens[str(i % 2)],
                    {"type": "say", "number": number}).get_json()
    final = client.get(f"/api/v1/games/{game['id']}/analysis").get_json()
    assert final == {"ply": 8, "to_move": None, "to_move_wins": False, "moves": []}
    after_49 = client.get(f"/api/v1/games/{game['id']}/analysis?ply=2").get_json()
    assert after_49["to_move"] == 0 and {m["number"] for m in after_49["moves"]} == {1, 7}
    assert client.get(f"/api/v1/games/{game['id']}/analysis?ply=9").status_code == 409


def test_a_game_without_a_solver_says_so(client):
    game = create(client, kind="ploid", seats=VS_BOT[:1] + [{"bot": "beginner"}])
    response = client.get(f"/api/v1/games/{game['id']}/analysis")
    assert response.status_code == 422
    assert "no perfect-play analysis" in response.get_json()["message"]
