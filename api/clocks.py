"""Time controls: pure arithmetic on server timestamps (seconds since the epoch).

A game record carries `time_control`, `clocks` (one per seat, as charged after that seat's last
move) and `turn_started_ts`; these functions take those values and return new ones. The mover's clock is charged atomically with the move; `deadline` is
when the mover's time runs out, and the worker ends the game then even if nobody is looking.

Kinds: none; fischer (initial + increment); byoyomi (main time, then P periods of T s: a move
inside a period keeps it, each period overrun is used up, overrunning the last loses);
correspondence (D days for every move); banked (an initial bank, an increment per move, a cap).
"""
from __future__ import annotations

import functools
import math
from datetime import datetime, timezone

from api.games import Outcome, Reason

DAY_S = 86400

SHAPES = {
    "none": {},
    "fischer": {"initial_s": (1, 30 * DAY_S), "increment_s": (0, DAY_S)},
    "byoyomi": {"main_s": (0, 30 * DAY_S), "periods": (1, 30), "period_s": (1, DAY_S)},
    "correspondence": {"days_per_move": (1, 60)},
    "banked": {"initial_s": (1, 60 * DAY_S), "increment_s": (0, 30 * DAY_S),
               "max_s": (1, 120 * DAY_S)},
}


class BadTimeControl(ValueError):
    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


def check(tc: object) -> dict:
    """The time control, validated; BadTimeControl names the field at fault."""
    if not isinstance(tc, dict) or tc.get("type") not in SHAPES:
        raise BadTimeControl("time_control.type",
                             f"Time control type must be one of {', '.join(SHAPES)}.")
    shape = SHAPES[tc["type"]]
    for name in tc:
        if name != "type" and name not in shape:
            raise BadTimeControl(f"time_control.{name}",
                                 f"A {tc['type']} time control has no field {name!r}.")
    for name, (lo, hi) in shape.items():
        value = tc.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
            raise BadTimeControl(f"time_control.{name}",
                                 f"{name} must be a number from {lo} to {hi}.")
    if tc["type"] == "banked" and tc["initial_s"] > tc["max_s"]:
        raise BadTimeControl("time_control.initial_s", "initial_s may not exceed max_s.")
    return dict(tc)


def fresh_clock(tc: dict) -> dict | None:
    kind = tc["type"]
    if kind == "none":
        return None
    if kind in ("fischer", "banked"):
        return {"remaining_s": float(tc["initial_s"])}
    if kind == "byoyomi":
        return {"remaining_s": float(tc["main_s"]), "periods_left": tc["periods"]}
    return {"remaining_s": float(tc["days_per_move"] * DAY_S)}


def start(tc: dict) -> list[dict] | None:
    clock = fresh_clock(tc)
    return None if clock is None else [dict(clock), dict(clock)]


def time_left(tc: dict, clock: dict) -> float:
    """Seconds the owner of `clock` may think, from the start of their turn, before losing."""
    if tc["type"] == "byoyomi":
        return clock["remaining_s"] + clock["periods_left"] * tc["period_s"]
    return clock["remaining_s"]


def spend(tc: dict, clock: dict, elapsed: float) -> tuple[dict, bool]:
    """The clock after a move that took `elapsed` seconds, and whether time ran out first."""
    kind = tc["type"]
    if elapsed > time_left(tc, clock):
        return _empty(tc), True
    if kind == "fischer":
        return {"remaining_s": clock["remaining_s"] - elapsed + tc["increment_s"]}, False
    if kind == "banked":
        bank = min(clock["remaining_s"] - elapsed + tc["increment_s"], tc["max_s"])
        return {"remaining_s": bank}, False
    if kind == "byoyomi":
        if elapsed <= clock["remaining_s"]:
            return {**clock, "remaining_s": clock["remaining_s"] - elapsed}, False
        overrun = elapsed - clock["remaining_s"]
        # a move inside a period keeps it; only periods overrun in full are used up
        used = max(0, math.ceil(overrun / tc["period_s"]) - 1)
        return {"remaining_s": 0.0, "periods_left": clock["periods_left"] - used}, False
    return fresh_clock(tc), False


