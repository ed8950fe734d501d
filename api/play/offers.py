"""Draw offers and takebacks (RULES.md, "All games"): a player proposes, the opponent answers.

A draw is offered on one's own turn; accepted, the game ends drawn (reason `agreement`). A
takeback asks to undo one's own last move (and the server's passes after it) before the
opponent has answered it; granted, those history entries go and the clocks are as they were
before the move. An offer stands until it is answered or a move is made (`GameRecord.set_state`
clears it). The record shows standing offers as `offers: {"draw": seat|None, "takeback":
seat|None}`. A rated game allows takebacks only when both accounts allow them.

An offer to a server bot is answered on a worker, never in the request: the store marks the game
as one a bot must act in (`GameRecord.bot_to_act`), in the same script as the offer, and the
follow-ups enqueue the bot's job (the reconciler enqueues it again if it is lost). Bots decline
draws, except a perfect bot in a position its solver proves drawn; they grant takebacks in casual
games and refuse them in rated ones.
"""

from __future__ import annotations

import enum
import time

from api.bots import accepts_draw
from api.games import Outcome, Reason
from api.record.errors import Conflict, GameOver, NotStarted, NotYourTurn, Stale, TimeRanOut
from api.record import GameRecord, Offer, Status
from api.play.service import Followups, _ending, _update, play_bot_move, position
from api.store.accounts import AccountStore
from api.store.games import Change, GameStore


class Action(str, enum.Enum):
    """What a player does with an offer: make it, or answer the opponent's yes or no."""

    PROPOSE = "propose"
    ACCEPT = "accept"
    DECLINE = "decline"


# the API's words for each action, per offer (`{"action": "offer"}` to the draw, "ask" to a takeback)
WORDS = {
    Offer.DRAW: {"offer": Action.PROPOSE, "accept": Action.ACCEPT, "decline": Action.DECLINE},
    Offer.TAKEBACK: {"ask": Action.PROPOSE, "grant": Action.ACCEPT, "refuse": Action.DECLINE},
}


def is_rated(record: GameRecord) -> bool:
    """Whether the game counts for ratings (a record stored before ratings existed is casual)."""
    return bool(record.rated)


def act(
    store: GameStore,
    followups: Followups,
    accounts: AccountStore,
    game_id: str,
    seat: int,
    offer: Offer,
    word: str,
    now: float | None = None,
) -> GameRecord:
    """`seat` does `word` ("offer", "accept", "decline"; "ask", "grant", "refuse") with the
    game's `offer`; the game after it."""
    now = time.time() if now is None else now
    action = WORDS[offer][word]

    def change(record: GameRecord) -> Change:
        _check_running(record, now)
        if action is Action.PROPOSE:
            return _propose(accounts, record, seat, offer, now)
        return answer(store, record, seat, offer, action is Action.ACCEPT, now)

    record = _update(store, game_id, change).record
    followups.after_change(record)
    return record


def answer(
    store: GameStore, record: GameRecord, seat: int, offer: Offer, yes: bool, now: float
) -> Change:
    """The change of `seat` answering the opponent's standing `offer`."""
    offered = record.offers[offer.value]
    what = "draw offer" if offer is Offer.DRAW else "takeback request"
    if offered is None:
        raise Conflict(f"There is no {what} to answer.")
    if offered == seat:
        raise Conflict(f"Your opponent answers your {what}, not you.")
    record.offers[offer.value] = None
    if yes and offer is Offer.DRAW:
        return _ending(record, Outcome(None, Reason.AGREEMENT), now)
    if yes:
        # the state before the move, replayed from the history the store holds now: a newer
        # write (a move) would fail this change's compare-and-set, and a move clears the offer
        assert record.undo is not None  # a take-back offer records the ply it takes back
        state = position(store, record, record.undo["ply"])
        dropped = record.take_back(state, now)
        return Change(record, drop=dropped, at=now)
    return Change(record, at=now)


def answer_as_bot(
    store: GameStore, followups: Followups, game_id: str, ply: int, now_fn=time.time
) -> GameRecord | None:
    """The worker's answers of a server bot to the offers standing at `ply`; None (a no-op)
    when none stands or the game has moved on. The bot judges before the update, which applies
    the answer only while the same offer still stands. An answer calls for no new bot job: a bot
    to move after it has the move job it had before the offer; a draw it accepted ends the game,
    which calls for the end's follow-ups (a rated game's rating job)."""
    record = store.load(game_id)
    if record is None or record.ply != ply or record.bot_to_answer is None:
        return None
    answered = None
    for offer in Offer:
        offered = record.offers[offer.value]
        level = None if offered is None else record.seats[1 - offered].bot
        if level is None:
            continue
        yes = accepts_draw(record.state(), level) if offer is Offer.DRAW else not is_rated(record)

        def change(current: GameRecord, offer=offer, offered=offered, yes=yes) -> Change:
            if current.ply != ply or current.offers[offer.value] != offered:
                raise Stale
            return answer(store, current, 1 - offered, offer, yes, now_fn())

        try:
            answered = store.update(game_id, change).record
        except (Stale, KeyError):
            continue
        if answered.status is Status.FINISHED:
            followups.after_change(answered)
    return answered


def bot_turn(
    store: GameStore, followups: Followups, game_id: str, ply: int, budget_s: float, ply_limit: int
) -> GameRecord | None:
    """A bot-move job: answer what waits for the bot, then move if it is still the bot's turn
    at `ply` (a takeback it granted has moved the game back to its opponent). An offer made
    while the bot thinks lapses with its move, as any offer does."""
    answer_as_bot(store, followups, game_id, ply)
    return play_bot_move(store, followups, game_id, ply, budget_s, ply_limit=ply_limit)


def _propose(
    accounts: AccountStore, record: GameRecord, seat: int, offer: Offer, now: float
) -> Change:
    if record.offers[offer.value] == seat:
        raise Conflict("You have asked already: your opponent has not answered yet.")
    if offer is Offer.DRAW and record.to_move != seat:
        raise NotYourTurn("You can offer a draw only on your turn.")
    if offer is Offer.TAKEBACK:
        if record.undo is None or record.undo["seat"] != seat:
            raise Conflict("There is nothing to take back: the last move is not yours.")
        if is_rated(record) and not _takebacks_allowed(accounts, record):
            raise Conflict(
                "This is a rated game: takebacks are allowed only when both "
                "players allow them in their settings."
            )
    record.offers[offer.value] = seat
    return Change(record, at=now)


def _check_running(record: GameRecord, now: float) -> None:
    if record.status is Status.FINISHED:
        raise GameOver("The game is over.")
    if record.status is Status.WAITING:
        raise NotStarted("The game has not started: a seat is still open.")
    if record.flagged(now):  # the worker is ending it on time this very moment
        raise TimeRanOut("The time of the player to move has run out: the game is over.")


def _takebacks_allowed(accounts: AccountStore, record: GameRecord) -> bool:
    """Whether every account in the game allows takebacks (its setting `allow_takebacks`)."""
    held = [accounts.load(account_id) for account_id in sorted(record.accounts)]
    return all(a is not None and a["settings"].get("allow_takebacks", True) for a in held)
