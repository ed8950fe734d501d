"""The one code path for everything that changes a game: create, join, move, resign, and the
moves and verdicts the workers make (bots, clocks, background rules). Web routes and worker jobs
both call these functions; they know nothing of HTTP and raise the refusals of `errors`.
Data flows one way: engine -> record -> store -> follow-up jobs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import secrets
import time
import uuid
from typing import Any, Callable, Iterator, Protocol

from api import clocks
from api.bots import choose_move
from api.bots import levels as bot_levels
from api.bots import unavailable as bot_unavailable
from api.bots.match import PLY_LIMIT
from api.clocks import parse_iso
from api.games import GAMES, BadOption, Game, IllegalMove, Move, Outcome, Reason, State, get_game
from api.games.base import listing, play_forced
from api.play import correspondence
from api.record.errors import (
    Busy,
    Conflict,
    GameOver,
    MovedOn,
    NoOpenSeat,
    NotFound,
    NoToken,
    NotStarted,
    NotYourTurn,
    OtherGamesToken,
    Stale,
    TimeRanOut,
)
from api.record import GameRecord, Seat, Status, history_entry
from api.players import ratings as ratings_of
from api.players.accounts import Principal, profile
from api.store.accounts import AccountStore
from api.store.games import Change, GameStore, TokenOfAnotherGame, TokenUnknown
from api.store.ratings import RatingStore

# games between two server bots one client may have running at once: each holds a worker
MAX_BOT_GAMES_PER_CLIENT = int(os.environ.get("POSTPLAY_MAX_BOT_GAMES_PER_CLIENT", "20"))
# how long one request may take to make a rematch before another may make it instead
REMATCH_MAKING_S = 30


class Followups(Protocol):
    """The worker jobs that changes call for (bot moves, deadlines, background rules, analyses)."""

    def after_change(self, record: GameRecord) -> None: ...

    def request_analysis(self, game_id: str, ply: int) -> None: ...

    def request_game_analysis(self, game_id: str, ply: int, key: str, client: str) -> None: ...


@dataclasses.dataclass(frozen=True)
class Me:
    """A seat for the signed-in account that creates the game."""


@dataclasses.dataclass(frozen=True)
class Invite:
    """A seat reserved for the account named `username`: the game is a challenge to it."""

    username: str


def create_game(
    store: GameStore,
    followups: Followups,
    kind: str,
    options: dict | None,
    seats: list[Seat | Me | Invite],
    first: int | str = "random",
    time_control: dict | clocks.TimeControl | None = None,
    now: float | None = None,
    client: str | None = None,
    account: Principal | None = None,
    accounts: AccountStore | None = None,
    rated: bool | None = None,
) -> tuple[GameRecord, dict[str, str]]:
    """A new game and the tokens of its anonymous human seats (`{"0": token}`). `Me` and
    `Invite` seats need the creator's `account`. A game between two server bots counts against
    its `client`'s bot games running (Busy past the limit). `rated` as asked, or by default when
    every person plays as an account (`ratings.decide_rated`)."""
    now = time.time() if now is None else now
    game = _game_for(kind)
    seated = [_account_seat(seat, i, account, accounts) for i, seat in enumerate(seats)]
    checked = game.check_options(options)
    _check_bots(game, seated, checked)
    rated = ratings_of.decide_rated(seated, rated)
    tc = clocks.check(time_control if time_control is not None else game.default_time_control)
    for rule in game.background_rules:
        checked = rule.settle(checked, tc.to_dict())
    first = secrets.randbelow(2) if first == "random" else first
    assert isinstance(first, int)  # the schema allows a seat number or "random"
    seed = secrets.randbits(32)
    state, forced = _forced_moves(game.new(checked, first, seed), 0, now)
    record = GameRecord.create(
        uuid.uuid4().hex[:12],
        kind,
        checked,
        seed,
        first,
        seated,
        state,
        len(forced),
        tc,
        clocks.start(tc),
        now,
        rated=rated,
    )
    counted = client if record.all_bots and record.status is Status.ACTIVE else None
    if counted is not None and store.running_bot_games(counted) >= MAX_BOT_GAMES_PER_CLIENT:
        raise Busy(
            f"You have {MAX_BOT_GAMES_PER_CLIENT} games between bots running; start "
            f"another when one of them ends."
        )
    tokens = {
        i: secrets.token_urlsafe(24)
        for i, s in enumerate(seated)
        if not s.open and s.bot is None and s.account is None
    }
    store.create(record, tokens, forced, bot_games_of=counted)
    followups.after_change(record)
    return record, {str(i): t for i, t in tokens.items()}


def join(
    store: GameStore,
    followups: Followups,
    game_id: str,
    name: str,
    now: float | None = None,
    account: Principal | None = None,
    ratings: RatingStore | None = None,
) -> tuple[GameRecord, str, int]:
    """Take the first open seat; return the game, the seat's token and its index. Signed in
    (`account`), the seat is the account's; a rated game, or a seat with a rating range, takes
    only an account that fits (`ratings.check_joiner`)."""
    now = time.time() if now is None else now
    token = secrets.token_urlsafe(24)
    if account is not None:
        account.require("play")

    def change(record: GameRecord) -> Change:
        joinable = [i for i, s in enumerate(record.seats) if s.joinable]
        if not joinable:
            raise NoOpenSeat("This game has no open seat left.")
        ratings_of.check_joiner(ratings, record, record.seats[joinable[0]], account)
        record.take_seat(
            joinable[0],
            Seat.human(name) if account is None else Seat.for_account(account.id, account.username),
            now,
        )
        return Change(record, tokens={joinable[0]: token}, at=now)

    written = _update(store, game_id, change)
    followups.after_change(written.record)
    (seat,) = written.tokens
    return written.record, token, seat


def accept(
    store: GameStore,
    followups: Followups,
    game_id: str,
    account: Principal,
    now: float | None = None,
) -> GameRecord:
    """The challenged account takes its seat; the game starts when no seat is left open."""
    now = time.time() if now is None else now
    account.require("challenge")

    def change(record: GameRecord) -> Change:
        seat = _invitation(record, account)
        record.take_seat(seat, Seat.for_account(account.id, account.username), now)
        return Change(record, at=now)

    record = _update(store, game_id, change).record
    followups.after_change(record)
    return record


def decline(
    store: GameStore,
    followups: Followups,
    game_id: str,
    account: Principal,
    now: float | None = None,
) -> GameRecord:
    """The challenged account says no: the game is aborted."""
    now = time.time() if now is None else now
    account.require("challenge")

    def change(record: GameRecord) -> Change:
        _invitation(record, account)
        return _ending(record, Outcome(None, Reason.ABORTED), now)

    return _update(store, game_id, change).record


def claim(
    store: GameStore, game_id: str, seat_token: str, account: Principal, now: float | None = None
) -> GameRecord:
    """Bind the anonymous seat `seat_token` holds to the account, which then plays it (the seat
    token still works too)."""
    now = time.time() if now is None else now
    account.require("play")
    seat = seat_of(store, game_id, seat_token)

    def change(record: GameRecord) -> Change:
        held = record.seats[seat]
        if held.account not in (None, account.id):
            raise Conflict("That seat is another account's already.")
        record.seats[seat] = dataclasses.replace(held, name=account.username, account=account.id)
        return Change(record, at=now)

    return _update(store, game_id, change).record


def rematch(
    store: GameStore,
    followups: Followups,
    game_id: str,
    seat: int,
    account: Principal | None = None,
    accounts: AccountStore | None = None,
    client: str | None = None,
    now: float | None = None,
) -> tuple[GameRecord, dict[str, str], bool]:
    """A finished game's rematch, same kind, options and time control, the seats swapped: the
    asker keeps their place as they hold it; a bot stays a bot; another account is challenged;
    another anonymous player gets an open seat to join by the link. A game has one rematch:
    once made, asking again (either side) answers that game, with no token (False: not made
    now), as Lichess answers a rematch offer already made."""
    old = store.load(game_id)
    if old is None:
        raise NotFound(f"There is no game {game_id!r}.")
    if old.status is not Status.FINISHED:
        raise Conflict("A rematch starts once the game is over.")
    while made := store.rematch_of(game_id, REMATCH_MAKING_S):
        existing = store.load(made)
        if existing is not None:
            return existing, {}, False
        store.link_rematch(game_id, None)  # deleted, having ended with no move: make another
    if made is None:
        raise Conflict("The rematch of this game is being made: ask again in a moment.")

    def again(i: int, held: Seat) -> Seat | Me | Invite:
        if held.bot is not None:
            return Seat.for_bot(held.bot)
        if i == seat:
            assert held.name is not None  # the seat asking for the rematch was a player's
            return (
                Me() if held.account is not None and account is not None else Seat.human(held.name)
            )
        if held.account is not None and account is not None:
            assert held.name is not None  # an account's seat carries its username
            return Invite(held.name)
        return Seat.empty(listed=False)

    seats = [again(i, held) for i, held in enumerate(old.seats)][::-1]
    try:
        record, tokens = create_game(
            store,
            followups,
            old.kind,
            old.options,
            seats,
            old.first,
            old.time_control,
            now,
            client,
            account,
            accounts,
            rated=False if old.rated is False else None,
        )  # casual stays
    except BaseException:
        store.link_rematch(game_id, None)  # refused (a bot busy, an account gone): ask again
        raise
    store.link_rematch(game_id, record.id)
    return record, tokens, True


def games_of(
    store: GameStore,
    accounts: AccountStore,
    account: Principal,
    status: str | None = None,
    game_ids: list[str] | None = None,
) -> list[GameRecord]:
    """The account's games: running ones where it is to move first (soonest deadline first),
    then its other running games, those waiting, and the finished, newest first. `game_ids`:
    the account's games as the caller has just listed them (else they are listed here)."""
    account.require("read")
    records = store.load_many(accounts.game_ids(account.id) if game_ids is None else game_ids)
    if status is not None:
        records = [r for r in records if r.status.value == status]

    def order(record: GameRecord) -> tuple:
        mine = record.to_move is not None and record.seats[record.to_move].account == account.id
        rank = {Status.ACTIVE: 1, Status.WAITING: 2, Status.FINISHED: 3}[record.status]
        deadline = record.deadline()
        return (
            0 if mine else rank,
            deadline if mine and deadline else float("inf"),
            -record.updated_ts,
        )

    return sorted(records, key=order)


