"""The rules pages as HTML: a game's Markdown (seeds/<kind>.md) rendered by markdown-it-py, for
the web client's rules page."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

ASSETS_URL = "/rules-assets/"
_COMMENT = re.compile(r"<!--.*?-->", re.S)


# keyed by the text, so an edited file shows at once; rendering Factor/Multiple's long results
# table costs far more than reading the file
@lru_cache(maxsize=16)
def to_html(markdown: str) -> str:
    """HTML for a rules page, without its leading `# Title` (the page's header shows it).

    Raw HTML in the Markdown comes out escaped, and markdown-it's link check refuses
    `javascript:` and other script URLs, so a rules file cannot put markup into the page.

    >>> to_html("# Ploid\\n\\nSee ![the board](board.svg) <b>now</b>.\\n")
    '<p>See <img src="/rules-assets/board.svg" alt="the board" /> &lt;b&gt;now&lt;/b&gt;.</p>\\n'
    """
    return _MARKDOWN.render(markdown)


def _for_the_page(state: StateCore) -> None:
    """A core rule: no title, no marker comments, and pictures beside the rules files."""
    tokens = state.tokens
    if tokens and tokens[0].type == "heading_open" and tokens[0].tag == "h1":
        del tokens[:3]
    state.tokens = _without_comments(tokens)
    for token in state.tokens:
        for child in token.children or ():
            src = child.attrGet("src")
            if child.type == "image" and isinstance(src, str) and _beside_the_rules(src):
                child.attrSet("src", ASSETS_URL + src)


def _without_comments(tokens: list[Token]) -> list[Token]:
    """The paragraphs that are only an HTML comment (the markers fm_table.py writes around its
    table) dropped: with raw HTML off they would show as text."""
    kept: list[Token] = []
    for token in tokens:
        kept.append(token)
        if (
            token.type == "paragraph_close"
            and len(kept) >= 3
            and _COMMENT.fullmatch(kept[-2].content.strip())
        ):
            del kept[-3:]
    return kept


def _beside_the_rules(url: str) -> bool:
    """A relative URL: a file next to the rules files, which /rules-assets/ serves."""
    parts = urlsplit(url)
    return bool(parts.path) and not (parts.scheme or parts.netloc or url.startswith("/"))


# a wide table scrolls sideways in its own box instead of widening a phone's page
def _table_open(self, tokens, idx, options, env) -> str:
    return '<div class="table-wrap">' + self.renderToken(tokens, idx, options, env)


def _table_close(self, tokens, idx, options, env) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>\n"


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
_MARKDOWN.core.ruler.push("for_the_page", _for_the_page)
_MARKDOWN.add_render_rule("table_open", _table_open)
_MARKDOWN.add_render_rule("table_close", _table_close)
