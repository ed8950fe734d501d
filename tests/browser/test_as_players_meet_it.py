"""The web client as players meet it (issue 46), in headless Chromium at a phone (390 x 844,
touch) and a desktop (1280 x 800) size against the real app and worker: the New game form's
calm clock, the whole board and Play in view, Factor/Multiple's whole grid and playable dots,
whole games by keyboard alone with focus kept on the board, Partition's edges on hover, and the
form's words. Screenshots land in test-artifacts/meet-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
import requests

from api.games import GAMES

from tests.browser.conftest import ARTIFACTS, wait_until
from tests.browser.test_polish import (  # noqa: F401
    KINDS,
    VIEWPORTS,
    api_move,
    new_game,
    open_game,
    open_page,
)

pytestmark = pytest.mark.browser

LEGAL_LOADED = (
    "!document.querySelector('[data-board]')?.closest('.board-root')"
    "?.textContent.includes('Loading the legal moves')"
)


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"meet-{name}.png"))


def box_of(page, selector: str) -> dict:
    return page.evaluate(
        """(selector) => {
        const r = document.querySelector(selector).getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    }""",
        selector,
    )


# ---------------------------------------------------------------- 1. a calm clock by default


def test_the_new_game_form_preselects_no_clock_or_days_a_move(open_page, kinds):
    page = open_page("/#/", "desktop")
    for kind in KINDS:
        page.select_option("select[name=kind]", kind)
        chosen = page.locator(".clock-fields select[aria-label='Clock type']").input_value()
        assert chosen in ("none", "correspondence"), (kind, chosen)
        assert not page.locator(".new-game .clock-line").is_visible() or chosen == "correspondence"
    # Factor Bingo's seed clock stays the API's default, and a named choice of the form
    assert kinds["factor-bingo"]["default_time_control"]["type"] == "byoyomi"
    page.select_option("select[name=kind]", "factor-bingo")
    clock = page.locator(".clock-fields select[aria-label='Clock type']")
    named = clock.locator("option", has_text="The tournament clock: 5 × 1 min byo-yomi")
    clock.select_option(named.get_attribute("value"))
    assert "lost on time" in page.locator(".new-game .clock-line").inner_text()
    shot(page, "clock-desktop")


def test_the_forms_words_name_the_missing_name_and_the_options(open_page):
    page = open_page("/#/", "phone")
    page.fill("input[name=name]", "")
    page.select_option("select[name=kind]", "partition")
    help_text = page.locator(".new-game fieldset.options").inner_text()
    assert "one of" not in help_text and "; default" not in help_text, help_text
    page.click("button:has-text('Start the game')")
    refusal = page.locator(".refusal")
    refusal.wait_for()
    assert "Please give your name" in refusal.inner_text()


# ---------------------------------------------------------------- 2. the board in view


def played_into(base: str, game: dict, plies: int) -> dict:
    """`game` after at least `plies` listed moves through the API (or as many as a short game
    allows), each one that leaves the game running (the engine says which), stopped where seat 0
    is to move: a board mid-game (Prime Drop's tiles down, Partition's sticks...)."""
    engine = GAMES[game["kind"]]
    while game["ply"] < plies or game["to_move"] != 0:
        assert game["ply"] < plies + 6, game
        state = engine.state_class.from_dict(game["state"])
        listing = requests.get(f"{base}/api/v1/games/{game['id']}/legal-moves", timeout=10).json()
        going_on = [
            m
            for m in listing["moves"]
            if m.get("type") != "challenge" and not state.apply(engine.parse_move(m)).is_over()
        ]
        if not going_on and game["to_move"] == 0:
            break  # a game too short for `plies`: as far as it goes
        game = api_move(base, game, going_on[0])
    return game


@pytest.mark.parametrize("plies", [0, 8], ids=["start", "mid-game"])
@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("kind", KINDS)
def test_the_whole_board_and_play_are_in_view_together(
    kind, viewport, plies, open_page, live_server
):
    game = played_into(live_server, new_game(live_server, kind), plies)
    page = open_game(open_page, game, viewport, seats=("0",))
    wait_until(page, LEGAL_LOADED)
    page.wait_for_timeout(300)  # the board fitted to what its controls leave
    assert_board_and_play_in_view(page)
    shot(page, f"in-view-{kind}-{viewport}-{plies}")


def assert_board_and_play_in_view(page) -> None:
    """The board and Play inside the screen, and none of the board under the controls that
    stick to its bottom."""
    height, width = page.viewport_size["height"], page.viewport_size["width"]
    board = box_of(page, "[data-board]")
    play = box_of(page, ".action-bar button.primary")
    for name, box in (("board", board), ("Play", play)):
        assert box["top"] >= 0 and box["bottom"] <= height + 0.5, (name, box, height)
        assert box["left"] >= 0 and box["right"] <= width + 0.5, (name, box, width)
    controls = box_of(page, ".board-controls")
    assert board["bottom"] <= controls["top"] + 0.5, (board, controls)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_prime_drops_challenge_fields_leave_the_whole_board_in_view(
    viewport, open_page, live_server
):
    """Challenge mode's fields make the sticky controls taller once the page has opened: the
    picture gives up that height, and no row slides under them."""
    game = played_into(live_server, new_game(live_server, "prime-drop"), 8)
    page = open_game(open_page, game, viewport, seats=("0",))
    wait_until(page, LEGAL_LOADED)
    page.click("button:has-text('Challenge')")
    expect(page.locator(".board-controls input, .board-controls select").first).to_be_visible()
    page.wait_for_timeout(300)  # the board fitted to the taller controls
    assert_board_and_play_in_view(page)
    shot(page, f"in-view-prime-drop-challenge-{viewport}")


# ---------------------------------------------------------------- 3. Factor/Multiple's grid


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_factor_multiples_grid_is_whole_and_every_lit_dot_plays(viewport, open_page, live_server):
    game = api_move(
        live_server, new_game(live_server, "factor-multiple"), {"type": "say", "number": 12}
    )
    page = open_game(open_page, game, viewport, seats=("1",))
    page.wait_for_selector(".fm-grid button.legal")
    grid = page.evaluate("""() => { const g = document.querySelector('.fm-grid');
        return [g.scrollHeight, g.clientHeight, getComputedStyle(g).overflowY]; }""")
    assert grid[0] <= grid[1] + 1 and grid[2] == "visible", grid
    lit = page.locator(".fm-circle .fm-vertex.legal")
    assert lit.count() == page.locator(".fm-grid button.legal").count()
    lit.first.dispatch_event("click")
    number = lit.first.get_attribute("data-n")
    expect(page.locator(".fm .action-bar .pending")).to_have_text(f"Says {number}")
    assert page.locator(".action-bar button.primary").is_enabled()


# ---------------------------------------------------------------- 4. keyboard play


def tab_to(page, selector: str, presses: int = 60) -> int:
    """Press Tab until the focused element matches `selector`; the number of presses."""
    for count in range(1, presses + 1):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement?.matches(s)", selector):
            return count
    raise AssertionError(f"{presses} Tab presses never reached {selector}")


def test_a_whole_factor_multiple_game_by_keyboard_alone(open_page, live_server):
    game = new_game(
        live_server,
        "factor-multiple",
        {"n": 12},
        seats=[{"human": {"name": "Ada"}}, {"bot": "random"}],
    )
    page = open_game(open_page, game, "desktop", seats=("0",))
    page.wait_for_selector(".fm-grid button.legal")
    tab_to(page, ".fm-grid button")
    assert page.locator(".fm-grid button[tabindex='0']").count() == 1  # one tab stop
    moves = 0
    while True:
        wait_until(
            page,
            "document.querySelector('.banner:not([hidden])') || "
            "document.querySelector('.fm-grid button.legal')",
        )
        if page.locator(".banner:not([hidden])").count():
            break
        assert page.evaluate("document.activeElement.closest('.fm') !== null"), (
            "focus left the board"
        )
        target = int(page.locator(".fm-grid button.legal").first.get_attribute("data-n"))
        here = int(page.evaluate("document.activeElement.dataset.n ?? 0"))
        if not here:  # focus on the Say box or Play: back into the grid with Shift+Tab
            tab_to(page, ".fm-grid button")
            here = int(page.evaluate("document.activeElement.dataset.n"))
        for _ in range(abs(target - here)):
            page.keyboard.press("ArrowRight" if target > here else "ArrowLeft")
        assert page.evaluate("document.activeElement.dataset.n") == str(target)
        page.keyboard.press("Enter")  # picks it
        expect(page.locator(".fm .action-bar .pending")).to_have_text(f"Says {target}")
        page.keyboard.press("Enter")  # says it
        moves += 1
        wait_until(
            page, f"document.querySelectorAll('.fm-grid button.said').length >= {2 * moves - 1}"
        )
        assert page.evaluate("document.activeElement.closest('.fm') !== null"), (
            "focus fell off the board"
        )
    state = requests.get(f"{live_server}/api/v1/games/{game['id']}", timeout=10).json()
    assert state["status"] == "finished" and moves >= 1
    assert sum(1 for i in range(len(state["state"]["said"])) if i % 2 == 0) == moves


def test_ten_ploid_moves_by_keyboard_alone(open_page, live_server):
    game = new_game(live_server, "ploid", {"n": 4})
    page = open_game(open_page, game, "phone")
    wait_until(page, LEGAL_LOADED)
    tab_to(page, ".ploid svg.board")
    cursor = [0, 0]
    for ply in range(10):
        wait_until(page, LEGAL_LOADED)
        listing = requests.get(
            f"{live_server}/api/v1/games/{game['id']}/legal-moves", timeout=10
        ).json()
        assert listing["ply"] == ply
        move = next(m for m in listing["moves"] if m["type"] == "place")
        assert page.evaluate("document.activeElement.matches('.ploid svg.board')"), (
            f"ply {ply}: focus"
        )
        page.keyboard.press("b" if move["piece"] == "blank" else str(move["piece"]))
        for axis, (less, more) in ((0, ("ArrowUp", "ArrowDown")), (1, ("ArrowLeft", "ArrowRight"))):
            want = move["row" if axis == 0 else "col"]
            for _ in range(abs(want - cursor[axis])):
                page.keyboard.press(more if want > cursor[axis] else less)
            cursor[axis] = want
        page.keyboard.press("Enter")  # the cell
        assert page.locator(".ploid .action-bar button.primary").is_enabled(), f"ply {ply}: {move}"
        page.keyboard.press("Enter")  # the move
        wait_until(page, f"document.querySelectorAll('.moves li').length === {ply + 1}")
    got = requests.get(f"{live_server}/api/v1/games/{game['id']}", timeout=10).json()
    assert got["ply"] == 10


def test_focus_stays_on_the_board_after_play_is_clicked(open_page, live_server):
    game = new_game(
        live_server, "prime-drop", seats=[{"human": {"name": "Ada"}}, {"bot": "beginner"}]
    )
    page = open_game(open_page, game, "desktop", seats=("0",))
    wait_until(page, LEGAL_LOADED)
    page.click(".pd button[data-digit='3']")
    page.click("[data-cell='5,5']")
    page.focus(".action-bar button.primary")
    page.keyboard.press("Enter")
    wait_until(page, "document.querySelectorAll('.moves li').length >= 1")
    wait_until(page, "document.activeElement?.matches('.pd svg.board')")


# ---------------------------------------------------------------- 5. Partition's edges


def test_partitions_tappable_edges_show_on_hover(open_page, live_server):
    game = new_game(live_server, "partition")
    page = open_game(open_page, game, "desktop", seats=("0",))
    page.wait_for_selector(".pt [data-edge]")
    stroke = "() => getComputedStyle(document.querySelector('.pt-edge-line')).stroke"
    page.mouse.move(0, 0)
    assert page.evaluate(stroke) in ("transparent", "rgba(0, 0, 0, 0)")
    page.hover(".pt svg.board")
    assert page.evaluate(stroke) not in ("transparent", "rgba(0, 0, 0, 0)")


# ---------------------------------------------------------------- 8, 9. first visit, the way back


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_first_visit_says_what_postplay_is_and_offers_three_steps(viewport, open_page):
    page = open_page("/#/", viewport)
    page.wait_for_selector(".new-game select[name=opponent]")
    assert "small games of numbers" in page.locator("p.intro").inner_text()
    steps = page.locator(".first-visit li")
    assert steps.count() == 3
    assert [s.split(":")[0].split(" of ")[0].split(" to ")[0] for s in steps.all_inner_texts()] == [
        "Play a bot now",
        "Learn the rules",
        "Sign up",
    ]
    page.click(".first-visit button:has-text('Play a bot now')")
    assert page.locator("select[name=opponent]").input_value().startswith("bot:")
    assert page.evaluate("document.activeElement.name") == "name"
    box = box_of(page, ".new-game")
    assert 0 <= box["top"] < page.viewport_size["height"]
    shot(page, f"first-visit-{viewport}")


def test_the_api_page_links_back_to_the_app(new_page):
    page = new_page("/docs")
    page.click("a:has-text('Back to Postplay')")
    page.wait_for_selector("form.new-game")
