"""The web client's polish (issue 21), each numbered finding checked in headless Chromium at a
desktop (1280 x 800) and a phone (390 x 844, touch) size against the real app and worker:
refusals next to Play, Play only for listed moves, touch-target sizes, Partition's hex names and
whole last turn, the rules pages, the phone layout, results, Factor Bingo's clock, dark mode,
the weight of a first load; and axe-core on every page, the installable app and offline use.
Screenshots land in test-artifacts/polish-*.png."""

from __future__ import annotations

import functools
import json
import re
import uuid

import pytest
import requests
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from api.games import GAMES
from tests.browser.conftest import ARTIFACTS, PHONE, wait_for, wait_until
from tests.browser.drawn import board_of

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
VIEWPORTS = {"desktop": DESKTOP, "phone": PHONE}
KINDS = sorted(GAMES)  # every registered game; its board is driven through its `Board`
REFUSED = r"status of 4\d\d .* at \S+/api/v1/"
TOUCH, BOARD_CELL, MINIMUM = 44, 40, 24  # px: controls, board cells (zoomed), anything (2.5.8)


@pytest.fixture
def open_page(new_page):
    """`open_page(path, viewport="phone", scheme="light", games=None)`: a fresh browser at that
    size and colour scheme; `games` ({id: (kind, tokens)}) is put in its storage first."""

    def open_(path="/", viewport="phone", scheme="light", games=None):
        page = new_page("/static/favicon.svg" if games else path, VIEWPORTS[viewport], scheme)
        if games:  # written on the app's origin before the app runs
            page.evaluate(
                """(games) => localStorage.setItem("postplay.games", JSON.stringify(
                Object.fromEntries(Object.entries(games).map(([id, [kind, tokens]]) =>
                    [id, { kind, tokens, added: Date.now() }]))))""",
                games,
            )
            page.goto(path)
        return page

    return open_


