"""Ratings through the API: rated or casual at creation, rating changes once the worker applies
a game, ratings on /me and on profiles with their history, leaderboards with provisional
ratings marked, bot accounts and the rules pages' bot table, and fair pairing on open seats."""

from __future__ import annotations

from api.players import ratings
from api.store.ratings import RatingStore
from tests.api.helpers import auth, move
from tests.api.test_accounts import new_game, sign_up

SAY_4 = {"type": "say", "number": 4}


def _rated_game(client, ada: dict, bob: dict, **body) -> dict:
    """A game from Ada's challenge to Bo, accepted: Ada to move."""
    game = new_game(
        client, ada["token"], [{"me": True}, {"player": bob["account"]["username"]}], **body
    )
    accepted = client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bob["token"]))
    assert accepted.status_code == 201, accepted.get_json()
    return accepted.get_json()


def _bob_resigns_after_adas_move(client, game: dict, ada: dict, bob: dict) -> dict:
    moved = move(client, game, ada["token"], SAY_4)
    assert moved.status_code == 201, moved.get_json()
    resigned = client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(bob["token"]))
    assert resigned.status_code == 201
    return resigned.get_json()


def test_a_game_between_accounts_is_rated_and_its_end_moves_both_ratings(client, run_jobs):
    ada, bob = sign_up(client, "ada"), sign_up(client, "bob")
    game = _rated_game(client, ada, bob)
    assert game["rated"] is True and game["rating_changes"] is None
    over = _bob_resigns_after_adas_move(client, game, ada, bob)
    assert over["rating_changes"] is None  # the worker applies them, not the request
    run_jobs()
    changes = client.get(f"/api/v1/games/{game['id']}").get_json()["rating_changes"]
    assert [c["before"] for c in changes] == [1500, 1500]
    assert changes[0]["after"] > 1500 > changes[1]["after"]
    me = client.get("/api/v1/me", headers=auth(ada["token"])).get_json()
    assert me["ratings"]["factor-multiple"]["rating"] == round(changes[0]["after"])
    assert me["ratings"]["factor-multiple"]["games"] == 1
    assert me["ratings"]["factor-multiple"]["provisional"] is True


def test_rated_false_makes_a_casual_game_that_moves_no_rating(client, run_jobs):
    ada, bob = sign_up(client, "ada"), sign_up(client, "bob")
    game = _rated_game(client, ada, bob, rated=False)
    assert game["rated"] is False
    _bob_resigns_after_adas_move(client, game, ada, bob)
    run_jobs()
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["rating_changes"] is None
    assert client.get("/api/v1/me", headers=auth(ada["token"])).get_json()["ratings"] == {}


def test_an_anonymous_game_is_casual_and_cannot_be_asked_rated(client):
    seats = [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}]
    casual = client.post("/api/v1/games", json={"kind": "factor-multiple", "seats": seats})
    assert casual.status_code == 201 and casual.get_json()["rated"] is False
    refused = client.post(
        "/api/v1/games", json={"kind": "factor-multiple", "seats": seats, "rated": True}
    )
    assert refused.status_code == 422
    assert "rated" in refused.get_json()["errors"]["json"]
    assert "account" in refused.get_json()["message"]


def test_a_game_against_a_server_bot_is_rated_against_the_bots_account(client, run_jobs):
    ada = sign_up(client, "ada")
    game = new_game(client, ada["token"], [{"me": True}, {"bot": "greedy"}])
    assert game["rated"] is True
    assert move(client, game, ada["token"], SAY_4).status_code == 201
    run_jobs()  # the bot replies
    current = client.get(f"/api/v1/games/{game['id']}").get_json()
    resigned = client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(ada["token"]))
    assert resigned.status_code == 201, (current, resigned.get_json())
    run_jobs()
    changes = client.get(f"/api/v1/games/{game['id']}").get_json()["rating_changes"]
    assert changes[1]["after"] > 1500 > changes[0]["after"]
    bot = client.get("/api/v1/players/bot-factor-multiple-greedy")
    assert bot.status_code == 200, bot.get_json()
    profile = bot.get_json()
    assert profile["bot"] is True
    assert profile["ratings"]["factor-multiple"]["games"] == 1
    assert profile["rating_history"]["factor-multiple"][0]["opponent"] == "ada"
    signed_in = client.post(
        "/api/v1/session", json={"username": "bot-factor-multiple-greedy", "password": "x" * 12}
    )
    assert signed_in.status_code == 401  # a bot account has no password


