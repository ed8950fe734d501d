"""Factor Bingo bots: random, a line-building heuristic, and search with an exact endgame.

The calling phase is read through `Card`: bit masks over the 30 numbers (bit i is NUMBERS[i]) for
each seat's lines and for each number's divisors and multiples, so a call costs a few integer
operations. A call that completes a line is *hot*: it wins for whoever gets more lines from it and
otherwise loses for the caller, so play circles around calls that win at once, calls that lose at
once, and calls that hand the opponent one of those.

The advanced bot fills and starts by tree search (`mcts`) over fast playouts, and calls by an exact
solve whose proofs stay on the card from turn to turn; while the solve cannot finish within the
budget (it always can with 12 or fewer numbers left), it makes the medium bot's careful call among
the calls not yet proved to lose.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import random

from api.bots import clock
from api.bots.base import analyser, bot
from api.bots.search import mcts, mcts_scored
from api.games.base import by_seat
from api.games.factor_bingo import (
    LETTERS,
    LINES,
    NUMBERS,
    Call,
    FactorBingoState,
    Fill,
    Start,
    line_masks,
    number_mask,
)

SLUG = "factor-bingo"
ALL = (1 << len(NUMBERS)) - 1
EXACT_AT = 12  # the advanced bot solves the calling phase outright from this many uncalled numbers
PROOF_LIMIT = 1_000_000  # calling positions a card remembers (about 200 bytes each)
PLAYOUT_EXACT_AT = 12  # playouts finish with perfect play from this many uncalled numbers
CANDIDATE_FILLS = 8  # fills the advanced bot searches among, best by the heuristic first

# How far each number reaches: how many of the others divide it or are its multiples.
NEAR: tuple[int, ...] = tuple(
    sum(1 << j for j, m in enumerate(NUMBERS) if m != n and (n % m == 0 or m % n == 0))
    for n in NUMBERS
)
REACH: tuple[int, ...] = tuple(mask.bit_count() for mask in NEAR)


@bot(SLUG, "beginner", "Fills and calls at random among the legal moves.")
def beginner(state: FactorBingoState, rng: random.Random, budget_s: float):
    return rng.choice(state.legal_moves())


@bot(
    SLUG,
    "medium",
    "Fills to build its own lines and split yours; calls to finish its lines, "
    "never hands you a winning call when it can help it.",
)
def medium(state: FactorBingoState, rng: random.Random, budget_s: float):
    if state.phase == "filling":
        return rng.choice(best_fills(state, 1))
    card, used, current = _position(state)
    mover = state.mover
    options = card.choices(used, current) if current is not None else _unused_mask(state)
    return _move(state, card.careful_call(used, options, mover, rng))


@bot(
    SLUG,
    "advanced",
    "Searches within its think time and solves the calling phase exactly as "
    "soon as it can (always once 12 or fewer numbers are left to call).",
)
def advanced(state: FactorBingoState, rng: random.Random, budget_s: float):
    if state.phase == "calling":
        card, used, current = _position(state)
        assert current is not None  # the calling phase has a current number
        if len(NUMBERS) - used.bit_count() <= EXACT_AT:
            return Call(NUMBERS[card.solve(used, current, state.mover, rng)])
        # Earlier, the exact solve often still fits in the budget; when it does not, the careful
        # call among those not yet proved to lose (tree search with playouts did worse here).
        try:
            return Call(
                NUMBERS[
                    card.solve(used, current, state.mover, rng, deadline=clock.now() + budget_s)
                ]
            )
        except TimeoutError:
            options = card.choices(used, current)
            unproved = sum(
                1 << i for i in _bits(options) if not card.proved_losing(used, i, state.mover)
            )
            return Call(NUMBERS[card.careful_call(used, unproved or options, state.mover, rng)])
    return mcts(state, rng, budget_s, moves=_search_moves, playout=_playout)


@analyser(SLUG)
def estimate_position(state: FactorBingoState, rng: random.Random, budget_s: float) -> dict:
    """Exact in the calling phase where the solve finishes within the budget (always with 12
    or fewer numbers left); else the advanced bot's tree search and its mean result."""
    if state.phase == "calling":
        card, used, current = _position(state)
        assert current is not None  # the calling phase has a current number
        try:
            win = card.winning_call(used, current, state.mover, deadline=clock.now() + budget_s)
            best = (
                win
                if win is not None
                else card.careful_call(used, card.choices(used, current), state.mover, rng)
            )
            return {
                "exact": True,
                "value": 1 if win is not None else -1,
                "best": Call(NUMBERS[best]).to_dict(),
            }
        except TimeoutError:
            pass
    move, mean = mcts_scored(state, rng, budget_s, moves=_search_moves, playout=_playout)
    return {
        "exact": False,
        "value": 0.0 if mean is None else round(2 * mean - 1, 3),
        "best": move.to_dict(),
    }