def shot(page, name: str, full_page: bool = False) -> None:
    """Save what the screen shows (or the whole page: a sticky bar then shows where the page
    was scrolled to, not at the bottom)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"polish-{name}.png"), full_page=full_page)


def new_game(base: str, kind: str, options: dict | None = None, seats=None, **body) -> dict:
    seats = seats or [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}]
    response = requests.post(
        f"{base}/api/v1/games",
        timeout=10,
        json={"kind": kind, "options": options or {}, "seats": seats, "first": 0, **body},
    )
    assert response.status_code == 201, response.text
    return response.json()


def api_move(base: str, game: dict, move: dict) -> dict:
    """Play `move` through the API for the seat to move; the game after it, with its tokens."""
    token = game["tokens"][str(game["to_move"])]
    response = requests.post(
        f"{base}/api/v1/games/{game['id']}/moves",
        timeout=10,
        headers={"Authorization": f"Bearer {token}"},
        json={"move": move, "ply": game["ply"]},
    )
    assert response.status_code == 201, response.text
    return {**response.json(), "tokens": game["tokens"]}


def first_legal(base: str, game: dict) -> dict:
    listing = requests.get(f"{base}/api/v1/games/{game['id']}/legal-moves", timeout=10).json()
    return next(m for m in listing["moves"] if m.get("type") != "challenge")


def open_game(open_page, game: dict, viewport="phone", scheme="light", seats=("0", "1")):
    tokens = {s: game["tokens"][s] for s in seats}
    page = open_page(
        f"/#/game/{game['id']}", viewport, scheme, {game["id"]: (game["kind"], tokens)}
    )
    page.wait_for_selector(".game:not([aria-busy]) [data-board]")  # the panels beside it made too
    return page


def in_viewport(page, selector: str) -> dict:
    """The element's box, once the whole element is on screen. The boards redraw their nodes
    when the legal moves or the positions arrive, so the check waits and asks again (a box read
    from a node just replaced is empty) rather than reading one node once."""
    located = page.locator(selector)
    expect(located).to_be_in_viewport(ratio=1)
    boxes: list = []
    wait_for(page, lambda: boxes.append(located.bounding_box()) or boxes[-1], f"{selector}'s box")
    box = boxes[-1]
    height = page.viewport_size["height"]
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box, height)
    return box


def boxes_in_one_layout(page, *selectors: str) -> list[dict]:
    """The boxes of the elements (CSS selectors) read in one layout, once it has held still for
    a few frames. The page redraws its board and controls when the game arrives after a
    refusal, so two boxes read one after another may come from two layouts (a refusal read
    before the redraw sat a line above a Play button read after it)."""
    for selector in selectors:
        expect(page.locator(selector)).to_be_in_viewport(ratio=1)
    boxes = page.evaluate(
        """async (selectors) => {
            const read = () => JSON.stringify(selectors.map((s) => {
                const r = document.querySelector(s)?.getBoundingClientRect();
                return r && { x: r.x, y: r.y, width: r.width, height: r.height };
            }));
            let last = read();
            for (let still = 0; still < 3; ) {
                await new Promise((frame) => requestAnimationFrame(frame));
                const now = read();
                still = now === last && !now.includes("null") ? still + 1 : 0;
                last = now;
            }
            return JSON.parse(last);
        }""",
        list(selectors),
    )
    height = page.viewport_size["height"]
    for selector, box in zip(selectors, boxes, strict=True):
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box, height)
    return boxes


# ---------------------------------------------------------------- 1. refusals in sight


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("kind", KINDS)
def test_a_refusal_shows_next_to_play_and_is_announced(
    kind, viewport, open_page, console, live_server
):
    """The move is played from another device first: Play here is refused (409), and the
    refusal shows under Play, on screen, in an alert region."""
    game = new_game(live_server, kind)
    page = open_game(open_page, game, viewport)
    wait_until(
        page, "!document.querySelector('.board-controls .hint')?.textContent.includes('Loading')"
    )
    move = first_legal(live_server, game)
    board_of(kind).pick(page, move)
    play = page.locator(".action-bar button:has-text('Play')")
    assert play.is_enabled()
    api_move(live_server, game, move)  # the other device
    console.allow(REFUSED + r"games/\w+/moves$")
    play.click()
    refusal = page.locator(".action-bar + .refusal")
    refusal.wait_for()
    assert refusal.get_attribute("role") == "alert"
    assert "ply" in refusal.inner_text() or "turn" in refusal.inner_text(), refusal.inner_text()
    note, button = boxes_in_one_layout(page, ".action-bar + .refusal", ".action-bar button.primary")
    assert 0 <= note["y"] - (button["y"] + button["height"]) < 60, (note, button)
    shot(page, f"refusal-{kind}-{viewport}")


# ---------------------------------------------------------------- 2. Play only for legal moves


PLAY = ".action-bar button:has-text('Play')"


def play_enabled(page) -> bool:
    return page.locator(PLAY).is_enabled()


def test_a_number_said_before_the_legal_moves_come_is_said_once_they_do(open_page, live_server):
    game = new_game(live_server, "factor-multiple", {"n": 30})
    page = open_game(open_page, game, "phone", seats=("1",))
    held: list = []
    page.route("**/legal-moves*", lambda route: held.append(route))  # Bo's listing, held back
    game = api_move(live_server, game, {"type": "say", "number": 10})
    wait_for(page, lambda: held, "the page asking for Bo's legal moves")
    box = page.locator("input[aria-label='Number to say']")
    box.fill("5")
    box.press("Enter")
    page.wait_for_timeout(300)  # (what the page does with the keypress, before the listing)
    moves = f"{live_server}/api/v1/games/{game['id']}/moves"
    assert len(requests.get(moves, timeout=10).json()) == 1
    held[0].continue_()
    page.unroute("**/legal-moves*")
    wait_for(page, lambda: len(requests.get(moves, timeout=10).json()) == 2, "Bo's 5 said")
    assert requests.get(moves, timeout=10).json()[1]["move"] == {"type": "say", "number": 5}


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_play_is_enabled_only_for_moves_the_listing_holds(viewport, open_page, live_server):
    # Ploid: a cell that is not highlighted
    ploid = new_game(live_server, "ploid", {"n": 3})
    ploid = api_move(live_server, ploid, {"type": "place", "row": 0, "col": 0, "piece": 1})
    ploid = api_move(live_server, ploid, {"type": "place", "row": 2, "col": 3, "piece": 2})
    page = open_game(open_page, ploid, viewport)
    page.click(".ploid button[data-piece='3']")
    legal = {
        c for c in page.locator(".pl-cell.legal").evaluate_all("cs => cs.map(c => c.dataset.cell)")
    }
    assert legal and "0,1" not in legal  # a 3 beside White's 1 would make a group of 2 under a 1
    page.click("[data-cell='0,1']")
    assert not play_enabled(page)
    assert "cannot go on" in page.locator(".ploid .hint").inner_text()
    page.click(f"[data-cell='{sorted(legal)[0]}']")
    expect(page.locator(PLAY)).to_be_enabled()  # (the server's answer may be on its way)

    # Factor/Multiple: 7 as the first number
    fm = new_game(live_server, "factor-multiple", {"n": 30})
    page = open_game(open_page, fm, viewport)
    page.fill("input[aria-label='Number to say']", "7")
    page.wait_for_selector(".fm .action-bar .pending:has-text('The first number must be even.')")
    assert not play_enabled(page)
    page.fill("input[aria-label='Number to say']", "8")
    expect(page.locator(PLAY)).to_be_enabled()  # (the server's answer may be on its way)

    # Prime Drop: a challenge of cells that are no number, and double downs
    pd = new_game(live_server, "prime-drop", {"size": 9})
    for mv in (
        {"type": "drop", "row": 4, "col": 4, "digit": 3},
        {"type": "drop", "row": 4, "col": 6, "digit": 1},
    ):
        pd = api_move(live_server, pd, mv)
    page = open_game(open_page, pd, viewport)
    page.click(".pd .modes button:has-text('Challenge')")
    page.click("[data-cell='4,4']")
    page.click("[data-cell='4,6']")  # not one line of tiles: [4, 5] is empty
    page.fill("input[aria-label='Proposed factor']", "3")
    assert not play_enabled(page)
    assert "not a number on the board" in page.locator(".pd .hint").inner_text()
    page.click("[data-cell='4,4']")
    page.click("[data-cell='4,4']")
    expect(
        page.locator(PLAY)
    ).to_be_enabled()  # (the server's answer may be on its way)  # a lone 3: a failed challenge is still a legal move

    page.click(".pd .modes button:has-text('Double down')")
    page.click(".pd button[data-digit='2']")
    assert page.locator(".pd-cell.drop-ok").count() == 0, "double down highlights every empty cell"
    page.click("[data-cell='0,0']")
    page.click(".pd button[data-digit='5']")
    page.click("[data-cell='0,1']")
    page.wait_for_selector(".pd .hint:has-text('must go next to a tile')")  # the server's reason
    assert not play_enabled(page)
    page.click(".pd .action-bar button:has-text('Clear')")
    page.click(".pd button[data-digit='2']")
    page.click("[data-cell='4,5']")
    page.click(".pd button[data-digit='7']")
    page.click("[data-cell='3,5']")
    wait_until(page, "!document.querySelector('.action-bar button.primary').disabled")
    expect(page.locator(".pd .action-bar .pending")).to_have_text(
        "Doubles down 2 at [4, 5], then 7 at [3, 5]"
    )
    shot(page, f"legal-only-{viewport}")


# ---------------------------------------------------------------- 3. touch targets

SIZES = """([touch, minimum]) => {
    const visible = (el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
    };
    // WCAG 2.5.8's inline exception: a link inside a sentence sizes with its text
    const inline = (el) => el.tagName === "A" && [...el.parentElement.childNodes]
        .some((n) => n.nodeType === 3 && n.textContent.trim());
    const size = (el) => {
        if (el instanceof SVGGraphicsElement) {
            const target = el.matches("[data-edge]") ? el.querySelector("rect") : el;
            const box = target.getBBox();
            const m = target.getScreenCTM();
            return [box.width * Math.hypot(m.a, m.b), box.height * Math.hypot(m.c, m.d)];
        }
        const r = el.getBoundingClientRect();
        return [r.width, r.height];
    };
    const name = (el) => `${el.tagName.toLowerCase()}${el.className?.baseVal ?? el.className ? "." + (el.className.baseVal ?? el.className) : ""} `
        + `"${(el.textContent || el.getAttribute("aria-label") || el.dataset.cell || el.dataset.edge || el.dataset.hex || el.dataset.value || "").trim().slice(0, 30)}"`;
    const controls = [], board = [];
    for (const el of document.querySelectorAll("a[href], button, input, select, textarea, summary")) {
        if (!visible(el) || el.closest(".markdown") || inline(el)) continue;
        const target = ["checkbox", "radio"].includes(el.type) ? el.closest("label") || el : el;
        const [w, h] = size(target);
        (el.closest("[data-board]") ? board : controls).push([name(el), w, h]);
    }
    for (const el of document.querySelectorAll("[data-board] :is([data-cell], [data-hex], [data-edge], [data-value])")) {
        const [w, h] = size(el);
        board.push([name(el), w, h]);
    }
    return { controls, board };
}"""


def sizes(page) -> dict:
    return page.evaluate(SIZES, [TOUCH, MINIMUM])


def under(items, least: float) -> list:
    """The targets smaller than `least` px either way (a hundredth of a pixel for rounding)."""
    return [item for item in items if min(item[1], item[2]) < least - 0.01]


@pytest.mark.parametrize("kind", KINDS)
def test_touch_targets_on_a_phone_and_a_desktop(kind, open_page, live_server):
    game = new_game(live_server, kind)
    page = open_game(open_page, game, "phone")
    wait_until(
        page, "!document.querySelector('.board-controls .hint')?.textContent.includes('Loading')"
    )
    fit = sizes(page)
    assert under(fit["controls"], TOUCH) == [], "controls under 44 px on a phone"
    assert under(fit["board"], MINIMUM) == [], "board targets under 24 px at fit size"
    zoom = page.locator(".board-zoom .zoom")
    if zoom.count() and zoom.first.is_visible():
        zoom.first.click()
        assert zoom.first.get_attribute("aria-pressed") == "true"
    zoomed = sizes(page)
    assert zoomed["board"] and under(zoomed["board"], BOARD_CELL) == [], (
        "board cells under 40 px zoomed"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    least = lambda items: min(min(w, h) for _, w, h in items)  # noqa: E731
    print(
        f"{kind} at 390 px: controls >= {least(fit['controls']):.1f} px, board targets "
        f">= {least(fit['board']):.1f} px fit, >= {least(zoomed['board']):.1f} px zoomed"
    )
    shot(page, f"sizes-{kind}-phone-zoomed")
    desktop = open_game(open_page, game, "desktop")
    wait_until(
        desktop, "!document.querySelector('.board-controls .hint')?.textContent.includes('Loading')"
    )
    assert under(sizes(desktop)["board"] + sizes(desktop)["controls"], MINIMUM) == []


@pytest.mark.parametrize(
    "path",
    [
        "/#/",
        "/#/rules",
        "/#/rules/partition",
        "/#/playtests",
        "/#/sweeps",
        "/#/leaderboard/ploid",
        "/#/signin",
        "/#/events",
        "/#/ladder/ploid",
    ],
)
def test_controls_outside_boards_are_a_thumb_wide_on_a_phone(path, open_page):
    page = open_page(path)
    page.wait_for_selector("main#view :is(form, ul, .markdown):visible")
    page.wait_for_timeout(300)
    assert under(sizes(page)["controls"], TOUCH) == []


def test_move_list_rows_and_header_links_are_a_thumb_high(open_page, live_server):
    game = new_game(live_server, "factor-multiple", {"n": 30})
    game = api_move(live_server, game, {"type": "say", "number": 4})
    page = open_game(open_page, game)
    page.wait_for_selector(".moves button.move")
    for selector in (".moves button.move", "header.site :is(a, summary):visible"):
        for box in page.locator(selector).evaluate_all(
            "es => es.map(e => e.getBoundingClientRect().height)"
        ):
            assert box >= TOUCH - 0.5, selector


# ---------------------------------------------------------------- 4. Partition


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_partition_names_hexes_as_its_margins_do_and_marks_the_whole_last_turn(
    viewport, open_page, live_server
):
    game = new_game(live_server, "partition")
    for edge in ([0, 6], [14, 15], [28, 29]):
        game = api_move(live_server, game, {"type": "stick", "edge": edge})
    assert game["to_move"] == 1
    page = open_game(open_page, game, viewport, seats=("1",))
    page.wait_for_selector(".moves li >> nth=2")
    moves = page.locator(".moves li").all_inner_texts()
    assert [m.split(": ", 1)[1] for m in moves] == [
        "places a stick between A1 and B1",
        "places a stick between C3 and C4",
        "places a stick between E5 and E6",
    ]
    assert not any(re.search(r"\d+–\d+|hex \d", m) for m in moves)
    margins = page.locator(".pt svg .board-axis").all_text_contents()
    assert margins == list("ABCDEF") + [str(c) for c in range(1, 7)]
    # styled as the board's names (unstyled, SVG text is drawn 16 px a viewBox unit, in black)
    sizes = page.locator(".pt svg .board-axis").evaluate_all(
        "els => [...new Set(els.map((e) => getComputedStyle(e).fontSize))]"
    )
    assert sizes == ["0.35px"], sizes
    assert page.locator(".pt-stick.last").count() == 3
    shot(page, f"partition-last-turn-{viewport}")


# ---------------------------------------------------------------- 5. rules pages


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_rules_pages_show_tables_and_pictures_within_the_screen(viewport, open_page):
    page = open_page("/#/rules/factor-multiple", viewport)
    page.wait_for_selector(".markdown table")
    assert "| " not in page.locator(".markdown").inner_text()
    # the page grows with its sections (the bots' ratings, ladders), never with a long table:
    # each table stands in a box no taller than the screen, scrolling inside it when longer
    tallest = page.evaluate(
        "Math.max(...[...document.querySelectorAll('.markdown .table-wrap')]"
        ".map((w) => w.getBoundingClientRect().height))"
    )
    assert tallest <= VIEWPORTS[viewport]["height"], f"a table box is {tallest} px tall"
    assert page.locator(".markdown .table-wrap.long").count() >= 1  # the results table
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]
    shot(page, f"rules-factor-multiple-{viewport}")
    page = open_page("/#/rules/partition", viewport)
    picture = page.locator(".markdown img")
    picture.wait_for()
    wait_until(page, "document.querySelector('.markdown img').naturalWidth > 0")
    box = picture.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS[viewport]["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]


# ---------------------------------------------------------------- 6. phone layout


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_prime_drop_pile_board_and_play_are_on_one_screen(viewport, open_page, live_server):
    game = new_game(live_server, "prime-drop")
    page = open_game(open_page, game, viewport)
    page.click(".pd button[data-digit='3']")
    page.click("[data-cell='5,5']")  # scrolled to first, found again if the board redrew it
    for selector in (
        ".pd button[data-digit='3']",
        "[data-cell='5,5']",
        ".action-bar button:has-text('Play')",
    ):
        in_viewport(page, selector)
    shot(page, f"prime-drop-one-screen-{viewport}")


# ---------------------------------------------------------------- 7. results


def colour_of(page, selector: str, prop: str = "background-color") -> str:
    return page.locator(selector).evaluate(f"e => getComputedStyle(e).getPropertyValue('{prop}')")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_results_say_from_whose_side_and_why(viewport, open_page, live_server):
    # a loss is not dressed as a win
    lost = new_game(live_server, "factor-multiple", {"n": 30})
    requests.post(
        f"{live_server}/api/v1/games/{lost['id']}/resign",
        timeout=10,
        headers={"Authorization": f"Bearer {lost['tokens']['0']}"},
    )
    loser = open_game(open_page, lost, viewport, seats=("0",))
    loser.wait_for_selector(".banner.loss:has-text('you lose')")
    winner = open_game(open_page, lost, viewport, seats=("1",))
    winner.wait_for_selector(".banner.win:has-text('You win')")
    assert colour_of(loser, ".banner") != colour_of(winner, ".banner")
    shot(loser, f"result-loss-{viewport}")

    # Ploid's reason gives the scores and what they count
    ploid = new_game(live_server, "ploid", {"n": 2})
    while ploid["status"] != "finished":
        ploid = api_move(live_server, ploid, first_legal(live_server, ploid))
    page = open_game(open_page, ploid, viewport, seats=("0",))
    # the reason's words come from GET /kinds, which the page may still be reading
    page.wait_for_selector(".banner span:has-text('placed')")
    detail = page.locator(".banner span").inner_text()
    scores = ploid["result"]["scores"]
    assert (
        f"{scores[0]} piece" in detail and f"{scores[1]} piece" in detail and "placed" in detail
    ), detail

    # a challenge that worked against you is bad news
    pd = new_game(live_server, "prime-drop", {"size": 9})
    pd = api_move(live_server, pd, {"type": "drop", "row": 4, "col": 4, "digit": 4})
    pd = api_move(live_server, pd, {"type": "challenge", "from": [4, 4], "to": [4, 4], "factor": 2})
    page = open_game(open_page, pd, viewport, seats=("0",))
    page.wait_for_selector(".pd .note.bad:has-text('success')")
    page = open_game(open_page, pd, viewport, seats=("1",))
    page.wait_for_selector(".pd .note.good:has-text('success')")

    # a finished Factor/Multiple game says so, not "Say a factor"
    fm = new_game(live_server, "factor-multiple", {"n": 10})
    while fm["status"] != "finished":
        fm = api_move(live_server, fm, first_legal(live_server, fm))
    page = open_game(open_page, fm, viewport, seats=("0",))
    info = page.locator(".fm .board-info").inner_text()
    assert info.startswith("Game over") and "Say a factor" not in info, info


# ---------------------------------------------------------------- 8. Factor Bingo's clock


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_factor_bingos_clock_is_unmissable(viewport, open_page, live_server, kinds):
    assert kinds["factor-bingo"]["default_time_control"]["type"] == "byoyomi"  # the seed's default
    page = open_page("/#/", viewport)
    page.select_option("select[name=kind]", "factor-bingo")
    # the form starts with no clock (issue 46); the seed's clock is a choice named in words
    page.select_option(".clock-fields select[aria-label='Clock type']", "preset")
    line = page.locator(".new-game .clock-line")
    assert "5 × 1 min byo-yomi" in line.inner_text() and "lost on time" in line.inner_text()
    game_box, line_box = page.locator("select[name=kind]").bounding_box(), line.bounding_box()
    assert 0 < line_box["y"] - game_box["y"] < 250, "the clock is said right under the game"
    assert int(colour_of(page, ".new-game .clock-line", "font-weight")) >= 700
    shot(page, f"factor-bingo-clock-lobby-{viewport}")

    game = new_game(
        live_server, "factor-bingo", seats=[{"human": {"name": "Ada"}}, {"bot": "beginner"}]
    )
    page = open_game(open_page, game, viewport, seats=("0",))
    note = in_viewport(page, ".clock-note")
    assert "byo-yomi" in page.locator(".clock-note").inner_text() and note["height"] > 20
    clock = page.locator(".player.to-move .clock")
    assert float(clock.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 20
    in_viewport(page, ".player.to-move .clock")
    page.goto("/#/")
    page.wait_for_selector(f"li[data-game='{game['id']}'] .clock-badge:has-text('byo-yomi')")
    shot(page, f"factor-bingo-clock-mine-{viewport}")


# ---------------------------------------------------------------- 9. dark mode

LUMINANCE = """(colour) => {
    const [r, g, b] = colour.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


def contrast(page, a: str, b: str) -> float:
    la, lb = (page.evaluate(LUMINANCE, c) for c in (a, b))
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_seat_marks_keep_their_colours_and_buttons_their_contrast(
    scheme, viewport, open_page, live_server
):
    game = new_game(live_server, "ploid", {"n": 3})
    game = api_move(live_server, game, {"type": "place", "row": 0, "col": 0, "piece": 1})
    game = api_move(live_server, game, {"type": "place", "row": 2, "col": 3, "piece": 2})
    page = open_game(open_page, game, viewport, scheme)
    row = colour_of(page, ".players .player:first-child")
    white, black = (colour_of(page, f".players .player:nth-child({i + 1}) .mark") for i in (0, 1))
    # White is the light disc and Black the dark one, whatever the scheme
    assert page.evaluate(LUMINANCE, white) > 0.8 and page.evaluate(LUMINANCE, black) < 0.05, (
        white,
        black,
    )
    # and each stands out from the row it sits on: its fill, its edge or its halo (3:1, WCAG 1.4.11)
    for seat in (0, 1):
        mark = f".players .player:nth-child({seat + 1}) .mark"
        halo = re.match(
            r"rgba?\([^)]*\)", colour_of(page, mark, "box-shadow") + " rgba(0, 0, 0, 0)"
        )[0]
        seen = [colour_of(page, mark), colour_of(page, mark, "border-top-color")]
        if not halo.startswith("rgba(0, 0, 0, 0"):
            seen.append(halo)
        assert max(contrast(page, c, row) for c in seen) >= 3, (seat, seen, row)
    if scheme == "dark":  # Black's disc sits in a light halo, so it reads as a filled disc
        halo = colour_of(page, ".players .player:nth-child(2) .mark", "box-shadow")
        assert contrast(page, re.match(r"rgba?\([^)]*\)", halo)[0], black) >= 7, halo
    pieces = [
        page.locator(f".pl-piece.seat{i}").first.evaluate("e => getComputedStyle(e).fill")
        for i in (0, 1)
    ]
    assert page.evaluate(LUMINANCE, pieces[0]) > page.evaluate(LUMINANCE, pieces[1])
    page.click(".ploid button[data-piece='3']")
    page.locator(".pl-cell.legal").first.click()
    play = ".action-bar button.primary"
    assert contrast(page, colour_of(page, play, "color"), colour_of(page, play)) >= 4.5
    pressed = ".ploid .chip[aria-pressed='true']"
    assert contrast(page, colour_of(page, pressed, "color"), colour_of(page, pressed)) >= 4.5
    shot(page, f"marks-{scheme}-{viewport}")


# ---------------------------------------------------------------- 10. weight


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("kind", KINDS)
def test_a_first_load_of_a_game_page_is_light(kind, viewport, open_page, live_server):
    game = new_game(live_server, kind)
    page = open_page("/static/favicon.svg", viewport)
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.setCacheDisabled", {"cacheDisabled": True})
    transferred, urls = {}, []
    session.on("Network.responseReceived", lambda e: urls.append(e["response"]["url"]))
    session.on(
        "Network.loadingFinished",
        lambda e: transferred.__setitem__(e["requestId"], e["encodedDataLength"]),
    )
    page.goto(f"/#/game/{game['id']}")  # a new document, nothing cached
    page.wait_for_selector("[data-board]")
    page.wait_for_load_state("networkidle")
    drawn = page.evaluate("performance.getEntriesByName('postplay:board')[0]?.startTime")
    total = sum(transferred.values())
    print(
        f"{kind} ({viewport}): {total} bytes in {len(transferred)} requests, board drawn at {drawn:.0f} ms"
    )
    assert total <= 100_000, f"{total} bytes transferred"
    fetched = [u.split("/static/js/", 1)[1] for u in urls if "/static/js/" in u]
    scripts = sorted(set(fetched))
    boards = [s for s in scripts if s.startswith("boards/") and s != "boards/common.js"]
    assert boards == [f"boards/{kind}.js"], boards
    # its styles come with it (its STYLES, adopted by loadBoard), in no request of their own
    assert not [u for u in urls if u.endswith(".css") and "/static/css/app.css" not in u], urls
    adopted = page.evaluate(
        "() => document.adoptedStyleSheets.map((sheet) => sheet.cssRules.length)"
    )
    assert len(adopted) == 1 and adopted[0] > 0, adopted
    # the first modules index.html preloads are fetched once each: the preload is the import's
    first = ["app.js", "api.js", "storage.js", "game.js", "dom.js", "format.js", "boards/common.js"]
    assert [fetched.count(m) for m in first] == [1] * len(first), fetched
    assert not {"playtests.js", "charts.js", "lobby.js", "rules.js", "profile.js"} & set(scripts), (
        scripts
    )


def test_a_game_page_asks_for_its_board_with_its_other_modules(open_page, live_server):
    game = new_game(live_server, "partition")
    page = open_page("/static/favicon.svg")
    board = (
        "document.querySelector('link[rel=modulepreload][href$=\"boards/partition.js\"]') !== null"
    )
    drawn = "performance.getEntriesByName('postplay:board').length > 0"
    # a first visit: the board is preloaded once the game's answer names its kind
    page.goto(f"/#/game/{game['id']}")
    wait_until(page, drawn)
    assert page.evaluate(board)
    assert page.evaluate("JSON.parse(localStorage.getItem('postplay.kinds'))") == [
        [game["id"], "partition"]
    ]
    # the next: the kind is remembered, so the board is asked for while the game's answer is
    # still on its way (held here until the board's preload is seen)
    held = []
    page.route(f"**/api/v1/games/{game['id']}", lambda route: held.append(route))
    page.reload(wait_until="commit")
    wait_until(page, board)
    # (the preload is added just before the game's request is sent: wait for that to be held)
    wait_for(page, lambda: held, "the game's request, held")
    assert len(held) == 1 and page.evaluate(board) and not page.evaluate(drawn)
    held[0].continue_()
    page.unroute(f"**/api/v1/games/{game['id']}")
    wait_until(page, drawn)
    assert page.locator("[data-board]").count() == 1


def test_static_files_carry_validators_and_cache_control(live_server):
    for path, cache in (
        ("/static/js/app.js", "no-cache"),
        ("/static/css/app.css", "no-cache"),
        ("/", "no-cache"),
        ("/static/icons/icon-192.png", "max-age=86400"),
        ("/sw.js", "no-cache"),
    ):
        response = requests.get(live_server + path, timeout=10)
        assert response.status_code == 200 and cache in response.headers["Cache-Control"], path
        etag = response.headers["ETag"]
        again = requests.get(live_server + path, headers={"If-None-Match": etag}, timeout=10)
        assert again.status_code == 304, path
    assert (
        "gzip"
        in requests.get(
            f"{live_server}/static/js/game.js", timeout=10, headers={"Accept-Encoding": "gzip"}
        ).headers["Content-Encoding"]
    )


# ---------------------------------------------------------------- axe-core

# every route of the client (web/README.md): a game of each kind played, and watched once over
# (every control of the board disabled), a player's profile, a sweep (a playtest's report has
# its own test below)
PAGES = [
    "/#/",
    "/#/rules",
    "/#/rules/partition",
    "/#/playtests",
    "/#/sweeps",
    "sweep",
    "/#/leaderboards",
    "/#/leaderboard/ploid",
    "/#/events",
    "/#/ladder/ploid",
    "/#/signin",
    "/#/signup",
    "player",
    *[f"game:{k}" for k in KINDS],
    *[f"finished:{k}" for k in KINDS],
]


def serious_violations(page) -> list:
    """axe-core's serious and critical violations on the page as it is: (rule, impact, nodes)."""
    violations = Axe().run(page).response["violations"]
    found = ", ".join(f"{v['id']} {v['impact']}" for v in violations) or "none"
    print(f"axe {page.url.split('#', 1)[-1]}: {len(violations)} violations ({found})")
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:5])
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("where", PAGES)
def test_no_serious_accessibility_violations(
    where, scheme, viewport, open_page, live_server, kinds
):
    if where.startswith("game:"):
        kind = where.split(":", 1)[1]
        bot = kinds[kind]["bots"][0]["level"]
        game = new_game(live_server, kind, seats=[{"human": {"name": "Ada"}}, {"bot": bot}])
        page = open_game(open_page, game, viewport, scheme, seats=("0",))
        wait_until(
            page,
            "!document.querySelector('.board-controls .hint')?.textContent.includes('Loading')",
        )
    elif where.startswith("finished:"):
        game = new_game(live_server, where.split(":", 1)[1])
        resigned = requests.post(
            f"{live_server}/api/v1/games/{game['id']}/resign",
            timeout=10,
            headers={"Authorization": f"Bearer {game['tokens']['0']}"},
        )
        assert resigned.status_code == 201, resigned.text
        page = open_game(open_page, game, viewport, scheme, seats=())
    elif where in ("player", "sweep"):
        page = open_page(f"/#/{where}/{_axe_subject(live_server, where)}", viewport, scheme)
        page.wait_for_selector("main#view :is(.sweep, .profile .since):visible")
        page.wait_for_timeout(300)
    else:
        page = open_page(where, viewport, scheme)
        page.wait_for_selector("main#view :is(form, ul, .markdown):visible")
        page.wait_for_timeout(300)
    assert serious_violations(page) == []


