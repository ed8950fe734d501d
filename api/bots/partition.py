"""Partition bots: beginner (takes closing points in reach), medium (positional, one action at a
time), advanced (searches whole three-action turns, then the opponent's reply; in the endgame, to
the end of the game).

All three read positions through `evaluate`, a projection of the final totals from one seat's side:
points already scored, closed regions each seat owns, what a claim still left could win, and the
*pockets* of the open region: small colourful pieces a few sticks would close. A pocket is worth
its closing point plus, when the closer's claimed colours lead in it, the region point it is then
projected to score at the end: the 3-hex "double-dip" closures the seed's site plans for.
"""

from __future__ import annotations

import functools
import itertools
import math
import random

from api.bots import _partition_endgame, clock
from api.bots.base import analyser, bot, estimate
from api.games.base import Move
from api.games.partition import (
    ACTIONS_PER_TURN,
    CLAIMS,
    CLOSING_COLOURS,
    EDGES,
    FINAL_SPLIT_MAX,
    HEXES,
    MAX_CLAIMS,
    NEIGHBOURS,
    STICKS,
    SUBDIVISIONS,
    PartitionState,
    Stick,
    Subdivide,
    disc_masks,
    hexes_of,
    region_edges,
)

SLUG = "partition"
WIN = 1000.0  # a decided game outweighs any projection
CLAIM_HOPE = 0.6  # a claim not yet made is worth this share of what it would win now
OPEN_COLOUR_WEIGHT = 0.08  # per disc of a seat's colours still in the open region
BEAM = 10  # partial turns the advanced bot keeps at each action
REPLIES = 8  # own turns the advanced bot checks against the opponent's reply
REPLY_SAMPLES = 4  # greedy replies it samples for each of them, time permitting
ENDGAME_OPEN = 18  # the advanced bot searches to the end from this many open hexes (in C:
#                         a solve from 16 takes 0.02-0.9 s of CPU, from 18 0.3-5 s; through a
#                         turn, half of those from 18 finish in 0.7 s each)
ENDGAME_SHARE = 0.7  # of the budget, the most that search may take before the beam takes over
ENDGAME_TABLE_LIMIT = 300_000  # positions the Python search remembers between moves (~100 B each)
SPLIT_OPEN = 13  # a turn that leaves this many open hexes or fewer is searched to the end
#                         (a solve from 13: 10-40 ms of CPU in C; from 14 up to 2.3 s)
SPLIT_SHARE = 0.4  # of the budget, the most those searches may take together
SETTLE_SHARE = 0.1  # of the budget, the most one search after a sampled reply may take
POCKET_CHOICES = 8  # the most valuable pockets tried in combination
MARGIN_SCALE = 3.0  # an estimate reads a projected lead of this many points as a clear one


@bot(SLUG, "beginner", "Takes closing points in reach, otherwise plays a quiet stick.")
def beginner(state: PartitionState, rng: random.Random, budget_s: float) -> Move:
    scoring = [m for m in state.stick_moves() if closing_gain(state, m) > 0]
    if scoring:
        return rng.choice(scoring)
    claims = state.claim_moves()
    if claims and len(state.closed) >= 3:
        return rng.choice(claims)
    quiet = [m for m in state.stick_moves() if m.edge not in state.open_edges.bridges]
    return rng.choice(quiet or state.legal_moves())


@bot(
    SLUG,
    "medium",
    "Plays the action that looks best positionally: claims colours it can win "
    "regions with and leaves the opponent few colourful closures.",
)
def medium(state: PartitionState, rng: random.Random, budget_s: float) -> Move:
    return greedy_action(state, rng)


