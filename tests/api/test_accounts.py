"""Accounts, per the API's second part: sign-up, sign-in and out, recovery, password change and
deletion, personal tokens and scopes, seats bound to accounts, a player's games and challenges,
rematches and profiles; every refusal, and no secret kept in plain text."""

from __future__ import annotations

import statistics
import threading
import time

import pytest

from api.players import accounts as players
from api.players import passwords
from api.store.accounts import AccountStore
from tests.api.helpers import auth, move

PASSWORD = "correct horse battery"


def sign_up(client, username: str, password: str = PASSWORD) -> dict:
    response = client.post("/api/v1/accounts", json={"username": username, "password": password})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def sign_in(client, username: str, password: str = PASSWORD):
    return client.post("/api/v1/session", json={"username": username, "password": password})


def new_game(client, token: str, seats: list, **body) -> dict:
    response = client.post(
        "/api/v1/games",
        headers=auth(token),
        json={"kind": "factor-multiple", "seats": seats, "first": 0, **body},
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def test_sign_up_gives_a_token_and_ten_recovery_codes(client):
    made = sign_up(client, "Ada_Lovelace")
    assert made["account"]["username"] == "Ada_Lovelace" and made["token"].startswith("pp.")
    assert len(set(made["recovery_codes"])) == 10
    me = client.get("/api/v1/me", headers=auth(made["token"]))
    assert me.status_code == 200 and me.get_json()["username"] == "Ada_Lovelace"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"username": "ab", "password": PASSWORD}, "username"),
        ({"username": "spaces here", "password": PASSWORD}, "username"),
        ({"username": "ada", "password": "short"}, "password"),
    ],
)
def test_a_bad_name_or_a_short_password_is_refused_naming_the_field(client, body, field):
    response = client.post("/api/v1/accounts", json=body)
    assert response.status_code == 422 and field in response.get_json()["errors"]["json"]


@pytest.mark.parametrize(
    "password, why",
    [
        (" " * 10, 'Repeats like "aaa" are easy to guess.'),
        ("\0" * 10, 'Repeats like "aaa" are easy to guess.'),
        ("aaaaaaaaaa", 'Repeats like "aaa" are easy to guess.'),
        ("password12", "This is a very common password."),
        ("Dijkstra1930", "Dijkstra"),  # the username itself is easy to guess
    ],
)
def test_a_password_easy_to_guess_is_refused_saying_why(client, password, why):
    response = client.post("/api/v1/accounts", json={"username": "Dijkstra", "password": password})
    assert response.status_code == 422, response.get_json()
    refusal = response.get_json()
    assert "password" in refusal["errors"]["json"]
    assert refusal["message"].startswith("This password is too easy to guess.")
    if why != "Dijkstra":
        assert why in refusal["message"]
    assert (
        client.post(
            "/api/v1/session", json={"username": "Dijkstra", "password": password}
        ).status_code
        == 401
    )


def test_a_name_is_taken_whatever_its_case(client):
    sign_up(client, "Grace")
    again = client.post("/api/v1/accounts", json={"username": "gRACE", "password": PASSWORD})
    assert again.status_code == 409 and "taken" in again.get_json()["message"]