@dataclasses.dataclass(frozen=True)
class Card:
    """Both boards once filled: for each seat and number, the masks of that seat's lines through
    the number; and what the exact solve has proved so far about its calling positions."""

    lines_through: tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
    proved: dict = dataclasses.field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, letters, fills) -> "Card":
        masks = line_masks(letters, fills)
        return cls(
            by_seat(
                tuple(tuple(m for m in masks[s] if m >> i & 1) for i in range(len(NUMBERS)))
                for s in (0, 1)
            )
        )

    @staticmethod
    def choices(used: int, current: int) -> int:
        near = NEAR[current] & ~used
        return near or ALL & ~used

    def winner_after(self, used: int, i: int, caller: int) -> int | None:
        """Who wins when `caller` calls number i, making `used` the called set; None if no line."""
        mine = theirs = 0
        for m in self.lines_through[caller][i]:
            mine += m & used == m
        for m in self.lines_through[1 - caller][i]:
            theirs += m & used == m
        if not mine and not theirs:
            return None
        return caller if mine > theirs else 1 - caller

    def winning(self, used: int, options: int, mover: int) -> list[int]:
        return [i for i in _bits(options) if self.winner_after(used | 1 << i, i, mover) == mover]

    def safe(self, used: int, options: int, mover: int) -> list[int]:
        """The options that end nothing at once."""
        return [i for i in _bits(options) if self.winner_after(used | 1 << i, i, mover) is None]

    def quick_call(self, used: int, options: int, mover: int, rng: random.Random) -> int:
        """The playout policy: a winning call if any, else a random call that ends nothing."""
        safe = []
        for i in _bits(options):
            result = self.winner_after(used | 1 << i, i, mover)
            if result == mover:
                return i
            if result is None:
                safe.append(i)
        return rng.choice(safe or list(_bits(options)))

    def careful_call(self, used: int, options: int, mover: int, rng: random.Random) -> int:
        """Win at once if possible; else the safe call that leaves the opponent no safe reply, or
        no winning one; among equals, the call furthest along the mover's own lines."""
        wins = self.winning(used, options, mover)
        if wins:
            return rng.choice(wins)
        safe = self.safe(used, options, mover) or list(_bits(options))

        def rank(i: int) -> tuple:
            after = used | 1 << i
            replies = self.choices(after, i)
            return (
                not self.safe(after, replies, 1 - mover),
                not self.winning(after, replies, 1 - mover),
                self.progress(after, mover) - self.progress(after, 1 - mover),
                rng.random(),
            )

        return max(safe, key=rank)

    def progress(self, used: int, seat: int) -> int:
        """How close `seat`'s lines are: the sum over lines of squared called counts."""
        lines = {m for through in self.lines_through[seat] for m in through}
        return sum((m & used).bit_count() ** 2 for m in lines)

    def wins(self, used: int, current: int, mover: int, deadline: float | None = None) -> bool:
        """Whether the mover wins the calling phase from here under perfect play. Raises
        TimeoutError once `deadline` (a `clock.now()` time) has passed; what was proved by then is
        kept on the card for the next try."""
        if len(self.proved) > PROOF_LIMIT:  # bound a long game's memory; proofs are redone
            self.proved.clear()
        proved, ticks = self.proved, itertools.count()

        def search(used: int, current: int, mover: int) -> bool:
            options = self.choices(used, current)
            key = (used, options, mover)  # the current number matters only through the options
            known = proved.get(key)
            if known is not None:
                return known
            if deadline is not None and next(ticks) % 256 == 0 and clock.now() > deadline:
                raise TimeoutError
            replies = []
            for i in _bits(options):
                after = used | 1 << i
                result = self.winner_after(after, i, mover)
                if result == mover:
                    proved[key] = True
                    return True
                if result is None:
                    replies.append((self.choices(after, i).bit_count(), i))
            replies.sort()  # calls that leave the opponent least choice are likeliest to win
            proved[key] = any(not search(used | 1 << i, i, 1 - mover) for _, i in replies)
            return proved[key]

        return search(used, current, mover)

    def calls_to_win(
        self, used: int, current: int, mover: int, deadline: float | None = None
    ) -> int | None:
        """The fewest calls of its own with which the mover forces its win from here, whatever
        the opponent calls (the length of its win), or None where it does not win. Raises
        TimeoutError once `deadline` (a `clock.now()` time) has passed."""
        if not self.wins(used, current, mover, deadline):
            return None
        known: dict[tuple[int, int, int], bool] = {}
        ticks = itertools.count()

        def within(used: int, current: int, calls: int) -> bool:
            options = self.choices(used, current)
            key = (used, options, calls)  # the current number matters only through the options
            if key in known:
                return known[key]
            if deadline is not None and next(ticks) % 256 == 0 and clock.now() > deadline:
                raise TimeoutError
            known[key] = any(
                self.winner_after(used | 1 << i, i, mover) == mover
                or (calls > 1 and self._holds(used | 1 << i, i, mover, calls - 1, within))
                for i in _bits(options)
            )
            return known[key]

        return next(k for k in itertools.count(1) if within(used, current, k))

    def _holds(self, used: int, current: int, mover: int, calls: int, within) -> bool:
        """After the mover's call that ended nothing: every reply of the opponent leaves the
        mover a win within `calls` more of its calls."""
        if self.winner_after(used, current, mover) is not None:
            return False
        for j in _bits(self.choices(used, current)):  # (none left: a win, as `wins` counts it)
            result = self.winner_after(used | 1 << j, j, 1 - mover)
            if result == 1 - mover or (result is None and not within(used | 1 << j, j, calls)):
                return False
        return True

    def solve(
        self, used: int, current: int, mover: int, rng: random.Random, deadline: float | None = None
    ) -> int:
        """The mover's call under perfect play: a winning one if any; in a lost position, the
        call that leaves the opponent the smallest share of winning replies, the likeliest to be
        missed."""
        winning = self.winning_call(used, current, mover, deadline)
        if winning is not None:
            return winning
        options = self.choices(used, current)
        safe = self.safe(used, options, mover)
        if not safe:
            return self.careful_call(used, options, mover, rng)
        return min(
            safe,
            key=lambda i: (self.winning_share(used | 1 << i, i, 1 - mover, deadline), rng.random()),
        )

    def winning_call(
        self, used: int, current: int, mover: int, deadline: float | None = None
    ) -> int | None:
        """A call that wins under perfect play, or None in a lost position."""
        for i in _bits(self.choices(used, current)):
            result = self.winner_after(used | 1 << i, i, mover)
            if result == mover or (
                result is None and not self.wins(used | 1 << i, i, 1 - mover, deadline)
            ):
                return i
        return None

    def winning_share(self, used: int, current: int, mover: int, deadline: float | None) -> float:
        """The share of the mover's calls that win under perfect play."""
        options = list(_bits(self.choices(used, current)))
        won = 0
        for i in options:
            result = self.winner_after(used | 1 << i, i, mover)
            won += result == mover or (
                result is None and not self.wins(used | 1 << i, i, 1 - mover, deadline)
            )
        return won / len(options)

    def proved_losing(self, used: int, i: int, mover: int) -> bool:
        """Whether calling i is already proved to lose (the opponent then wins)."""
        after = used | 1 << i
        return self.proved.get((after, self.choices(after, i), 1 - mover)) is True


