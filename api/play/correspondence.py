"""Correspondence tools: conditional moves and private notes, each a seat's own, kept beside the
game record (`keys.conditional_key`, `keys.notes_key`) so that neither is ever in the game
object, its export to anyone else, its version or a spectator's view.

Conditional moves: the seat that has just moved leaves a tree of replies, each node `{"if",
"then", "next"}`: if the opponent plays `if`, the server answers `then`, and the branch below it
(`next`) stands for the opponent's next move. `if` and `then` are each a move, or a list of moves
where a turn has several actions (Partition): the opponent's whole turn, and the owner's. Every
move is checked legal against the engine when the tree is set. The opponent's move plays the
reply in the same change as itself (`answer`): one version, the reply's history entries, its
clock and its events as for any move. Any other move drops the tree, as do a takeback (the tree
names the takebacks it was set after) and the game's end (the store keeps no tree of a finished
game). Bots never read a tree.

>>> tree_size([{"if": 1, "then": 2, "next": [{"if": 3, "then": 4}]}, {"if": 5, "then": 6}])
(3, 2)
"""

from __future__ import annotations

import json
from typing import Any

from api.games import IllegalMove, MalformedMove, Move, State, get_game
from api.games.base import play_forced
from api.record import GameRecord, Status, history_entry
from api.record.errors import BadField, Conflict, GameOver, MovedOn, NotFound, NotYourTurn
from api.store import keys
from api.store.games import GameStore

MAX_NODES = 1000
MAX_LEVELS = 10
MAX_NOTES = 10_000


class BadTree(BadField):
    """A tree the rules refuse: `field` names the branch (`tree.0.next.1.then`)."""


# --- conditional moves ---


def set_tree(store: GameStore, game_id: str, seat: int, ply: int, tree: list[dict]) -> dict:
    """`seat`'s conditional moves from `ply` on (the game's ply as it saw it, its opponent to
    move), replacing any it had; what `get_tree` then shows. Written only while the game is as
    it was read to check the tree: a move landing first makes the ply stale (409)."""
    count, depth = tree_size(tree)
    if count > MAX_NODES:
        raise BadTree(
            "tree",
            f"A conditional tree holds at most {MAX_NODES} moves to answer; "
            f"this one holds {count}.",
        )
    if depth > MAX_LEVELS:
        raise BadTree(
            "tree",
            f"A conditional tree goes at most {MAX_LEVELS} levels deep; this one goes {depth}.",
        )
    while True:
        record, read = _load(store, game_id)
        _check_owner(record, seat, ply)
        checked = check_tree(record.state(), seat, tree)
        stored = {"ply": record.ply, "takebacks": record.takebacks, "tree": checked}
        key = keys.conditional_key(game_id, seat)
        writes = [["SET", key, json.dumps(stored)]] if checked else [["DEL", key]]
        if store.write_beside(game_id, read, writes):
            return _shown(stored if checked else None, record)


def get_tree(store: GameStore, game_id: str, seat: int) -> dict:
    """`seat`'s conditional moves as they stand: `{"kind", "ply", "tree"}` (an empty tree when
    it has none, or none that still counts)."""
    record, _ = _load(store, game_id)
    return _shown(_standing(record, store.seat_part(game_id, keys.conditional_key, seat)), record)


def drop_tree(store: GameStore, game_id: str, seat: int) -> None:
    """`seat` drops its conditional moves (nothing to drop is no error)."""
    _load(store, game_id)
    store.set_seat_part(game_id, keys.conditional_key, seat, None)