def test_two_sign_ups_racing_for_one_name_exactly_one_wins(redis_client, monkeypatch):
    # enough password slots that the eight meet at the store, not at the hashing
    monkeypatch.setattr(passwords, "SLOTS", threading.BoundedSemaphore(8))
    store, outcomes = AccountStore(redis_client), []
    barrier = threading.Barrier(8)

    def race(i: int) -> None:
        barrier.wait()
        try:
            players.sign_up(store, "Racer" if i % 2 else "racer", PASSWORD)
            outcomes.append("won")
        except players.Conflict:
            outcomes.append("taken")

    threads = [threading.Thread(target=race, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["taken"] * 7 + ["won"]


def test_a_wrong_password_and_an_unknown_name_fail_alike(client):
    sign_up(client, "Hopper")
    timings = {"wrong": [], "unknown": []}
    # the work each answer costs, as CPU time of this process (the app runs in it): what a timing
    # attack measures, without the noise other processes on the machine add to wall time
    for _ in range(5):
        for case, name in (("wrong", "Hopper"), ("unknown", "Nobody")):
            started = time.process_time()
            response = sign_in(client, name, "not the password")
            timings[case].append(time.process_time() - started)
            assert response.status_code == 401
            assert response.get_json()["message"] == "Wrong username or password."
    ratio = statistics.median(timings["unknown"]) / statistics.median(timings["wrong"])
    assert 0.5 < ratio < 2.0, timings  # both pay one argon2 verification


def test_repeated_failed_sign_ins_are_slowed_per_name_and_address(client):
    sign_up(client, "Turing")
    for _ in range(players.MAX_PAIR_FAILURES):
        assert sign_in(client, "Turing", "guess guess guess").status_code == 401
    blocked = sign_in(client, "Turing")  # even the right password waits now, from this address
    assert blocked.status_code == 429
    assert 0 < int(blocked.headers["Retry-After"]) <= players.FAILURE_WINDOW_S
    assert blocked.get_json()["message"] == (
        "Too many failed sign-ins: wait 15 minutes and try again."
    )
    elsewhere = client.post(
        "/api/v1/session",
        json={"username": "Turing", "password": PASSWORD},
        environ_base={"REMOTE_ADDR": "192.0.2.50"},
    )
    assert elsewhere.status_code == 201


def test_one_address_guessing_many_names_waits(client):
    for n in range(players.MAX_CLIENT_FAILURES):
        assert sign_in(client, f"nobody{n}", "guess guess guess").status_code == 401
    assert sign_in(client, "somebody_else", "guess guess guess").status_code == 429


def test_wrong_recovery_codes_have_their_own_limit_apart_from_sign_ins(client):
    made = sign_up(client, "Shannon")
    for _ in range(players.MAX_PAIR_FAILURES):
        assert sign_in(client, "Shannon", "guess guess guess").status_code == 401
    recover = {"username": "Shannon", "new_password": "a brand new passphrase"}
    # the failed sign-ins do not hold back a recovery code from the same address
    assert (
        client.post(
            "/api/v1/accounts/recover", json={**recover, "recovery_code": made["recovery_codes"][0]}
        ).status_code
        == 201
    )
    for _ in range(players.MAX_PAIR_FAILURES):
        assert (
            client.post(
                "/api/v1/accounts/recover", json={**recover, "recovery_code": "000000-000000"}
            ).status_code
            == 401
        )
    blocked = client.post(
        "/api/v1/accounts/recover", json={**recover, "recovery_code": made["recovery_codes"][1]}
    )
    assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) > 0


def test_sign_out_revokes_the_token_at_once(client):
    token = sign_up(client, "Noether")["token"]
    other = sign_in(client, "Noether").get_json()["token"]
    assert client.delete("/api/v1/session", headers=auth(token)).status_code == 204
    assert client.get("/api/v1/me", headers=auth(token)).status_code == 401
    assert client.get("/api/v1/me", headers=auth(other)).status_code == 200


def test_a_recovery_code_sets_a_new_password_once_and_signs_everything_out(client):
    made = sign_up(client, "Curie")
    code = made["recovery_codes"][3]
    body = {"username": "curie", "recovery_code": code.upper(), "new_password": "a new password!"}
    recovered = client.post("/api/v1/accounts/recover", json=body)
    assert recovered.status_code == 201 and recovered.get_json()["token"].startswith("pp.")
    assert client.get("/api/v1/me", headers=auth(made["token"])).status_code == 401
    assert sign_in(client, "Curie").status_code == 401
    assert sign_in(client, "Curie", "a new password!").status_code == 201
    spent = client.post("/api/v1/accounts/recover", json=body)
    assert spent.status_code == 401


def test_changing_the_password_keeps_this_sign_in_and_ends_the_others(client):
    token = sign_up(client, "Lamarr")["token"]
    other = sign_in(client, "Lamarr").get_json()["token"]
    wrong = client.post(
        "/api/v1/me/password",
        headers=auth(token),
        json={"password": "not it at all", "new_password": "brand new secret"},
    )
    assert wrong.status_code == 401
    weak = client.post(
        "/api/v1/me/password",
        headers=auth(token),
        json={"password": PASSWORD, "new_password": "aaaaaaaaaa"},
    )
    assert weak.status_code == 422 and "new_password" in weak.get_json()["errors"]["json"]
    assert (
        client.post(
            "/api/v1/me/password",
            headers=auth(token),
            json={"password": PASSWORD, "new_password": "brand new secret"},
        ).status_code
        == 204
    )
    assert client.get("/api/v1/me", headers=auth(token)).status_code == 200
    assert client.get("/api/v1/me", headers=auth(other)).status_code == 401
    assert sign_in(client, "Lamarr", "brand new secret").status_code == 201


def test_personal_tokens_have_scopes_are_listed_with_their_use_and_revocable(client):
    token = sign_up(client, "Knuth")["token"]
    made = client.post(
        "/api/v1/me/tokens", headers=auth(token), json={"description": "my bot", "scopes": ["read"]}
    )
    assert made.status_code == 201
    personal = made.get_json()
    game = new_game(client, token, [{"me": True}, {"bot": "greedy"}])
    assert client.get("/api/v1/me/games", headers=auth(personal["token"])).status_code == 200
    refused = move(client, game, personal["token"], {"type": "say", "number": 4})
    assert refused.status_code == 403 and "'play'" in refused.get_json()["message"]
    no_minting = client.post(
        "/api/v1/me/tokens",
        headers=auth(personal["token"]),
        json={"description": "x", "scopes": ["play"]},
    )
    assert no_minting.status_code == 403
    listed = {t["id"]: t for t in client.get("/api/v1/me/tokens", headers=auth(token)).get_json()}
    assert listed[personal["id"]]["last_used_at"] is not None
    assert "token" not in listed[personal["id"]]
    assert (
        client.delete(f"/api/v1/me/tokens/{personal['id']}", headers=auth(token)).status_code == 204
    )
    assert client.get("/api/v1/me", headers=auth(personal["token"])).status_code == 401
    bad = client.post(
        "/api/v1/me/tokens", headers=auth(token), json={"description": "x", "scopes": ["admin"]}
    )
    assert bad.status_code == 400 and "scopes.0" in bad.get_json()["errors"]["json"]


def test_an_account_token_plays_the_seat_bound_to_it_from_any_device(client):
    token = sign_up(client, "Lovelace")["token"]
    game = new_game(client, token, [{"me": True}, {"human": {"name": "Bo"}}])
    assert set(game["tokens"]) == {"1"} and game["seats"][0]["player"] == "Lovelace"
    other_device = sign_in(client, "Lovelace").get_json()["token"]
    moved = move(client, game, other_device, {"type": "say", "number": 4})
    assert moved.status_code == 201 and moved.get_json()["ply"] == 1
    stranger = sign_up(client, "Stranger")["token"]
    refused = move(client, moved.get_json(), stranger, {"type": "say", "number": 8})
    assert refused.status_code == 403


def test_a_seat_for_an_account_needs_the_account(client):
    response = client.post(
        "/api/v1/games",
        json={"kind": "factor-multiple", "seats": [{"me": True}, {"bot": "greedy"}]},
    )
    assert response.status_code == 401


def test_claim_binds_an_anonymous_seat_to_the_account(client):
    anonymous = client.post(
        "/api/v1/games",
        json={
            "kind": "factor-multiple",
            "first": 0,
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
        },
    ).get_json()
    token = sign_up(client, "Ada")["token"]
    claimed = client.post(
        f"/api/v1/games/{anonymous['id']}/claim",
        headers=auth(token),
        json={"seat_token": anonymous["tokens"]["0"]},
    )
    assert claimed.status_code == 201 and claimed.get_json()["seats"][0]["player"] == "Ada"
    mine = client.get("/api/v1/me/games", headers=auth(token)).get_json()
    assert [g["id"] for g in mine] == [anonymous["id"]]
    assert move(client, anonymous, token, {"type": "say", "number": 4}).status_code == 201
    bad = client.post(
        f"/api/v1/games/{anonymous['id']}/claim",
        headers=auth(token),
        json={"seat_token": "not-a-token"},
    )
    assert bad.status_code == 401


def test_my_games_puts_my_turn_first_and_answers_304_when_nothing_changed(client):
    token = sign_up(client, "Hypatia")["token"]
    waiting_on_them = new_game(client, token, [{"me": True}, {"human": {"name": "Bo"}}])
    move(client, waiting_on_them, token, {"type": "say", "number": 4})
    my_turn = new_game(client, token, [{"me": True}, {"human": {"name": "Cy"}}])
    first = client.get("/api/v1/me/games", headers=auth(token))
    assert [g["id"] for g in first.get_json()] == [my_turn["id"], waiting_on_them["id"]]
    again = client.get(
        "/api/v1/me/games", headers={**auth(token), "If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304
    move(client, my_turn, token, {"type": "say", "number": 8})
    changed = client.get(
        "/api/v1/me/games", headers={**auth(token), "If-None-Match": first.headers["ETag"]}
    )
    assert changed.status_code == 200
    only = client.get("/api/v1/me/games?status=finished", headers=auth(token)).get_json()
    assert only == []


def test_a_challenge_waits_for_the_player_who_accepts_or_declines(client):
    ada = sign_up(client, "AdaC")["token"]
    bo = sign_up(client, "BoC")["token"]
    game = new_game(client, ada, [{"me": True}, {"player": "boc"}])
    assert game["status"] == "waiting" and game["seats"][1]["invited"] == "BoC"
    assert client.get("/api/v1/games?status=waiting").get_json() == []  # not in the lobby
    assert client.post(f"/api/v1/games/{game['id']}/join", json={"name": "Eve"}).status_code == 409
    incoming = client.get("/api/v1/me/challenges", headers=auth(bo)).get_json()["incoming"]
    assert [g["id"] for g in incoming] == [game["id"]]
    outgoing = client.get("/api/v1/me/challenges", headers=auth(ada)).get_json()["outgoing"]
    assert [g["id"] for g in outgoing] == [game["id"]]
    assert client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(ada)).status_code == 403
    accepted = client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bo)).get_json()
    assert accepted["status"] == "active" and accepted["seats"][1]["player"] == "BoC"
    assert client.get("/api/v1/me/challenges", headers=auth(bo)).get_json()["incoming"] == []
    declined = new_game(client, ada, [{"me": True}, {"player": "BoC"}])
    result = client.post(f"/api/v1/games/{declined['id']}/decline", headers=auth(bo)).get_json()
    assert result["status"] == "finished" and result["result"]["reason"] == "aborted"
    unknown = client.post(
        "/api/v1/games",
        headers=auth(ada),
        json={"kind": "factor-multiple", "seats": [{"me": True}, {"player": "nobody_here"}]},
    )
    assert unknown.status_code == 422 and "seats.1.player" in unknown.get_json()["errors"]["json"]