def advanced_choice(
    state: PartitionState, rng: random.Random, budget_s: float
) -> tuple[Move, float]:
    """The advanced bot's action and its value: with a small open region, the win the
    endgame search proves, when it finishes within part of the budget; else (and where it
    proves every action lost, so that only the opponent's mistakes can save the game) the
    projected final margin after the rest of the turn and the opponent's greedy reply (the mean
    over the replies sampled), where a turn or a reply that cuts the open region down to
    `SPLIT_OPEN` hexes counts with the outcome the endgame search proves (`judge_splits`,
    `settled`). Where the search proves a draw and no win, the same choice among the turns
    whose first action holds the draw (`holding_draw`), valued 0: any of them holds it, and the
    best of them leaves a weaker opponent the most chances to go wrong."""
    started = clock.now()
    lost = False  # every action proved lost: no turn of it is worth searching to the end
    drawn = None  # an action proved to hold a draw, where no win is proved
    if state.open_size <= ENDGAME_OPEN:
        try:
            proved = solve_endgame(state, started + ENDGAME_SHARE * budget_s)
        except TimeoutError:
            proved = None
        else:
            lost = proved is None
        if proved and proved[1] >= 1:
            return proved
        drawn = proved
    deadline = started + 0.9 * budget_s
    me = state.turn
    turns = plan_turns(state, rng, deadline)
    if drawn:
        turns = holding_draw(state, turns, min(deadline, clock.now() + SPLIT_SHARE * budget_s))
        if not turns:
            return drawn
    elif not lost:
        turns = judge_splits(turns, me, min(deadline, clock.now() + SPLIT_SHARE * budget_s))
        if turns[0][0] >= WIN:
            return turns[0][1], turns[0][0]
    turns = turns[:REPLIES]
    # the reply breaks its ties at random and one sample of it can mislead, so each turn's value
    # is the mean over several replies, sampled round by round while time remains
    totals, counts = [0.0] * len(turns), [0] * len(turns)
    for _ in range(REPLY_SAMPLES):
        for k, (value, _first, end) in enumerate(turns):
            if clock.now() > deadline:
                break
            if end.is_over():
                totals[k], counts[k] = value, 1  # exact: there is no reply to sample
            else:
                reply = play_turn(end, rng)
                settle_by = min(deadline, clock.now() + SETTLE_SHARE * budget_s)
                totals[k] += settled(reply, me, settle_by)
                counts[k] += 1
    if not any(counts):
        return turns[0][1], 0.0 if drawn else turns[0][0]
    k = max((k for k in range(len(turns)) if counts[k]), key=lambda k: totals[k] / counts[k])
    return turns[k][1], 0.0 if drawn else totals[k] / counts[k]


@bot(
    SLUG,
    "advanced",
    "Searches whole three-action turns and the reply, planning small "
    "double-dip closures that score now and again at the end; searches the "
    "endgame to the last stick.",
)
def advanced(state: PartitionState, rng: random.Random, budget_s: float) -> Move:
    return advanced_choice(state, rng, budget_s)[0]


@analyser(SLUG)
def analyse_position(state: PartitionState, rng: random.Random, budget_s: float) -> dict:
    """Exact where the endgame search decides the position within half the budget (its best
    action; in a lost position the advanced bot's, which plays for the opponent's mistakes);
    else the advanced bot's estimate."""
    if state.open_size <= ENDGAME_OPEN:
        try:
            verdict, best = endgame_verdict(state, clock.now() + budget_s / 2)
        except TimeoutError:
            pass
        else:
            if best is None:
                best = advanced_choice(state, rng, budget_s / 2)[0]
            return {"exact": True, "value": verdict, "best": best.to_dict()}
    move, score = advanced_choice(state, rng, budget_s / 2)
    return estimate(score, MARGIN_SCALE, move)


# --- search ---


def greedy_action(state: PartitionState, rng: random.Random) -> Move:
    """The action with the best evaluation for the mover (ties broken at random)."""
    me = state.turn
    moves = state.legal_moves()
    rng.shuffle(moves)
    return max(moves, key=lambda m: evaluate(state.apply(m), me))


def play_turn(state: PartitionState, rng: random.Random) -> PartitionState:
    """The position after the seat to move plays out its turn greedily."""
    seat = state.turn
    while not state.is_over() and state.turn == seat:
        state = state.apply(greedy_action(state, rng))
    return state


