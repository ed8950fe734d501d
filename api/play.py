"""The one code path for everything that changes a game: create, join, move, resign, and the
moves the workers make for bots. Web routes and worker jobs both call these functions; they know
nothing of HTTP. Data flows one way: engine -> store -> follow-up jobs.
"""
from __future__ import annotations

import random
import secrets
import time
import uuid
from typing import Any, Iterator, Protocol

from api import clocks
from api.clocks import iso
from api.bots import choose_move
from api.bots import levels as bot_levels
from api.bots.match import PLY_LIMIT
from api.games import BadOption, Game, IllegalMove, MalformedMove, Move, Outcome, State, get_game
from api.games.base import play_forced
from api.games.registry import GAMES
from api.store.games import Change, GameStore, TokenOfAnotherGame, TokenUnknown


class PlayError(Exception):
    """A refusal the API turns into an HTTP status; `message` is for the player."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(PlayError):
    status = 404


class Unauthorized(PlayError):
    status = 401


class Forbidden(PlayError):
    status = 403


class Conflict(PlayError):
    status = 409


class Stale(LookupError):
    """The game has moved on: a job has nothing to do."""


class Followups(Protocol):
    """The worker jobs that changes call for (bot moves, deadlines, analyses)."""

    def after_change(self, doc: dict) -> None: ...

    def request_analysis(self, game_id: str, ply: int) -> None: ...


def load_state(doc: dict) -> State:
    return get_game(doc["kind"]).state_class.from_dict(doc["state"])


def create_game(store: GameStore, followups: Followups, kind: str, options: dict | None,
                seats: list[dict], first: int | str = "random", time_control: dict | None = None,
                now: float | None = None) -> tuple[dict, dict[str, str]]:
    """A new game and the tokens of its human seats (`{"0": token}`)."""
    now = time.time() if now is None else now
    game = _game_for(kind)
    checked = game.check_options(options)
    seat_docs = [_seat(game, i, seat) for i, seat in enumerate(seats)]
    tc = clocks.check(time_control if time_control is not None else game.default_time_control)
    checked = game.settle_options(checked, tc)
    if first == "random":
        first = secrets.randbelow(2)
    seed = secrets.randbits(32)
    state = game.new(checked, first, seed)
    state, forced = _forced_moves(state, 0, now)
    open_seats = any(s["open"] for s in seat_docs)
    doc = {
        "id": uuid.uuid4().hex[:12], "kind": kind, "options": checked, "seed": seed,
        "status": "waiting" if open_seats else "active", "seats": seat_docs, "first": first,
        "unlisted": any(s.get("listed") is False for s in seat_docs),
        "ply": len(forced), "version": 1, "state": state.to_dict(), "result": None,
        "time_control": tc, "clocks": clocks.start(tc), "turn_started_ts": now,
        "created_at": iso(now), "updated_at": iso(now), "created_ts": now,
    }
    _finish_if_over(doc, state)
    tokens = {i: secrets.token_urlsafe(24) for i, s in enumerate(seat_docs)
              if not s["open"] and s["bot"] is None}
    store.create(doc, tokens, forced)
    followups.after_change(doc)
    return doc, {str(i): t for i, t in tokens.items()}


def join(store: GameStore, followups: Followups, game_id: str, name: str,
         now: float | None = None) -> tuple[dict, str, int]:
    """Take the first open seat; return the game, the seat's token and its index."""
    now = time.time() if now is None else now
    token = secrets.token_urlsafe(24)
    taken: list[int] = []

    def change(doc: dict) -> Change:
        open_seats = [i for i, s in enumerate(doc["seats"]) if s["open"]]
        if not open_seats:
            raise Conflict("This game has no open seat left.")
        seat = open_seats[0]
        taken[:] = [seat]
        doc["seats"][seat] = {"name": name, "bot": None, "open": False}
        if len(open_seats) == 1:
            doc["status"] = "active"
            doc["turn_started_ts"] = now
        touch(doc, now)
        return Change(doc, tokens={seat: token})

    doc = _update(store, game_id, change)
    followups.after_change(doc)
    return doc, token, taken[0]


def seat_of(store: GameStore, game_id: str, token: str | None) -> int:
    if not token:
        raise Unauthorized("This needs your seat's token: send 'Authorization: Bearer <token>'.")
    try:
        return store.seat_for_token(game_id, token)
    except KeyError:
        raise NotFound(f"There is no game {game_id!r}.") from None
    except TokenUnknown:
        raise Unauthorized("That token does not belong to any seat.") from None
    except TokenOfAnotherGame:
        raise Forbidden("That token belongs to a seat of another game.") from None


def parse_move(doc: dict, data: Any) -> Move:
    """The typed move; MalformedMove when it is not of the game's shape."""
    return get_game(doc["kind"]).parse_move(data)