@functools.lru_cache(maxsize=2)
def card_for(letters, fills) -> Card:
    """The card of a game being played, kept so that its proofs carry over from turn to turn."""
    return Card.of(letters, fills)


def best_fills(state: FactorBingoState, keep: int) -> list[Fill]:
    """The heuristic's favourite fills: far-reaching numbers where a letter sits on more of the
    mover's lines than the opponent's, numbers that are hard to reach where it sits on more of the
    opponent's; `keep` of them, ties broken by the order of the legal moves."""
    mover, filled = state.mover, dict(state.fills)
    letters = [x for x in LETTERS if x not in filled]
    numbers = [i for i, n in enumerate(NUMBERS) if n not in filled.values()]
    mean = sum(REACH[i] for i in numbers) / len(numbers)
    scored = []
    for x in letters:
        weight = _lines_at(state.letters[mover], x) - _lines_at(state.letters[1 - mover], x)
        for i in numbers:
            scored.append((weight * (REACH[i] - mean), Fill(x, NUMBERS[i])))
    scored.sort(key=lambda sm: -sm[0])
    top = scored[0][0]
    if keep == 1:
        return [f for s, f in scored if s == top]
    return [f for _, f in scored[:keep]]


def _search_moves(state: FactorBingoState) -> list:
    """What the search tries: a handful of heuristic fills, every start; the winning calls if
    any, else the calls that neither lose at once nor are proved to lose (failing those, the
    ones that do not lose at once; failing those, all)."""
    if state.phase == "filling":
        return best_fills(state, CANDIDATE_FILLS)
    if state.phase == "start":
        return state.legal_moves()
    card, used, current = _position(state)
    assert current is not None  # the calling phase has a current number
    options = card.choices(used, current)
    safe = card.safe(used, options, state.mover)
    keep = (
        card.winning(used, options, state.mover)
        or [i for i in safe if not card.proved_losing(used, i, state.mover)]
        or safe
    )
    return [Call(NUMBERS[i]) for i in keep] or state.legal_moves()


