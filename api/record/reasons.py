"""Every reason a game ends by, with its words: the one table that GET /kinds serves (each kind's
`reasons`), that the web client shows a result and a playtest's endings with, and that an
imported record's result is checked against. The reasons themselves are the engines' `Reason`.

>>> REASONS[Reason.RESIGN].win.format(winner="Ada", loser="Bob")
'Bob resigned.'
>>> REASONS[Reason.REPETITION].winner, REASONS[Reason.TIME].winner, REASONS[Reason.ABORTED].winner
('either', 'seat', 'nobody')
>>> from api.games import get_game
>>> [r["reason"] for r in reasons_of(get_game("ploid"))]
['score', 'resign', 'time', 'aborted', 'agreement']
"""

from __future__ import annotations

import dataclasses

from api.games import Game, Reason


@dataclasses.dataclass(frozen=True)
class Ending:
    """A reason's words: `words` a phrase for a list ("on time"); `win` the sentence under a
    won game, where `{winner}` and `{loser}` name the seats (None: it has no winner); `draw` the
    sentence under a drawn or aborted one (None: it always has a winner). `by_moves`: the
    engine's outcome gives it from the moves alone, so an imported record's moves must show it;
    the others the server gives (a resignation, a flag, a background rule, an agreement)."""

    words: str
    win: str | None
    draw: str | None
    by_moves: bool = False

    @property
    def winner(self) -> str:
        """Whom it lets win: "seat", "nobody" or "either"."""
        return "seat" if self.draw is None else "nobody" if self.win is None else "either"


REASONS: dict[Reason, Ending] = {
    Reason.ALL_TILES_PLAYED: Ending(
        "every tile played", "{winner} played every tile.", None, by_moves=True
    ),
    Reason.NO_MOVES: Ending(
        "no legal move left", "{loser} had no legal move left.", None, by_moves=True
    ),
    Reason.SCORE: Ending("on score", "The higher score wins.", "Equal scores.", by_moves=True),
    Reason.BINGO: Ending(
        "on complete lines",
        "More complete lines win; with equal lines, whoever made the last call loses.",
        "Equal lines.",
        by_moves=True,
    ),
    Reason.TIMEOUT_RULE: Ending(
        "by the timeout rule",
        "By the timeout rule: {winner} held fewer tiles for enough turns in a row.",
        None,
    ),
    Reason.REPETITION: Ending(
        "by repetition",
        "The same position came round a third time, and {winner} held fewer tiles.",
        "The same position came round a third time, with as many tiles on each side.",
    ),
    Reason.RESIGN: Ending("resigned", "{loser} resigned.", None),
    Reason.TIME: Ending("on time", "{loser} ran out of time.", None),
    Reason.ABORTED: Ending("aborted", None, "The game was stopped without a result."),
    Reason.AGREEMENT: Ending("by agreement", None, "The players agreed a draw."),
}
assert set(REASONS) == set(Reason), "every reason has its words"

# the endings every game has besides its rules' own (`Game.reasons`)
ANY_GAME = (Reason.RESIGN, Reason.TIME, Reason.ABORTED, Reason.AGREEMENT)


def view(reason: Reason) -> dict:
    """A reason and its words as GET /kinds shows them."""
    ending = REASONS[reason]
    return {"reason": reason.value, "words": ending.words, "win": ending.win, "draw": ending.draw}


def reasons_of(game: type[Game]) -> list[dict]:
    """The reasons a game of `game` may end by, its rules' own first, with their words."""
    return [view(r) for r in (*game.reasons, *ANY_GAME)]
