"""The game object as the API shows it: what a game response carries, and what a webhook's
`data` holds. Here rather than in api/web so that the workers render the same object."""

from __future__ import annotations

import time

from api.clocks import iso
from api.record import GameRecord


def game_view(record: GameRecord, now: float | None = None) -> dict:
    """The game object of the API, its clocks as they stand at `now`."""
    deadline = record.deadline()
    now = time.time() if now is None else now
    return {
        "id": record.id,
        "kind": record.kind,
        "options": record.options,
        "seed": record.seed,
        "status": record.status.value,
        "seats": [s.view() for s in record.seats],
        "first": record.first,
        "to_move": record.to_move,
        "ply": record.ply,
        "version": record.version,
        "state": {**record.state_data, **record.state().facts()},
        "result": None if record.result is None else record.result.to_dict(),
        "time_control": record.time_control.to_dict(),
        "clocks": record.clocks_view(now),
        "deadline": None if deadline is None else iso(deadline),
        "created_at": iso(record.created_ts),
        "updated_at": iso(record.updated_ts),
        "playtest": record.playtest,
        "rated": bool(record.rated),
        "rating_changes": record.rating_changes,
        "offers": record.offers,
        "takebacks": record.takebacks,
        "chat_count": record.chat_count,
        "imported": record.imported,
        "on_vacation": record.on_vacation(now),
        "event": record.event,
    }
