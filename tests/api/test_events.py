"""Events through the API: creating, joining, starting and the refusals of bad input (each a
4xx naming the field, nothing changed), a race for the last place, a ladder's challenges and
ranks. The workers' steps run here in process (`Background.run_due`); tests/worker/test_events.py
runs them on real workers."""

from __future__ import annotations

import threading
import time

from api.events import service as events
from api.play.background import Background
from api.players.accounts import Principal
from api.store.ratings import RatingStore
from api.store.tournaments import TournamentStore
from tests.api.helpers import auth
from tests.api.test_accounts import sign_up

SOON = "2030-01-01T00:00:00Z"


def _tournament(client, token, **body) -> dict:
    spec = {
        "name": "Spring cup",
        "kind": "factor-multiple",
        "options": {"n": 10},
        "format": "swiss",
        "rounds": 2,
        "max_players": 4,
        "starts_at": SOON,
        "time_control": {"type": "none"},
        **body,
    }
    response = client.post("/api/v1/tournaments", json=spec, headers=auth(token))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def _field_of(response) -> list[str]:
    return list(response.get_json()["errors"]["json"])


def test_bad_settings_are_refused_naming_the_field(client):
    ada = sign_up(client, "ada")
    for body, field in (
        ({"format": "ladderish"}, "format"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 4}, "rounds"),
        ({"max_players": 1}, "max_players"),
        ({"kind": "chess"}, "kind"),
        ({"rounds": 51, "max_players": 100}, "rounds"),
        ({"rounds": None}, "rounds"),
        ({"format": "round-robin"}, "rounds"),
        ({"format": "knockout", "rounds": None, "double": True}, "double"),
        ({"min_players": 5}, "min_players"),
        ({"rating_range": {"min": 1900, "max": 1200}}, "rating_range"),
        ({"options": {"n": 1}}, "options.n"),
        ({"starts_at": "soon"}, "starts_at"),
    ):
        response = client.post(
            "/api/v1/tournaments",
            headers=auth(ada["token"]),
            json={
                "name": "x",
                "kind": "factor-multiple",
                "format": "swiss",
                "rounds": 2,
                "max_players": 4,
                "starts_at": SOON,
                **body,
            },
        )
        assert response.status_code in (400, 422), response.get_json()
        assert field in _field_of(response), (body, response.get_json())
    assert client.get("/api/v1/tournaments").get_json() == []


def test_joining_refusals_name_the_field_and_change_nothing(client, redis_client):
    ada, bob, cy = sign_up(client, "ada"), sign_up(client, "bob"), sign_up(client, "cyd")
    closed = _tournament(client, ada["token"], invite_only=True, max_players=2, rounds=1)
    assert "invite" in closed
    no_code = client.post(
        f"/api/v1/tournaments/{closed['id']}/join", json={}, headers=auth(bob["token"])
    )
    assert no_code.status_code == 422 and _field_of(no_code) == ["invite"]
    for who in (bob, ada):
        assert (
            client.post(
                f"/api/v1/tournaments/{closed['id']}/join",
                json={"invite": closed["invite"]},
                headers=auth(who["token"]),
            ).status_code
            == 201
        )
    full = client.post(
        f"/api/v1/tournaments/{closed['id']}/join",
        json={"invite": closed["invite"]},
        headers=auth(cy["token"]),
    )
    assert full.status_code == 409 and _field_of(full) == ["max_players"]
    ranged = _tournament(client, ada["token"], rating_range={"min": 1600, "max": 2000})
    out = client.post(
        f"/api/v1/tournaments/{ranged['id']}/join", json={}, headers=auth(bob["token"])
    )
    assert out.status_code == 422 and _field_of(out) == ["rating_range"]
    unchanged = client.get(f"/api/v1/tournaments/{ranged['id']}").get_json()
    assert (unchanged["players"], unchanged["version"]) == ([], ranged["version"])
    open_one = _tournament(client, ada["token"], min_players=3)
    client.post(f"/api/v1/tournaments/{open_one['id']}/join", json={}, headers=auth(bob["token"]))
    not_mine = client.post(
        f"/api/v1/tournaments/{open_one['id']}/start", headers=auth(bob["token"])
    )
    assert not_mine.status_code == 403 and _field_of(not_mine) == ["organiser"]
    assert (
        client.delete(
            f"/api/v1/tournaments/{open_one['id']}", headers=auth(bob["token"])
        ).status_code
        == 403
    )
    too_few = client.post(f"/api/v1/tournaments/{open_one['id']}/start", headers=auth(ada["token"]))
    assert too_few.status_code == 409 and _field_of(too_few) == ["min_players"]
    bot = client.post(
        f"/api/v1/tournaments/{open_one['id']}/join",
        json={"player": "bot-chess-easy"},
        headers=auth(ada["token"]),
    )
    assert bot.status_code == 422 and _field_of(bot) == ["player"]
    after = client.get(f"/api/v1/tournaments/{open_one['id']}").get_json()
    assert after["status"] == "open" and [p["player"] for p in after["players"]] == ["bob"]