def deadline_ts(tc: dict, clock: dict, turn_started_ts: float,
                pauses: list[list[float]] = ()) -> float:
    """When the owner of `clock`, whose turn started at `turn_started_ts`, loses on time; each of
    `pauses` (spans [since, until] the clock stands still) that it meets moves the moment on by
    the part of it still ahead."""
    deadline = turn_started_ts + time_left(tc, clock)
    reached = turn_started_ts
    for since, until in sorted(pauses):
        if since >= deadline:
            break
        since = max(since, reached)
        if until > since:
            deadline += until - since
            reached = until
    return deadline


def time_out(tc: dict, ply: int, mover: int) -> tuple[dict, Outcome]:
    """`mover`'s emptied clock and the game's outcome when their time runs out: they lose, or
    the game is aborted when its very first move never came."""
    if ply == 0:
        return _empty(tc), Outcome(None, Reason.ABORTED)
    return _empty(tc), Outcome(1 - mover, Reason.TIME)


def charge(tc: dict, clocks: list[dict] | None, turn_started_ts: float, seat: int, now: float,
           next_seat: int | None) -> tuple[list[dict] | None, float]:
    """The clocks and turn start after a move by `seat`: when its turn is over (the next seat
    differs), it is charged for the whole turn and the next turn starts. A turn of several
    actions is charged once, at its end."""
    if next_seat == seat:
        return clocks, turn_started_ts
    if tc["type"] != "none":
        clocks = list(clocks)
        clocks[seat], _ = spend(tc, clocks[seat], now - turn_started_ts)
    return clocks, now


def running(tc: dict, clock: dict, elapsed: float) -> dict:
    """The mover's clock `elapsed` seconds into the turn, as a player sees it (no increment)."""
    if tc["type"] != "byoyomi":
        return {"remaining_s": max(0.0, clock["remaining_s"] - elapsed)}
    if elapsed <= clock["remaining_s"]:
        return {"remaining_s": clock["remaining_s"] - elapsed,
                "periods_left": clock["periods_left"]}
    overrun = elapsed - clock["remaining_s"]
    periods = max(0, clock["periods_left"] - int(overrun // tc["period_s"]))
    period_left = tc["period_s"] - overrun % tc["period_s"] if periods else 0.0
    return {"remaining_s": 0.0, "periods_left": periods, "period_remaining_s": period_left}


def view(tc: dict, clocks: list[dict] | None, mover: int | None, turn_started_ts: float,
         now: float) -> list[dict] | None:
    """The clocks as a player sees them now, the mover's (if any) running down."""
    if clocks is None:
        return None
    shown = [dict(c) for c in clocks]
    if mover is not None:
        shown[mover] = running(tc, clocks[mover], max(0.0, now - turn_started_ts))
    for clock in shown:
        for name in ("remaining_s", "period_remaining_s"):
            if name in clock:
                clock[name] = round(clock[name], 3)
    return shown


def paused_s(start: float, end: float, pauses: list[list[float]]) -> float:
    """How much of the span from `start` to `end` falls within `pauses` (intervals [since,
    until], possibly overlapping): the time a paused clock does not count."""
    total, reached = 0.0, start
    for since, until in sorted(pauses):
        since, until = max(since, reached), min(until, end)
        if until > since:
            total += until - since
            reached = until
    return total


@functools.lru_cache(maxsize=4096)  # a game's times are written again with each view of it
def iso(ts: float) -> str:
    """An ISO-8601 UTC time string for a timestamp."""
    return datetime.fromtimestamp(ts, timezone.utc).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")


def parse_iso(text: str) -> float:
    """The timestamp of an ISO-8601 time string made by `iso`."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _empty(tc: dict) -> dict:
    return {"remaining_s": 0.0, "periods_left": 0} if tc["type"] == "byoyomi" else {
        "remaining_s": 0.0}
