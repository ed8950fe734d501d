"""Vacation, per RULES.md: switched on and off by the player, refused without allowance, charged
by the time spent, standing still the clocks of the account's correspondence games (only those)
and moving their deadlines, the workers' due checks with them."""

from __future__ import annotations

import time

import pytest

from api.clocks import DAY_S, parse_iso
from api.play import vacation
from api.players.accounts import authenticate
from api.store import keys
from api.store.accounts import AccountStore
from tests.api.helpers import auth
from tests.api.test_accounts import new_game, sign_up

THREE_DAYS = {"type": "correspondence", "days_per_move": 3}


def switch(client, token, on):
    return client.put("/api/v1/me/vacation", headers=auth(token), json={"on": on})


def deadline(client, game) -> float:
    return parse_iso(client.get(f"/api/v1/games/{game['id']}").get_json()["deadline"])


def test_a_new_account_has_its_first_months_days(client):
    ada = sign_up(client, "ada")
    shown = client.get("/api/v1/me/vacation", headers=auth(ada["token"])).get_json()
    assert shown["on"] is False and shown["days_left"] == 2.5 and shown["until"] is None
    me = client.get("/api/v1/me", headers=auth(ada["token"])).get_json()
    assert me["vacation"]["days_left"] == 2.5 and me["vacation"]["on"] is False


def test_vacation_stands_correspondence_clocks_still_and_moves_their_deadlines(
    client, redis_client
):
    ada = sign_up(client, "ada")
    slow = new_game(
        client, ada["token"], [{"me": True}, {"bot": "greedy"}], time_control=THREE_DAYS
    )
    fast = new_game(
        client,
        ada["token"],
        [{"me": True}, {"bot": "greedy"}],
        time_control={"type": "fischer", "initial_s": 600, "increment_s": 0},
    )
    slow_before, fast_before = deadline(client, slow), deadline(client, fast)

    on = switch(client, ada["token"], True)
    assert on.status_code == 200
    shown = on.get_json()
    assert shown["on"] is True and shown["days_left"] == pytest.approx(2.5, abs=0.01)
    away = parse_iso(shown["until"]) - parse_iso(shown["since"])
    assert away == pytest.approx(2.5 * DAY_S, abs=1)
    moved = deadline(client, slow)
    assert moved == pytest.approx(slow_before + away, abs=1)
    assert redis_client.zscore(keys.due_key(), f"{slow['id']}|deadline") == pytest.approx(
        moved, abs=0.01
    )  # the worker's check moved with it
    game = client.get(f"/api/v1/games/{slow['id']}").get_json()
    assert game["on_vacation"] == [0]
    assert game["clocks"][0]["remaining_s"] == pytest.approx(3 * DAY_S, abs=1)  # not running
    assert deadline(client, fast) == fast_before  # Fischer clocks are not paused
    assert client.get(f"/api/v1/games/{fast['id']}").get_json()["on_vacation"] == []

    off = switch(client, ada["token"], False).get_json()
    assert off["on"] is False and off["days_left"] == pytest.approx(2.5, abs=0.01)
    assert deadline(client, slow) == pytest.approx(slow_before, abs=2)
    assert client.get(f"/api/v1/games/{slow['id']}").get_json()["on_vacation"] == []


def test_switching_twice_is_no_change(client):
    ada = sign_up(client, "ada")
    first = switch(client, ada["token"], True).get_json()
    assert switch(client, ada["token"], True).get_json()["until"] == first["until"]
    switch(client, ada["token"], False)
    assert switch(client, ada["token"], False).get_json()["on"] is False


def test_vacation_without_allowance_is_refused(client, redis_client):
    ada = sign_up(client, "ada")
    accounts = AccountStore(redis_client)
    account = accounts.find("ada")
    spent = vacation.Allowance(0.0, 1, time.time()).to_dict()  # this month's days are used up
    accounts.update_vacation(account["id"], lambda stored: spent)
    refused = switch(client, ada["token"], True)
    assert refused.status_code == 409
    assert refused.get_json()["message"].startswith("You have no vacation days left: 2.5 more come")
    assert client.get("/api/v1/me/vacation", headers=auth(ada["token"])).get_json()["on"] is False


def test_days_are_charged_by_the_time_actually_spent(client, redis_client, store):
    ada = sign_up(client, "ada")
    accounts = AccountStore(redis_client)
    who = authenticate(accounts, ada["token"])
    start = time.time()
    assert vacation.switch(store, accounts, who, True, now=start)["on"] is True
    back = vacation.switch(store, accounts, who, False, now=start + DAY_S)
    assert back["on"] is False and back["days_left"] == pytest.approx(1.5)
    assert vacation.view(accounts, who.account, now=start + 2 * DAY_S)[
        "days_left"
    ] == pytest.approx(1.5)


def test_a_vacation_nobody_ends_ends_with_the_allowance(client, redis_client, store):
    ada = sign_up(client, "ada")
    accounts = AccountStore(redis_client)
    who = authenticate(accounts, ada["token"])
    start = time.time()
    until = parse_iso(vacation.switch(store, accounts, who, True, now=start)["until"])
    later = vacation.view(accounts, who.account, now=until + 1)
    assert later["on"] is False and later["days_left"] == 0
    with pytest.raises(vacation.NoAllowance):
        vacation.switch(store, accounts, who, True, now=until + 1)


def test_the_switch_needs_an_account_token_with_the_play_scope(client):
    ada = sign_up(client, "ada")
    read_only = client.post(
        "/api/v1/me/tokens",
        headers=auth(ada["token"]),
        json={"description": "reader", "scopes": ["read"]},
    ).get_json()
    assert switch(client, read_only["token"], True).status_code == 403
    assert client.put("/api/v1/me/vacation", json={"on": True}).status_code == 401
    bad = client.put("/api/v1/me/vacation", headers=auth(ada["token"]), json={"on": "yes"})
    assert bad.status_code == 400 and "on" in bad.get_json()["errors"]["json"]


def test_two_vacations_in_one_turn_both_stand_the_clock_still(client, redis_client, store):
    ada = sign_up(client, "ada")
    game = new_game(
        client, ada["token"], [{"me": True}, {"bot": "greedy"}], time_control=THREE_DAYS
    )
    accounts = AccountStore(redis_client)
    who = authenticate(accounts, ada["token"])
    before, start = deadline(client, game), time.time()
    for on, at in ((True, 10), (False, 20), (True, 30), (False, 50)):
        vacation.switch(store, accounts, who, on, now=start + at)
    assert deadline(client, game) == pytest.approx(before + 10 + 20, abs=0.01)
    assert len(store.load(game["id"]).vacations[who.id]) == 2
