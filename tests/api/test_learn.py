"""Puzzles and lessons through the API: a wrong first move shows the expected one, the right line
solves and moves both ratings, a repeat changes nothing, the daily puzzle is one for all, bad
input is refused naming the move, and every lesson passes its task and fails with its reason."""

from __future__ import annotations

import pytest

from api.learn import lessons, service
from api.store.puzzles import PuzzleStore
from tests.api.helpers import auth


@pytest.fixture
def seeded(redis_client):
    store = PuzzleStore(redis_client)
    assert service.load_seeds(store) > 0
    return store


def _sign_up(client, name: str) -> str:
    response = client.post(
        "/api/v1/accounts", json={"username": name, "password": "correct horse battery"}
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["token"]


def _longest(store: PuzzleStore, kind: str) -> dict:
    return max((store.get(i) for i in store.ids(kind)), key=lambda p: (len(p["line"]), p["id"]))


def _mine(puzzle: dict) -> list[dict]:
    return [s["move"] for s in puzzle["line"] if s["seat"] == puzzle["to_move"]]


def _wrong(puzzle: dict) -> dict:
    return next(v["move"] for v in puzzle["verdicts"] if not v["wins"])


def test_a_wrong_first_move_is_not_solved_and_shows_the_expected_move(client, seeded):
    puzzle = _longest(seeded, "factor-multiple")
    token = _sign_up(client, "wrongway")
    answer = client.post(
        f"/api/v1/puzzles/{puzzle['id']}/attempt",
        headers=auth(token),
        json={"moves": [_wrong(puzzle)]},
    ).get_json()
    assert answer["solved"] is False and answer["more"] is False
    assert answer["expected"] == puzzle["line"][0]["move"]
    assert answer["expected_words"] == f"says {puzzle['line'][0]['move']['number']}"
    assert answer["rated"] is True and answer["rating"]["after"] < answer["rating"]["before"]
    assert sum(v["wins"] for v in answer["verdicts"]) == 1
    assert [v["words"] for v in answer["verdicts"]] == [
        f"says {v['move']['number']}" for v in puzzle["verdicts"]
    ]


def test_the_right_line_is_solved_and_both_ratings_move(client, seeded):
    puzzle = _longest(seeded, "factor-multiple")
    assert len(puzzle["line"]) >= 3  # the player's moves with the server's replies between
    token = _sign_up(client, "rightway")
    before = client.get(f"/api/v1/puzzles/{puzzle['id']}").get_json()["rating"]
    moves = _mine(puzzle)
    partial = client.post(
        f"/api/v1/puzzles/{puzzle['id']}/attempt", headers=auth(token), json={"moves": moves[:1]}
    ).get_json()
    assert partial["more"] is True and partial["line"][1]["by"] == "server"
    assert "expected" not in partial and "rated" not in partial
    answer = client.post(
        f"/api/v1/puzzles/{puzzle['id']}/attempt", headers=auth(token), json={"moves": moves}
    ).get_json()
    assert answer["solved"] is True
    assert [s["move"] for s in answer["line"]] == [s["move"] for s in puzzle["line"]]
    assert answer["rating"]["after"] > answer["rating"]["before"] == 1500
    after = client.get(f"/api/v1/puzzles/{puzzle['id']}").get_json()
    assert after["rating"] < before and after["plays"] == 1
    mine = client.get("/api/v1/me/puzzles", headers=auth(token)).get_json()
    assert mine["ratings"]["factor-multiple"]["rating"] == answer["rating"]["after"]
    assert mine["history"][0]["puzzle_id"] == puzzle["id"]


def test_a_repeated_attempt_changes_nothing(client, seeded):
    puzzle = _longest(seeded, "ploid")
    token = _sign_up(client, "again")
    first = client.post(
        f"/api/v1/puzzles/{puzzle['id']}/attempt",
        headers=auth(token),
        json={"moves": [_wrong(puzzle)]},
    ).get_json()
    rating = client.get(f"/api/v1/puzzles/{puzzle['id']}").get_json()["rating"]
    second = client.post(
        f"/api/v1/puzzles/{puzzle['id']}/attempt",
        headers=auth(token),
        json={"moves": _mine(puzzle)},
    ).get_json()
    assert second["solved"] is True and second["rated"] is False
    assert second["first_try"]["after"] == first["rating"]["after"]
    assert client.get(f"/api/v1/puzzles/{puzzle['id']}").get_json()["rating"] == rating
    mine = client.get("/api/v1/me/puzzles", headers=auth(token)).get_json()
    assert mine["ratings"]["ploid"]["rating"] == first["rating"]["after"]


def test_bad_moves_are_refused_naming_the_move_and_rate_nothing(client, seeded):
    puzzle = _longest(seeded, "factor-multiple")
    token = _sign_up(client, "badmove")
    url = f"/api/v1/puzzles/{puzzle['id']}/attempt"
    malformed = client.post(url, headers=auth(token), json={"moves": [{"type": "say"}]})
    assert malformed.status_code == 400 and "moves.0" in str(malformed.get_json()["errors"])
    illegal = client.post(
        url,
        headers=auth(token),
        json={"moves": [{"type": "say", "number": puzzle["state"]["said"][0]}]},
    )
    assert illegal.status_code == 422 and "Move 1" in illegal.get_json()["message"]
    assert client.get("/api/v1/me/puzzles", headers=auth(token)).get_json()["history"] == []
    assert client.get("/api/v1/puzzles/nope").status_code == 404
    assert client.get("/api/v1/puzzles/next?kind=chess").status_code == 404
    assert client.get("/api/v1/puzzles/daily?kind=prime-drop").status_code == 404
    assert client.get("/api/v1/kinds/chess/lessons").status_code == 404
    assert client.get("/api/v1/kinds/ploid/lessons/99").status_code == 404
    not_a_move = client.post("/api/v1/kinds/ploid/lessons/1/check", json={"move": "place"})
    assert not_a_move.status_code == 400 and "move" in not_a_move.get_json()["errors"]["json"]


def test_the_daily_puzzle_is_the_same_for_two_callers(client, seeded):
    token = _sign_up(client, "daily")
    one = client.get("/api/v1/puzzles/daily?kind=ploid").get_json()
    two = client.get("/api/v1/puzzles/daily?kind=ploid", headers=auth(token)).get_json()
    assert one["id"] == two["id"] and one["day"] == service.today()
    service.choose_dailies(seeded)  # the workers' turn at midnight: the day's is set already
    assert client.get("/api/v1/puzzles/daily?kind=ploid").get_json()["id"] == one["id"]


def test_next_never_shows_an_account_a_puzzle_twice(client, seeded):
    token = _sign_up(client, "nexter")
    count = seeded.count("ploid")
    shown = {
        client.get("/api/v1/puzzles/next?kind=ploid", headers=auth(token)).get_json()["id"]
        for _ in range(count)
    }
    assert len(shown) == count
    assert client.get("/api/v1/puzzles/next?kind=ploid", headers=auth(token)).status_code == 404


@pytest.mark.parametrize("kind", sorted(lessons.LESSONS))
def test_each_lesson_passes_its_task_and_fails_with_its_reason(client, kind):
    listed = client.get(f"/api/v1/kinds/{kind}/lessons").get_json()["lessons"]
    assert 5 <= len(listed) <= 8
    token = _sign_up(client, f"learner{len(kind)}")
    for n, lesson in enumerate(lessons.lessons_of(kind), start=1):
        url = f"/api/v1/kinds/{kind}/lessons/{n}/check"
        assert client.get(f"/api/v1/kinds/{kind}/lessons/{n}").get_json()["task"] == lesson.task
        wrong = client.post(url, json={"move": lesson.example(False).to_dict()}).get_json()
        assert wrong == {"passed": False, "why": lesson.why}
        right = client.post(
            url, headers=auth(token), json={"move": lesson.example(True).to_dict()}
        ).get_json()
        assert right == {"passed": True, "why": None}
    passed = client.get("/api/v1/me/puzzles", headers=auth(token)).get_json()["lessons_passed"]
    assert passed == sorted(f"{kind}:{n}" for n in range(1, len(listed) + 1))
