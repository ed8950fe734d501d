"""Learning in the web client, on the phone: a Factor/Multiple puzzle solved on the game's own
board with the server's replies played out and the solver's verdicts shown, and a lesson passed
(kept in the browser for an anonymous player)."""

from __future__ import annotations

import pytest

from api.learn import lessons, service
from api.store.puzzles import PuzzleStore
from tests.browser.test_web_client import assert_fits_phone

pytestmark = pytest.mark.browser


def _say(page, scope: str, number: int) -> None:
    page.locator(f"{scope} .fm-grid button[data-n='{number}']").click()
    page.locator(f"{scope} .action-bar button:has-text('Play')").click()


def test_a_puzzle_is_solved_and_a_lesson_passed_on_a_phone(new_page, redis_client, screenshot):
    store = PuzzleStore(redis_client)
    service.load_seeds(store)
    page = new_page("/#/puzzles/factor-multiple")
    page.wait_for_selector("section.puzzle[data-puzzle] .fm-grid button.legal")
    puzzle = store.get(page.get_attribute("section.puzzle", "data-puzzle"))
    mine = [s["move"]["number"] for s in puzzle["line"] if s["seat"] == puzzle["to_move"]]
    for k, number in enumerate(mine):
        if k:
            page.wait_for_selector(".puzzle-result:has-text('go on')")
        _say(page, "section.puzzle", number)
    page.wait_for_selector(".puzzle-result .solved:has-text('Solved')")
    verdicts = page.locator(".puzzle-result .verdicts li")
    assert verdicts.count() == len(puzzle["verdicts"])
    assert (
        page.locator(".puzzle-result .verdicts li:has-text('does not win')").count()
        == len(puzzle["verdicts"]) - 1
    )
    (winning,) = [v["move"]["number"] for v in puzzle["verdicts"] if v["wins"]]
    assert verdicts.filter(has_text="wins").all_inner_texts() == [f"says {winning}: wins"]
    assert page.locator(".puzzle-result ol.line li").count() == len(puzzle["line"])
    assert_fits_phone(page)
    screenshot(page, "puzzle-solved")

    n = next(
        i
        for i, lesson in enumerate(lessons.lessons_of("factor-multiple"), start=1)
        if lesson.title == "1 connects everything"
    )
    page.goto("/#/learn/factor-multiple")
    item = f"li.lesson[data-n='{n}']"
    page.wait_for_selector(f"{item} .fm-grid button.legal")
    wrong = lessons.lessons_of("factor-multiple")[n - 1].example(False).number
    _say(page, item, wrong)
    page.wait_for_selector(f"{item} .lesson-verdict:has-text('Not yet: That is not 1.')")
    _say(page, item, 1)
    page.wait_for_selector(f"{item} .lesson-verdict:text-is('Passed.')")
    assert page.evaluate("JSON.parse(localStorage.getItem('postplay.lessons'))") == [
        f"factor-multiple:{n}"
    ]
    assert_fits_phone(page)
    screenshot(page, "lesson-passed")