@functools.cache
def _axe_subject(base: str, where: str) -> str:
    """A player's name, or a sweep's id, for the pages that show one (made once per session)."""
    if where == "player":
        name = "axe_reader"
        made = requests.post(
            f"{base}/api/v1/accounts",
            timeout=10,
            json={"username": name, "password": "a long password"},
        )
        assert made.status_code == 201, made.text
        return name
    made = requests.post(
        f"{base}/api/v1/playtests/sweeps",
        timeout=10,
        json={
            "kind": "factor-multiple",
            "bots": ["greedy", "greedy"],
            "games_per_variant": 2,
            "vary": {"n": [10, 12]},
            "budget_s": 0.01,
        },
    )
    assert made.status_code == 202, made.text
    return made.json()["id"]


def test_no_serious_accessibility_violations_on_a_playtest_report(open_page, live_server):
    response = requests.post(
        f"{live_server}/api/v1/playtests",
        timeout=10,
        json={
            "kind": "factor-multiple",
            "options": {"n": 12},
            "bots": ["greedy", "greedy"],
            "games": 4,
            "budget_s": 0.01,
            "chunk_games": 4,
            "samples": 1,
        },
    )
    assert response.status_code in (201, 202), response.text
    playtest = response.json()["id"]
    for scheme in ("light", "dark"):
        for viewport in VIEWPORTS:
            page = open_page(f"/#/playtest/{playtest}", viewport, scheme)
            page.wait_for_selector(".report .card", timeout=60000)
            assert serious_violations(page) == [], (scheme, viewport)
            shot(page, f"playtest-report-{scheme}-{viewport}", full_page=True)


