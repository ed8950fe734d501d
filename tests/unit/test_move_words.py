"""The move's words: one notation per game, the one its rules page (seeds/<kind>.md, section
"Notation") writes. One test per kind plays the page's examples from real positions and reads
the engine's words back; every example on the page must be one of them."""

from __future__ import annotations

import pathlib
import re

import pytest

from api.games import GAMES, IllegalMove, Pass, State
from api.games.factor_bingo import Call, Fill, Start
from api.games.factor_multiple import FactorMultiple, Say
from api.games.partition import COLOURS, Claim, Partition, Stick, Subdivide
from api.games.ploid import Place, Ploid
from api.games.prime_drop import Challenge, DoubleDown, Drop, PrimeDrop

SEEDS = pathlib.Path(__file__).resolve().parents[2] / "seeds"


def notation(kind: str) -> set[str]:
    """The moves the rules page's "Notation" section writes, each in backticks."""
    page = (SEEDS / f"{kind}.md").read_text()
    section = page.split("## Notation", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`([^`]+)`", section.replace("\n  ", " ")))


def new(game, **options) -> State:
    return game.new(game.check_options(options), first=0, seed=0)


def test_factor_multiple_says_the_number():
    state = new(FactorMultiple)
    assert notation("factor-multiple") == {Say(12).words(state)} == {"says 12"}


def test_factor_bingo_writes_starts_and_calls():
    state = new(GAMES["factor-bingo"])
    words = {Fill("G", 12).words(state), Start(12).words(state), Call(24).words(state)}
    assert notation("factor-bingo") == words == {"writes 12 on G", "starts with 12", "calls 24"}


def test_ploid_places_numbers_and_blanks_at_cells():
    state = new(Ploid)
    words = {
        Place(1, 2, 3).words(state),
        Place(1, 5, "blank").words(state),
        Pass().words(state),
    }
    assert notation("ploid") == words
    assert Place(0, 0, 8).words(state) == "places an 8 at [0, 0]"


def test_prime_drop_names_cells_and_challenges_numbers_by_value_and_ends():
    # the rules page's worked example: a 1 and a 3 in row 4, a 4 between them, a 2 below the 4
    state = new(PrimeDrop, size=11).apply(Drop(4, 3, 1))
    double = DoubleDown(Drop(4, 4, 4), Drop(5, 4, 2))
    state = state.apply(double).apply(Drop(4, 5, 3))
    challenge = Challenge((4, 3), (4, 5), 11)
    after = state.apply(challenge)  # 143 = 11 x 13: the run leaves, the 2 stands alone
    words = {
        Drop(4, 3, 1).words(state),
        double.words(state),
        challenge.words(state),
        Challenge((5, 4), (5, 4), 2).words(after),
        Pass().words(state),
    }
    assert notation("prime-drop") == words
    assert challenge.words(state) == "challenges 143 from [4, 3] to [4, 5] with factor 11"


def test_partition_names_hexes_by_row_letter_and_column_number():
    state = new(Partition, layout=list(COLOURS) * 6)  # A1 holds red
    words = {
        Stick((6, 12)).words(state),
        Stick((14, 15), close=8).words(state),
        Claim(0).words(state),
        Subdivide((0, 1)).words(state),
    }
    assert notation("partition") == words
    # a refusal names the move's edge as the words do
    state = state.apply(Stick((6, 12)))
    with pytest.raises(IllegalMove, match="^The edge between B1 and C1 already has a stick"):
        state.apply(Stick((6, 12)))


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_legal_moves_listing_gives_each_move_its_words(kind):
    state = new(GAMES[kind])
    listing = state.legal_moves_listing()
    typed = [GAMES[kind].parse_move(m) for m in listing["moves"]]
    assert listing["words"] == [m.words(state) for m in typed] and listing["words"]