def challenges_of(
    store: GameStore, accounts: AccountStore, account: Principal
) -> dict[str, list[GameRecord]]:
    """The challenges waiting for the account, and those it made that still wait."""
    account.require("read")
    incoming = [
        r
        for r in store.load_many(accounts.game_ids(account.id, "challenges"))
        if r.status is Status.WAITING and account.id in r.invited
    ]
    outgoing = [
        r
        for r in store.load_many(accounts.game_ids(account.id))
        if r.status is Status.WAITING and r.invited
    ]
    return {"incoming": incoming, "outgoing": outgoing}


def forget_account(
    store: GameStore, accounts: AccountStore, account_id: str, now: float | None = None
) -> None:
    """After an account is deleted: its seats keep their moves, under the name "deleted"."""
    now = time.time() if now is None else now

    def change(record: GameRecord) -> Change:
        for i in record.seats_of(account_id):
            record.seats[i] = dataclasses.replace(record.seats[i], name="(deleted)")
        return Change(record, at=now)

    for game_id in accounts.game_ids(account_id):
        store.update(game_id, change)


def _invitation(record: GameRecord, account: Principal) -> int:
    """The seat of `record` reserved for `account`."""
    if record.status is not Status.WAITING:
        raise Conflict("This challenge is no longer open.")
    for i, held in enumerate(record.seats):
        if held.invited == account.id:
            return i
    raise OtherGamesToken("This game is not a challenge to you.")