def test_a_rematch_swaps_the_seats_and_challenges_the_other_account(client):
    ada = sign_up(client, "AdaR")["token"]
    bo = sign_up(client, "BoR")["token"]
    game = new_game(client, ada, [{"me": True}, {"player": "BoR"}])
    client.post(f"/api/v1/games/{game['id']}/accept", headers=auth(bo))
    assert (
        client.post(f"/api/v1/games/{game['id']}/rematch", headers=auth(ada)).status_code == 409
    )  # not over yet
    client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(bo))
    again = client.post(f"/api/v1/games/{game['id']}/rematch", headers=auth(ada))
    assert again.status_code == 201
    rematch = again.get_json()
    assert rematch["seats"][1]["player"] == "AdaR" and rematch["seats"][0]["invited"] == "BoR"
    assert rematch["kind"] == game["kind"] and rematch["options"] == game["options"]
    # a game has one rematch: asked again, by either side, it is that same challenge
    asked = [
        client.post(f"/api/v1/games/{game['id']}/rematch", headers=auth(who))
        for who in [ada] * 14 + [bo]
    ]
    assert {(a.status_code, a.get_json()["id"], len(a.get_json()["tokens"])) for a in asked} == {
        (200, rematch["id"], 0)
    }
    incoming = client.get("/api/v1/me/challenges", headers=auth(bo)).get_json()["incoming"]
    assert [c["id"] for c in incoming] == [rematch["id"]]