def plan_turns(
    state: PartitionState, rng: random.Random, deadline: float
) -> list[tuple[float, Move, PartitionState]]:
    """The rest of the mover's turn by beam search: (value, first action, position after the
    turn), best first; orders of the same actions count once. Out of time, partial turns count
    with their value so far."""
    me = state.turn
    beam: list[tuple[Move | None, PartitionState]] = [(None, state)]
    finished: dict[tuple, tuple[float, Move, PartitionState]] = {}
    while beam:
        found: dict[tuple, tuple[float, Move, PartitionState]] = {}
        for first, node in beam:
            if found and clock.now() > deadline:
                break
            moves = node.legal_moves()
            rng.shuffle(moves)  # equal values: a random one first
            for move in moves:
                after = node.apply(move)
                found.setdefault(position_key(after), (evaluate(after, me), first or move, after))
        beam = []
        out_of_time = clock.now() > deadline
        for key, entry in sorted(found.items(), key=lambda kv: kv[1][0], reverse=True):
            if entry[2].is_over() or entry[2].turn != me or out_of_time:
                finished.setdefault(key, entry)
            elif len(beam) < BEAM:
                beam.append((entry[1], entry[2]))
    return sorted(finished.values(), key=lambda entry: entry[0], reverse=True)


def judge_splits(
    turns: list[tuple[float, Move, PartitionState]], me: int, deadline: float
) -> list[tuple[float, Move, PartitionState]]:
    """`plan_turns`' turns for seat `me`, where the whole turns that cut the open region down
    to `SPLIT_OPEN` hexes are searched to the end of the game, best first while time remains:
    the first proved won alone (valued WIN), else every turn but those proved lost (all of them
    if every one is). These splits decide the game, and the evaluation only guesses at them:
    the open region often falls from more than `ENDGAME_OPEN` hexes to 9 or 10 in one stick."""
    kept = []
    for entry in turns:
        end = entry[2]
        verdict = None if end.turn == me else proved_value(end, me, deadline)
        if verdict == WIN:
            return [(WIN, entry[1], end)]
        if verdict != -WIN:
            kept.append(entry)
    return kept or turns


def holding_draw(
    state: PartitionState, turns: list[tuple[float, Move, PartitionState]], deadline: float
) -> list[tuple[float, Move, PartitionState]]:
    """The best `REPLIES` of `plan_turns`' turns from `state` whose first action the endgame
    search proves keeps the mover at least a draw by `deadline` (each first action searched
    once, best turn first); those it cannot prove in time are left out."""
    holds: dict[Move, bool] = {}
    kept = []
    for entry in turns:
        first = entry[1]
        if first not in holds:
            holds[first] = clock.now() < deadline and draw_held(
                state.apply(first), state.turn, deadline
            )
        if holds[first]:
            kept.append(entry)
            if len(kept) == REPLIES:
                break
    return kept


def draw_held(state: PartitionState, me: int, deadline: float) -> bool:
    """Whether the endgame search proves at least a draw for `me` in `state` by `deadline`."""
    if state.is_over():
        return standing(state, me) >= 0
    try:
        proved, complete = native_endgame_search(state, deadline)
    except TimeoutError:
        return False  # not even the mover's draw proved
    if state.turn == me:
        return proved is not None
    # the opponent's: every action losing, or a draw at best for it (a win refuted)
    return proved is None or (proved[1] < 1 and complete)


def settled(state: PartitionState, me: int, deadline: float) -> float:
    """`evaluate` for `me`, or the outcome the endgame search proves where the open region is
    down to `SPLIT_OPEN` hexes (a draw: 0) and the search finishes by `deadline`."""
    proved = proved_value(state, me, deadline)
    return evaluate(state, me) if proved is None else proved


def proved_value(state: PartitionState, me: int, deadline: float) -> float | None:
    """WIN, -WIN or 0 where the endgame search proves the game won, lost or at least drawn
    for `me` with best play (the seat to move: at most drawn for the other) by `deadline`; None
    where the open region is larger than `SPLIT_OPEN` hexes, the game is over or time runs out."""
    if state.is_over() or state.open_size > SPLIT_OPEN or clock.now() >= deadline:
        return None
    try:
        best = solve_endgame(state, deadline)
    except TimeoutError:
        return None
    value = -WIN if best is None else WIN if best[1] >= 1 else 0.0
    return value if state.turn == me else -value


def position_key(state: PartitionState) -> tuple:
    return state.links, state.colours, state.open, state.turn, state.actions_left


# --- endgame ---