def seat_of(
    store: GameStore, game_id: str, token: str | None, account: Principal | None = None
) -> int:
    """The seat `token` holds in `game_id`; or, for a signed-in `account` (whose token it is),
    its seat there (the one to move, when it holds both)."""
    return seat_and_read(store, game_id, token, account)[0]


def seat_and_read(
    store: GameStore, game_id: str, token: str | None, account: Principal | None = None
) -> tuple[int, bytes, bytes]:
    """`seat_of`, the game as it was read to find the seat, and the opponent's conditional
    moves as read with it: a change made next (a move) starts from them rather than reading
    them again."""
    if account is not None:
        account.require("play")
        found = store.load_and_read_trees(game_id)
        if found is None:
            raise NotFound(f"There is no game {game_id!r}.")
        record, read, trees = found
        seats = record.seats_of(account.id)
        if not seats:
            raise OtherGamesToken("Your account holds no seat in this game.")
        # (not reading the state: a move's request reads it once, later)
        seat = seats[0] if len(seats) == 1 or record.to_move not in seats else record.to_move
        return seat, read, trees[1 - seat]
    if not token:
        raise NoToken("This needs your seat's token: send 'Authorization: Bearer <token>'.")
    with _seat_refusals(game_id):
        return store.seat_and_read(game_id, token)


