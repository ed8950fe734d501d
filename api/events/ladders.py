"""The standing ladder of each kind (API.md, "Events"; RULES.md, Ladder): join at the bottom,
challenge a player up to three ranks above, one open ladder game at a time per player. The game
is created in the same transaction that marks both players' open game; its end changes the
ranks in the game's own script (`api.events.links`)."""

from __future__ import annotations

import time

from api.events.service import EventConflict
from api.games import GAMES
from api.play import service as play
from api.players.accounts import Principal
from api.record import GameRecord, Seat
from api.record.errors import BadField, NotFound
from api.store.games import GameStore
from api.store.tournaments import TournamentStore, Written

REACH = 3  # how many ranks above a player may challenge
TIME_CONTROL = {"type": "correspondence", "days_per_move": 3}


def _kind(kind: str) -> None:
    if kind not in GAMES:
        raise NotFound(f"There is no game {kind!r}.")


def join(tournaments: TournamentStore, kind: str, account: Principal) -> dict:
    _kind(kind)
    account.require("play")

    def change(ladder: dict) -> Written:
        if any(e["id"] == account.id for e in ladder["ranks"]):
            raise EventConflict("player", "You are on this ladder already.")
        ladder["ranks"].append({"id": account.id, "name": account.username})
        return Written()

    return tournaments.update_ladder(kind, change)[0]


def challenge(
    tournaments: TournamentStore,
    games: GameStore,
    followups,
    kind: str,
    account: Principal,
    rank: int,
    now: float | None = None,
) -> GameRecord:
    """Challenge the player at `rank` (1 is the top): a rated game with the ladder's clock, the
    challenged moving first."""
    now = time.time() if now is None else now
    _kind(kind)
    account.require("challenge")

    def change(ladder: dict) -> Written:
        ids = [e["id"] for e in ladder["ranks"]]
        if account.id not in ids:
            raise EventConflict("player", "Join the ladder before you challenge on it.")
        mine = ids.index(account.id) + 1
        if not mine - REACH <= rank < mine:
            raise BadField(
                "rank",
                f"You are at rank {mine}: you may challenge ranks "
                f"{max(1, mine - REACH)} to {mine - 1}."
                if mine > 1
                else "You are at the top of the ladder: there is nobody to challenge.",
            )
        other = ladder["ranks"][rank - 1]
        for who in (account.id, other["id"]):
            if who in ladder["open"]:
                raise EventConflict(
                    "rank",
                    ("You have" if who == account.id else f"{other['name']} has")
                    + f" an open ladder game already ({ladder['open'][who]}).",
                )
        record, forced = play.event_game(
            kind,
            None,
            [
                Seat.for_account(other["id"], other["name"]),
                Seat.for_account(account.id, account.username),
            ],
            TIME_CONTROL,
            True,
            {"ladder": kind},
            now,
        )
        ladder["open"][account.id] = ladder["open"][other["id"]] = record.id
        return Written(games.new_game_writes(record, forced), record)

    record = tournaments.update_ladder(kind, change)[1].after
    assert isinstance(record, GameRecord)  # what `change` wrote: the game it created
    followups.after_change(record)
    return record


def view(ladder: dict) -> dict:
    return {
        "kind": ladder["kind"],
        "ranks": [
            {"rank": i + 1, "player": e["name"], "open_game": ladder["open"].get(e["id"])}
            for i, e in enumerate(ladder["ranks"])
        ],
    }
