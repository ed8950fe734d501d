"""Every kind of write to a game is a new version of it, so its ETag moves and a poll that sent the
old one hears of the change. The store sets the version (api/store/games.py, `_advance`); these
cases are each way the API and the workers change a game, so that a write path that bypassed it
would fail here."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from api.followups import RQFollowups
from api.play import service
from api.record.errors import TimeRanOut
from api.players import ratings
from api.store.games import GameStore
from api.notify.events import GAME_EVENTS
from api.store.ratings import RatingStore
from tests.api.helpers import auth, create, move
from tests.api.test_accounts import PASSWORD, new_game, sign_up

SAY_4 = {"type": "say", "number": 4}
FISCHER = {"type": "fischer", "initial_s": 600, "increment_s": 5}
THREE_DAYS = {"type": "correspondence", "days_per_move": 3}

Write = Callable[[], object]


@pytest.fixture
def app(redis_url, redis_client):
    """The app without its copy of the versions: what is checked is the version each write
    stores (the copy's freshness is tests/api/test_version_cache.py's)."""
    from api.web import create_app

    return create_app(
        {
            "TESTING": True,
            "REDIS_URL": redis_url,
            "RATELIMIT_ENABLED": False,
            "VERSION_CACHE": False,
        }
    )


def _post(client, path: str, token: str | None = None, **body) -> Write:
    def write():
        response = client.post(path, headers=auth(token) if token else {}, json=body or None)
        assert response.status_code in (200, 201, 204), response.get_json()

    return write


def _two_players(client) -> tuple[dict, str, str]:
    game = create(client, first=0, time_control=FISCHER)
    return game, game["tokens"]["0"], game["tokens"]["1"]


def _moved(client, game: dict, token: str) -> dict:
    moved = move(client, game, token, SAY_4)
    assert moved.status_code == 201, moved.get_json()
    return moved.get_json()


def case_move(client, store):
    game, ada, _ = _two_players(client)
    return game["id"], lambda: _moved(client, game, ada)


def case_move_after_the_flag_fell(client, store):
    game, _, _ = _two_players(client)
    late = store.load(game["id"]).deadline() + 1
    followups = RQFollowups(store.redis)

    def write():
        with pytest.raises(TimeRanOut):
            service.play_move(store, followups, game["id"], 0, SAY_4, 0, now=late)

    return game["id"], write


def case_chat(client, store):
    game, ada, _ = _two_players(client)
    return game["id"], _post(client, f"/api/v1/games/{game['id']}/chat", ada, text="hello")


def case_draw_offer(client, store):
    game, ada, _ = _two_players(client)
    return game["id"], _post(client, f"/api/v1/games/{game['id']}/draw", ada, action="offer")


def _draw_answer(client, store, action):
    game, ada, bo = _two_players(client)
    _post(client, f"/api/v1/games/{game['id']}/draw", ada, action="offer")()
    return game["id"], _post(client, f"/api/v1/games/{game['id']}/draw", bo, action=action)


def case_draw_accepted(client, store):
    return _draw_answer(client, store, "accept")


def case_draw_declined(client, store):
    return _draw_answer(client, store, "decline")


def case_takeback_asked(client, store):
    game, ada, _ = _two_players(client)
    _moved(client, game, ada)
    return game["id"], _post(client, f"/api/v1/games/{game['id']}/takeback", ada, action="ask")


def _takeback_answer(client, action):
    game, ada, bo = _two_players(client)
    _moved(client, game, ada)
    _post(client, f"/api/v1/games/{game['id']}/takeback", ada, action="ask")()
    return game["id"], _post(client, f"/api/v1/games/{game['id']}/takeback", bo, action=action)


def case_takeback_granted(client, store):
    return _takeback_answer(client, "grant")


def case_takeback_refused(client, store):
    return _takeback_answer(client, "refuse")


def case_resign(client, store):
    game, _, bo = _two_players(client)
    return game["id"], _post(client, f"/api/v1/games/{game['id']}/resign", bo)


def case_join(client, store):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"open": True}])
    return game["id"], _post(client, f"/api/v1/games/{game['id']}/join", name="Bo")


def case_claim(client, store):
    game, ada, _ = _two_players(client)
    account = sign_up(client, "ada")
    return game["id"], _post(
        client, f"/api/v1/games/{game['id']}/claim", account["token"], seat_token=ada
    )


def _challenge(client) -> tuple[dict, dict, dict]:
    ada, bob = sign_up(client, "ada"), sign_up(client, "bob")
    game = new_game(
        client, ada["token"], [{"me": True}, {"player": "bob"}], time_control=THREE_DAYS
    )
    return game, ada, bob


def case_challenge_accepted(client, store):
    game, _, bob = _challenge(client)
    return game["id"], _post(client, f"/api/v1/games/{game['id']}/accept", bob["token"])


def case_challenge_declined(client, store):
    game, _, bob = _challenge(client)
    return game["id"], _post(client, f"/api/v1/games/{game['id']}/decline", bob["token"])


def case_vacation(client, store):
    game, ada, bob = _challenge(client)
    _post(client, f"/api/v1/games/{game['id']}/accept", bob["token"])()

    def write():
        switched = client.put("/api/v1/me/vacation", headers=auth(ada["token"]), json={"on": True})
        assert switched.status_code == 200, switched.get_json()

    return game["id"], write


def case_account_deleted(client, store):
    game, _, bob = _challenge(client)
    _post(client, f"/api/v1/games/{game['id']}/accept", bob["token"])()

    def write():
        deleted = client.delete(
            "/api/v1/me", headers=auth(bob["token"]), json={"password": PASSWORD}
        )
        assert deleted.status_code == 204, deleted.get_json()

    return game["id"], write


def case_clock_expiry(client, store):
    game, _, _ = _two_players(client)
    deadline = store.load(game["id"]).deadline()
    return game["id"], lambda: service.end_on_time(
        store, RQFollowups(store.redis), game["id"], deadline, now=deadline + 1
    )


def case_abandoned(client, store):
    game = create(client, seats=[{"human": {"name": "Ada"}}, {"open": True}])
    later = store.load(game["id"]).due_checks()["abandoned"] + 1
    return game["id"], lambda: service.abort_abandoned(
        store, RQFollowups(store.redis), game["id"], now=later
    )


def case_bot_move(client, store):
    game = create(client, seats=[{"bot": "greedy"}, {"human": {"name": "Bo"}}], first=0)
    return game["id"], lambda: service.play_bot_move(
        store, RQFollowups(store.redis), game["id"], game["ply"], 0.05
    )


def case_ratings_applied(client, store):
    game, ada, bob = _challenge(client)
    _post(client, f"/api/v1/games/{game['id']}/accept", bob["token"])()
    _moved(client, store.load(game["id"]).to_dict(), ada["token"])  # (no move made: no rating)
    _post(client, f"/api/v1/games/{game['id']}/resign", bob["token"])()
    return game["id"], lambda: ratings.apply_game(store, RatingStore(store.redis), game["id"])


CASES = {
    name[len("case_") :]: f for name, f in sorted(globals().items()) if name.startswith("case_")
}


@pytest.mark.parametrize("name", CASES)
def test_every_write_is_a_new_version_and_moves_the_etag(client, redis_client, name):
    store = GameStore(redis_client, GAME_EVENTS)
    game_id, write = CASES[name](client, store)
    url = f"/api/v1/games/{game_id}"
    before = client.get(url)
    version = store.version(game_id)
    write()
    assert store.version(game_id) == version + 1
    assert store.load(game_id).version == version + 1
    polled = client.get(url, headers={"If-None-Match": before.headers["ETag"]})
    assert polled.status_code == 200 and polled.headers["ETag"] != before.headers["ETag"]
    again = client.get(url, headers={"If-None-Match": polled.headers["ETag"]})
    assert again.status_code == 304