def _playout(state: FactorBingoState, rng: random.Random) -> FactorBingoState:
    """Finish the fills at random, start at random, then call by `quick_call` and, near the end,
    perfectly; one engine state is built at the end."""
    filled = dict(state.fills)
    letters = [x for x in LETTERS if x not in filled]
    numbers = [n for n in NUMBERS if n not in filled.values()]
    rng.shuffle(numbers)
    fills = state.fills + tuple(zip(letters, numbers))
    start = state.start if state.start is not None else rng.choice(numbers[len(letters) :])
    card = Card.of(state.letters, fills)
    used = number_mask((start,) + state.called)
    current = NUMBERS.index(state.current if state.current is not None else start)
    mover = (state.starter + 1 + len(state.called)) % 2
    called = list(state.called)
    while True:
        i = None
        if len(NUMBERS) - used.bit_count() <= PLAYOUT_EXACT_AT:
            i = card.winning_call(used, current, mover)
        if i is None:
            i = card.quick_call(used, card.choices(used, current), mover, rng)
        used, current = used | 1 << i, i
        called.append(NUMBERS[i])
        if card.winner_after(used, i, mover) is not None:
            return dataclasses.replace(state, fills=fills, start=start, called=tuple(called))
        mover = 1 - mover


def _position(state: FactorBingoState) -> tuple[Card, int, int | None]:
    """The card, the used numbers' mask (the start counts), and the current number's index."""
    card = card_for(state.letters, state.fills)
    used = number_mask(((state.start,) if state.start is not None else ()) + state.called)
    current = None if state.current is None else NUMBERS.index(state.current)
    return card, used, current


def _unused_mask(state: FactorBingoState) -> int:
    return number_mask(state.unused)


def _move(state: FactorBingoState, i: int):
    return Start(NUMBERS[i]) if state.phase == "start" else Call(NUMBERS[i])


def _lines_at(board: tuple[str, ...], letter: str) -> int:
    cell = board.index(letter)
    return sum(cell in line for line in LINES)


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
