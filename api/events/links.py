"""What a change to a game of an event writes with it, in the game's own script (the store is
given these with the outbox's events, `api.notify.events.GAME_EVENTS`):

- a tournament game that ends makes its tournament's step due at once (`<id>|tournament` in the
  workers' due checks), so a round is paired as soon as its last game ends, by whichever worker
  claims the check;
- a ladder game that ends changes the ladder's ranks: the winner takes the higher of the two
  ranks, the loser and everyone between move down one; a draw or an abort changes none. Both
  players' open ladder game is then over.
"""

from __future__ import annotations

from api import jsontext
from api.games import Reason
from api.record import GameRecord, Status
from api.store import keys


def _ended(was: Status | None, record: GameRecord) -> bool:
    return (
        record.event is not None
        and record.status is Status.FINISHED
        and was is not None
        and was is not Status.FINISHED
    )


def reads(was: Status | None, record: GameRecord) -> list[str]:
    if _ended(was, record):
        assert record.event is not None  # _ended: only a game of an event
        if "ladder" in record.event:
            return [keys.ladder_key(record.event["ladder"])]
    return []


def writes(was: Status | None, record: GameRecord, read: dict[str, bytes]) -> list[list]:
    if not _ended(was, record):
        return []
    assert record.event is not None  # _ended: only a game of an event
    if "tournament" in record.event:
        member = f"{record.event['tournament']}|tournament"
        return [["ZADD", keys.due_key(), repr(record.updated_ts), member]]
    key = keys.ladder_key(record.event["ladder"])
    if not read.get(key):
        return []
    ladder = jsontext.loads(read[key])
    ladder["ranks"] = reranked(ladder["ranks"], record)
    players = [s.account for s in record.seats]
    ladder["open"] = {
        a: g for a, g in ladder["open"].items() if not (a in players and g == record.id)
    }
    ladder["version"] = ladder.get("version", 0) + 1
    return [["SET", key, jsontext.dumps_text(ladder)]]


def reranked(ranks: list[dict], record: GameRecord) -> list[dict]:
    """The ladder's ranks after `record` ended (RULES.md, "Events", Ladder)."""
    result = record.result
    if result is None or result.winner is None or result.reason == Reason.ABORTED:
        return ranks
    winner, loser = (record.seats[result.winner].account, record.seats[1 - result.winner].account)
    at = {entry["id"]: i for i, entry in enumerate(ranks)}
    if winner not in at or loser not in at or at[winner] < at[loser]:
        return ranks
    moved = ranks[at[winner]]
    rest = [e for e in ranks if e["id"] != winner]
    return rest[: at[loser]] + [moved] + rest[at[loser] :]
