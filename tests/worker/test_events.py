"""Tournaments run to the end on real workers between bot accounts: a 6-player Swiss of 3 rounds
and a 4-player double round-robin, a worker killed with -9 while rounds are being paired; a
5-player knockout with drawn games replayed (up to the cap, then the higher seed goes through)
and a withdrawal. The standings (the bracket) must match the games' results, and no round may be
paired twice."""

from __future__ import annotations

import json
import signal
import time

from api.events import service as events
from api.events.standings import Played, standings
from api.games import Reason
from api.players.accounts import Principal
from api.players.ratings import Rating, bot_account_id
from api.record import Status
from api.store import keys
from api.store.accounts import AccountStore
from api.store.ratings import RatingStore
from api.store.tournaments import TournamentStore, Written
from tests.api.helpers import auth
from tests.api.test_accounts import sign_up
from tests.worker.conftest import wait_for

ORGANISER = Principal(
    {"id": "org", "username": "org"}, {"scopes": ["read", "play"], "kind": "session"}
)
BOTS = ["bot-factor-multiple-random", "bot-factor-multiple-greedy", "bot-factor-multiple-perfect"]


def _event(redis_client, fmt: str, players: int, **extra) -> str:
    tournaments = TournamentStore(redis_client)
    doc = events.create(
        tournaments,
        ORGANISER,
        {
            "name": fmt,
            "kind": "factor-multiple",
            "options": {"n": 12},
            "format": fmt,
            "max_players": players,
            "starts_at": time.time() + 3600,
            "rated": False,
            "time_control": {"type": "none"},
            **extra,
        },
    )
    for bot in BOTS[:players]:
        events.join(tournaments, RatingStore(redis_client), doc["id"], ORGANISER, player=bot)
    return doc["id"]


def _fill_with_levels(redis_client, tid: str, names: list[str]) -> None:
    """More bot entrants than levels: the same levels under other entrant ids (a test's
    shortcut: the pairing sees distinct players, each seat a server bot of that level)."""
    tournaments = TournamentStore(redis_client)

    def change(doc):
        for i, name in enumerate(names):
            doc["players"].append(
                {
                    "id": name,
                    "name": name,
                    "bot": ["random", "greedy"][i % 2],
                    "rating": 1500.0,
                    "withdrawn": False,
                    "joined_ts": 0,
                }
            )
        return Written()

    tournaments.update(tid, change)


def _check_finished(store, redis_client, tid: str, rounds: int) -> None:
    doc = TournamentStore(redis_client).load(tid)
    assert doc["status"] == "finished", doc["status"]
    assert [r["round"] for r in doc["rounds"]] == list(range(1, rounds + 1))  # none twice
    game_ids = [p["game_id"] for r in doc["rounds"] for p in r["pairings"]]
    assert len(game_ids) == len(set(game_ids))
    records = {r.id: r for r in store.load_many(game_ids)}
    assert len(records) == len(game_ids)
    played, byes = [], [b for r in doc["rounds"] for b in r["byes"]]
    for r in doc["rounds"]:
        for p in r["pairings"]:
            record = records[p["game_id"]]
            assert record.status is Status.FINISHED
            assert p["result"]["winner"] == record.result.winner
            assert [s.bot for s in record.seats] == [
                next(x["bot"] for x in doc["players"] if x["id"] == who) for who in p["seats"]
            ]
            played.append(Played(*p["seats"], record.result.winner))
    ids = [p["id"] for p in doc["players"]]
    assert doc["final"] == standings(
        ids, played, byes, doc["format"], {p["id"]: p["seed"] for p in doc["players"]}, {}
    )