@contextlib.contextmanager
def _seat_refusals(game_id: str) -> Iterator[None]:
    """The store's answers to a seat token that finds no seat, as refusals."""
    try:
        yield
    except KeyError:
        raise NotFound(f"There is no game {game_id!r}.") from None
    except TokenUnknown:
        raise NoToken("That token does not belong to any seat.") from None
    except TokenOfAnotherGame:
        raise OtherGamesToken("That token belongs to a seat of another game.") from None


def play_move(
    store: GameStore,
    followups: Followups,
    game_id: str,
    seat: int,
    move: Move | Any,
    ply: int,
    now: float | None = None,
    read: bytes | None = None,
    tree: bytes | None = None,
) -> GameRecord:
    """Apply `move` for `seat`, expected at `ply`, then the server's forced moves (passes). A
    move given as the API's JSON object is parsed first, against the game as it is read for the
    update (MalformedMove names the field at fault). A move that arrives after the mover's time
    ran out ends the game on time instead, and is refused with TimeRanOut. `read`: the game as
    `seat_and_read` just read it; `tree`: the opponent's conditional moves as read with it."""
    now = time.time() if now is None else now
    change = _move_change(store, seat, move, ply, now, tree if read is not None else None)
    return _moved(followups, _update(store, game_id, change, read), ply)


def move_by_token(
    store: GameStore,
    followups: Followups,
    game_id: str,
    token: str | None,
    account: Principal | None,
    move: Any,
    ply: int,
    now: float | None = None,
) -> GameRecord:
    """A move (the API's JSON object) by the seat `token` holds, or the signed-in `account`'s
    (`seat_and_read`), made from the game as it was read to find the seat (`play_move`)."""
    seat, read, tree = seat_and_read(store, game_id, token, account)
    return play_move(store, followups, game_id, seat, move, ply, now, read=read, tree=tree)


def _move_change(
    store: GameStore, seat: int, move: Move | Any, ply: int, now: float, tree: bytes | None
) -> Callable[[GameRecord], Change]:
    """`play_move`'s change to the game, with the opponent's conditional reply to it when its
    tree holds one (`correspondence.answer`). `tree`, read with the game's document, serves the
    first try alone (made on that document); a try again reads the tree anew."""
    first = [tree] if tree is not None else []

    def change(record: GameRecord) -> Change:
        typed = move if isinstance(move, Move) else get_game(record.kind).parse_move(move)
        _check_turn(record, seat, ply)
        if record.flagged(now):
            record.end_on_time()
            return Change(record, at=now)
        before = record.state()
        try:
            after = before.apply(typed)
        except IllegalMove as refusal:
            refusal.words = typed.words(before)
            raise
        entries = [history_entry(record.ply, seat, typed, now)]
        after, forced = _forced_moves(after, record.ply + 1, now)
        record.end_turn(seat, after.to_move, now)
        if record.first_move_ts is None:
            record.first_move_ts = now
        record.set_state(after, record.ply + len(entries) + len(forced))
        record.finish_if_over()
        replies, guards, writes = correspondence.answer(
            store, record, seat, typed, now, first.pop() if first else None
        )
        return Change(record, entries + forced + replies, guards=guards, writes=writes, at=now)

    return change