def answer(
    store: GameStore,
    record: GameRecord,
    mover: int,
    move: Move,
    now: float,
    read: bytes | None = None,
) -> tuple[list[dict], dict[str, bytes], list[list]]:
    """Within the change of `mover`'s `move`, already applied to `record`: the opponent's
    conditional reply, if its tree holds one for this move, applied to `record` too. Returns the
    reply's history entries, the key the change read (a guard: an edit of the tree landing first
    makes the change run again) and its writes (the tree's next branch, or its removal). `read`:
    the tree as the caller read it with the game (`GameStore.seat_and_read`), else read here."""
    owner = 1 - mover
    if record.seats[owner].bot is not None:
        return [], {}, []  # (a server bot keeps no tree)
    key = keys.conditional_key(record.id, owner)
    raw = store.seat_part(record.id, keys.conditional_key, owner) if read is None else read
    if not raw:
        return [], {key: raw}, []
    stored = json.loads(raw)
    ply_before = record.undo["ply"] if record.undo else None
    if stored["ply"] != ply_before or stored["takebacks"] != record.takebacks:
        return [], {key: raw}, [["DEL", key]]  # a tree set before a takeback
    played = move.to_dict()
    matching = [node for node in stored["tree"] if _moves(node["if"])[0] == played]
    if not matching or record.status is not Status.ACTIVE:
        return [], {key: raw}, [["DEL", key]]
    if record.to_move == mover:  # the opponent's turn goes on: the tree follows it
        rest = [{**node, "if": _one_or_many(_moves(node["if"])[1:])} for node in matching]
        return (
            [],
            {key: raw},
            [["SET", key, json.dumps({**stored, "ply": record.ply, "tree": rest})]],
        )
    node = matching[0]
    game = get_game(record.kind)
    state = record.state()
    entries: list[dict] = []
    try:
        for then in _moves(node["then"]):
            if state.to_move != owner:
                raise IllegalMove("It is not the owner's turn.")
            typed = game.parse_move(then)
            state = state.apply(typed)
            entries.append(history_entry(record.ply + len(entries), owner, typed, now))
            state, forced = play_forced(state)
            entries += [
                history_entry(record.ply + len(entries), seat, m, now) for seat, m in forced
            ]
    except (IllegalMove, MalformedMove):  # the position changed under the tree
        return [], {key: raw}, [["DEL", key]]
    record.end_turn(owner, state.to_move, now)
    record.set_state(state, record.ply + len(entries))
    record.finish_if_over()
    following = node.get("next") or []
    if not following or record.status is not Status.ACTIVE:
        return entries, {key: raw}, [["DEL", key]]
    return (
        entries,
        {key: raw},
        [["SET", key, json.dumps({**stored, "ply": record.ply, "tree": following})]],
    )


def check_tree(state: State, owner: int, tree: list[dict], where: str = "tree") -> list[dict]:
    """The tree with every move as the engine reads it, each checked legal from `state` (the
    opponent of `owner` to move); BadTree naming the branch at fault, MalformedMove the field."""
    game = type(state).game
    checked, seen = [], set()
    for i, node in enumerate(tree):
        at = f"{where}.{i}"
        after, ifs = _checked_moves(game, state, 1 - owner, node["if"], f"{at}.if")
        key = json.dumps(ifs, sort_keys=True)
        if key in seen:
            raise BadTree(f"{at}.if", f"Branch {at}: another branch above it has the same 'if'.")
        seen.add(key)
        if after.is_over():
            raise BadTree(
                f"{at}.then",
                f"Branch {at}: the game is over after its 'if': there is nothing to answer.",
            )
        if after.to_move != owner:
            raise BadTree(
                f"{at}.if",
                f"Branch {at}: after its 'if' your opponent is still to "
                f"move: list the rest of their turn in 'if'.",
            )
        after, thens = _checked_moves(game, after, owner, node["then"], f"{at}.then")
        if not after.is_over() and after.to_move == owner:
            raise BadTree(
                f"{at}.then",
                f"Branch {at}: after its 'then' it is still your turn: "
                f"list the rest of your turn in 'then'.",
            )
        following = node.get("next") or []
        if following and after.is_over():
            raise BadTree(
                f"{at}.next",
                f"Branch {at}: the game is over after its 'then': it has no branch below.",
            )
        out = {"if": ifs, "then": thens}
        if following:
            out["next"] = check_tree(after, owner, following, f"{at}.next")
        checked.append(out)
    return checked


