"""The web client in headless Chromium at phone size (390 x 844, touch), against the real app
and a real worker: a whole Factor/Multiple game against a bot, a move on every other board,
joining an open game from the lobby, and the rules page. Each board is saved as a screenshot
under test-artifacts/; any browser console error fails the test (see conftest.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
import requests

from tests.browser.conftest import wait_for, wait_until
from tests.browser.drawn import assert_replay_matches

pytestmark = pytest.mark.browser

REFUSED = r"status of 4\d\d .* at \S+/api/v1/"  # the line Chromium logs for an API refusal


def start_game(
    page,
    kind: str,
    opponent: str,
    options: dict | None = None,
    clock: dict | None = None,
    player: str | None = "Ada",
    challenge: str | None = None,
) -> str:
    """Fill the lobby's form as `player` (None: signed in, the form asks no name), moving first,
    with `challenge` the username a challenge goes to; return the new game's id."""
    if player is not None:
        page.fill("input[name=name]", player)
    page.select_option("select[name=kind]", kind)
    for name, value in (options or {}).items():
        page.fill(f"#opt-{name}", str(value))
    page.select_option("select[name=opponent]", opponent)
    if challenge:
        page.fill("input[name=challenge]", challenge)
    page.select_option("select[name=first]", "0")
    if clock:
        page.select_option("select[aria-label='Clock type']", clock.pop("type"))
        for label, value in clock.items():
            page.fill(f".clock-shape input[aria-label='{label}']", value)
    page.click("button:has-text('Start the game')")
    page.wait_for_url(re.compile(r"#/game/\w+$"))
    return page.url.rsplit("/", 1)[1]


def play(page) -> None:
    page.click(".action-bar button:has-text('Play')")


def wait_for_moves(page, count: int) -> None:
    wait_until(page, f"document.querySelectorAll('.moves li').length >= {count}")


def open_with_tokens(page, game_id: str, kind: str, tokens: dict):
    """Open a game made through the API as the browser that holds both seats' tokens."""
    page.evaluate(
        """([id, kind, tokens]) => localStorage.setItem("postplay.games",
        JSON.stringify({ [id]: { kind, tokens, added: Date.now() } }))""",
        [game_id, kind, tokens],
    )
    page.goto(f"/#/game/{game_id}")
    return page