def test_a_profile_shows_finished_games_and_a_deleted_account_shows_as_deleted(client):
    ada = sign_up(client, "AdaP")["token"]
    game = new_game(client, ada, [{"me": True}, {"human": {"name": "Bo"}}])
    client.post(f"/api/v1/games/{game['id']}/resign", headers=auth(ada))
    profile = client.get("/api/v1/players/adap").get_json()
    assert profile["username"] == "AdaP" and [g["id"] for g in profile["games"]] == [game["id"]]
    assert client.get("/api/v1/players/nobody_at_all").status_code == 404
    assert (
        client.delete(
            "/api/v1/me", headers=auth(ada), json={"password": "wrong password!"}
        ).status_code
        == 401
    )
    assert (
        client.delete("/api/v1/me", headers=auth(ada), json={"password": PASSWORD}).status_code
        == 204
    )
    kept = client.get(f"/api/v1/games/{game['id']}").get_json()
    assert kept["seats"][0]["name"] == "(deleted)" and kept["result"]["reason"] == "resign"
    assert client.get("/api/v1/me", headers=auth(ada)).status_code == 401
    assert sign_in(client, "AdaP").status_code == 401
    assert client.get("/api/v1/players/AdaP").status_code == 404


def test_redis_holds_no_password_token_or_recovery_code_in_plain_text(client, redis_client):
    made = sign_up(client, "Secretive")
    personal = client.post(
        "/api/v1/me/tokens",
        headers=auth(made["token"]),
        json={"description": "cli", "scopes": ["read", "play"]},
    ).get_json()["token"]
    session = sign_in(client, "Secretive").get_json()["token"]
    secrets = [
        PASSWORD,
        made["token"],
        personal,
        session,
        *made["recovery_codes"],
        *(c.replace("-", "") for c in made["recovery_codes"]),
    ]
    dumped = b""
    for key in redis_client.scan_iter("*"):
        dumped += key + (redis_client.dump(key) or b"")
    found = [s for s in secrets if s.encode() in dumped]
    assert found == []


def test_a_poll_of_my_challenges_with_its_etag_is_304_until_one_comes(client):
    ada = sign_up(client, "AdaE")["token"]
    bo = sign_up(client, "BoE")["token"]
    first = client.get("/api/v1/me/challenges", headers=auth(bo))
    poll = {**auth(bo), "If-None-Match": first.headers["ETag"]}
    again = client.get("/api/v1/me/challenges", headers=poll)
    assert again.status_code == 304 and again.data == b""
    new_game(client, ada, [{"me": True}, {"player": "BoE"}])
    changed = client.get("/api/v1/me/challenges", headers=poll)
    assert changed.status_code == 200 and len(changed.get_json()["incoming"]) == 1
    assert changed.headers["ETag"] != first.headers["ETag"]