def play_move(store: GameStore, followups: Followups, game_id: str, seat: int, move: Move | Any,
              ply: int, now: float | None = None) -> dict:
    """Apply `move` for `seat`, expected at `ply`, then the server's forced moves (passes). A
    move given as the API's JSON object is parsed first, against the game as it is read for the
    update (MalformedMove names the field at fault)."""
    now = time.time() if now is None else now
    flag_fell = []

    def change(doc: dict) -> Change:
        flag_fell.clear()
        typed = move if isinstance(move, Move) else parse_move(doc, move)
        if doc["status"] == "finished":
            raise Conflict("The game is over.")
        if doc["status"] == "waiting":
            raise Conflict("The game has not started: a seat is still open.")
        if doc["ply"] != ply:
            raise Conflict(f"The game has moved on: it is at ply {doc['ply']}, "
                           f"and your move was made at ply {ply}. Reload and try again.")
        state = load_state(doc)
        if state.to_move != seat:
            raise Conflict("It is not your turn.")
        if clocks.flagged(doc, seat, now):
            clocks.end_on_time(doc, seat)
            touch(doc, now)
            flag_fell.append(True)
            return Change(doc)
        after = state.apply(typed)
        entries = [_entry(doc["ply"], seat, typed, now)]
        after, forced = _forced_moves(after, doc["ply"] + 1, now)
        clocks.charge(doc, seat, now, next_seat=after.to_move)
        doc.setdefault("first_move_ts", now)
        doc["state"] = after.to_dict()
        doc["ply"] += len(entries) + len(forced)
        _finish_if_over(doc, after)
        touch(doc, now)
        return Change(doc, entries + forced)

    doc = _update(store, game_id, change)
    followups.after_change(doc)
    if flag_fell:
        raise Conflict("Your time ran out before this move arrived: the game is over.")
    return doc


def resign(store: GameStore, followups: Followups, game_id: str, seat: int,
           now: float | None = None) -> dict:
    now = time.time() if now is None else now

    def change(doc: dict) -> Change:
        if doc["status"] == "finished":
            raise Conflict("The game is over.")
        _finish(doc, Outcome(1 - seat, "resign", None))
        touch(doc, now)
        return Change(doc)

    doc = _update(store, game_id, change)
    followups.after_change(doc)
    return doc


def end_on_time_change(deadline_ts: float, now: float):
    """The change that ends a game on time, if its turn with that deadline is still pending."""

    def change(doc: dict) -> Change:
        mover = load_state(doc).to_move
        if clocks.deadline_ts(doc, mover) != deadline_ts or now < deadline_ts:
            raise Stale
        clocks.end_on_time(doc, mover)
        touch(doc, now)
        return Change(doc)

    return change


def replay(doc: dict, history: list[dict]) -> Iterator[State]:
    """The game's state after each entry of `history`, replayed from its start."""
    game = get_game(doc["kind"])
    state = game.new(doc["options"], doc["first"], doc["seed"])
    for entry in history:
        move = state.forced_move() if entry["move"]["type"] == "pass" else game.parse_move(
            entry["move"])
        state = state.apply(move)
        yield state


def positions(doc: dict, history: list[dict],
              start: int = 0) -> Iterator[tuple[int, State, dict | None]]:
    """(ply, state after it, the history entry that led there) for every ply from `start` to
    the game's last; ply 0 is the start position, reached by no entry."""
    game = get_game(doc["kind"])
    state = game.new(doc["options"], doc["first"], doc["seed"])
    if start == 0:
        yield 0, state, None
    for ply, (entry, state) in enumerate(zip(history, replay(doc, history)), start=1):
        if ply >= start:
            yield ply, state, entry


def bot_to_move(doc: dict, mover: int | None) -> str | None:
    """The level of the bot in seat `mover`, the seat to move, if a running game has one there."""
    if doc["status"] != "active" or mover is None:
        return None
    return doc["seats"][mover]["bot"]


def play_bot_move(store: GameStore, followups: Followups, game_id: str, ply: int,
                  budget_s: float, now_fn=time.time, ply_limit: int = PLY_LIMIT) -> dict | None:
    """The worker's bot move for the game at `ply`; None (a no-op) when the game has moved on.
    A game between two bots that reaches `ply_limit` is aborted instead."""
    doc = store.load(game_id)
    if doc is None or doc["ply"] != ply:
        return None
    state = load_state(doc)
    level = bot_to_move(doc, state.to_move)
    if level is None:
        return None
    if ply >= ply_limit and all(seat["bot"] for seat in doc["seats"]):
        return _abort_at_ply_limit(store, followups, game_id, ply, now_fn())
    rng = random.Random(f"{doc['seed']}:{ply}")
    move = choose_move(state, level, rng, budget_s)
    try:
        return play_move(store, followups, game_id, state.to_move, move, ply, now=now_fn())
    except Conflict:
        return None  # someone else moved (a resignation, a duplicate job): nothing to do


