"""Square-grid helpers shared by the games played on one (Prime Drop, Ploid)."""

from __future__ import annotations

from typing import Callable, Iterator

Cell = tuple[int, int]


def cell_name(cell: Cell) -> str:
    """A cell as the rules pages and the move words name it: `[row, col]`, from 0 at the top
    left.

    >>> cell_name((4, 3))
    '[4, 3]'
    """
    return f"[{cell[0]}, {cell[1]}]"


def orthogonal_neighbours(row: int, col: int, rows: int, cols: int) -> Iterator[Cell]:
    """The up to four cells sharing a side with (row, col), on the board."""
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < rows and 0 <= c < cols:
            yield r, c


def flood_fill(start: Cell, rows: int, cols: int, joins: Callable[[Cell], bool]) -> set[Cell]:
    """The orthogonally connected group of cells containing `start` for which `joins` holds."""
    group = {start}
    frontier = [start]
    while frontier:
        r, c = frontier.pop()
        for cell in orthogonal_neighbours(r, c, rows, cols):
            if cell not in group and joins(cell):
                group.add(cell)
                frontier.append(cell)
    return group