def test_a_swiss_and_a_double_round_robin_run_to_the_end_through_a_kill(
    store, redis_client, start_worker
):
    swiss = _event(redis_client, "swiss", 6, rounds=3)
    _fill_with_levels(redis_client, swiss, ["b1", "b2", "b3"])
    robin = _event(redis_client, "round-robin", 4, double=True)
    _fill_with_levels(redis_client, robin, ["r1"])
    doomed = start_worker()
    start_worker()
    tournaments = TournamentStore(redis_client)
    for tid in (swiss, robin):
        events.start(tournaments, tid, ORGANISER)
    # kill one worker -9 while the Swiss's rounds are being paired (after round one, before
    # the last)
    assert wait_for(lambda: len(tournaments.load(swiss)["rounds"]) >= 1, timeout_s=30)
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(timeout=5)
    start_worker()
    for tid in (swiss, robin):
        assert wait_for(lambda: tournaments.load(tid)["status"] == "finished", timeout_s=60), (
            tournaments.load(tid)
        )
    _check_finished(store, redis_client, swiss, 3)
    _check_finished(store, redis_client, robin, 6)
    robin_doc = tournaments.load(robin)
    assert len([p for r in robin_doc["rounds"] for p in r["pairings"]]) == 12


def test_a_knockout_runs_to_the_end_with_drawn_games_replayed_and_a_withdrawal(
    client, store, redis_client, start_worker
):
    """Five players seeded by rating (three byes, seeds 4 and 5 play round one). Round one's
    match is drawn three times by agreement, the first move swapped each time, and the higher
    seed goes through; in round two the top seed's match is drawn, and its opponent withdraws
    during the replay, which the workers resign; the final is played out. Humans make the draws
    and the withdrawal (a bot declines draws and never leaves)."""
    end = time.monotonic() + 55

    def until(predicate):
        found = wait_for(predicate, timeout_s=max(0.0, end - time.monotonic()))
        assert found, TournamentStore(redis_client).load(tid)
        return found

    people = {name: sign_up(client, name) for name in ("cyd", "ada", "bob")}
    ids = {name: AccountStore(redis_client).find(name)["id"] for name in people}
    greedy, rand = "bot-factor-multiple-greedy", "bot-factor-multiple-random"
    ratings = {ids["cyd"]: 1900, greedy: 1800, rand: 1700, ids["ada"]: 1600, ids["bob"]: 1500}
    for who, rating in ratings.items():
        redis_client.set(
            keys.rating_key(who, "factor-multiple"), json.dumps(Rating(rating).to_dict(0.0))
        )
    org = auth(people["cyd"]["token"])
    made = client.post(
        "/api/v1/tournaments",
        headers=org,
        json={
            "name": "Cup",
            "kind": "factor-multiple",
            "options": {"n": 12},
            "format": "knockout",
            "max_players": 5,
            "starts_at": "2030-01-01T00:00:00Z",
            "rated": False,
            "time_control": {"type": "none"},
        },
    )
    assert made.status_code == 201, made.get_json()
    tid = made.get_json()["id"]
    for body, headers in (
        ({}, auth(people["ada"]["token"])),
        ({"player": rand}, org),
        ({}, auth(people["bob"]["token"])),
        ({"player": greedy}, org),
        ({}, org),
    ):
        joined = client.post(f"/api/v1/tournaments/{tid}/join", json=body, headers=headers)
        assert joined.status_code == 201, joined.get_json()
    start_worker()
    start_worker()
    assert client.post(f"/api/v1/tournaments/{tid}/start", headers=org).status_code == 201
    tournaments = TournamentStore(redis_client)

    def pairing(r: int, match: int, replay: int = 0) -> dict | None:
        doc = tournaments.load(tid)
        if len(doc["rounds"]) < r:
            return None
        return next(
            (
                p
                for p in doc["rounds"][r - 1]["pairings"]
                if p["match"] == match and p["replay"] == replay
            ),
            None,
        )

    def act(who: str, path: str, body: dict | None = None) -> None:
        done = client.post(path, json=body or {}, headers=auth(people[who]["token"]))
        assert done.status_code == 201, done.get_json()

    def drawn(p: dict) -> None:
        """The game of `p` drawn: its first mover offers on its turn, the other accepts."""
        first, second = (next(n for n in people if ids[n] == s) for s in p["seats"])
        act(first, f"/api/v1/games/{p['game_id']}/draw", {"action": "offer"})
        act(second, f"/api/v1/games/{p['game_id']}/draw", {"action": "accept"})

    # round one: seeds 1 to 3 have byes, 4 (ada, first) meets 5 (bob): drawn, replayed with the
    # first move swapped, twice; then ada, the higher seed, goes through
    opening = [until(lambda: pairing(1, 1))]
    for replay in range(1, events.REPLAYS + 1):
        drawn(opening[-1])
        opening.append(until(lambda: pairing(1, 1, replay)))
    drawn(opening[-1])
    assert [p["seats"] for p in opening] == [
        [ids["ada"], ids["bob"]],
        [ids["bob"], ids["ada"]],
        [ids["ada"], ids["bob"]],
    ]
    # round two: cyd (seed 1, first) against ada, drawn; ada withdraws during the replay
    semi = until(lambda: pairing(2, 0))
    assert semi["seats"] == [ids["cyd"], ids["ada"]]
    drawn(semi)
    semi_replay = until(lambda: pairing(2, 0, 1))
    assert semi_replay["seats"] == [ids["ada"], ids["cyd"]]
    act("ada", f"/api/v1/tournaments/{tid}/leave")
    final = until(lambda: pairing(3, 0))
    assert final["seats"][0] == ids["cyd"]  # the top seed moves first
    act("cyd", f"/api/v1/games/{final['game_id']}/resign")
    doc = until(lambda: (d := tournaments.load(tid))["status"] == "finished" and d)

    seeds = {p["id"]: p["seed"] for p in doc["players"]}
    assert seeds == {ids["cyd"]: 1, greedy: 2, rand: 3, ids["ada"]: 4, ids["bob"]: 5}
    assert [r["round"] for r in doc["rounds"]] == [1, 2, 3]  # none paired twice
    assert [sorted(r["byes"]) for r in doc["rounds"]] == [
        sorted([ids["cyd"], greedy, rand]),
        [],
        [],
    ]
    game_ids = [p["game_id"] for r in doc["rounds"] for p in r["pairings"]]
    records = {r.id: r for r in store.load_many(game_ids)}
    of_event = [
        key
        for key in redis_client.scan_iter(keys.game_key("*"))
        if (r := store.load(key.decode().rsplit(":", 1)[1])) is not None
        and (r.event or {}).get("tournament") == tid
    ]
    assert sorted(k.decode().rsplit(":", 1)[1] for k in of_event) == sorted(game_ids)
    assert len(game_ids) == 7  # three in round one, the semi-final's two, the other, the final
    for r, matches in enumerate(doc["bracket"], 1):
        for k, match in enumerate(matches):
            games = [p for p in doc["rounds"][r - 1]["pairings"] if p["match"] == k]
            assert match["games"] == len(games)
            if not games:  # a bye
                assert match["winner"] == match["players"][0] and match["players"][1] is None
                continue
            for n, p in enumerate(games):
                record = records[p["game_id"]]
                assert record.status is Status.FINISHED
                assert p["result"] == {
                    "winner": record.result.winner,
                    "reason": record.result.reason.value,
                }
                seats = [
                    s.account or bot_account_id("factor-multiple", s.bot) for s in record.seats
                ]
                # each replay swaps the first move
                assert seats == p["seats"] == games[0]["seats"][:: (-1) ** n]
                assert p["replay"] == n
            assert [p["result"]["winner"] for p in games[:-1]] == [None] * (len(games) - 1)
            last = games[-1]
            if last["result"]["winner"] is None:  # drawn every time: the higher seed
                assert len(games) == 1 + events.REPLAYS
                assert match["winner"] == min(match["players"], key=seeds.__getitem__)
            else:
                assert match["winner"] == last["seats"][last["result"]["winner"]]
    assert [records[p["game_id"]].result.reason for p in opening] == [Reason.AGREEMENT] * 3
    assert doc["bracket"][0][1]["winner"] == ids["ada"]
    withdrawn = records[semi_replay["game_id"]].result
    assert (withdrawn.winner, withdrawn.reason) == (1, Reason.RESIGN)  # ada's, by the workers
    assert doc["bracket"][1][0]["winner"] == ids["cyd"]
    assert [p["withdrawn"] for p in doc["players"] if p["id"] == ids["ada"]] == [True]
    assert ids["ada"] not in final["seats"]  # paired no more
    champion = doc["bracket"][2][0]["winner"]
    assert champion == final["seats"][1] and champion in (greedy, rand)
    assert [row["player"] for row in doc["final"]][:2] == [champion, ids["cyd"]]