def test_nobody_may_sign_up_with_a_bots_name(client):
    taken = client.post(
        "/api/v1/accounts", json={"username": "bot-ploid-x", "password": "correct horse battery"}
    )
    assert taken.status_code == 422 and "bots" in taken.get_json()["message"]


def test_profiles_show_the_rating_history_and_leaderboards_rank_with_provisional_marked(
    client, run_jobs
):
    ada, bob = sign_up(client, "ada"), sign_up(client, "bob")
    for _ in range(2):
        _bob_resigns_after_adas_move(client, _rated_game(client, ada, bob), ada, bob)
    run_jobs()
    history = client.get("/api/v1/players/ada").get_json()["rating_history"]["factor-multiple"]
    assert len(history) == 2 and history[0]["rating"] < history[1]["rating"]
    assert [h["score"] for h in history] == [1, 1] and history[0]["opponent"] == "bob"
    board = client.get("/api/v1/leaderboards/factor-multiple").get_json()
    assert [(p["rank"], p["username"]) for p in board["players"]] == [(1, "ada"), (2, "bob")]
    assert all(p["provisional"] and p["rd"] > 110 and p["games"] == 2 for p in board["players"])
    assert client.get("/api/v1/leaderboards/chess").status_code == 404
    assert client.get("/api/v1/leaderboards/ploid?limit=0").status_code == 400


def test_the_lobby_shows_each_accounts_rating_beside_its_name(client, run_jobs):
    ada, bob = sign_up(client, "ada"), sign_up(client, "bob")
    _bob_resigns_after_adas_move(client, _rated_game(client, ada, bob), ada, bob)
    run_jobs()
    new_game(client, ada["token"], [{"me": True}, {"open": True}])
    (listed,) = client.get("/api/v1/games?status=waiting").get_json()
    assert listed["seats"][0]["player"] == "ada" and listed["seats"][0]["rating"]["rating"] > 1500
    assert "rating" not in listed["seats"][1]


def test_an_open_seat_with_a_rating_range_refuses_a_player_outside_it(client, run_jobs):
    ada, bob, cyd = sign_up(client, "ada"), sign_up(client, "bob"), sign_up(client, "cyd")
    _bob_resigns_after_adas_move(client, _rated_game(client, ada, bob), ada, bob)
    run_jobs()  # Ada is now about 1662, Bob 1338; Cyd is unrated (1500)
    game = new_game(
        client,
        cyd["token"],
        [{"me": True}, {"open": True, "rating_range": {"min": 1400, "max": 1600}}],
        rated=True,
    )
    assert game["seats"][1]["rating_range"] == {"min": 1400, "max": 1600}
    join = f"/api/v1/games/{game['id']}/join"
    anonymous = client.post(join, json={"name": "Dee"})
    assert anonymous.status_code == 422 and "sign in" in anonymous.get_json()["message"]
    too_strong = client.post(join, json={"name": "ada"}, headers=auth(ada["token"]))
    assert too_strong.status_code == 422
    assert "1400 to 1600" in too_strong.get_json()["message"]
    too_weak = client.post(join, json={"name": "bob"}, headers=auth(bob["token"]))
    assert too_weak.status_code == 422 and "1338" in too_weak.get_json()["message"]
    assert client.get(f"/api/v1/games/{game['id']}").get_json()["status"] == "waiting"
    deb = sign_up(client, "deb")
    fits = client.post(join, json={"name": "deb"}, headers=auth(deb["token"]))
    assert fits.status_code == 201, fits.get_json()
    assert fits.get_json()["seats"][1]["player"] == "deb" and fits.get_json()["rated"]