# ---------------------------------------------------------------- installable, offline


def test_the_app_is_installable_and_opens_offline_with_the_last_known_games(
    open_page, console, live_server
):
    game = new_game(live_server, "ploid", {"n": 3})
    game = api_move(live_server, game, {"type": "place", "row": 1, "col": 1, "piece": 1})
    page = open_page("/#/", "phone", games={game["id"]: ("ploid", {"1": game["tokens"]["1"]})})
    page.wait_for_selector(f"li[data-game='{game['id']}']:has-text('Your turn')")
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    assert manifest["display"] == "standalone" and manifest["start_url"].startswith("/")
    sizes_ = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes_
    for icon in manifest["icons"]:
        assert requests.get(live_server + icon["src"], timeout=10).status_code == 200
    assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)").endswith(
        "/sw.js"
    )
    wait_until(page, "navigator.serviceWorker.controller !== null")
    page.goto(
        f"/#/game/{game['id']}"
    )  # under the worker: the game, its board and its answers are kept
    page.wait_for_selector(".game:not([aria-busy]) [data-board] .pl-piece")  # the panels made too,
    page.wait_for_load_state("networkidle")  # and their answers (the chat's) in: kept as well
    page.goto("/#/")
    page.wait_for_selector(f"li[data-game='{game['id']}']")

    page.context.set_offline(True)
    console.allow(
        r"ERR_INTERNET_DISCONNECTED at \S+/api/v1/games/\w+/legal-moves$"
    )  # not kept: moves need the network
    page.reload()
    page.wait_for_selector(".offline:not([hidden])")
    page.wait_for_selector(f"li[data-game='{game['id']}']:has-text('Your turn')")
    page.click(f"li[data-game='{game['id']}'] a")
    page.wait_for_selector("[data-board] .pl-piece")
    assert page.locator(".pl-piece.seat0").count() == 1
    shot(page, "offline-game")
    page.context.set_offline(False)