def test_twenty_racing_for_the_last_place_one_gets_in(client, redis_client):
    ada = sign_up(client, "ada")
    spot = _tournament(client, ada["token"], max_players=2, rounds=1)
    tournaments, ratings = TournamentStore(redis_client), RatingStore(redis_client)
    events.join(tournaments, ratings, spot["id"], _principal("first"))
    results = []

    def join(i: int) -> None:
        try:
            events.join(tournaments, ratings, spot["id"], _principal(f"racer{i}"))
            results.append("in")
        except events.EventConflict as exc:
            results.append(exc.field)

    threads = [threading.Thread(target=join, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["in"] + ["max_players"] * 19
    assert len(tournaments.load(spot["id"])["players"]) == 2


def _principal(name: str) -> Principal:
    return Principal(
        {"id": f"id-{name}", "username": name},
        {"scopes": ["read", "play", "challenge"], "kind": "session"},
    )


def test_a_started_swiss_is_paired_on_the_worker_and_its_games_link_back(client, redis_client):
    ada, bob, cy = sign_up(client, "ada"), sign_up(client, "bob"), sign_up(client, "cyd")
    t = _tournament(client, ada["token"], max_players=4)
    for who in (ada, bob, cy):
        client.post(f"/api/v1/tournaments/{t['id']}/join", json={}, headers=auth(who["token"]))
    started = client.post(f"/api/v1/tournaments/{t['id']}/start", headers=auth(ada["token"]))
    assert started.status_code == 201 and started.get_json()["rounds"] == []  # the worker's
    Background(redis_client, "test").run_due(time.time())
    view = client.get(f"/api/v1/tournaments/{t['id']}").get_json()
    assert view["status"] == "running" and len(view["rounds"]) == 1
    (pairing,) = view["rounds"][0]["pairings"]
    assert len(view["rounds"][0]["byes"]) == 1
    game = client.get(f"/api/v1/games/{pairing['game_id']}").get_json()
    assert game["event"] == {"tournament": t["id"], "round": 1}
    assert [s["player"] for s in game["seats"]] == pairing["seats"]
    late = client.post(
        f"/api/v1/tournaments/{t['id']}/join",
        json={},
        headers=auth(sign_up(client, "dee")["token"]),
    )
    assert late.status_code == 409 and _field_of(late) == ["status"]
    # the game ends: the next round is paired by the step its end made due
    loser = next(w for w in (ada, bob, cy) if w["account"]["username"] == pairing["seats"][1])
    assert (
        client.post(
            f"/api/v1/games/{pairing['game_id']}/resign", headers=auth(loser["token"])
        ).status_code
        == 201
    )
    Background(redis_client, "test").run_due(time.time())
    again = client.get(f"/api/v1/tournaments/{t['id']}").get_json()
    assert len(again["rounds"]) == 2
    assert again["rounds"][0]["pairings"][0]["result"]["winner"] == 0
    top = again["standings"][0]
    assert top["score"] == 1.0 and top["rank"] == 1
    running = client.get(f"/api/v1/players/{pairing['seats'][0]}/tournaments").get_json()
    assert [(e["id"], e["status"], e["placing"], e["score"]) for e in running] == [
        (t["id"], "running", None, 1.0)  # the score so far; a placing once it is over
    ]


def test_a_ladder_challenge_within_three_ranks_and_the_ranks_after_a_win(client):
    people = [sign_up(client, n) for n in ("ada", "bob", "cyd", "dee", "eve")]
    for who in people:
        assert (
            client.post(
                "/api/v1/ladders/factor-multiple/join", headers=auth(who["token"])
            ).status_code
            == 201
        )
    eve = people[4]
    too_far = client.post(
        "/api/v1/ladders/factor-multiple/challenge", json={"rank": 1}, headers=auth(eve["token"])
    )
    assert too_far.status_code == 422 and _field_of(too_far) == ["rank"]
    game = client.post(
        "/api/v1/ladders/factor-multiple/challenge", json={"rank": 2}, headers=auth(eve["token"])
    )
    assert game.status_code == 201, game.get_json()
    second = client.post(
        "/api/v1/ladders/factor-multiple/challenge", json={"rank": 3}, headers=auth(eve["token"])
    )
    assert second.status_code == 409 and _field_of(second) == ["rank"]
    game = game.get_json()
    assert game["event"] == {"ladder": "factor-multiple"}
    bob = people[1]  # the challenged moves first, and resigns: eve takes rank 2
    assert (
        client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(bob["token"])).status_code
        == 201
    )
    ladder = client.get("/api/v1/ladders/factor-multiple").get_json()
    assert [r["player"] for r in ladder["ranks"]] == ["ada", "eve", "bob", "cyd", "dee"]
    assert all(r["open_game"] is None for r in ladder["ranks"])


def test_a_profile_lists_the_events_played_with_placing_and_score(client, redis_client):
    ada, bob = sign_up(client, "ada"), sign_up(client, "bob")
    done = _tournament(client, ada["token"], name="Autumn cup", max_players=2, rounds=1)
    for who in (ada, bob):
        client.post(f"/api/v1/tournaments/{done['id']}/join", json={}, headers=auth(who["token"]))
    client.post(f"/api/v1/tournaments/{done['id']}/start", headers=auth(ada["token"]))
    Background(redis_client, "test").run_due(time.time())
    (pairing,) = client.get(f"/api/v1/tournaments/{done['id']}").get_json()["rounds"][0]["pairings"]
    loser = ada if pairing["seats"][1] == "ada" else bob
    client.post(f"/api/v1/games/{pairing['game_id']}/resign", headers=auth(loser["token"]))
    Background(redis_client, "test").run_due(time.time())
    dropped = _tournament(client, bob["token"], name="Dropped")
    client.post(f"/api/v1/tournaments/{dropped['id']}/join", json={}, headers=auth(ada["token"]))
    assert (
        client.delete(
            f"/api/v1/tournaments/{dropped['id']}", headers=auth(bob["token"])
        ).status_code
        == 200
    )
    waiting = _tournament(client, bob["token"], name="Winter cup", format="knockout", rounds=None)
    client.post(f"/api/v1/tournaments/{waiting['id']}/join", json={}, headers=auth(ada["token"]))

    winner = pairing["seats"][0]
    for who, placing, points in ((winner, 1, 1.0), ({"ada": "bob", "bob": "ada"}[winner], 2, 0.0)):
        profile = client.get(f"/api/v1/players/{who}").get_json()
        finished = {
            "id": done["id"],
            "name": "Autumn cup",
            "kind": "factor-multiple",
            "format": "swiss",
            "status": "finished",
            "placing": placing,
            "score": points,
        }
        if who == "ada":  # newest entry first; the cancelled one is no event played
            assert profile["events"] == [
                {
                    "id": waiting["id"],
                    "name": "Winter cup",
                    "kind": "factor-multiple",
                    "format": "knockout",
                    "status": "open",
                    "placing": None,
                    "score": 0.0,
                },
                finished,
            ]
        else:
            assert profile["events"] == [finished]
    entered = client.get("/api/v1/players/ada/tournaments").get_json()
    assert [(e["id"], e["status"]) for e in entered] == [
        (waiting["id"], "open"),
        (dropped["id"], "cancelled"),
        (done["id"], "finished"),
    ]


def test_a_profile_lists_at_most_its_bound_of_events(client):
    from api.web.accounts import PROFILE_EVENTS

    ada = sign_up(client, "ada")
    ids = []
    for i in range(PROFILE_EVENTS + 1):
        t = _tournament(client, ada["token"], name=f"Cup {i}")
        joined = client.post(
            f"/api/v1/tournaments/{t['id']}/join", json={}, headers=auth(ada["token"])
        )
        assert joined.status_code == 201
        ids.append(t["id"])
    listed = client.get("/api/v1/players/ada").get_json()["events"]
    assert [e["id"] for e in listed] == ids[::-1][:PROFILE_EVENTS]


def test_every_refusal_leaves_the_tournament_as_it_was(client, redis_client):
    ada, bob, cyd = sign_up(client, "ada"), sign_up(client, "bob"), sign_up(client, "cyd")
    t = _tournament(client, ada["token"], invite_only=True, max_players=3, min_players=3, rounds=1)
    path = f"/api/v1/tournaments/{t['id']}"
    code = t["invite"]
    assert (
        client.post(f"{path}/join", json={"invite": code}, headers=auth(bob["token"])).status_code
        == 201
    )

    def refused(method: str, suffix: str, who: dict, status: int, field: str, **body) -> None:
        before = client.get(path, headers=auth(ada["token"])).get_json()
        response = client.open(
            f"{path}{suffix}", method=method, json=body, headers=auth(who["token"])
        )
        assert response.status_code == status, (suffix, body, response.get_json())
        assert _field_of(response) == [field], response.get_json()
        assert client.get(path, headers=auth(ada["token"])).get_json() == before

    refused("POST", "/join", cyd, 422, "invite")
    refused("POST", "/join", cyd, 422, "invite", invite=code + "x")
    refused("POST", "/join", bob, 409, "player", invite=code)
    refused("POST", "/join", bob, 403, "organiser", player="bot-factor-multiple-random")
    refused("POST", "/join", ada, 422, "player", player="bot-ploid-random")
    refused("POST", "/leave", cyd, 409, "player")
    refused("POST", "/start", bob, 403, "organiser")
    refused("DELETE", "", bob, 403, "organiser")
    refused("POST", "/start", ada, 409, "min_players")
    for who in (ada, cyd):
        assert (
            client.post(
                f"{path}/join", json={"invite": code}, headers=auth(who["token"])
            ).status_code
            == 201
        )
    dee = sign_up(client, "dee")
    refused("POST", "/join", dee, 409, "max_players", invite=code)
    assert client.post(f"{path}/start", headers=auth(ada["token"])).status_code == 201
    Background(redis_client, "test").run_due(time.time())
    assert client.get(path).get_json()["status"] == "running"
    refused("POST", "/join", dee, 409, "status", invite=code)
    refused("POST", "/start", ada, 409, "status")
    refused("DELETE", "", ada, 409, "status")
    refused("POST", "/leave", dee, 409, "player")


def test_ladder_refusals_change_no_rank_and_start_no_game(client):
    people = [sign_up(client, n) for n in ("ada", "bob", "cyd", "dee", "eve")]
    ladder = "/api/v1/ladders/ploid"
    outsider = sign_up(client, "fay")
    for who in people:
        assert client.post(f"{ladder}/join", headers=auth(who["token"])).status_code == 201
    eve, ada = people[4], people[0]
    assert (
        client.post(f"{ladder}/challenge", json={"rank": 2}, headers=auth(eve["token"])).status_code
        == 201
    )

    def refused(who: dict, status: int, field: str, body: dict | None = None, path="/challenge"):
        def games() -> list[str]:
            mine = client.get("/api/v1/me/games", headers=auth(who["token"])).get_json()
            return [g["id"] for g in mine]

        before, had = client.get(ladder).get_json(), games()
        response = client.post(f"{ladder}{path}", json=body, headers=auth(who["token"]))
        assert response.status_code == status, response.get_json()
        assert _field_of(response) == [field], response.get_json()
        assert client.get(ladder).get_json() == before
        assert games() == had

    refused(eve, 409, "rank", {"rank": 3})  # a second open ladder game of hers
    refused(people[2], 409, "rank", {"rank": 2})  # bob has one open already
    refused(people[3], 422, "rank", {"rank": 5})  # below, not above
    refused(eve, 422, "rank", {"rank": 1})  # more than three ranks up
    refused(ada, 422, "rank", {"rank": 1})  # at the top: nobody above
    refused(eve, 400, "rank", {"rank": 0})
    refused(outsider, 409, "player", {"rank": 1})  # not on the ladder
    refused(ada, 409, "player", path="/join")  # on it already


def test_a_server_bots_profile_lists_the_events_it_was_entered_in(client, redis_client):
    from api.players.ratings import bot_account

    bot = bot_account("factor-multiple", "random", time.time())  # made with its first rating
    for command in RatingStore.account_writes(bot):
        redis_client.execute_command(*command)
    ada = sign_up(client, "ada")
    t = _tournament(client, ada["token"], name="Bots welcome")
    entered = client.post(
        f"/api/v1/tournaments/{t['id']}/join",
        json={"player": bot["username"]},
        headers=auth(ada["token"]),
    )
    assert entered.status_code == 201, entered.get_json()
    profile = client.get(f"/api/v1/players/{bot['username']}").get_json()
    assert profile["bot"] is True
    assert [(e["id"], e["name"]) for e in profile["events"]] == [(t["id"], "Bots welcome")]
