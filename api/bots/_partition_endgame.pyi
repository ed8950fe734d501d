"""The types of the C extension built from _partition_endgame.c (setup.py), for the type checker:
its methods as the module's table documents them."""

from typing import Callable

from api.games.partition import PartitionState

# ((kind, a, b, close), value) of the best action proved, or None; and whether the search finished
def search(
    state: PartitionState, deadline: float, now: Callable[[], float], /
) -> tuple[tuple[tuple[int, int, int, int], float] | None, bool]: ...
def clear() -> None: ...
def entries() -> int: ...