def _abort_at_ply_limit(store: GameStore, followups: Followups, game_id: str, ply: int,
                        now: float) -> dict | None:
    def change(doc: dict) -> Change:
        if doc["status"] != "active" or doc["ply"] != ply:
            raise Stale
        _finish(doc, Outcome(None, "aborted", None))
        touch(doc, now)
        return Change(doc)

    try:
        doc = _update(store, game_id, change)
    except Stale:
        return None
    followups.after_change(doc)
    return doc


def public(doc: dict) -> dict:
    """The game object of the API."""
    state = load_state(doc)
    to_move = state.to_move if doc["status"] == "active" else None
    return {
        "id": doc["id"], "kind": doc["kind"], "options": doc["options"], "seed": doc["seed"],
        "status": doc["status"], "seats": doc["seats"], "first": doc["first"], "to_move": to_move,
        "ply": doc["ply"], "version": doc["version"], "state": doc["state"],
        "result": doc["result"], "time_control": doc["time_control"],
        "clocks": clocks.view(doc, to_move, time.time()),
        "deadline": _iso_or_none(clocks.deadline_ts(doc, to_move)),
        "created_at": doc["created_at"], "updated_at": doc["updated_at"],
        "playtest": doc.get("playtest"),
    }


def _iso_or_none(ts: float | None) -> str | None:
    return None if ts is None else iso(ts)


def _game_for(kind: str) -> type[Game]:
    if kind not in GAMES:
        raise BadOption("kind", f"There is no game {kind!r}; the games are "
                                f"{', '.join(sorted(GAMES))}.")
    return GAMES[kind]


SEAT_SHAPES = ('A seat is {"human": {"name": ...}}, {"bot": "<level>"} or {"open": true} '
               '(add "listed": false to keep it out of the lobby, for a friend you invite).')


def _seat(game: type[Game], index: int, seat: Any) -> dict:
    field = f"seats.{index}"
    if not isinstance(seat, dict):
        raise MalformedMove(SEAT_SHAPES, field)
    if "open" in seat:
        listed = seat.get("listed", True)
        if seat["open"] is not True or not isinstance(listed, bool) or set(seat) - {"open",
                                                                                  "listed"}:
            raise MalformedMove(SEAT_SHAPES, field)
        return {"name": None, "bot": None, "open": True, "listed": listed}
    if set(seat) == {"human"}:
        name = seat["human"].get("name") if isinstance(seat["human"], dict) else None
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 40:
            raise MalformedMove("A human seat needs a name of 1 to 40 characters.",
                                f"{field}.human.name")
        return {"name": name.strip(), "bot": None, "open": False}
    if set(seat) == {"bot"}:
        levels = bot_levels(game.slug)
        if seat["bot"] not in levels:
            raise BadOption(f"{field}.bot", f"{game.title} has no bot {seat['bot']!r}; its bots "
                                            f"are {', '.join(levels) or 'none yet'}.")
        return {"name": f"{seat['bot'].capitalize()} bot", "bot": seat["bot"], "open": False}
    raise MalformedMove(SEAT_SHAPES, field)


def _forced_moves(state: State, ply: int, now: float) -> tuple[State, list[dict]]:
    """The server's own moves after `ply`, as history entries."""
    state, played = play_forced(state)
    return state, [_entry(ply + i, seat, move, now) for i, (seat, move) in enumerate(played)]


def _entry(ply: int, seat: int, move: Move, now: float) -> dict:
    return {"ply": ply, "seat": seat, "move": move.to_dict(), "at": iso(now)}


def _finish_if_over(doc: dict, state: State) -> None:
    outcome = state.outcome()
    if outcome is not None:
        _finish(doc, outcome)


def _finish(doc: dict, outcome: Outcome) -> None:
    doc["status"] = "finished"
    doc["result"] = outcome.to_dict()


def touch(doc: dict, now: float) -> None:
    """Mark the document changed: a new version (and ETag)."""
    doc["version"] += 1
    doc["updated_at"] = iso(now)


def _update(store: GameStore, game_id: str, change) -> dict:
    try:
        return store.update(game_id, change)
    except KeyError:
        raise NotFound(f"There is no game {game_id!r}.") from None


__all__ = ["BadOption", "Change", "Conflict", "Forbidden", "IllegalMove", "MalformedMove",
           "NotFound", "PlayError", "Stale", "Unauthorized", "bot_to_move", "create_game",
           "end_on_time_change", "join", "load_state", "parse_move", "play_bot_move", "play_move",
           "positions", "public", "replay", "resign", "seat_of", "touch"]
