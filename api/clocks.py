"""Time controls: pure arithmetic on server timestamps (seconds since the epoch).

A game record carries `time_control`, `clocks` (one per seat, as charged after that seat's last
move) and `turn_started_ts`; these functions take those values and return new ones. The mover's
clock is charged atomically with the move; `deadline` is when the mover's time runs out, and the
worker ends the game then even if nobody is looking.

Kinds, one typed variant each (a `TimeControl` dataclass, its JSON `type` the discriminator):
none; fischer (initial + increment); byoyomi (main time, then P periods of T s: a move inside a
period keeps it, each period overrun is used up, overrunning the last loses); correspondence (D
days for every move); banked (an initial bank, an increment per move, a cap). Each variant's
fields carry their bounds, so `check`, GET /kinds and the OpenAPI document read one declaration.
A clock is a dict: `remaining_s`, and byoyomi's `periods_left`.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from datetime import datetime, timezone
from typing import Any, ClassVar, Iterable

from api.games import Outcome, Reason

DAY_S = 86400


def bounded(lo: float, hi: float) -> Any:
    """A time control's number field, from `lo` to `hi`: the bounds `check` enforces, GET /kinds
    lists and the OpenAPI document shows."""
    return dataclasses.field(metadata={"bounds": (lo, hi)})


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """A time control's kind: its arithmetic on one seat's clock."""

    type: ClassVar[str]

    def to_dict(self) -> dict:
        return {"type": self.type, **dataclasses.asdict(self)}

    def fresh_clock(self) -> dict | None:
        """A seat's clock at the start of the game (for correspondence, of every turn)."""
        return None

    def time_left(self, clock: dict) -> float:
        return clock["remaining_s"]

    def spent(self, clock: dict, elapsed: float) -> dict:
        """The clock after a move that took `elapsed` seconds, within the time left."""
        fresh = self.fresh_clock()
        assert fresh is not None  # a kind without clocks (none) is never charged
        return fresh

    def running(self, clock: dict, elapsed: float) -> dict:
        """The clock `elapsed` seconds into its owner's turn, as a player sees it."""
        return {"remaining_s": max(0.0, clock["remaining_s"] - elapsed)}

    def empty(self) -> dict:
        return {"remaining_s": 0.0}


@dataclasses.dataclass(frozen=True)
class NoClock(TimeControl):
    type = "none"


@dataclasses.dataclass(frozen=True)
class Fischer(TimeControl):
    """An initial time, and an increment added after every move."""

    type = "fischer"
    initial_s: float = bounded(1, 30 * DAY_S)
    increment_s: float = bounded(0, DAY_S)

    def fresh_clock(self) -> dict:
        return {"remaining_s": float(self.initial_s)}

    def spent(self, clock: dict, elapsed: float) -> dict:
        return {"remaining_s": clock["remaining_s"] - elapsed + self.increment_s}


