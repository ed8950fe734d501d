"""A game's chat: its players write (plain text; the schema checks its length and characters),
everyone reads it once the game is over, the players at any time. Messages are kept beside the
record, appended in the same script that counts them on it (`GameRecord.chat_count`), so the
count is the chat's length and a new message shows as a new version of the game."""

from __future__ import annotations

import time

from api.clocks import iso
from api.record.errors import Conflict, Forbidden, NotFound
from api.record import GameRecord, Status
from api.play.service import _update
from api.store.games import Change, GameStore

MAX_TEXT = 500
MAX_MESSAGES = 1000  # per game: a chat is for a game's players, not a channel


def post(store: GameStore, game_id: str, seat: int, text: str, now: float | None = None) -> dict:
    """`seat` says `text` in the game's chat; the message as `read` shows it."""
    now = time.time() if now is None else now

    def change(record: GameRecord) -> Change:
        if record.chat_count >= MAX_MESSAGES:
            raise Conflict(f"This game's chat is full: it holds {MAX_MESSAGES} messages.")
        record.chat_count += 1
        return Change(record, chat=[{"seat": seat, "text": text, "at": iso(now)}], at=now)

    written = _update(store, game_id, change)
    return _shown(written.record, written.chat[0])


def read(store: GameStore, game_id: str, seat: int | None) -> list[dict]:
    """The chat, oldest first, for a player of the game (`seat`) or, once it is over, anyone."""
    record = store.load(game_id)
    if record is None:
        raise NotFound(f"There is no game {game_id!r}.")
    if seat is None and record.status is not Status.FINISHED:
        raise Forbidden(
            "The chat is the players' while the game runs: everyone may read it "
            "once the game is over."
        )
    return [_shown(record, message) for message in store.chat(game_id)]


def _shown(record: GameRecord, message: dict) -> dict:
    """A message with its writer's name as the seat shows it now (an account deleted since
    shows as deleted)."""
    return {**message, "name": record.seats[message["seat"]].name}
