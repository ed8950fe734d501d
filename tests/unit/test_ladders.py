"""The bot ladders (tests/benchmarks/bench_ladders.py): which pairings each game plays, and the
tables they publish into the rules pages, reproducibly."""
from __future__ import annotations

import pytest

from api.games import GAMES
from api.web.rules_pages import to_html
from tests.benchmarks import bench_ladders


def test_every_game_ladders_its_strong_bots_against_the_weaker():
    pairs = {kind: bench_ladders.pairings(kind)[0] for kind in GAMES}
    assert pairs["ploid"] == [("advanced", "beginner", {}), ("advanced", "medium", {}),
                              ("perfect", "advanced", {"n": 3})]  # perfect only where offered
    for kind in ("prime-drop", "partition", "factor-bingo"):
        assert pairs[kind] == [("advanced", "beginner", {}), ("advanced", "medium", {})]
    assert pairs["factor-multiple"] == [("perfect", "random", {}), ("perfect", "greedy", {})]


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_rules_page_has_a_place_for_its_ladder(kind):
    text = (bench_ladders.SEEDS / f"{kind}.md").read_text()
    assert text.count(bench_ladders.BEGIN) == 1 and text.count(bench_ladders.END) == 1


def test_a_ladder_row_is_published_with_the_command_that_measures_it(tmp_path, monkeypatch):
    row = bench_ladders.ladder_row("factor-multiple", "perfect", "random", {}, games=4,
                                   budget_s=0.01, seed=3, procs=1)
    assert row["report"]["games"] == 4
    again = bench_ladders.ladder_row("factor-multiple", "perfect", "random", {}, games=4,
                                     budget_s=0.01, seed=3, procs=1)
    assert again["report"]["bots"] == row["report"]["bots"]  # the same seed, the same games
    table = bench_ladders.markdown_table([row], games=4, budget_s=0.01, seed=3)
    wins = row["report"]["bots"][0]["wins"]
    assert f"| perfect | random | default | 4 | {wins} |" in table
    assert "POSTPLAY_LADDER_GAMES=4 POSTPLAY_LADDER_BUDGET_S=0.01 POSTPLAY_LADDER_SEED=3 " \
           "POSTPLAY_LADDER_KINDS=factor-multiple make ladders" in table
    page = tmp_path / "factor-multiple.md"
    page.write_text(f"# Rules\n\n{bench_ladders.BEGIN}\nNot yet.\n{bench_ladders.END}\n\nAfter.\n")
    monkeypatch.setattr(bench_ladders, "SEEDS", tmp_path)
    bench_ladders.write_page("factor-multiple", table, "0.01 s, 4 games")
    run = f"{bench_ladders.RUN}0.01 s, 4 games -->\n\n{table}"
    assert page.read_text() == (f"# Rules\n\n{bench_ladders.BEGIN}\n\n{run}\n\n"
                                f"{bench_ladders.END}\n\nAfter.\n")
    shown = to_html(page.read_text())  # the rules page drops the markers
    assert "<!--" not in shown and "ladder run" not in shown and "<table>" in shown
    bench_ladders.write_page("factor-multiple", "a longer run", "1 s, 200 games")
    bench_ladders.write_page("factor-multiple", table, "0.01 s, 4 games")  # the same run again
    text = page.read_text()
    assert text.count(table) == 1 and "a longer run" in text and text.endswith("\n\nAfter.\n")


def test_a_ladder_cut_short_resumes_from_its_records(tmp_path):
    path = str(tmp_path / "ladder.jsonl")
    first = bench_ladders.ladder_row("factor-multiple", "perfect", "random", {}, games=2,
                                     budget_s=0.01, seed=3, procs=1, records_path=path)
    assert first["played"] == 2 and len(open(path).readlines()) == 2
    # a longer run of the same pairing plays only the games not recorded yet
    longer = bench_ladders.ladder_row("factor-multiple", "perfect", "random", {}, games=4,
                                      budget_s=0.01, seed=3, procs=1, records_path=path)
    assert longer["played"] == 2 and len(open(path).readlines()) == 4
    whole = bench_ladders.ladder_row("factor-multiple", "perfect", "random", {}, games=4,
                                     budget_s=0.01, seed=3, procs=1)
    assert longer["report"] == whole["report"]  # the same games as in one run
    other = bench_ladders.ladder_row("factor-multiple", "perfect", "random", {}, games=2,
                                     budget_s=0.01, seed=4, procs=1, records_path=path)
    assert other["played"] == 2  # another seed is another batch