def solve_endgame(state: PartitionState, deadline: float) -> tuple[Move, float] | None:
    """`endgame_search`'s action and value, whether or not the search finished."""
    return native_endgame_search(state, deadline)[0]


def endgame_verdict(state: PartitionState, deadline: float) -> tuple[int, Move | None]:
    """The mover's exact outcome with best play, 1 (a win), 0 (a draw) or -1 (a loss), and an
    action that secures it (None for a loss: every action loses). Raises TimeoutError where the
    search does not decide the position by `deadline` (a draw proved, a win not yet refuted)."""
    proved, complete = native_endgame_search(state, deadline)
    if not complete:
        raise TimeoutError
    if proved is None:
        return -1, None
    return (1 if proved[1] >= 1 else 0), proved[0]


def endgame_search(
    state: PartitionState, deadline: float
) -> tuple[tuple[Move, float] | None, bool]:
    """The mover's action that secures the best outcome it can against best play, a win or
    else a draw, with its value (a win's is a lower bound on `evaluate`'s exact value of the
    end, above WIN; a draw's is 0); None when every action loses. Alpha-beta search to the end
    of the game with null windows, which only prove or refute "at least a draw" and "a win",
    far fewer positions than the exact margin needs. Claims are tried once per colour and
    region, subdivisions only where they win the mover a region at once. Raises TimeoutError
    once `deadline` (a `clock.now()` time) has passed, unless a draw is proved by then (which
    it returns); the bounds found by then stay in `ENDGAME_TABLE` for the next try (the turn's
    next action searches a part of this tree). Beside the answer: whether the search finished
    (False: a draw proved, a win neither found nor refuted in time)."""
    me, ticks = state.turn, itertools.count()
    if len(ENDGAME_TABLE) > ENDGAME_TABLE_LIMIT:
        ENDGAME_TABLE.clear()

    def search(node: PartitionState, alpha: float, beta: float) -> float:
        if node.is_over():
            return standing(node, me)
        key = hash(full_key(node))  # (odds of a collision among 300,000: 1 in 10^8)
        low, high, first = known(key, me)
        if low >= beta or high <= alpha:
            return low if low >= beta else high
        if next(ticks) % 64 == 0 and clock.now() > deadline:
            raise TimeoutError
        maximise = node.turn == me
        best, best_move = (-math.inf if maximise else math.inf), first
        window = alpha, beta
        for move, child in tried_first(node, first):
            value = search(child, alpha, beta)
            if value > best if maximise else value < best:
                best, best_move = value, move
            if maximise:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
        remember(key, me, narrowed(low, high, best, *window), best_move)
        return best

    def reaching(goal: int) -> tuple[Move, float] | None:
        """The first action whose value reaches `goal`, and that value; None if none does."""
        key = hash(full_key(state))
        for move, child in tried_first(state, known(key, me)[2]):
            value = search(child, goal - 1, goal)
            if value >= goal:
                remember(key, me, narrowed(*known(key, me)[:2], value, goal - 1, goal), move)
                return move, value
        return None

    proved = None
    for goal in (0, 1):  # at least a draw (a value of 0 or more), then a win (1 or more)
        try:
            found = reaching(goal)
        except TimeoutError:
            if proved:
                return proved, False
            raise
        if found is None:
            return proved, True
        proved = found
    return proved, True


def native_endgame_search(
    state: PartitionState, deadline: float
) -> tuple[tuple[Move, float] | None, bool]:
    """`endgame_search` in C (api/bots/_partition_endgame.c), which the bots use: the same
    search, about 80 times faster. Its table has a fixed size (2^22 positions, 64 MB; the
    smallest subtrees make way) and is kept between moves like `ENDGAME_TABLE`; where it forgets
    a position the dict still holds, the action chosen among equally good ones may differ, never
    the outcome proved (the file's header)."""
    found, complete = _partition_endgame.search(state, deadline, clock.now)
    if found is None:
        return None, complete
    (kind, a, b, close), value = found
    move: Move
    if kind == 0:
        move = STICKS[(a, b)] if close < 0 else Stick((a, b), close)
    else:
        move = CLAIMS[a] if kind == 1 else SUBDIVISIONS[(a, b)]
    return (move, value), complete


