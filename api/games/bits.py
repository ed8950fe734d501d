"""Bit-mask helpers shared by the engines and solvers that hold a board's cells as the bits of
an int (bit i stands for cell i: Partition's hexes, the Ploid solver's cells)."""

from __future__ import annotations


def set_bits(mask: int) -> list[int]:
    """The indices of the bits set in `mask`, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