def _moved(followups: Followups, written: Change, ply: int) -> GameRecord:
    """The game after a move's change was written: its follow-ups asked for."""
    record = written.record
    followups.after_change(record)
    if record.ply == ply:  # the change did not move: the flag fell first
        raise TimeRanOut("Your time ran out before this move arrived: the game is over.")
    return record


def check_move(record: GameRecord, move: Any) -> dict:
    """The legal-moves listing narrowed to one move (the API's JSON object), for a client whose
    listing leaves that kind of move out: `moves` holds the move when the rules allow it now,
    else nothing, and `note` says why not. Nothing is stored (MalformedMove names the field)."""
    typed = get_game(record.kind).parse_move(move)
    state = record.state()
    try:
        state.apply(typed)
    except IllegalMove as refusal:
        return {**listing(state, []), "note": refusal.message}
    return listing(state, [typed])


def resign(
    store: GameStore, followups: Followups, game_id: str, seat: int, now: float | None = None
) -> GameRecord:
    now = time.time() if now is None else now

    def change(record: GameRecord) -> Change:
        if record.status is Status.FINISHED:
            raise GameOver("The game is over.")
        return _ending(record, Outcome(1 - seat, Reason.RESIGN), now)

    record = _update(store, game_id, change).record
    followups.after_change(record)
    return record


def end_on_time(
    store: GameStore,
    followups: Followups,
    game_id: str,
    deadline_ts: float,
    now: float | None = None,
) -> GameRecord | None:
    """The worker's deadline: end the game on time if its turn with that deadline is still
    pending; None (a no-op) when the game has moved on."""
    now = time.time() if now is None else now

    def change(record: GameRecord) -> Change:
        if record.deadline() != deadline_ts or now < deadline_ts:
            raise Stale
        record.end_on_time()
        return Change(record, at=now)

    return _update_unless_stale(store, followups, game_id, change)


def abort_abandoned(
    store: GameStore, followups: Followups, game_id: str, now: float | None = None
) -> GameRecord | None:
    """The worker's check of an abandoned game: abort it if still nobody came (RULES.md,
    "Abandoned games"); None (a no-op) when somebody did."""
    now = time.time() if now is None else now

    def change(record: GameRecord) -> Change:
        if not record.abandoned(now):
            raise Stale
        return _ending(record, Outcome(None, Reason.ABORTED), now)

    return _update_unless_stale(store, followups, game_id, change)


def check_background_rule(
    store: GameStore, followups: Followups, game_id: str, name: str, now: float | None = None
) -> GameRecord | None:
    """The worker's check of the game's background rule `name`: end the game if the rule now
    gives an outcome; None (a no-op) when it gives none or the game has moved on."""
    now = time.time() if now is None else now
    record = store.load(game_id)
    if record is None:
        return None
    rule = {r.name: r for r in get_game(record.kind).background_rules}[name]
    ply = record.ply
    history = store.moves(game_id)

    def change(current: GameRecord) -> Change:
        start = rule.starts_at(current.options, current.first_move_ts)
        if (
            current.status is not Status.ACTIVE
            or current.ply != ply
            or start is None
            or now < start
        ):
            raise Stale
        first_move_ts = current.first_move_ts
        assert first_move_ts is not None  # the rule starts counting at the first move
        turns = [
            (parse_iso(entry["at"]) - first_move_ts, state)
            for entry, state in zip(history, replay(current, history))
        ]
        outcome = rule.verdict(current.options, turns)
        if outcome is None:
            raise Stale
        return _ending(current, outcome, now)

    return _update_unless_stale(store, followups, game_id, change)