def test_the_service_worker_is_versioned_and_network_first(live_server):
    worker = requests.get(f"{live_server}/sw.js", timeout=10)
    assert worker.headers["Content-Type"].startswith("text/javascript")
    version = re.search(r'const SHELL_VERSION = "([0-9a-f]{16})"', worker.text)[1]
    files = json.loads(re.search(r"const SHELL_FILES = (\[.*?\]);", worker.text)[1])
    assert "/" in files and "/static/js/app.js" in files and "/static/js/boards/ploid.js" in files
    assert "postplay-shell-${SHELL_VERSION}" in worker.text and version
    assert worker.headers["ETag"].strip('"') == version


# ---------------------------------------------------------------- 10. Factor/Multiple at n = 1000


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_factor_multiple_at_n_1000_is_legible(viewport, open_page, live_server):
    game = new_game(live_server, "factor-multiple", {"n": 1000})
    for number in (500, 250, 750):
        game = api_move(live_server, game, {"type": "say", "number": number})
    page = open_game(open_page, game, viewport)
    page.wait_for_selector(".fm-grid button.legal")
    # no grey disc of every factor-multiple edge: only those of the number last said
    assert page.locator(".fm-circle .fm-edges:not(.near)").get_attribute("d") == ""
    near = page.locator(".fm-circle .fm-edges.near").get_attribute("d")
    assert near.count("M") == sum(
        1 for d in range(1, 1001) if d != 750 and (750 % d == 0 or d % 750 == 0)
    )
    dots = page.locator(".fm-circle .fm-vertex").evaluate_all(
        "vs => vs.filter(v => getComputedStyle(v).display !== 'none').length"
    )
    legal = page.locator(".fm-grid button.legal").count()
    assert dots <= 3 + 1 + legal, dots  # said, current, legal: no ring of a thousand grey dots
    page.locator(".fm-circle").evaluate("e => e.scrollIntoView()")
    shot(page, f"factor-multiple-1000-{viewport}")


