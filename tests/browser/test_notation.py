"""One notation: a move reads the same in its game's rules page, in the move list and in the
refusal of it, because the server words it (`words`) and the client shows those words."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.test_polish import api_move, new_game, open_game, open_page  # noqa: F401

STICK = {"type": "stick", "edge": [6, 12]}
WORDS = "places a stick between B1 and C1"

REFUSE = """async ([game, move]) => {
  const api = await import("/static/js/api.js");
  try {
    await api.move(game, 0, move);
    return null;
  } catch (err) {
    return { status: err.status, words: err.words, message: err.message };
  }
}"""


def test_a_partition_move_reads_alike_in_the_rules_the_move_list_and_its_refusal(
    open_page, console, live_server
):
    rules = open_page("/#/rules/partition")
    # the rules page's Notation section writes the move so
    expect(rules.locator(".markdown li code", has_text=WORDS)).to_have_count(1)
    rules.close()

    game = api_move(live_server, new_game(live_server, "partition"), STICK)
    page = open_game(open_page, game, seats=("0",))
    expect(page.locator(".moves li")).to_have_text([re.compile(rf"^\s*Ada: {WORDS}$")])

    # the same stick again, sent by the page's own client: refused, naming the move alike
    console.allow(rf"status of 422 .* at \S+/api/v1/games/{game['id']}/moves$")
    refused = page.evaluate(REFUSE, [{"id": game["id"], "ply": game["ply"]}, STICK])
    assert refused == {
        "status": 422,
        "words": WORDS,
        "message": "The edge between B1 and C1 already has a stick.",
    }
