"""Prime Drop's timeout rule, run by the worker: once the game has lasted `after_s` since its
first move, the first player to hold strictly fewer tiles at the end of `streak` turns in a row
wins. The verdict is the engine's pure `timeout_rule_winner`; this module feeds it the turns from
the game's history and ends the game."""
from __future__ import annotations

from datetime import datetime

from api.games.prime_drop import timeout_rule_winner
from api.play import Change, Stale, replay, touch
from api.store.games import GameStore


def rule_of(doc: dict) -> dict | None:
    """The game's timeout rule (`{"after_s", "streak"}`), or None when it has none."""
    return doc["options"].get("timeout_rule") if doc["kind"] == "prime-drop" else None


def starts_at(doc: dict) -> float | None:
    """When the rule starts counting: `after_s` after the first move (None before it)."""
    rule = rule_of(doc)
    if rule is None or doc.get("first_move_ts") is None:
        return None
    return doc["first_move_ts"] + rule["after_s"]


def turns(store: GameStore, doc: dict) -> list[tuple[float, tuple[int, int]]]:
    """Every completed turn as (seconds since the first move, both tile counts after it)."""
    history = store.moves(doc["id"])
    return [(_ts(entry["at"]) - doc["first_move_ts"], tuple(state.tiles_left))
            for entry, state in zip(history, replay(doc, history))]


def verdict_change(store: GameStore, ply: int, now: float):
    """The change that ends the game at `ply` by the rule, if the rule gives a winner."""

    def change(doc: dict) -> Change:
        start = starts_at(doc)
        if doc["status"] != "active" or doc["ply"] != ply or start is None or now < start:
            raise Stale
        rule = rule_of(doc)
        winner = timeout_rule_winner(turns(store, doc), rule["after_s"], rule["streak"])
        if winner is None:
            raise Stale
        doc["status"] = "finished"
        doc["result"] = {"winner": winner, "reason": "timeout-rule", "scores": None}
        touch(doc, now)
        return Change(doc)

    return change


def _ts(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
