"""The clock a bot's think budget runs on: wall time (`time.perf_counter`) by default, as a player
waiting for the bot on a worker sees it; or, with `POSTPLAY_THINK_CLOCK=cpu` or after
`count_cpu_time()`, the thinking thread's own CPU time (`time.thread_time`), which the bot
ladders use so that a measured strength does not depend on how busy the machine is. Every bot
and solver deadline reads `now()`."""

from __future__ import annotations

import os
import time

_now = time.thread_time if os.environ.get("POSTPLAY_THINK_CLOCK") == "cpu" else time.perf_counter


def now() -> float:
    return _now()


def count_cpu_time() -> None:
    """From now on, budgets in this process count the thinking thread's CPU time."""
    global _now
    os.environ["POSTPLAY_THINK_CLOCK"] = "cpu"  # (so processes started from here count it too)
    _now = time.thread_time