@pytest.mark.parametrize("path", ["/#/", "/#/rules/ploid"])
def test_other_pages_load_no_board_and_no_playtest_code(path, open_page):
    page = open_page("/static/favicon.svg")
    scripts = []
    page.on(
        "request",
        lambda r: "/static/js/" in r.url and scripts.append(r.url.split("/static/js/", 1)[1]),
    )
    page.goto(path)
    page.wait_for_selector("main#view :is(form, .markdown > *):visible")
    page.wait_for_load_state("networkidle")
    # (the game page's first modules, game.js and boards/common.js among them, are preloaded by
    # index.html on every page: web/README.md, "Loading"; no game's board is)
    boards = [s for s in scripts if s.startswith("boards/") and s != "boards/common.js"]
    assert not boards + [s for s in scripts if s in ("playtests.js", "charts.js")], scripts


# ---------------------------------------------------------------- signed in: the same floor


def signed_in_page(new_page, path: str, viewport: str, scheme: str, account: dict):
    page = new_page("/static/favicon.svg", VIEWPORTS[viewport], scheme)
    page.evaluate(
        "([username, token]) => localStorage.setItem('postplay.account', "
        "JSON.stringify({ username, token }))",
        [account["account"]["username"], account["token"]],
    )
    page.goto(path)
    return page


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_signed_in_pages_keep_the_sizes_and_pass_axe(scheme, new_page, live_server):
    # what only a signed-in player sees: the notices menu, the rated and range choices, the
    # chat, draw and takeback buttons of a game of theirs, and the vacation switch
    name = f"pol_{uuid.uuid4().hex[:8]}"
    account = requests.post(
        f"{live_server}/api/v1/accounts",
        timeout=10,
        json={"username": name, "password": "a long enough password"},
    ).json()
    auth = {"Authorization": f"Bearer {account['token']}"}
    game = requests.post(
        f"{live_server}/api/v1/games",
        timeout=10,
        headers=auth,
        json={
            "kind": "factor-multiple",
            "seats": [{"me": True}, {"bot": "greedy"}],
            "first": 0,
            "time_control": {"type": "correspondence", "days_per_move": 3},
        },
    ).json()
    for path, ready in (
        (f"/#/game/{game['id']}", ".chat-form:visible"),
        ("/#/", "section.mine"),
        (f"/#/player/{name}", ".vacation-switch:visible"),
    ):
        page = signed_in_page(new_page, path, "phone", scheme, account)
        page.wait_for_selector(ready)
        page.wait_for_timeout(300)
        assert under(sizes(page)["controls"], TOUCH) == [], path
        assert serious_violations(page) == [], path
        shot(page, f"signed-in-{path.split('/')[1] or 'lobby'}-{scheme}")
