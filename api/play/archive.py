"""Export and import: a game as one JSON document (its setup, every history entry, its result),
and a finished game's document read back as a new game, checked by replaying every entry with the
engine. The imported game is marked `imported`: finished, unrated, on no clock, owed nothing by
the workers (its record is finished, so the store writes no due check and no bot to move).
The chat stays out of the document: it is the players'."""

from __future__ import annotations

import time
import uuid

from api import clocks
from api.bots.match import PLY_LIMIT
from api.clocks import iso, parse_iso
from api.games import Game, IllegalMove, MalformedMove, Outcome, Reason, State, UnknownField
from api.record.errors import BadField, NotFound
from api.record import GameRecord, Seat, Status
from api.record.reasons import REASONS
from api.play import correspondence
from api.play.service import _check_bots, _game_for, told_positions
from api.store.games import GameStore

FORMAT = "postplay-game"
VERSION = 1
MAX_PLIES = PLY_LIMIT  # as long as a game between two bots may last
# the ways the server (not the moves alone) ends a game, and whom each lets win: a seat, nobody,
# either
SERVER_ENDINGS = {
    reason: ending.winner for reason, ending in REASONS.items() if not ending.by_moves
}


def export(store: GameStore, game_id: str, seat: int | None = None) -> dict:
    """The game as one document that `import_game` reads back once the game is over; for a
    seat of the game (`seat`), with that seat's private notes; each move with its words."""
    record = store.load(game_id)
    if record is None:
        raise NotFound(f"There is no game {game_id!r}.")
    notes = (
        {} if seat is None else {"notes": correspondence.get_notes(store, game_id, seat)["text"]}
    )
    history = store.moves(game_id)
    try:  # the stored history replays, move by move, or the store is corrupt: no refusal
        told = [words for _, _, _, words in told_positions(record, history, start=1)]
    except (MalformedMove, UnknownField, IllegalMove) as broken:
        raise RuntimeError(f"game {game_id}'s history does not replay: {broken}") from None
    return {
        **notes,
        "format": FORMAT,
        "version": VERSION,
        "id": record.id,
        "kind": record.kind,
        "options": record.options,
        "seed": record.seed,
        "first": record.first,
        "seats": [{"name": s.name, "bot": s.bot} for s in record.seats],
        "time_control": record.time_control.to_dict(),
        "status": record.status.value,
        "result": None if record.result is None else record.result.to_dict(),
        "imported": record.imported,
        "created_at": iso(record.created_ts),
        "updated_at": iso(record.updated_ts),
        "moves": [{**entry, "words": words} for entry, words in zip(history, told)],
    }


def import_game(store: GameStore, document: dict, now: float | None = None) -> GameRecord:
    """A new, finished game from an exported document (its fields checked by the schema). A
    record whose moves the rules refuse, or whose result does not follow from them, is refused
    with BadField naming the entry (`moves.12.move`) and the ply."""
    now = time.time() if now is None else now
    game = _game_for(document["kind"])
    options = game.check_options(document["options"])
    tc = clocks.check(document["time_control"])
    for rule in game.background_rules:
        options = rule.settle(options, tc.to_dict())
    seats = [Seat(s["name"], bot=s.get("bot")) for s in document["seats"]]
    _check_bots(game, seats, options)
    if document["result"] is None:
        raise BadField("result", "Only a finished game can be imported: this one has no result.")
    state, entries = _replay(game, options, document["first"], document["seed"], document["moves"])
    outcome = _result(state, document["result"])
    record = GameRecord.create(
        uuid.uuid4().hex[:12],
        game.slug,
        options,
        document["seed"],
        document["first"],
        seats,
        state,
        len(entries),
        tc,
        None,
        now,
    )
    if record.status is not Status.FINISHED:
        record.finish(outcome)
    record.imported = True
    record.first_move_ts = parse_iso(entries[0]["at"]) if entries else None
    store.create(record, {}, entries)
    return record


def _replay(
    game: type[Game], options: dict, first: int, seed: int, moves: list[dict]
) -> tuple[State, list[dict]]:
    """The state after every entry, each checked against the rules, and the history to store."""
    state = game.new(options, first, seed)
    entries = []
    for ply, entry in enumerate(moves):
        where = f"moves.{ply}"
        if entry["ply"] != ply:
            raise BadField(
                f"{where}.ply",
                f"Ply {ply}: the entry says ply {entry['ply']}; entries count from 0, one per ply.",
            )
        if state.is_over():
            raise BadField(where, f"Ply {ply}: the game was over before this entry.")
        if entry["seat"] != state.to_move:
            raise BadField(
                f"{where}.seat",
                f"Ply {ply}: seat {state.to_move} is to move, not seat {entry['seat']}.",
            )
        move = _move(game, state, entry["move"], ply, where)
        try:
            state = state.apply(move)
        except ValueError as illegal:
            raise BadField(f"{where}.move", f"Ply {ply}: {_message(illegal)}") from None
        try:
            at = iso(parse_iso(entry["at"]))
        except (ValueError, OverflowError, OSError):
            raise BadField(
                f"{where}.at", f"Ply {ply}: 'at' must be a time such as 2026-01-31T12:00:00.000Z."
            ) from None
        entries.append({"ply": ply, "seat": entry["seat"], "move": move.to_dict(), "at": at})
    return state, entries


def _move(game: type[Game], state: State, given, ply: int, where: str):
    """The entry's move: the server's own pass exactly where the rules call for one."""
    forced = state.forced_move()
    is_pass = isinstance(given, dict) and given.get("type") == "pass"
    if forced is not None and not is_pass:
        raise BadField(
            f"{where}.move",
            f"Ply {ply}: seat {state.to_move} has no legal move "
            f"here, so the server passes for them.",
        )
    if forced is not None:
        return forced
    if is_pass:
        raise BadField(
            f"{where}.move",
            f"Ply {ply}: seat {state.to_move} has a legal move, so there is no pass here.",
        )
    try:
        return game.parse_move(given)
    except ValueError as malformed:
        field = getattr(malformed, "field", "move")
        raise BadField(f"{where}.{field}", f"Ply {ply}: {_message(malformed)}") from None


def _result(state: State, given: dict) -> Outcome:
    """The result the record states, where it follows from the moves."""
    try:
        reason = Reason(given["reason"])
    except ValueError:
        raise BadField(
            "result.reason",
            f"There is no result reason {given['reason']!r}; they "
            f"are {', '.join(r.value for r in Reason)}.",
        ) from None
    outcome = Outcome(given["winner"], reason, given.get("scores"))
    final = state.outcome()
    if final is not None:
        if final != outcome:
            raise BadField(
                "result",
                f"The moves end the game with {final.to_dict()}, not "
                f"with the record's result {outcome.to_dict()}.",
            )
        return final
    wins = SERVER_ENDINGS.get(reason)
    if wins is None:
        raise BadField(
            "result.reason",
            f"The moves do not end the game, so it cannot have ended by {reason.value!r}.",
        )
    if (wins == "seat" and outcome.winner is None) or (
        wins == "nobody" and outcome.winner is not None
    ):
        raise BadField(
            "result.winner",
            f"A game ended by {reason.value!r} has "
            f"{'a winner' if wins == 'seat' else 'no winner'}.",
        )
    return outcome


def _message(error: ValueError) -> str:
    return getattr(error, "message", None) or str(error)
