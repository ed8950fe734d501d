"""Prime Drop bots: beginner (random drops, easy challenges), medium (safe lays, the biggest
challenge), advanced (a two-ply tile-swing search that also weighs the digits left in hand).

What makes a lay safe: every number through a new tile must be prime (or 1) both ways, so a run
must end in 1, 3, 7 or 9 at both ends (an even digit, a 5 or a 0 at an end makes one reading
divisible by 2 or 5) and a lone tile must be 1, 2, 3, 5 or 7. Digits that can only go inside a
run are the hard ones to get rid of; the advanced bot lays them while safe places last.
"""

from __future__ import annotations

import random

from api.bots import clock
from api.bots.base import bot, bot_with_estimate
from api.games.base import IllegalMove, Move
from api.games.prime_drop import (
    EMPTY,
    Challenge,
    DoubleDown,
    Drop,
    Number,
    PrimeDropState,
    challengeable,
    nontrivial_factor,
    runs_through,
    touches_tile,
)

SLUG = "prime-drop"
# How hard each digit 0-9 is to lay safely later (see the module docstring).
AWKWARDNESS = (1.2, 0.0, 0.5, 0.0, 1.0, 0.5, 1.0, 0.0, 1.0, 0.0)
HAND_WEIGHT = 0.5  # what one point of awkwardness in hand is worth, in tiles
WIN = 1000.0
TILE_SCALE = 6.0  # an estimate reads this many tiles ahead as a clear lead
EASY_FACTORS = (2, 3, 5)


@bot(SLUG, "beginner", "Drops tiles at random; challenges only numbers divisible by 2, 3 or 5.")
def beginner(state: PrimeDropState, rng: random.Random, budget_s: float) -> Move:
    easy = [Challenge(n.frm, n.to, f) for n in state.numbers if (f := _easy_factor(n.value))]
    if easy:
        return rng.choice(easy)
    return rng.choice(state.drops() or state.legal_moves())


@bot(
    SLUG,
    "medium",
    "Challenges the composite worth the most tiles; lays tiles that form primes "
    "and avoids leaving composites it can see.",
)
def medium(state: PrimeDropState, rng: random.Random, budget_s: float) -> Move:
    if (finish := winning_lay(state)) is not None:
        return finish
    targets = run_challenges(state)
    rng.shuffle(targets)
    biggest = max(targets, key=lambda ch: ch[1].length, default=None)
    singles = safe_singles(state)
    doubles = safe_doubles(state, singles, rng, pairs=20)
    # A challenge of L tiles gains L; a lay gains its tiles and moves the game on, so ties lay.
    laid = 2 if doubles else 1 if singles else 0
    opponent_near_out = state.tiles_left[1 - state.mover] <= 2
    if biggest is not None and (biggest[1].length > laid or opponent_near_out):
        return biggest[0]
    if doubles:
        return rng.choice(doubles)
    if singles:
        return _drop(state, *rng.choice(singles))
    drops = state.drops()
    if not drops:
        return state.legal_moves()[0]  # a full board of primes: only a failed challenge is left
    rng.shuffle(drops)
    return min(drops, key=lambda d: _exposure(state, [(d.row * state.size + d.col, d.digit)]))


def advanced_choice(
    state: PrimeDropState, rng: random.Random, budget_s: float
) -> tuple[Move, float]:
    """The advanced bot's move and its value: tiles ahead after the opponent's best reply, with
    the awkwardness of both hands (WIN for a move that wins at once)."""
    deadline = clock.now() + budget_s * 0.9
    if (finish := winning_lay(state)) is not None:
        return finish, WIN
    me = state.mover
    singles = safe_singles(state)
    lays: list[Move] = [_drop(state, i, d) for i, d in singles]
    lays += safe_doubles(state, singles, rng, pairs=40, best_first=True)
    if not lays:
        lays = list(state.drops())
    # A safe lay's worth is mostly its tiles and what it leaves in hand: search the best first.
    lays.sort(key=lambda m: -_lay_score(state, m))
    candidates = [ch for ch, _ in run_challenges(state)] + lays or state.legal_moves()[:1]
    best, best_value = candidates[0], -float("inf")
    for k, move in enumerate(candidates):
        if k and clock.now() > deadline:
            break
        value = _reply_value(state.apply(move), me) + rng.random() * 1e-6
        if value > best_value:
            best, best_value = move, value
    return best, best_value