def assert_fits_phone(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "horizontal scrolling"


def test_a_whole_factor_multiple_game_against_a_bot(new_page, console, screenshot, live_server):
    page = new_page()
    polls = []
    page.on(
        "request",
        lambda r: (
            r.method == "GET"
            and re.search(r"/api/v1/games/\w+$", r.url)
            and polls.append(r.headers.get("if-none-match"))
        ),
    )
    fetched_from = []  # the `from` of every positions request: each asks only for what is new
    page.on(
        "request",
        lambda r: (
            (m := re.search(r"/positions\?from=(\d+)$", r.url)) and fetched_from.append(int(m[1]))
        ),
    )
    game_id = start_game(
        page,
        "factor-multiple",
        "bot:greedy",
        options={"n": 30},
        clock={"type": "fischer", "initial": "10m", "increment": "0s"},
    )
    say = page.locator("input[aria-label='Number to say']")

    # a number the legal moves do not hold cannot be played: the hint gives the server's reason
    say.fill("3")
    page.wait_for_selector(".fm .action-bar .pending:has-text('The first number must be even.')")
    assert page.locator(".fm .action-bar button:has-text('Play')").is_disabled()
    say.press("Enter")

    # the keyboard plays the first number, the pointer the rest
    say.fill("4")
    say.press("Enter")
    page.wait_for_selector(".moves li:has-text('Ada: says 4')")
    page.wait_for_selector(".alert", state="hidden")

    page.wait_for_selector(".fm-grid button.legal")
    clock = page.locator(".player.to-move .clock")
    before = clock.inner_text()
    page.wait_for_timeout(1100)
    assert re.fullmatch(r"\d+:\d\d", before) and clock.inner_text() != before, "clock not ticking"

    for _ in range(30):
        page.wait_for_selector(".banner:not([hidden]), .fm-grid button.legal")
        if page.locator(".banner:not([hidden])").count():
            break
        page.locator(".fm-grid button.legal").first.click()
        play(page)
        page.wait_for_selector(".fm-say", state="hidden")
    banner = page.locator(".banner").inner_text()
    assert re.search(r"(You win|Greedy bot wins)", banner), banner
    said = page.evaluate("document.querySelectorAll('.fm-grid button.said').length")
    wait_for_moves(page, said)
    # polling: every poll after the first load sent If-None-Match, and it stopped at the end
    assert len(polls) >= 2 and polls[0] is None and all(polls[1:]), polls
    count = len(polls)
    page.wait_for_timeout(2500)
    assert len(polls) == count, "still polling a finished game"
    assert fetched_from[0] == 0 and fetched_from == sorted(set(fetched_from)), fetched_from
    assert len(fetched_from) > 2 and fetched_from[-1] <= said, fetched_from

    screenshot(page, "factor-multiple")
    assert_fits_phone(page)
    assert_replay_matches(page, live_server, game_id)

    # step-through replay
    page.click("button[aria-label='First position']")
    page.wait_for_selector(".replay-note:not([hidden])")
    assert page.locator(".fm-grid button.said").count() == 0
    page.click("button[aria-label='Next move']")
    assert page.locator(".fm-grid button.said").all_inner_texts() == ["4"]
    page.click("button[aria-label='Latest position']")
    page.wait_for_selector(".replay-note", state="hidden")
    assert page.locator(".fm-grid button.said").count() == said

    # the analysis of a position, where the server offers one
    console.allow(REFUSED + r"games/\w+/analysis\?ply=\d+$")
    page.click("button[aria-label='Previous move']")
    page.click("text=Perfect-play analysis")
    page.wait_for_selector(".fm-analysis p:not(:has-text('Computing'))")


def test_prime_drop_drop_and_challenge(new_page, require_kind, screenshot, live_server):
    require_kind("prime-drop")
    page = new_page()
    game_id = start_game(page, "prime-drop", "local")

    # Ada drops a 4 on [5, 5] with the keyboard
    page.wait_for_selector(".pd button[data-digit='4']:enabled")
    page.focus(".pd svg.board")
    for key in ["ArrowDown"] * 5 + ["ArrowRight"] * 5 + ["4", "Enter"]:
        page.keyboard.press(key)
    expect(page.locator(".pd .action-bar .pending")).to_have_text("Drops 4 at [5, 5]")
    play(page)
    wait_for_moves(page, 1)

    # her second seat challenges the lone 4 with the factor 2, by pointer
    page.click(".pd .modes button:has-text('Challenge')")
    page.click("[data-cell='5,5']")
    page.click("[data-cell='5,5']")
    page.fill("input[aria-label='Proposed factor']", "2")
    # a challenge names its own factor, so the server checks it and words it for the bar
    wait_for(
        page,
        lambda: (
            page.locator(".pd .action-bar .pending").inner_text()
            == "Challenges the 4 at [5, 5] with factor 2"
        ),
        "the challenge checked",
    )
    play(page)
    page.wait_for_selector(".pd .note:has-text('challenged 4 with 2: success')")
    assert page.locator(".pd .panel[data-seat='0'] h2").inner_text().strip() == "Ada: 37 tiles"
    assert page.locator(".pd-digit").count() == 0
    assert_replay_matches(page, live_server, game_id)

    page.click("button[aria-label='Previous move']")
    assert page.locator(".pd-digit").all_text_contents() == ["4"]
    page.click("button[aria-label='Latest position']")
    screenshot(page, "prime-drop")
    assert_fits_phone(page)


def test_prime_drop_double_down(new_page, require_kind, live_server):
    """Two tiles in one turn, the second next to the first, each digit picked before its cell."""
    require_kind("prime-drop")
    page = new_page()
    game_id = start_game(page, "prime-drop", "local")
    page.click(".pd button[data-digit='4']")
    page.click("[data-cell='5,5']")
    play(page)
    wait_for_moves(page, 1)

    page.click(".pd .modes button:has-text('Double down')")
    page.click(".pd button[data-digit='1']")
    page.click("[data-cell='5,6']")
    page.click(".pd button[data-digit='3']")
    page.click("[data-cell='5,7']")
    # the listing leaves double downs out: the bar names the move once the server says it is legal
    wait_for(
        page,
        lambda: (
            page.locator(".pd .action-bar .pending").inner_text()
            == "Doubles down 1 at [5, 6], then 3 at [5, 7]"
        ),
        "the double down checked",
    )
    play(page)
    wait_for_moves(page, 2)
    assert sorted(page.locator(".pd-digit").all_text_contents()) == ["1", "3", "4"]
    assert_replay_matches(page, live_server, game_id)


def test_partition_sticks(new_page, require_kind, screenshot, live_server):
    require_kind("partition")
    page = new_page()
    game_id = start_game(page, "partition", "local")

    page.click("[data-edge='0-6']")
    expect(page.locator(".pt .action-bar .pending")).to_have_text(
        "Places a stick between A1 and B1"
    )
    play(page)
    wait_for_moves(page, 1)
    page.wait_for_selector(".board-info:has-text('2 of 3 actions left')")

    # keyboard: select hex 6, then its neighbour 7, to pick the edge between them
    page.focus(".pt svg.board")
    for key in ["ArrowDown", "Enter", "ArrowRight", "Enter"]:
        page.keyboard.press(key)
    expect(page.locator(".pt .action-bar .pending")).to_have_text(
        "Places a stick between B1 and B2"
    )
    play(page)
    wait_for_moves(page, 2)
    assert page.locator(".pt-stick").count() == 2
    assert_replay_matches(page, live_server, game_id)
    screenshot(page, "partition")
    assert_fits_phone(page)


def test_partition_equal_split_choice(new_page, require_kind, live_server):
    """The stick that cuts the open region into two halves of 18 asks which half closes."""
    require_kind("partition")
    created = requests.post(
        f"{live_server}/api/v1/games",
        json={
            "kind": "partition",
            "first": 0,
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
        },
    ).json()
    game_id, tokens = created["id"], created["tokens"]
    # the edges between rows 2 and 3, all but [17, 23]
    cut = [[12 + c, 18 + c] for c in range(5)] + [[12 + c, 17 + c] for c in range(1, 6)]
    post_moves(live_server, created, tokens, [{"type": "stick", "edge": edge} for edge in cut])
    page = open_with_tokens(new_page(), game_id, "partition", tokens)

    page.click("[data-edge='17-23']")
    page.wait_for_selector(".hint:has-text('choose the part to close')")
    page.click("button:has-text('the part with D1 (18 hexes)')")
    expect(page.locator(".pt .action-bar .pending")).to_have_text(
        "Places a stick between C6 and D6, closing the part with D1"
    )
    play(page)
    wait_for_moves(page, len(cut) + 1)
    assert page.locator(".pt-hex.closed").count() == 18
    assert_replay_matches(page, live_server, game_id)


def post_moves(live_server: str, game: dict, tokens: dict, moves: list[dict]) -> dict:
    """Play `moves` through the API, each by the seat to move; return the game after them."""
    for move in moves:
        seat_token = tokens[str(game["to_move"])]
        response = requests.post(
            f"{live_server}/api/v1/games/{game['id']}/moves",
            headers={"Authorization": f"Bearer {seat_token}"},
            json={"move": move, "ply": game["ply"]},
        )
        assert response.status_code == 201, response.json()
        game = response.json()
    return game


def test_partition_claim_and_subdivision(new_page, require_kind, live_server):
    """A disc in a closed region is claimed by tapping it; a stick inside it subdivides it."""
    require_kind("partition")
    layout = ["red", "orange", "yellow", "green", "blue", "purple"] * 6
    created = requests.post(
        f"{live_server}/api/v1/games",
        json={
            "kind": "partition",
            "first": 0,
            "options": {"layout": layout},
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
        },
    ).json()
    tokens = created["tokens"]
    # six sticks close hexes 0, 1 and 2 (red, orange, yellow): Ada is to move again
    sticks = [[0, 6], [1, 6], [1, 7], [2, 7], [2, 8], [2, 3]]
    game = post_moves(
        live_server, created, tokens, [{"type": "stick", "edge": edge} for edge in sticks]
    )
    assert game["to_move"] == 0 and game["state"]["points"] == [0, 1]
    page = open_with_tokens(new_page(), game["id"], "partition", tokens)

    page.click("[data-hex='0']")
    expect(page.locator(".pt .action-bar .pending")).to_have_text("Claims the red disc on A1")
    play(page)
    wait_for_moves(page, len(sticks) + 1)
    page.wait_for_selector(".panel:has-text('Ada') :text('red')")

    # a hex, then its neighbour, picks the edge between them (here a vertical one, which
    # Playwright will not click: its line has no width until stroked)
    page.click("[data-hex='0']")
    page.click("[data-hex='1']")
    expect(page.locator(".pt .action-bar .pending")).to_have_text("Subdivides between A1 and A2")
    play(page)
    wait_for_moves(page, len(sticks) + 2)
    state = requests.get(f"{live_server}/api/v1/games/{game['id']}").json()["state"]
    assert state["claimed"][0] == ["red"] and state["subdivisions_left"] == [1, 2]
    assert [r["hexes"] for r in state["regions"] if r["closed"]] == [[0], [1, 2]]
    assert_replay_matches(page, live_server, game["id"])


def test_ploid_piece(new_page, require_kind, screenshot, live_server):
    require_kind("ploid")
    page = new_page()
    game_id = start_game(page, "ploid", "bot:beginner")

    page.tap(".ploid button[data-piece='1']")  # by touch
    page.locator(".pl-cell.legal").first.tap()
    expect(page.locator(".ploid .action-bar .pending")).to_have_text(
        re.compile("^" + re.escape("Places a 1 at"))
    )
    play(page)
    wait_for_moves(page, 2)  # the bot answers on the worker
    assert page.locator(".pl-piece.seat0").count() == 1
    assert page.locator(".pl-piece.seat1").count() == 1
    assert_replay_matches(page, live_server, game_id)
    screenshot(page, "ploid")
    assert_fits_phone(page)

    page.click("button:has-text('Resign')")
    page.click("button:has-text('Yes, resign')")
    page.wait_for_selector(".banner:has-text('Beginner bot wins — you lose')")
    assert "Ada resigned." in page.locator(".banner").inner_text()


def test_factor_bingo_letter_fill(new_page, require_kind, screenshot, live_server):
    require_kind("factor-bingo")
    page = new_page()
    game_id = start_game(page, "factor-bingo", "bot:beginner")

    page.wait_for_selector(".fb-numbers button[data-n='48']:enabled")
    page.focus(".fb svg.board")
    page.keyboard.press("c")
    assert page.locator(".fb-cell.letter-pick").count() == 2  # C, on both boards
    page.click(".fb-numbers button[data-n='48']")
    expect(page.locator(".fb .action-bar .pending")).to_have_text("Writes 48 on C")
    play(page)
    wait_for_moves(page, 2)
    assert page.locator(".fb-text.number:text-is('48')").count() == 2
    assert_replay_matches(page, live_server, game_id)
    screenshot(page, "factor-bingo")
    assert_fits_phone(page)


def set_hidden(page, hidden: bool) -> None:
    """Make the page look hidden (a background tab) or visible again."""
    page.evaluate(
        """(hidden) => {
        Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
        document.dispatchEvent(new Event("visibilitychange"));
    }""",
        hidden,
    )


def test_an_open_game_is_joined_from_the_lobby(new_page, screenshot):
    host = new_page()
    game_id = start_game(host, "factor-multiple", "open")
    link = host.locator(".share input").input_value()
    assert link.endswith(f"/#/game/{game_id}")
    host.wait_for_selector(".status:has-text('Waiting for an opponent')")
    polls = []
    host.on("request", lambda r: r.url.endswith(f"/api/v1/games/{game_id}") and polls.append(r))
    set_hidden(host, True)

    guest = new_page()
    row = guest.locator(f".game-list li[data-game='{game_id}']")
    row.wait_for()
    guest.fill("input[name=name]", "Bo")
    screenshot(guest, "lobby")
    assert_fits_phone(guest)
    row.locator("button:has-text('Join')").click()
    guest.wait_for_url(re.compile(f"#/game/{game_id}$"))
    guest.wait_for_selector(".player:has-text('Bo') .tag:has-text('you')")

    # a hidden tab does not poll; shown again, it polls at once and sees the guest
    host.wait_for_timeout(2500)
    assert polls == [] and host.locator(".player:has-text('Bo')").count() == 0
    set_hidden(host, False)
    host.wait_for_selector(".player:has-text('Bo')", timeout=5000)
    host.wait_for_selector(".status:has-text('Your turn')")
    host.goto("/")
    host.wait_for_selector(f".game-list li[data-game='{game_id}'].my-turn")


def test_rules_page(new_page, console, live_server):
    """The rules as HTML from the API, or the API's message while they are not written."""
    response = requests.get(f"{live_server}/api/v1/kinds/factor-multiple/rules", timeout=10)
    if response.status_code != 200:
        console.allow(REFUSED + r"kinds/factor-multiple/rules$")
    page = new_page("/#/rules/factor-multiple")
    page.wait_for_selector(".rules h1:has-text('Factor/Multiple')")
    wait_until(page, "!document.querySelector('.markdown').textContent.includes('Loading')")
    if response.status_code == 200:
        headings = re.findall(r"^#{2,6} ", response.json()["text"], re.M)
        assert page.locator(".markdown :is(h2, h3, h4, h5, h6)").count() == len(headings) > 0
    else:
        assert page.locator(".markdown").inner_text() == response.json()["message"]
    assert_fits_phone(page)


def test_rules_tables_are_tables_that_fit_a_phone(new_page):
    page = new_page("/#/rules/factor-multiple")
    page.wait_for_selector(".markdown table")
    rows = page.locator(".markdown table").evaluate_all("ts => ts.map(t => t.rows.length)")
    # the example game, the results for n = 2 to 200, the bot ladder (perfect vs random, greedy)
    # and the three bots' ratings
    assert rows == [1 + 8, 1 + 199, 1 + 2, 1 + 3]
    assert "| " not in page.locator(".markdown").inner_text()
    assert_fits_phone(page)


def test_rules_picture_is_shown_within_a_phone_screen(new_page, screenshot):
    page = new_page("/#/rules/partition")
    picture = page.locator(".markdown img")
    picture.wait_for()
    wait_until(page, "document.querySelector('.markdown img').naturalWidth > 0")
    box = picture.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    screenshot(page, "rules-partition")
    assert_fits_phone(page)