def clear_endgame_tables() -> None:
    """Forget every position both endgame searches remember (the Python one's and the C one's)."""
    ENDGAME_TABLE.clear()
    _partition_endgame.clear()


ENDGAME_TABLE: dict[int, tuple[float, float, Move | None]] = {}  # hash(full_key): (lowest,
#   highest value for seat 0, the best action found)


def known(key: int, seat: int) -> tuple[float, float, Move | None]:
    """The table's bounds on a position's value for `seat`, and its best action found."""
    low, high, first = ENDGAME_TABLE.get(key, (-math.inf, math.inf, None))
    return (low, high, first) if seat == 0 else (-high, -low, first)


def remember(key: int, seat: int, bounds: tuple[float, float], first: Move | None) -> None:
    low, high = bounds
    ENDGAME_TABLE[key] = (low, high, first) if seat == 0 else (-high, -low, first)


def narrowed(
    low: float, high: float, value: float, alpha: float, beta: float
) -> tuple[float, float]:
    """Bounds on a position's value once a search in the window (alpha, beta) returned
    `value`: a lower bound when it failed high, an upper one when it failed low, else exact."""
    if value >= beta:
        return max(low, value), high
    if value <= alpha:
        return low, min(high, value)
    return value, value


def tried_first(state: PartitionState, first: Move | None):
    """`endgame_moves`, the best action found before (`first`) tried before the others are
    even listed: where it refutes the window again, they never are."""
    if first is not None:
        yield first, state.apply(first)
    yield from (
        (move, child or state.apply(move)) for move, child in endgame_moves(state) if move != first
    )


def endgame_moves(state: PartitionState) -> list[tuple[Move, PartitionState | None]]:
    """The actions the endgame search tries and their positions, the likeliest best for the
    mover first (by points and region leads as they stand): every stick; a claim once per
    colour and closed region; a subdivision only where it wins the mover a region at once. A
    stick's position is None: made only when the search tries it (most are never tried), and
    sorted by `stick_standing`."""
    me = state.turn
    moves: list[Move] = list(state.stick_moves())
    seen = set()
    for claim in state.claim_moves():
        region = next(r for r in state.closed if r >> claim.hex & 1)
        if (state.colours[claim.hex], region) not in seen:
            seen.add((state.colours[claim.hex], region))
            moves.append(claim)
    owned = [owned_mask(state, discs_by_colour(state), seat) for seat in (0, 1)]
    if state.subdivisions_left[me]:
        # (a region without the mover's discs splits into parts it cannot win)
        for region in (r for r in state.closed if r & owned[me] and r & (r - 1)):
            moves += winning_splits(region, state.links, owned, me)
    now = standing(state, me)
    scored: list[tuple[float, Move, PartitionState | None]] = []
    for move in moves:
        if isinstance(move, Stick):
            scored.append((stick_standing(state, move, now, owned), move, None))
        else:
            child = state.apply(move)
            scored.append((standing(child, me), move, child))
    scored.sort(key=lambda entry: entry[0], reverse=True)
    return [(move, child) for _, move, child in scored]


def stick_standing(state: PartitionState, stick: Stick, now: float, owned: list[int]) -> float:
    """`standing` for the mover after a legal normal stick, worked out from the part it closes
    instead of from the position after it: the endgame search lists every stick, but where the
    first tried refutes the window it never makes the others. `now`: the mover's standing;
    `owned`: each seat's discs, as `owned_mask`."""
    side = state.open_edges.bridges.get(stick.edge)
    if side is None:
        return now  # the open region stays whole: no score changes
    other, seat = state.open ^ side, state.turn
    part, size = side.bit_count(), state.open_size
    if 2 * part == size and part <= FINAL_SPLIT_MAX:  # the final split: the game ends
        margin = now + sum(state.closing_point(r) + lead(r, owned, seat) for r in (side, other))
        return margin + (WIN if margin > 0 else -WIN if margin < 0 else 0)
    if 2 * part == size:
        assert stick.close is not None  # a legal stick splitting the region in half names a side
        closing = side if side >> stick.close & 1 else other
    else:
        closing = side if 2 * part < size else other
    return now + state.closing_point(closing) + lead(closing, owned, seat)