def tree_size(tree: list[dict], depth: int = 1) -> tuple[int, int]:
    """How many nodes a tree holds, and how many levels deep it goes (counted before the moves
    are read, so an oversized tree costs no engine work)."""
    count, deepest = 0, depth if tree else 0
    for node in tree:
        below, levels = (
            tree_size(node.get("next") or [], depth + 1) if isinstance(node, dict) else (0, 0)
        )
        count, deepest = count + 1 + below, max(deepest, levels)
    return count, deepest


def _checked_moves(game, state: State, seat: int, given: Any, at: str) -> tuple[State, Any]:
    """`given` (a move or a list of moves of `seat`) applied from `state`, each read and checked;
    the state after them (and the server's passes) and the moves as the engine writes them."""
    moves = _moves(given)
    if not moves:
        raise BadTree(
            at, f"Branch {at.rsplit('.', 1)[0]}: its '{at.rsplit('.', 1)[1]}' holds no move."
        )
    out = []
    for j, raw in enumerate(moves):
        field = at if isinstance(given, dict) else f"{at}.{j}"
        if state.is_over() or state.to_move != seat:
            raise BadTree(
                field, f"Branch {at.rsplit('.', 1)[0]}: {field} comes after the turn is over."
            )
        try:
            typed = game.parse_move(raw)
        except MalformedMove as malformed:
            raise MalformedMove(malformed.message, f"{field}{malformed.field[4:]}") from None
        try:
            state = state.apply(typed)
        except IllegalMove as illegal:
            raise BadTree(
                field, f"Branch {at.rsplit('.', 1)[0]}: {field} is illegal there: {illegal.message}"
            ) from None
        state, _ = play_forced(state)
        out.append(typed.to_dict())
    return state, out[0] if isinstance(given, dict) else out


def _moves(given: Any) -> list:
    """A node's `if` or `then` as a list of moves."""
    return [given] if isinstance(given, dict) else list(given or [])


def _one_or_many(moves: list) -> Any:
    return moves[0] if len(moves) == 1 else moves


def _standing(record: GameRecord, raw: bytes) -> dict | None:
    """The stored tree, while it still counts: the game at its ply, no takeback since."""
    if not raw or record.status is not Status.ACTIVE:
        return None
    stored = json.loads(raw)
    if stored["ply"] != record.ply or stored["takebacks"] != record.takebacks:
        return None
    return stored


def _shown(stored: dict | None, record: GameRecord) -> dict:
    return {
        "kind": record.kind,
        "ply": record.ply if stored is None else stored["ply"],
        "tree": [] if stored is None else stored["tree"],
    }


def _check_owner(record: GameRecord, seat: int, ply: int) -> None:
    """Conditional moves are set by the seat that has just moved, at the ply it saw."""
    if record.status is Status.FINISHED:
        raise GameOver("The game is over.")
    if record.status is not Status.ACTIVE:
        raise Conflict("The game has not started: a seat is still open.")
    if record.ply != ply:
        raise MovedOn(
            f"The game has moved on: it is at ply {record.ply}, and your conditional "
            f"moves were made at ply {ply}. Reload and try again."
        )
    if record.to_move == seat:
        raise NotYourTurn(
            "It is your turn: conditional moves are set after your move, while "
            "your opponent is to move."
        )


def _load(store: GameStore, game_id: str) -> tuple[GameRecord, bytes]:
    found = store.load_and_read(game_id)
    if found is None:
        raise NotFound(f"There is no game {game_id!r}.")
    return found


# --- private notes ---


def get_notes(store: GameStore, game_id: str, seat: int) -> dict:
    """`seat`'s private notes on the game (`{"text"}`, "" when it has none)."""
    _load(store, game_id)
    return {"text": store.seat_part(game_id, keys.notes_key, seat).decode()}


def set_notes(store: GameStore, game_id: str, seat: int, text: str) -> dict:
    """`seat` replaces its notes (at most MAX_NOTES characters; empty removes them)."""
    if len(text) > MAX_NOTES:
        raise BadField(
            "text", f"Notes hold at most {MAX_NOTES:,} characters; these have {len(text):,}."
        )
    _load(store, game_id)
    store.set_seat_part(game_id, keys.notes_key, seat, text.encode() or None)
    return {"text": text}
