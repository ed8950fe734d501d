"""docs/api.md keeps up with the code: every route the app documents in its OpenAPI document
appears in it, and a game's section, where it has one, shows every move type the game plays (a
game's moves and state are the registry's, in GET /kinds and the OpenAPI document); it links
nowhere outside the repository."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from api.games import GAMES, Reason
from api.games.base import play_forced
from api.record.reasons import ANY_GAME

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "api.md"
BASE = "/api/v1"
PLY_CAP = 400


def _params(text: str) -> str:
    """Path parameters, whatever their names, as `{}`: `{game_id}` and `{id}` are the same."""
    return re.sub(r"\{[^}/]+\}", "{}", text)


def _sections(text: str) -> dict[str, str]:
    """The parts of the doc under a `## Title (`slug`)` heading, by the slug its heading names."""
    found: dict[str, str] = {}
    for part in re.split(r"^## ", text, flags=re.M):
        named = re.fullmatch(r".+ \(`([a-z][a-z-]*)`\)", part.splitlines()[0])
        if named:
            assert named[1] not in found, f"docs/api.md has two sections for {named[1]}"
            found[named[1]] = part
    return found


SECTIONS = _sections(DOC.read_text())


def _played_types(slug: str, seeds=range(3)) -> set[str]:
    """The move types met in seeded random games: every listed legal move and every server move."""
    game = GAMES[slug]
    types: set[str] = set()
    for seed in seeds:
        rng = random.Random(seed)
        state, forced = play_forced(game.new(game.check_options({}), 0, seed))
        types.update(move.to_dict()["type"] for _, move in forced)
        for _ in range(PLY_CAP):
            if state.is_over():
                break
            moves = state.legal_moves()
            types.update(move.to_dict()["type"] for move in moves)
            state, forced = play_forced(state.apply(rng.choice(moves)))
            types.update(move.to_dict()["type"] for _, move in forced)
    return types


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text()


def test_every_route_of_the_openapi_document_is_in_the_doc(client, doc):
    spec = client.get(f"{BASE}/openapi.json").get_json()
    text = _params(doc)
    missing = []
    for path, item in spec["paths"].items():
        assert path.startswith(BASE)
        for method in item:
            if method == "parameters":
                continue
            entry = f"{method.upper()} {_params(path[len(BASE) :])}"
            if f"`{entry}`" not in text and f"### {entry}" not in text:
                missing.append(entry)
    assert len(spec["paths"]) >= 13
    assert not missing, f"docs/api.md does not describe {missing}"


def test_each_games_section_names_a_registered_game_and_the_doc_says_where_the_rest_is(doc):
    """A game needs no section: its moves are in GET /kinds and, like its state, in the OpenAPI
    document's schemas, which the doc points at; a section is for a registered game."""
    assert SECTIONS and set(SECTIONS) <= set(GAMES), sorted(SECTIONS)
    where = doc.split("## Each game's moves and state", 1)[1].split("\n## ", 1)[0]
    for points_at in ("`GET /kinds`", "`schema`", "`<Title>State`", "GET /kinds/{kind}/rules"):
        assert points_at in where, points_at


@pytest.mark.parametrize("slug", sorted(SECTIONS))
def test_every_move_type_a_game_plays_is_in_its_section(slug):
    section = SECTIONS[slug]
    types = _played_types(slug)
    assert types, f"no moves played in {slug}"
    missing = sorted(
        t for t in types if f'"type": "{t}"' not in section and f'"type":"{t}"' not in section
    )
    assert not missing, f"the {slug} section of docs/api.md does not show move types {missing}"
    assert f"](../seeds/{slug}.md)" in section, f"the {slug} section links its rules page"


def test_the_reasons_table_lists_every_reason_and_whether_any_game_ends_by_it(doc):
    """Each row of the doc's table of `result.reason`s is a `Reason`, once, and says whether any
    game may end by it, or a game whose rules name it (which games those are, GET /kinds says:
    `Game.reasons`), so that a new game using the reasons there are changes no row."""
    table = doc.split("| reason | ends | meaning |")[1].split("\n\n")[0]
    rows = re.findall(r"^\| `([a-z-]+)` \| ([^|]+) \|", table, flags=re.M)
    assert sorted(name for name, _ in rows) == sorted(r.value for r in Reason)
    for name, ends in rows:
        reason = Reason(name)
        assert ends.strip() == ("any game" if reason in ANY_GAME else "by the rules"), name
        assert reason in ANY_GAME or any(reason in g.reasons for g in GAMES.values()), name


def test_the_seeded_games_meet_the_server_passes():
    """The derivation above sees the server's own moves too (Ploid's passes), not only listings."""
    assert "pass" in _played_types("ploid")


def test_the_doc_links_only_inside_the_repository(doc):
    assert "../shared" not in doc
    targets = re.findall(r"\]\(([^)\s]+)\)", doc)
    assert targets, "the doc links the rules pages"
    for target in targets:
        assert "shared/" not in target, target
        assert not target.startswith(("http://", "https://", "/")), target
        path = target.split("#")[0]
        if path:
            assert (DOC.parent / path).resolve().is_file(), f"broken link {target}"


def test_the_readme_points_at_the_doc_and_not_outside():
    readme = (ROOT / "README.md").read_text()
    assert "](docs/api.md)" in readme
    assert "API.md" not in readme and "shared documents" not in readme
    for target in re.findall(r"\]\(([^)\s]+)\)", readme):
        assert not target.startswith(("http://", "https://", "/", "..")), target
        assert (ROOT / target.split("#")[0]).exists(), f"README links {target}, not a file here"