def winning_splits(
    region: int, links: tuple[int, ...], owned: list[int], seat: int
) -> tuple[Subdivide, ...]:
    """The subdivisions of a closed region that win `seat` more of it than it wins now."""
    return _winning_splits(
        region,
        tuple(map(links.__getitem__, hexes_of(region))),
        owned[0] & region,
        owned[1] & region,
        seat,
    )


@functools.lru_cache(maxsize=1 << 14)  # a closed region's sticks change only when it is split
def _winning_splits(
    region: int, inner: tuple[int, ...], owned_0: int, owned_1: int, seat: int
) -> tuple[Subdivide, ...]:
    links = [0] * HEXES
    for h, linked in zip(hexes_of(region), inner):
        links[h] = linked
    owned = [owned_0, owned_1]
    now = lead(region, owned, seat)
    splits = region_edges(region, tuple(links)).bridges.items()
    return tuple(
        SUBDIVISIONS[edge]
        for edge, part in splits
        if lead(part, owned, seat) + lead(region ^ part, owned, seat) > now
    )


def standing(state: PartitionState, seat: int) -> float:
    """`seat`'s lead in points and closed regions as they stand; once the game is over,
    `evaluate`'s exact value (the final margin, plus or minus WIN)."""
    leads = region_leads(state.closed, state.colours, state.claimed)
    margin = state.points[seat] - state.points[1 - seat] + (leads if seat == 0 else -leads)
    if not state.is_over():
        return margin
    return margin + (WIN if margin > 0 else -WIN if margin < 0 else 0)


@functools.lru_cache(maxsize=1 << 16)  # a stick that closes nothing leaves these as they were
def region_leads(
    closed: tuple[int, ...],
    colours: tuple[int | None, ...],
    claimed: tuple[tuple[int, ...], tuple[int, ...]],
) -> int:
    """Seat 0's closed regions less seat 1's."""
    masks = disc_masks(colours)
    owned = [colours_mask(masks, claimed[seat]) for seat in (0, 1)]
    return sum(lead(region, owned, 0) for region in closed)


def full_key(state: PartitionState) -> tuple:
    return (
        state.links,
        state.colours,
        state.open,
        state.turn,
        state.actions_left,
        state.points,
        state.claimed,
        state.subdivisions_left,
    )


# --- evaluation ---


def evaluate(state: PartitionState, seat: int) -> float:
    """The projected final margin of `seat`: exact once the game is over."""
    if state.is_over():
        totals = state.totals()
        margin = totals[seat] - totals[1 - seat]
        return margin + (WIN if margin > 0 else -WIN if margin < 0 else 0)
    other = 1 - seat
    colour_masks = discs_by_colour(state)
    owned = [owned_mask(state, colour_masks, s) for s in (0, 1)]
    value: float = state.points[seat] - state.points[other]
    for region in state.closed:
        value += lead(region, owned, seat)
    value += CLAIM_HOPE * (
        claim_hope(state, colour_masks, owned, seat) - claim_hope(state, colour_masks, owned, other)
    )
    value += OPEN_COLOUR_WEIGHT * (
        (state.open & owned[seat]).bit_count() - (state.open & owned[other]).bit_count()
    )
    if state.turn == seat:
        value += pocket_gain(state, owned, seat, state.actions_left)
    else:
        value -= pocket_gain(state, owned, other, ACTIONS_PER_TURN)
    return value


def discs_by_colour(state: PartitionState) -> tuple[int, ...]:
    """Per colour, the bit mask of the hexes still holding a disc of it."""
    return disc_masks(state.colours)


def owned_mask(state: PartitionState, colour_masks: tuple[int, ...], seat: int) -> int:
    return colours_mask(colour_masks, state.claimed[seat])


def colours_mask(colour_masks: tuple[int, ...], colours) -> int:
    """The discs of these colours (`colour_masks`: each colour's discs, as `discs_by_colour`)."""
    mask = 0
    for colour in colours:
        mask |= colour_masks[colour]
    return mask


def lead(region: int, owned: list[int], seat: int) -> int:
    """+1 when `seat` owns the region now, -1 when the other seat does, 0 on a tie."""
    diff = (region & owned[seat]).bit_count() - (region & owned[1 - seat]).bit_count()
    return (diff > 0) - (diff < 0)