def play_bot_move(
    store: GameStore,
    followups: Followups,
    game_id: str,
    ply: int,
    budget_s: float,
    now_fn=time.time,
    ply_limit: int = PLY_LIMIT,
) -> GameRecord | None:
    """The worker's bot move for the game at `ply`; None (a no-op) when the game has moved on.
    A game between two bots that reaches `ply_limit` is aborted instead."""
    record = store.load(game_id)
    if record is None or record.ply != ply:
        return None
    level = record.bot_to_move
    if level is None:
        return None
    if ply >= ply_limit and record.all_bots:
        return _abort_at_ply_limit(store, followups, game_id, ply, now_fn())
    state = record.state()
    mover = state.to_move
    assert mover is not None  # a bot is to move, so the game goes on
    move = choose_move(state, level, random.Random(f"{record.seed}:{ply}"), budget_s)
    try:
        return play_move(store, followups, game_id, mover, move, ply, now=now_fn())
    except (GameOver, MovedOn, NotYourTurn, TimeRanOut):
        return None  # someone else moved (a resignation, a duplicate job): nothing to do


def replay(record: GameRecord, history: list[dict]) -> Iterator[State]:
    """The game's state after each entry of `history`, replayed from its start."""
    return (state for _, state, _ in positions(record, history, start=1))


def told_positions(
    record: GameRecord, history: list[dict], start: int = 0
) -> Iterator[tuple[int, State, dict | None, str | None]]:
    """`positions`, each with the words of the move that led there (`Move.words`, said in the
    position before it; None at ply 0)."""
    game = get_game(record.kind)
    before: State | None = None
    for ply, state, entry in positions(record, history, max(0, start - 1)):
        if ply >= start:
            told = (
                None if entry is None or before is None else game.words_for(before, entry["move"])
            )
            yield ply, state, entry, told
        before = state


def positions(
    record: GameRecord, history: list[dict], start: int = 0
) -> Iterator[tuple[int, State, dict | None]]:
    """(ply, state after it, the history entry that led there) for every ply from `start` to
    the game's last; ply 0 is the start position, reached by no entry."""
    game = get_game(record.kind)
    state = game.new(record.options, record.first, record.seed)
    if start == 0:
        yield 0, state, None
    for ply, entry in enumerate(history, start=1):
        move = (
            state.forced_move()
            if entry["move"]["type"] == "pass"
            else game.parse_move(entry["move"])
        )
        assert move is not None  # a pass in the history was the forced move
        state = state.apply(move)
        if ply >= start:
            yield ply, state, entry


def position(store: GameStore, record: GameRecord, ply: int | None) -> State:
    """The game's state at `ply` (its current one when None), replayed from the history."""
    if ply is None or ply == record.ply:
        return record.state()
    if not 0 <= ply <= record.ply:
        raise Conflict(f"The game has plies 0 to {record.ply}; there is no ply {ply}.")
    state = None
    for _, state, _ in positions(record, store.moves(record.id)[:ply], start=ply):  # noqa: B007
        pass
    assert state is not None  # 0 <= ply <= record.ply, so positions gave at least one
    return state


def _abort_at_ply_limit(
    store: GameStore, followups: Followups, game_id: str, ply: int, now: float
) -> GameRecord | None:
    def change(record: GameRecord) -> Change:
        if record.status is not Status.ACTIVE or record.ply != ply:
            raise Stale
        return _ending(record, Outcome(None, Reason.ABORTED), now)

    return _update_unless_stale(store, followups, game_id, change)


def _ending(record: GameRecord, outcome: Outcome, now: float) -> Change:
    """The change that ends the game with `outcome` now."""
    record.finish(outcome)
    return Change(record, at=now)


def _check_turn(record: GameRecord, seat: int, ply: int) -> None:
    if record.status is Status.FINISHED:
        raise GameOver("The game is over.")
    if record.status is Status.WAITING:
        raise NotStarted("The game has not started: a seat is still open.")
    if record.ply != ply:
        raise MovedOn(
            f"The game has moved on: it is at ply {record.ply}, and your move was "
            f"made at ply {ply}. Reload and try again."
        )
    if record.to_move != seat:
        raise NotYourTurn("It is not your turn.")


