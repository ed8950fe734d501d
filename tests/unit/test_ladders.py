"""The bot ladders (tests/benchmarks/bench_ladders.py): which pairings each game plays, and the
tables they publish into the rules pages, reproducibly."""

from __future__ import annotations

import pytest

from api.games import GAMES
from api.web.rules_pages import to_html
from tests.benchmarks import bench_ladders


def test_every_game_ladders_its_strong_bots_against_the_weaker():
    pairs = {kind: bench_ladders.pairings(kind)[0] for kind in GAMES}
    assert pairs["ploid"] == [
        ("advanced", "beginner", {}),
        ("advanced", "medium", {}),
        ("perfect", "advanced", {"n": 3}),
    ]  # perfect only where offered
    for kind in ("prime-drop", "partition", "factor-bingo"):
        assert pairs[kind] == [("advanced", "beginner", {}), ("advanced", "medium", {})]
    assert pairs["factor-multiple"] == [("perfect", "random", {}), ("perfect", "greedy", {})]


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_rules_page_has_a_place_for_its_ladder(kind):
    text = (bench_ladders.SEEDS / f"{kind}.md").read_text()
    assert text.count(bench_ladders.BEGIN) == 1 and text.count(bench_ladders.END) == 1


def test_a_ladder_row_is_published_with_the_command_that_measures_it(tmp_path, monkeypatch):
    row = bench_ladders.ladder_row(
        "factor-multiple", "perfect", "random", {}, games=4, budget_s=0.01, seed=3, procs=1
    )
    assert row["report"]["games"] == 4
    again = bench_ladders.ladder_row(
        "factor-multiple", "perfect", "random", {}, games=4, budget_s=0.01, seed=3, procs=1
    )
    assert again["report"]["bots"] == row["report"]["bots"]  # the same seed, the same games
    rows = bench_ladders.markdown_rows([row], budget_s=0.01, seed=3)
    wins = row["report"]["bots"][0]["wins"]
    assert rows[0].startswith(f"| perfect | random | default | 0.01 s | 4 | 3 | {wins} |")
    page = tmp_path / "factor-multiple.md"
    page.write_text(f"# Rules\n\n{bench_ladders.BEGIN}\nNot yet.\n{bench_ladders.END}\n\nAfter.\n")
    monkeypatch.setattr(bench_ladders, "SEEDS", tmp_path)
    bench_ladders.write_page("factor-multiple", rows)
    text = page.read_text()
    assert text.startswith(f"# Rules\n\n{bench_ladders.BEGIN}\n\n") and "Not yet" not in text
    assert text.endswith(f"{bench_ladders.END}\n\nAfter.\n") and rows[0] in text
    assert "POSTPLAY_LADDER_KINDS=factor-multiple POSTPLAY_LADDER_PAIRS=<stronger>-<weaker>" in text
    shown = to_html(text)  # the rules page drops the markers
    assert "<!--" not in shown and shown.count("<table>") == 1
    # another pairing's row joins the table; the same pairing measured again replaces its row
    other = "| perfect | greedy | default | 1 s | 200 | 1 | 150 | 0 | 50 | 75.0 % [68.6, 80.5] |"
    bench_ladders.write_page("factor-multiple", [other])
    again = rows[0].replace("| 0.01 s | 4 |", "| 0.01 s | 8 |")
    bench_ladders.write_page("factor-multiple", [again])
    text = page.read_text()
    assert again in text and other in text and rows[0] not in text
    assert text.count(bench_ladders.HEADER) == 1 and text.count("| perfect |") == 2


def test_a_ladder_cut_short_resumes_from_its_records(tmp_path):
    path = str(tmp_path / "ladder.jsonl")
    first = bench_ladders.ladder_row(
        "factor-multiple",
        "perfect",
        "random",
        {},
        games=2,
        budget_s=0.01,
        seed=3,
        procs=1,
        records_path=path,
    )
    assert first["played"] == 2 and len(open(path).readlines()) == 2
    # a longer run of the same pairing plays only the games not recorded yet
    longer = bench_ladders.ladder_row(
        "factor-multiple",
        "perfect",
        "random",
        {},
        games=4,
        budget_s=0.01,
        seed=3,
        procs=1,
        records_path=path,
    )
    assert longer["played"] == 2 and len(open(path).readlines()) == 4
    whole = bench_ladders.ladder_row(
        "factor-multiple", "perfect", "random", {}, games=4, budget_s=0.01, seed=3, procs=1
    )
    assert longer["report"] == whole["report"]  # the same games as in one run
    other = bench_ladders.ladder_row(
        "factor-multiple",
        "perfect",
        "random",
        {},
        games=2,
        budget_s=0.01,
        seed=4,
        procs=1,
        records_path=path,
    )
    assert other["played"] == 2  # another seed is another batch
