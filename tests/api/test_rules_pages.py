"""The rules pages as HTML: GET /kinds/{kind}/rules renders each game's Markdown on the server."""

from __future__ import annotations

import re

import pytest

from api.games import GAMES
from api.web.rules_pages import to_html


def rules(client, kind: str) -> dict:
    response = client.get(f"/api/v1/kinds/{kind}/rules")
    assert response.status_code == 200
    return response.get_json()


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_page_keeps_its_markdown_and_adds_html_without_the_title(client, kind):
    page = rules(client, kind)
    assert page["format"] == "markdown" and page["kind"] == kind
    title = page["text"].splitlines()[0]
    assert title.startswith("# ")
    assert "<h1>" not in page["html"] and "<h2>" in page["html"]
    assert "&lt;!--" not in page["html"]  # the markers tools keep in the source stay hidden


def test_factor_multiple_results_table_is_a_table_with_a_row_per_n(client):
    html = rules(client, "factor-multiple")["html"]
    tables = re.findall(r'<div class="table-wrap"><table>.*?</table>', html, re.S)
    assert len(tables) == 4  # the seed's example, the results, the bot ladder, the bots' ratings
    example, results, *_ = tables
    assert example.count("<tr>") == 1 + 8
    assert results.count("<tr>") == 1 + 199  # a header row and n = 2 to 200
    assert "<td>200</td>" in results
    assert "| " not in html and "results table" not in html


def test_partition_picture_is_served_from_rules_assets(client):
    html = rules(client, "partition")["html"]
    src = re.search(r'<img src="([^"]+)"', html).group(1)
    assert src == "/rules-assets/partition-board.svg"
    assert client.get(src).status_code == 200


def test_absolute_pictures_are_left_alone():
    html = to_html("![a](https://example.org/a.png) ![b](/b.png) ![c](#c)")
    assert re.findall(r'src="([^"]*)"', html) == ["https://example.org/a.png", "/b.png", "#c"]


def test_raw_html_is_escaped():
    html = to_html('<script>alert(1)</script>\n\nA <img src=x onerror="alert(1)"> picture.\n')
    assert "<script" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in html


@pytest.mark.parametrize(
    "link",
    [
        "[x](javascript:alert(1))",
        "[x](JavaScript:alert(1))",
        "[x]( javascript:alert(1))",
        "<javascript:alert(1)>",
        "![x](javascript:alert(1))",
        "[x](vbscript:msgbox(1))",
        "[x](data:text/html,<script>alert(1)</script>)",
        "[x][r]\n\n[r]: javascript:alert(1)",
    ],
)
def test_script_links_are_not_live(link):
    html = to_html(link)
    assert not re.search(r'(href|src)="\s*(javascript|vbscript|data):', html, re.I), html


def test_ordinary_links_stay_links():
    assert to_html("[the lobby](#/) and [Juniper Green](https://example.org/jg)") == (
        '<p><a href="#/">the lobby</a> and <a href="https://example.org/jg">Juniper Green</a></p>\n'
    )
