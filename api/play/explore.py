"""The explore board: moves tried from a position without touching any game. Stateless: it reads
a game only to find the position to start from, writes nothing, and answers the positions the
engine reaches, the legal moves and the outcome, never a verdict or a bot's move (a running
game's analysis stays the solver's, once it is over)."""

from __future__ import annotations

from typing import Any

from api.games import GAMES, IllegalMove, MalformedMove, Move, State
from api.games.base import play_forced
from api.play.service import position
from api.record.errors import BadField, NotFound
from api.store.games import GameStore

MAX_MOVES = 200


def explore(
    store: GameStore,
    kind: str,
    moves: list[Any],
    options: dict | None = None,
    state: dict | None = None,
    game_id: str | None = None,
    ply: int | None = None,
) -> dict:
    """`moves` played from `state` (a state of `kind`, as a game object shows it), from game
    `game_id` at `ply` (its current one when None), or else from the start of a game of `kind`
    with `options` (the first seat to move): `{"positions": [{"ply", "state", "to_move",
    "move"}], "legal_moves", "complete", "note", "outcome"}`, the first position the start and
    one per ply after it, the server's passes included, as a game's `/positions` shows them."""
    if kind not in GAMES:
        raise NotFound(f"There is no game {kind!r}; the games are {', '.join(sorted(GAMES))}.")
    if len(moves) > MAX_MOVES:
        raise BadField(
            "moves", f"Explore at most {MAX_MOVES} moves at once; these are {len(moves)}."
        )
    game = GAMES[kind]
    start, at = _start(store, game, options, state, game_id, ply)
    positions = [_position(at, start, None, None)]
    current = start
    for _, passed in play_forced(start)[1]:  # as a game plays them at once
        at += 1
        before, current = current, current.apply(passed)
        positions.append(_position(at, current, passed, before))
    for i, given in enumerate(moves):
        try:
            typed = game.parse_move(given)
        except MalformedMove as malformed:
            raise MalformedMove(malformed.message, f"moves.{i}{malformed.field[4:]}") from None
        before = current
        current, forced = _apply(current, typed, i)
        at += 1
        positions.append(_position(at, current, typed, before))
        for _, passed in forced:
            at += 1
            before, current = current, current.apply(passed)
            positions.append(_position(at, current, passed, before))
    listing = (
        current.legal_moves_listing()
        if not current.is_over()
        else {"moves": [], "complete": True, "note": "The game is over."}
    )
    outcome = current.outcome()
    return {
        "positions": positions,
        "legal_moves": listing["moves"],
        "complete": listing["complete"],
        "note": listing["note"],
        "outcome": None if outcome is None else outcome.to_dict(),
    }


def _apply(state: State, move, i: int) -> tuple[State, list]:
    """The state after move `i` (refused naming it), and the server's passes that follow it
    (not yet applied: each is a position of its own)."""
    if state.is_over():
        raise BadField(f"moves.{i}", f"Move {i}: the game is over before it.")
    try:
        after = state.apply(move)
    except IllegalMove as illegal:
        raise BadField(f"moves.{i}", f"Move {i} is illegal: {illegal.message}") from None
    return after, play_forced(after)[1]


def _start(
    store: GameStore,
    game,
    options: dict | None,
    state: dict | None,
    game_id: str | None,
    ply: int | None,
) -> tuple[State, int]:
    """The position to start from, and its ply."""
    if game_id is not None:
        record = store.load(game_id)
        if record is None:
            raise NotFound(f"There is no game {game_id!r}.")
        if record.kind != game.slug:
            raise BadField("game_id", f"Game {game_id} is {record.kind}, not {game.slug}.")
        return position(store, record, ply), record.ply if ply is None else ply
    if state is not None:
        return _read_state(game, state), ply or 0
    return game.new(game.check_options(options), 0, 0), 0


def _read_state(game, data: dict) -> State:
    """A state given by the client, read by its game and refused unless it reads back exactly
    as given (a state the engine could not have made is no position to explore)."""
    try:
        state = game.state_class.from_dict(data)
        # some engines work out the end to know who moves: a broken state fails there
        exact = data in (state.to_dict(), state.view()) and state.to_move in (None, 0, 1)
    except Exception:  # noqa: BLE001 (an engine reads its own states: anything else is the client's)
        exact = False
    if not exact:
        raise BadField("state", f"That is not a {game.title} state as a game object shows it.")
    return state


def _position(ply: int, state: State, move: Move | None, before: State | None) -> dict:
    """A position as a game's `/positions` shows it: the move that led there (made in
    `before`) and its words."""
    return {
        "ply": ply,
        "state": state.view(),
        "to_move": state.to_move,
        "move": None if move is None else move.to_dict(),
        "words": None if move is None or before is None else move.words(before),
    }