advanced = bot_with_estimate(
    SLUG,
    "advanced",
    "Searches two plies of tile swing, keeping the digits that are easy to lay "
    "and giving its opponent the awkward ones.",
    TILE_SCALE,
)(advanced_choice)


def run_challenges(state: PrimeDropState) -> list[tuple[Challenge, Number]]:
    """One winning challenge per challengeable run (or lone tile), with the number it names."""
    seen, out = set(), []
    for n in state.numbers:
        key = frozenset((n.frm, n.to))
        if key not in seen and (f := nontrivial_factor(n.value)) is not None:
            seen.add(key)
            out.append((Challenge(n.frm, n.to, f), n))
    return out


def safe_singles(state: PrimeDropState) -> list[tuple[int, int]]:
    """Every single drop (flat index, digit) that leaves no challengeable number through it."""
    hand = [d for d in range(10) if state.piles[state.mover][d]]
    out: list[tuple[int, int]] = []
    for i, ch in enumerate(state.board):
        if ch != EMPTY:
            continue
        touching = touches_tile(state.board, state.size, i)
        out.extend((i, d) for d in hand if (d or touching) and _safe(state, [(i, d)]))
    return out


def safe_doubles(
    state: PrimeDropState,
    singles: list[tuple[int, int]],
    rng: random.Random,
    pairs: int,
    best_first: bool = False,
) -> list[DoubleDown]:
    """Up to `pairs` safe double downs made of two safe drops beside the board in different rows
    and columns (so neither touches the other's numbers), plus digits laid inside a run by
    `_closing_doubles`. With `best_first` the most awkward digits pair up first, else at random."""
    if EMPTY * len(state.board) == state.board:
        return []
    size, pile = state.size, state.piles[state.mover]
    beside = [t for t in singles if touches_tile(state.board, size, t[0])]
    rng.shuffle(beside)
    if best_first:
        beside.sort(key=lambda t: -AWKWARDNESS[t[1]])
    out = []
    for a in beside[:pairs]:
        b = next((b for b in beside if _apart(a, b, size, pile)), None)
        if b is not None:
            out.append(DoubleDown(_drop(state, *a), _drop(state, *b)))
    return out + _closing_doubles(state, rng, pairs)


def winning_lay(state: PrimeDropState) -> Move | None:
    """A drop or double down that lays the mover's last tiles (and so wins), when one exists."""
    hand = [d for d in range(10) for _ in range(state.piles[state.mover][d])]
    if len(hand) == 1:
        return next((m for m in state.drops() if m.digit == hand[0]), None)
    if len(hand) != 2:
        return None
    size = state.size
    for i, ch in enumerate(state.board):
        if ch == EMPTY and touches_tile(state.board, size, i):
            for digits in (hand, hand[::-1]):
                first = _drop(state, i, digits[0])
                board = state.board[:i] + "1" + state.board[i + 1 :]  # any tile stands in
                j = next(
                    (j for j, c in enumerate(board) if c == EMPTY and touches_tile(board, size, j)),
                    None,
                )
                if j is not None:
                    move = DoubleDown(first, _drop(state, j, digits[1]))
                    try:
                        state.apply(move)
                        return move
                    except IllegalMove:
                        continue
            break
    return None