@dataclasses.dataclass(frozen=True)
class Byoyomi(TimeControl):
    """Main time, then `periods` periods of `period_s` each."""

    type = "byoyomi"
    main_s: float = bounded(0, 30 * DAY_S)
    periods: int = bounded(1, 30)
    period_s: float = bounded(1, DAY_S)

    def fresh_clock(self) -> dict:
        return {"remaining_s": float(self.main_s), "periods_left": self.periods}

    def time_left(self, clock: dict) -> float:
        return clock["remaining_s"] + clock["periods_left"] * self.period_s

    def spent(self, clock: dict, elapsed: float) -> dict:
        if elapsed <= clock["remaining_s"]:
            return {**clock, "remaining_s": clock["remaining_s"] - elapsed}
        overrun = elapsed - clock["remaining_s"]
        # a move inside a period keeps it; only periods overrun in full are used up
        used = max(0, math.ceil(overrun / self.period_s) - 1)
        return {"remaining_s": 0.0, "periods_left": clock["periods_left"] - used}

    def running(self, clock: dict, elapsed: float) -> dict:
        if elapsed <= clock["remaining_s"]:
            return {
                "remaining_s": clock["remaining_s"] - elapsed,
                "periods_left": clock["periods_left"],
            }
        overrun = elapsed - clock["remaining_s"]
        periods = max(0, clock["periods_left"] - int(overrun // self.period_s))
        period_left = self.period_s - overrun % self.period_s if periods else 0.0
        return {"remaining_s": 0.0, "periods_left": periods, "period_remaining_s": period_left}

    def empty(self) -> dict:
        return {"remaining_s": 0.0, "periods_left": 0}


@dataclasses.dataclass(frozen=True)
class Correspondence(TimeControl):
    """The same days for every move."""

    type = "correspondence"
    days_per_move: float = bounded(1, 60)

    def fresh_clock(self) -> dict:
        return {"remaining_s": float(self.days_per_move * DAY_S)}


@dataclasses.dataclass(frozen=True)
class Banked(TimeControl):
    """An initial bank, an increment per move, a cap."""

    type = "banked"
    initial_s: float = bounded(1, 60 * DAY_S)
    increment_s: float = bounded(0, 30 * DAY_S)
    max_s: float = bounded(1, 120 * DAY_S)

    def fresh_clock(self) -> dict:
        return {"remaining_s": float(self.initial_s)}

    def spent(self, clock: dict, elapsed: float) -> dict:
        return {"remaining_s": min(clock["remaining_s"] - elapsed + self.increment_s, self.max_s)}


VARIANTS: dict[str, type[TimeControl]] = {
    cls.type: cls for cls in (NoClock, Fischer, Byoyomi, Correspondence, Banked)
}


def bounds(variant: type[TimeControl]) -> dict[str, tuple[float, float]]:
    """A kind's fields and their bounds, in order."""
    return {f.name: f.metadata["bounds"] for f in dataclasses.fields(variant)}


class BadTimeControl(ValueError):
    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field
        self.message = message


def check(tc: object) -> TimeControl:
    """The time control, typed from its JSON form; BadTimeControl names the field at fault. One
    already typed is taken as it is."""
    if isinstance(tc, TimeControl):
        return tc
    kind = tc.get("type") if isinstance(tc, dict) else None
    if not isinstance(tc, dict) or not isinstance(kind, str) or kind not in VARIANTS:
        raise BadTimeControl(
            "time_control.type", f"Time control type must be one of {', '.join(VARIANTS)}."
        )
    variant = VARIANTS[tc["type"]]
    shape = bounds(variant)
    for name in tc:
        if name != "type" and name not in shape:
            raise BadTimeControl(
                f"time_control.{name}", f"A {tc['type']} time control has no field {name!r}."
            )
    for name, (lo, hi) in shape.items():
        value = tc.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
            raise BadTimeControl(
                f"time_control.{name}", f"{name} must be a number from {lo} to {hi}."
            )
    typed = variant(**{name: tc[name] for name in shape})
    if isinstance(typed, Banked) and typed.initial_s > typed.max_s:
        raise BadTimeControl("time_control.initial_s", "initial_s may not exceed max_s.")
    return typed


def load(data: dict) -> TimeControl:
    """A time control from a JSON form `check` once accepted (as a stored record holds it)."""
    return VARIANTS[data["type"]](**{k: v for k, v in data.items() if k != "type"})


def fresh_clock(tc: TimeControl) -> dict | None:
    return tc.fresh_clock()


def start(tc: TimeControl) -> list[dict] | None:
    clock = tc.fresh_clock()
    return None if clock is None else [dict(clock), dict(clock)]


def time_left(tc: TimeControl, clock: dict) -> float:
    """Seconds the owner of `clock` may think, from the start of their turn, before losing."""
    return tc.time_left(clock)


def spend(tc: TimeControl, clock: dict, elapsed: float) -> tuple[dict, bool]:
    """The clock after a move that took `elapsed` seconds, and whether time ran out first."""
    if elapsed > tc.time_left(clock):
        return tc.empty(), True
    return tc.spent(clock, elapsed), False


def deadline_ts(
    tc: TimeControl, clock: dict, turn_started_ts: float, pauses: Iterable[list[float]] = ()
) -> float:
    """When the owner of `clock`, whose turn started at `turn_started_ts`, loses on time; each of
    `pauses` (spans [since, until] the clock stands still) that it meets moves the moment on by
    the part of it still ahead."""
    deadline = turn_started_ts + tc.time_left(clock)
    reached = turn_started_ts
    for since, until in sorted(pauses):
        if since >= deadline:
            break
        since = max(since, reached)
        if until > since:
            deadline += until - since
            reached = until
    return deadline


def time_out(tc: TimeControl, ply: int, mover: int) -> tuple[dict, Outcome]:
    """`mover`'s emptied clock and the game's outcome when their time runs out: they lose, or
    the game is aborted when its very first move never came."""
    if ply == 0:
        return tc.empty(), Outcome(None, Reason.ABORTED)
    return tc.empty(), Outcome(1 - mover, Reason.TIME)


def charge(
    tc: TimeControl,
    clocks: list[dict] | None,
    turn_started_ts: float,
    seat: int,
    now: float,
    next_seat: int | None,
) -> tuple[list[dict] | None, float]:
    """The clocks and turn start after a move by `seat`: when its turn is over (the next seat
    differs), it is charged for the whole turn and the next turn starts. A turn of several
    actions is charged once, at its end."""
    if next_seat == seat:
        return clocks, turn_started_ts
    if not isinstance(tc, NoClock):
        assert clocks is not None  # a game with a clock has a clock per seat
        clocks = list(clocks)
        clocks[seat], _ = spend(tc, clocks[seat], now - turn_started_ts)
    return clocks, now


def running(tc: TimeControl, clock: dict, elapsed: float) -> dict:
    """The mover's clock `elapsed` seconds into the turn, as a player sees it (no increment)."""
    return tc.running(clock, elapsed)


def view(
    tc: TimeControl,
    clocks: list[dict] | None,
    mover: int | None,
    turn_started_ts: float,
    now: float,
) -> list[dict] | None:
    """The clocks as a player sees them now, the mover's (if any) running down."""
    if clocks is None:
        return None
    shown = [dict(c) for c in clocks]
    if mover is not None:
        shown[mover] = tc.running(clocks[mover], max(0.0, now - turn_started_ts))
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
    return (
        datetime.fromtimestamp(ts, timezone.utc)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


def parse_iso(text: str) -> float:
    """The timestamp of an ISO-8601 time string made by `iso`."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
