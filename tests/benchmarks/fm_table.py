"""The Factor/Multiple results table (n = 2..200, even start) for seeds/factor-multiple.md.

    .venv/bin/python -m tests.benchmarks.fm_table           # print the table
    .venv/bin/python -m tests.benchmarks.fm_table --write   # and put it in the rules page

The table sits in the page between the two marker lines below, so rewriting it leaves the rest of
the page as it is.
"""

from __future__ import annotations

import dataclasses
import pathlib
import sys

from api.bots.fm_solver import winning_numbers
from api.games.factor_multiple import FactorMultiple

PAGE = pathlib.Path(__file__).resolve().parents[2] / "seeds" / "factor-multiple.md"
BEGIN, END = "<!-- results table: begin -->", "<!-- results table: end -->"
LARGEST_N = 200


def opening_winners(n: int) -> list[int]:
    """Every even first number that wins for the first player against perfect play."""
    options = FactorMultiple.check_options({"even_start": True})
    # the engine's options start at n = 10; the solver takes any n
    state = dataclasses.replace(FactorMultiple.new(options, first=0, seed=0), n=n)
    return sorted(winning_numbers(state))


def table() -> str:
    rows = ["| n | winner | winning first numbers |", "|---|---|---|"]
    for n in range(2, LARGEST_N + 1):
        wins = opening_winners(n)
        who = "first player" if wins else "second player"
        rows.append(f"| {n} | {who} | {', '.join(map(str, wins)) or '–'} |")
    return "\n".join(rows)


def main() -> None:
    text = table()
    print(text)
    if "--write" in sys.argv[1:]:
        page = PAGE.read_text()
        head, rest = page.split(BEGIN)
        _, tail = rest.split(END)
        # the blank line ends the table: Markdown would read the end marker as one more row
        PAGE.write_text(f"{head}{BEGIN}\n{text}\n\n{END}{tail}")
        print(f"written to {PAGE}", file=sys.stderr)


if __name__ == "__main__":
    main()