def claim_hope(
    state: PartitionState, colour_masks: tuple[int, ...], owned: list[int], seat: int
) -> float:
    """What `seat`'s best claim could still win among the closed regions (0 with none left)."""
    if len(state.claimed[seat]) >= MAX_CLAIMS:
        return 0.0
    taken = set(state.claimed[0] + state.claimed[1])
    closed = ((1 << HEXES) - 1) ^ state.open
    best = 0.0
    for colour, discs in enumerate(colour_masks):
        if colour in taken or not discs & closed:
            continue
        with_colour = list(owned)
        with_colour[seat] |= discs
        gain: float = sum(lead(r, with_colour, seat) - lead(r, owned, seat) for r in state.closed)
        gain += OPEN_COLOUR_WEIGHT * (discs & state.open).bit_count()
        best = max(best, gain)
    return best


def closing_gain(state: PartitionState, move: Stick) -> int:
    """The closing points a legal stick earns right away."""
    return state.apply(move).points[state.turn] - state.points[state.turn]


def pocket_gain(state: PartitionState, owned: list[int], seat: int, actions: int) -> float:
    """What `seat` could take with `actions` sticks by closing colourful pockets of the open
    region: each gives its closing point and locks in its lead (a double dip when it is
    `seat`'s). Pockets are the cut-off sides of bridges (one stick) and 3-hex pieces; the best
    few are combined, disjoint and within `actions` sticks."""
    options = []
    size = state.open_size
    whole, bridges = state.open_edges
    for side in bridges.values():
        small = side if 2 * side.bit_count() <= size else state.open ^ side
        if small.bit_count() > 1 or not state.singleton_rule:
            options.append((pocket_value(state, small, owned, seat), 1, small))
    free = sum(map(EDGE_BITS.__getitem__, whole)) + sum(map(EDGE_BITS.__getitem__, bridges))
    # a piece of 3 hexes that `actions` sticks close has at most 2 + 2 + 2 + `actions` free
    # edge ends, so one of its hexes has at most a third of that
    most = (6 + actions) // 3
    low = sum(1 << h for h in hexes_of(state.open) if state.links[h].bit_count() <= most)
    for piece, inside, boundary in TRIPLES:
        if not piece & low or (free & inside).bit_count() < 2:
            continue  # out of reach, not connected, or not all in the open region
        cost = (free & boundary).bit_count()
        if 1 < cost <= actions:
            options.append((pocket_value(state, piece, owned, seat), cost, piece))
    best = sorted((o for o in options if o[0] > 0), reverse=True)[:POCKET_CHOICES]
    return best_combination(best, actions, 0)


def best_combination(options: list[tuple[int, int, int]], actions: int, taken: int) -> int:
    """The most value from disjoint (value, cost, piece) options within `actions` sticks."""
    most = 0
    for i, (value, cost, piece) in enumerate(options):
        if cost <= actions and not piece & taken:
            most = max(
                most, value + best_combination(options[i + 1 :], actions - cost, taken | piece)
            )
    return most


def pocket_value(state: PartitionState, piece: int, owned: list[int], seat: int) -> int:
    colours = {state.colours[h] for h in hexes_of(piece)} - {None}
    return int(len(colours) >= CLOSING_COLOURS) + lead(piece, owned, seat)


EDGE_BITS = {edge: 1 << i for i, edge in enumerate(EDGES)}


def _triples() -> list[tuple[int, int, int]]:
    """Every connected set of three hexes on the board, as (hex mask, mask of the edges inside
    it, mask of the edges leaving it) in EDGE_BITS."""
    found = set()
    for a in range(HEXES):
        for b in NEIGHBOURS[a]:
            for c in set(NEIGHBOURS[a]) | set(NEIGHBOURS[b]):
                if c not in (a, b):
                    found.add(frozenset((a, b, c)))
    return [
        (
            sum(1 << h for h in t),
            sum(bit for (a, b), bit in EDGE_BITS.items() if a in t and b in t),
            sum(bit for (a, b), bit in EDGE_BITS.items() if (a in t) != (b in t)),
        )
        for t in sorted(found, key=sorted)
    ]


TRIPLES = _triples()
