"""The services' refusals, in the game's words. They know nothing of HTTP: `api/web/errors`
alone maps each class to a status. Every one carries `message`, a sentence for the player.

Bad moves, options and time controls are the engines' own `ValueError`s (`MalformedMove`,
`IllegalMove`, `BadOption`, `BadTimeControl`); these are the services'."""

from __future__ import annotations


class Refusal(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(Refusal):
    """No such game (or position)."""


class NoToken(Refusal):
    """The request needs a seat's token and has none, or one that matches no seat."""


class OtherGamesToken(Refusal):
    """A real seat token, of another game."""


class Conflict(Refusal):
    """The request does not fit the game as it now stands: over, not started, not this seat's
    turn, made at an older ply, no open seat left, or the mover's time ran out first."""


class GameOver(Conflict):
    pass


class NotStarted(Conflict):
    pass


class NotYourTurn(Conflict):
    pass


class MovedOn(Conflict):
    """The move was made at an older ply than the game's."""


class NoOpenSeat(Conflict):
    pass


class TimeRanOut(Conflict):
    """The mover's time ran out before the move arrived: the game is over on time."""


class BadField(Refusal):
    """A field the rules refuse (a username, a password, a scope); `field` names it."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


class Forbidden(Refusal):
    """The request is known but may not do this (a token lacking the scope it needs)."""


class Busy(Refusal):
    """The client already has as much running as one client may (bot-vs-bot games), or has
    failed too many password checks; `retry_after_s`, when known, says when it may try again."""

    def __init__(self, message: str, retry_after_s: int | None = None):
        super().__init__(message)
        self.retry_after_s = retry_after_s


class Overloaded(Refusal):
    """The server has no capacity for this just now (every password-checking slot is taken):
    try again after `retry_after_s`."""

    def __init__(self, message: str, retry_after_s: int):
        super().__init__(message)
        self.retry_after_s = retry_after_s


class OverBudget(Busy):
    """The client has used its allowance of costly work (analyses) for now: it may ask again
    after `retry_after_s`."""

    def __init__(self, message: str, retry_after_s: int):
        super().__init__(message)
        self.retry_after_s = retry_after_s


class NotOffered(Refusal):
    """The game has no such service (e.g. no solver to analyse it)."""


class Stale(LookupError):
    """A worker's job finds the game has moved on: it has nothing to do."""


class NotEligible(Refusal):
    """The player may not take this seat: the game is rated and they have no account (or hold
    the other seat), or their rating is outside the seat's range."""