def _closing_doubles(state: PrimeDropState, rng: random.Random, cells: int) -> list[DoubleDown]:
    """Safe double downs laying an awkward digit beside the board and an end digit (1, 3, 7, 9)
    beyond it: the way to get 0s and even digits inside a run."""
    size, board, pile = state.size, state.board, state.piles[state.mover]
    awkward = [d for d in (0, 4, 6, 8, 2, 5) if pile[d]]
    ends = [d for d in (1, 3, 7, 9) if pile[d]]
    frontier = [i for i, ch in enumerate(board) if ch == EMPTY and touches_tile(board, size, i)]
    rng.shuffle(frontier)
    out = []
    for i in frontier[:cells]:
        r, c = divmod(i, size)
        beyond = [
            (r + dr) * size + c + dc
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0))
            if 0 <= r + dr < size
            and 0 <= c + dc < size
            and board[(r + dr) * size + c + dc] == EMPTY
        ]
        for d in awkward:
            for j in beyond:
                for e in ends:
                    if _safe(state, [(i, d), (j, e)]):
                        out.append(DoubleDown(_drop(state, i, d), _drop(state, j, e)))
                        break
    return out


def _safe(state: PrimeDropState, tiles: list[tuple[int, int]]) -> bool:
    return _exposure(state, tiles) == 0


def _exposure(state: PrimeDropState, tiles: list[tuple[int, int]]) -> int:
    """How many tiles the opponent could win by challenging a number through the laid tiles."""
    board = state.board
    for i, d in tiles:
        board = board[:i] + str(d) + board[i + 1 :]
    return max(
        (
            len(run)
            for i, _ in tiles
            for run in runs_through(board, state.size, i)
            if challengeable(run)
        ),
        default=0,
    )


def _apart(a: tuple[int, int], b: tuple[int, int], size: int, pile: tuple) -> bool:
    """Two safe drops that stay safe together: other row, other column, digits in hand."""
    (ra, ca), (rb, cb) = divmod(a[0], size), divmod(b[0], size)
    return ra != rb and ca != cb and (a[1] != b[1] or pile[a[1]] >= 2)


def _lay_score(state: PrimeDropState, move: Move) -> float:
    if isinstance(move, Drop):
        tiles = [move]
    else:
        assert isinstance(move, DoubleDown)  # a lay is a drop or a double down
        tiles = [move.first, move.second]
    return len(tiles) + HAND_WEIGHT * sum(AWKWARDNESS[t.digit] for t in tiles)


def _reply_value(after: PrimeDropState, me: int) -> float:
    """My standing after the opponent's best reply: tiles they hold minus tiles I hold, plus the
    awkwardness gap of our hands. Their replies: each challenge, or a double down of theirs."""
    if after.is_over():
        outcome = after.outcome()
        assert outcome is not None  # the game is over
        return WIN if outcome.winner == me else -WIN
    them = 1 - me
    base = (
        after.tiles_left[them]
        - after.tiles_left[me]
        + HAND_WEIGHT * (_awkwardness(after.piles[them]) - _awkwardness(after.piles[me]))
    )
    # A line where they go out next turn is lost: below every other, ranked among them by tiles.
    value = base - WIN if _can_go_out(after) else base - 2
    for _, n in run_challenges(after):
        # a number's cells all hold tiles
        digits = [d for cell in n.cells if (d := after.tile(cell)) is not None]
        value = min(value, base - n.length - HAND_WEIGHT * sum(AWKWARDNESS[d] for d in digits))
    return value


def _can_go_out(state: PrimeDropState) -> bool:
    """Whether the seat to move can lay all its tiles this turn (near enough: a 0 or a double
    down needs a tile on the board, and the board has room)."""
    left, on_board = state.tiles_left[state.mover], EMPTY * len(state.board) != state.board
    if left == 1:
        return on_board or not state.piles[state.mover][0]
    return left == 2 and on_board and state.board.count(EMPTY) >= 2


def _awkwardness(pile: tuple[int, ...]) -> float:
    return sum(AWKWARDNESS[d] * n for d, n in enumerate(pile))


def _easy_factor(value: int) -> int | None:
    if value == 0:
        return 2
    return next((f for f in EASY_FACTORS if value % f == 0 and value > f), None)


def _drop(state: PrimeDropState, i: int, digit: int) -> Drop:
    return Drop(*divmod(i, state.size), digit)
