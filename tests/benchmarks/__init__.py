"""Benchmarks: each prints ratios against a baseline measured in the same run (`make bench`)."""

from __future__ import annotations

import time


def best_time(fn, repeat: int = 3) -> float:
    """The fastest of `repeat` calls of `fn`, in seconds: load on a shared machine only adds."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best