def test_a_rating_range_needs_an_open_seat_and_min_up_to_max(client):
    ada = sign_up(client, "ada")
    for seat, status in (
        ({"me": True, "rating_range": {"min": 1}}, 400),
        ({"open": True, "rating_range": {"min": 1600, "max": 1500}}, 422),
        ({"open": True, "rating_range": {"min": -5}}, 400),
    ):
        response = client.post(
            "/api/v1/games",
            headers=auth(ada["token"]),
            json={"kind": "factor-multiple", "seats": [{"me": True}, seat]},
        )
        assert response.status_code == status, (seat, response.get_json())


def test_the_rules_page_lists_the_bot_levels_with_their_ratings_and_games(client, redis_client):
    ratings.rate_ladder_game(
        RatingStore(redis_client), "factor-multiple", ("perfect", "random"), winner=0
    )
    page = client.get("/api/v1/kinds/factor-multiple/rules").get_json()
    assert "The bots' ratings" in page["html"]
    rows = {
        line.split("|")[1].strip(): line
        for line in page["text"].splitlines()
        if line.startswith("| ") and "bot-factor-multiple-" in line
    }
    assert set(rows) == {"random", "greedy", "perfect"}
    assert "| 1 |" in rows["perfect"] and "| 0 |" in rows["greedy"]
    perfect = RatingStore(redis_client).read("factor-multiple", ["bot-factor-multiple-perfect"])
    assert f"| {round(ratings.Rating.from_raw(perfect[0]).rating)}?" in rows["perfect"]


def test_seed_ratings_rates_every_bot_level_from_ladder_games(
    client, redis_client, redis_url, monkeypatch, capsys
):
    from api.cli import main

    monkeypatch.setenv("REDIS_URL", redis_url)
    assert (
        main(["seed-ratings", "--kinds", "factor-multiple", "--games", "2", "--budget-s", "0.01"])
        == 0
    )
    seeded = ratings.bot_ratings(RatingStore(redis_client), "factor-multiple")
    # two rounds of the three pairs: each level played four games
    assert {level: r.games for level, r in seeded.items()} == {
        "random": 4,
        "greedy": 4,
        "perfect": 4,
    }
    assert seeded["perfect"].rating > seeded["random"].rating
    assert "perfect" in capsys.readouterr().out
    board = client.get("/api/v1/leaderboards/factor-multiple").get_json()["players"]
    assert board[0]["username"] == "bot-factor-multiple-perfect" and board[0]["bot"] is True


def test_a_rating_left_alone_for_a_year_is_less_certain_at_its_next_game(redis_client):
    store, year = RatingStore(redis_client), 365 * 86400
    levels = ("perfect", "random")
    for day in range(20):  # twenty draws a day apart: both RDs well under the provisional line
        ratings.rate_ladder_game(store, "factor-multiple", levels, None, now=day * 86400)
    settled = ratings.bot_ratings(store, "factor-multiple")
    assert settled["perfect"].rd < 110 and settled["perfect"].updated_ts == 19 * 86400

    after = ratings.rate_ladder_game(store, "factor-multiple", levels, 0, now=19 * 86400 + year)
    idle = settled["perfect"].aged(19 * 86400 + year)
    assert settled["perfect"].rd < idle.rd < ratings.START_RD
    # the game was rated from the grown RD, so it moved the rating more than a day later would
    expected = ratings.after_game(idle, settled["random"].aged(19 * 86400 + year), 1.0)[0]
    next_day = ratings.after_game(
        settled["perfect"].aged(20 * 86400), settled["random"].aged(20 * 86400), 1.0
    )[0]
    assert after[0].rating == expected.rating and after[0].rd == expected.rd
    assert after[0].rating - settled["perfect"].rating > next_day.rating - settled["perfect"].rating