def _game_for(kind: str) -> type[Game]:
    if kind not in GAMES:
        raise BadOption(
            "kind", f"There is no game {kind!r}; the games are {', '.join(sorted(GAMES))}."
        )
    return GAMES[kind]


def _account_seat(
    seat: Seat | Me | Invite, index: int, account: Principal | None, accounts: AccountStore | None
) -> Seat:
    """The seat a `Me` or `Invite` stands for, on behalf of the creating account."""
    if isinstance(seat, Seat):
        return seat
    if account is None:
        raise NoToken(f"Seat {index}: a seat for an account needs your account's token.")
    if isinstance(seat, Me):
        account.require("play")
        return Seat.for_account(account.id, account.username)
    account.require("challenge")
    assert accounts is not None  # whoever passes an account passes the accounts beside it
    try:
        invited = profile(accounts, seat.username)
    except NotFound as missing:
        raise BadOption(f"seats.{index}.player", missing.message) from None
    if invited["id"] == account.id:
        raise BadOption(f"seats.{index}.player", "You cannot challenge yourself.")
    return Seat.invite(invited["id"], invited["username"])


def _check_bots(game: type[Game], seats: list[Seat], options: dict) -> None:
    levels = bot_levels(game.slug)
    for i, seat in enumerate(seats):
        if seat.bot is not None and seat.bot not in levels:
            raise BadOption(
                f"seats.{i}.bot",
                f"{game.title} has no bot {seat.bot!r}; its bots "
                f"are {', '.join(levels) or 'none yet'}.",
            )
        if seat.bot is not None and (why := bot_unavailable(game.slug, seat.bot, options)):
            raise BadOption(f"seats.{i}.bot", why)


def _forced_moves(state: State, ply: int, now: float) -> tuple[State, list[dict]]:
    """The server's own moves after `ply`, as history entries."""
    state, played = play_forced(state)
    return state, [history_entry(ply + i, seat, move, now) for i, (seat, move) in enumerate(played)]


def _update(
    store: GameStore,
    game_id: str,
    change: Callable[[GameRecord], Change],
    read: bytes | None = None,
) -> Change:
    try:
        return store.update(game_id, change, read)
    except KeyError:
        raise NotFound(f"There is no game {game_id!r}.") from None


def _update_unless_stale(
    store: GameStore, followups: Followups, game_id: str, change: Callable[[GameRecord], Change]
) -> GameRecord | None:
    """A worker's change: None when the game has moved on (or is gone), else the follow-ups."""
    try:
        record = store.update(game_id, change).record
    except (Stale, KeyError):
        return None
    followups.after_change(record)
    return record


def event_game(
    kind: str,
    options: dict | None,
    seats: list[Seat],
    time_control: dict | None,
    rated: bool,
    event: dict,
    now: float,
) -> tuple[GameRecord, list[dict]]:
    """A new game of an event (`event`: its tournament and round, or its ladder) between
    accounts' and server bots' seats, seat 0 moving first, not yet stored: the event stores it
    in its own transaction (`GameStore.new_game_writes`). Its history so far: the server's forced
    moves."""
    game = _game_for(kind)
    checked = game.check_options(options)
    _check_bots(game, seats, checked)
    tc = clocks.check(time_control if time_control is not None else game.default_time_control)
    for rule in game.background_rules:
        checked = rule.settle(checked, tc.to_dict())
    seed = secrets.randbits(32)
    state, forced = _forced_moves(game.new(checked, 0, seed), 0, now)
    record = GameRecord.create(
        uuid.uuid4().hex[:12],
        kind,
        checked,
        seed,
        0,
        seats,
        state,
        len(forced),
        tc,
        clocks.start(tc),
        now,
        rated=rated and not all(s.bot for s in seats),
    )
    record.event = event
    return record, forced
