"""Ploid bots: random, a one-move judge of room, a selective search, and the exact solver
(with its opening book, api/bots/ploid_book.py, where a fresh solve would take too long).

Medium and advanced judge a position by *prospect*: pieces placed plus the room left, each group
growing up to its limit into the empty cells nearest it; then by *territory*: the empty cells
nearer to one side's growing groups than to the other's. Advanced also takes from each side's
room the cells the other side reaches first.
"""

from __future__ import annotations

import functools
import random
from typing import AbstractSet

from api.bots import clock, ploid_book
from api.bots.base import analyser, bot, estimate
from api.bots.ploid_solver import SolveTimeout, Solver, banned_after, margin, place_move
from api.games.base import Move
from api.games.ploid import Place, PloidState, apply_ban, groups, hand, neighbour_table, placements

SLUG = "ploid"
# the largest board the perfect bot plays: n = 2 solves at once, n = 3 with the opening book
# (beyond its book a fresh solve takes hundredths of a second); n = 4 is not solved
PERFECT_MAX_N = 3
# advanced tries to solve exactly once this few cells are empty and this few numbers are left
# in both hands together (on 5 x 6, from the eighth placement: with the solver's side keys,
# 17 of the first 23-cell positions of 24 medium bots' games solve within 0.8 s of CPU; from
# 24 cells, four numbers in hand, 7 of 9 took the solver before them over 6 s; see
# tests/benchmarks/bench_ploid_solver.py)
ENDGAME_EMPTIES, ENDGAME_NUMBERS = 23, 3
# shares of the think time: the endgame solve may run until SOLVE_SHARE of it, so that most
# solves from 22-23 empty cells finish; the search (after a solve that did not finish, quick
# this late: few placements remain) until SEARCH_SHARE
SOLVE_SHARE, SEARCH_SHARE = 0.8, 0.95
# where the solve proves no win: how many of the opponent's best-looking replies (by the
# judgement) `likeliest_slip` weighs first, as the ones a player most likely makes
SLIP_REPLIES = 3
WIN = 10_000  # a finished game outweighs any estimate
TERRITORY_WEIGHT = 10  # one piece of prospect outweighs any territory lead short of 10 cells
SCORE_SCALE = 3 * TERRITORY_WEIGHT  # an estimate reads three pieces of prospect as a clear lead
QUICK_PIECES = 5  # with this many pieces down a 3 x 4 solve fits in a web request


@bot(SLUG, "beginner", "Places any legal piece.")
def beginner(state: PloidState, rng: random.Random, budget_s: float) -> Move:
    return rng.choice(state.legal_moves())


@bot(
    SLUG,
    "medium",
    "Keeps room under its own numbers and takes cells the opponent's groups need, one move ahead.",
)
def medium(state: PloidState, rng: random.Random, budget_s: float) -> Place:
    return place_move(state, *one_move_judgement(state, rng)[1])


def one_move_judgement(state: PloidState, rng: random.Random) -> tuple[float, tuple[int, int]]:
    """The placement whose position judges best for the mover, and that judgement."""
    score, _, placement = max(
        (-evaluate_board(child, state.n, 1 - state.mover), rng.random(), (index, value))
        for index, value, child in children(state.board, state.n, state.mover, state.last_number)
    )
    return score, placement


@bot(
    SLUG,
    "advanced",
    "Searches a few moves ahead among the most promising ones, and plays the "
    "endgame perfectly when it can solve it in time.",
)
def advanced(state: PloidState, rng: random.Random, budget_s: float) -> Place:
    return place_move(state, *advanced_choice(state, rng, budget_s)[1])


def advanced_choice(
    state: PloidState, rng: random.Random, budget_s: float
) -> tuple[float, tuple[int, int], bool]:
    """The advanced bot's judgement: its score for the mover (WIN per piece of final margin
    where it solved the endgame, else the deepest search's judgement), its (cell index, value)
    placement, and whether the score is exact."""
    started = clock.now()
    deadline = started + SEARCH_SHARE * budget_s
    lost: set[tuple[int, int]] = set()  # placements the endgame solve proved lost
    if in_endgame(state):
        proven: dict[tuple[int, int], int] = {}
        solve_deadline = started + SOLVE_SHARE * budget_s
        try:
            verdict, best = solved_choice(state, rng, solve_deadline, proven)
        except SolveTimeout:
            # (what it proved stays in the solver's table too: the next move's solve is faster)
            lost = {placement for placement, verdict in proven.items() if verdict < 0}
        else:
            if verdict < 1:
                best = likeliest_slip(state, verdict, best, proven, solve_deadline)
            return WIN * verdict, best, True
    choice = None
    for depth, width in SEARCH_STEPS:
        try:
            choice = Search(state.n, deadline, width, rng).best(state, depth, lost)
        except SolveTimeout:
            break
    score, placement = choice or one_move_judgement(state, rng)  # (none: not even depth 1)
    return score, placement, False


def in_endgame(state: PloidState) -> bool:
    """Whether the advanced bot tries to solve the position exactly."""
    numbers = len(state.hand(0)[0]) + len(state.hand(1)[0])
    return state.board.count(0) <= ENDGAME_EMPTIES and numbers <= ENDGAME_NUMBERS


def solved_choice(
    state: PloidState,
    rng: random.Random,
    deadline: float,
    proven: dict[tuple[int, int], int] | None = None,
) -> tuple[int, tuple[int, int]]:
    """The solver's verdict for the mover (1 it wins, 0 draws, -1 loses) and a placement that
    keeps it: the first winning one in the judgement's order, else the one the judgement likes
    best of those that keep the draw (in a lost position, of all): where perfect play only
    draws, the opponent may still go wrong, and a position that looks good for the mover gives
    it the most ways to. Only verdicts are proved, far faster than margins; once a draw is
    found, only whether a placement wins, faster still (SolveTimeout past `deadline`; each
    placement's verdict, where it was proved, goes into `proven`)."""
    solver = solver_for(state.n)
    proven = {} if proven is None else proven
    best = None
    for _, _, (index, value, _) in sorted(
        (
            (score, rng.random(), move)
            for score, move in Search.judged_moves(
                state.n, state.board, state.mover, state.last_number
            )
        ),
        reverse=True,
    ):
        if best is not None and best[0] == 0:
            if solver.placement_wins(state, (index, value), deadline):
                proven[index, value] = 1
                return 1, (index, value)
            continue
        verdict = proven[index, value] = solver.placement_verdict(state, (index, value), deadline)
        if best is None or verdict > best[0]:
            best = verdict, (index, value)
            if verdict == 1:
                break
    assert best is not None  # the mover has a placement (a pass is the server's, not a bot's)
    return best


def likeliest_slip(
    state: PloidState,
    verdict: int,
    default: tuple[int, int],
    proven: dict[tuple[int, int], int],
    deadline: float,
) -> tuple[int, int]:
    """Where perfect play does not win (`verdict` 0 or -1 for the mover), the placement keeping
    it whose opponent is likeliest to go wrong: the one whose opponent's replies leave the mover
    the best verdicts on average, first over the SLIP_REPLIES replies the judgement likes best
    for the opponent (a player goes wrong most easily where a natural-looking reply loses), then
    over all. The solve's choice `default` is weighed first and kept unless another does
    better; the others follow in the judgement's order until `deadline` (their verdicts,
    where missing, go into `proven`)."""
    solver = solver_for(state.n)
    candidates = [default] + [move[:2] for _, move in best_looking(state) if move[:2] != default]
    best, best_chances = default, None
    try:
        for placement in candidates:
            if placement not in proven:
                proven[placement] = solver.placement_verdict(state, placement, deadline)
            if proven[placement] != verdict:
                continue
            chances = slip_chances(
                state.apply(place_move(state, *placement)), verdict, solver, deadline
            )
            if best_chances is None or chances > best_chances:
                best, best_chances = placement, chances
    except SolveTimeout:
        pass  # (the best weighed so far)
    return best


def slip_chances(
    child: PloidState, verdict: int, solver: Solver, deadline: float | None
) -> tuple[float, float]:
    """The mean verdict, for the seat that just moved into `child`, after its opponent's
    SLIP_REPLIES best-looking replies (by the judgement) and after all of them (`verdict`, the
    position's own, where the opponent has none)."""
    replies = best_looking(child)
    if not replies:
        return verdict, verdict
    # (after a reply the seat that moved into `child` is to move again)
    verdicts = [
        solver.verdict(child.apply(place_move(child, index, value)), deadline)
        for _, (index, value, _) in replies
    ]
    top = verdicts[:SLIP_REPLIES]
    return sum(top) / len(top), sum(verdicts) / len(verdicts)


def best_looking(state: PloidState) -> list:
    """The mover's legal moves as `Search.judged_moves` judges them, the best-looking first."""
    return sorted(
        Search.judged_moves(state.n, state.board, state.mover, state.last_number), reverse=True
    )


@analyser(
    SLUG,
    quick=lambda state: (
        state.n == 2
        or (state.n <= PERFECT_MAX_N and state.board.count(0) <= len(state.board) - QUICK_PIECES)
    ),
)
def analyse_position(state: PloidState, rng: random.Random, budget_s: float) -> dict:
    """Exact on the boards the perfect bot plays (the mover's final margin too), and in
    endgames the solver values within half the budget; else the advanced bot's estimate."""
    if state.n <= PERFECT_MAX_N:
        margin, best = perfect_placements(state)
    else:
        try:
            if not in_endgame(state):
                raise SolveTimeout
            margin, placement = solver_for(state.n).best_placement(
                state, clock.now() + budget_s / 2
            )
        except SolveTimeout:
            score, placement, _ = advanced_choice(state, rng, budget_s / 2)
            return estimate(score, SCORE_SCALE, place_move(state, *placement))
        best = [placement]
    return {
        "exact": True,
        "value": (margin > 0) - (margin < 0),
        "margin": margin,
        "best": place_move(state, *best[0]).to_dict(),
    }


def perfect_offered(options: dict) -> str | None:
    if options["n"] <= PERFECT_MAX_N:
        return None
    return (
        f"The perfect bot plays Ploid only up to n = {PERFECT_MAX_N}: larger boards are not solved."
    )


def proven_value(state: PloidState) -> int:
    """The mover's final margin under perfect play: from the book where it holds the position
    (or, with the bot's opponent to move, every reply), else solved (fast past the book)."""
    if state.is_over():
        return margin(state.board, state.mover)
    if (forced := state.forced_move()) is not None:
        return -proven_value(state.apply(forced))
    book = ploid_book.load(state.n)
    if book is not None and book.covers(state):
        if (entry := book.entry(state)) is not None:
            return entry[0]
        replies = [book.entry(state.apply(place_move(state, *p))) for p in state.legal_placements()]
        known = [reply for reply in replies if reply is not None]
        if len(known) == len(replies):
            return max(-value for value, _ in known)
    return solver_for(state.n).value(state)


def proven_drawn(state: PloidState) -> bool:
    """The perfect bot's answer to a draw offer: yes when the solver proves the position drawn."""
    return state.n <= PERFECT_MAX_N and proven_value(state) == 0


@bot(
    SLUG,
    "perfect",
    f"Plays perfectly: never loses a position the solver proves drawn or won "
    f"(boards up to n = {PERFECT_MAX_N}; the 3 x 4 board's openings come from "
    f"a book the solver made). Accepts a draw offer only in a drawn position.",
    offered=perfect_offered,
    draw_judge=proven_drawn,
)
def perfect(state: PloidState, rng: random.Random, budget_s: float) -> Place:
    return place_move(state, *rng.choice(perfect_placements(state)[1]))


def perfect_placements(state: PloidState) -> tuple[int, list[tuple[int, int]]]:
    """The solver's value and every (cell index, value) placement that keeps it: the book's
    where it has the position, else solved to the end whatever the budget (on the boards the
    perfect bot plays, that takes at most hundredths of a second past the book), so no
    deadline ever makes it guess."""
    book = ploid_book.load(state.n)
    entry = book.entry(state) if book is not None and book.covers(state) else None
    return entry if entry is not None else solver_for(state.n).best_placements(state)


# The search's plan: (depth, moves looked at per position), deepened while time remains.
SEARCH_STEPS = ((1, 200), (2, 12), (3, 8), (4, 6))


class Search:
    """Depth-limited negamax on the judgement, looking only at the `width` best-looking moves
    (depth 1 is the judgement of each move itself)."""

    def __init__(self, n: int, deadline: float, width: int, rng: random.Random):
        self.n, self.deadline, self.width, self.rng = n, deadline, width, rng

    def best(
        self, state: PloidState, depth: int, avoid: AbstractSet[tuple[int, int]] = frozenset()
    ) -> tuple[float, tuple[int, int]]:
        """The best-looking placement at `depth`, of those not in `avoid` ((cell index,
        value) placements; not all of them), and its score for the mover."""
        best_score, best_move = -2 * WIN, None
        for score, (index, value, board) in self._ordered(
            state.board, state.mover, state.last_number, avoid
        ):
            if depth > 1:
                score = -self._negamax(
                    board, 1 - state.mover, banned_after(value), depth - 1, -2 * WIN, -best_score
                )
            if score > best_score:
                best_score, best_move = score, (index, value)
        # a timed-out solve proves some placement lost only while another is not yet proved
        assert best_move is not None
        return best_score, best_move

    def _negamax(self, board, mover, banned, depth, alpha, beta) -> float:
        if clock.now() > self.deadline:
            raise SolveTimeout
        moves = self._ordered(board, mover, banned)
        if not moves:
            if placements(board, self.n, 1 - mover):
                return -self._negamax(board, 1 - mover, None, depth, -beta, -alpha)
            return WIN * margin(board, mover)
        if depth == 1:
            return max(alpha, moves[0][0])  # the ordering already judged every reply
        for _, (_, value, child) in moves:
            alpha = max(
                alpha,
                -self._negamax(child, 1 - mover, banned_after(value), depth - 1, -beta, -alpha),
            )
            if alpha >= beta:
                break
        return alpha

    def _ordered(self, board, mover, banned, avoid=frozenset()) -> list:
        """(judgement, (cell index, value, board after)) of the `width` best-looking moves
        whose (cell index, value) is not in `avoid`."""
        scored = sorted(
            (
                (score, self.rng.random(), move)
                for score, move in self.judged_moves(self.n, board, mover, banned)
                if move[:2] not in avoid
            ),
            reverse=True,
        )
        return [(score, move) for score, _, move in scored[: self.width]]

    @staticmethod
    def judged_moves(n, board, mover, banned) -> list:
        """(judgement for `mover`, (cell index, value, board after)) of every legal move."""
        return [
            (-evaluate_board(move[2], n, 1 - mover, contested=True), move)
            for move in children(board, n, mover, banned)
        ]


def children(board, n, mover, banned) -> list[tuple[int, int, tuple[int, ...]]]:
    """(cell index, value, board after) for every legal placement of `mover`."""
    sign = 1 if mover == 0 else -1
    return [
        (index, value, board[:index] + (sign * value,) + board[index + 1 :])
        for index, value in apply_ban(placements(board, n, mover), banned)
    ]


def evaluate_board(board: tuple[int, ...], n: int, seat: int, contested: bool = False) -> float:
    """`seat`'s prospect minus its opponent's, then territory: the empty cells nearer to its
    growing groups than to the other side's, minus the reverse, which breaks the ties prospect
    leaves (on an open board every prospect is the full hand). `contested` (advanced) counts in
    each side's prospect none of the cells the other side's groups reach first."""
    mine, theirs = growth_distances(board, n, seat), growth_distances(board, n, 1 - seat)
    ours = {j for j, d in mine.items() if d < theirs.get(j, d + 1)}
    their = {j for j, d in theirs.items() if d < mine.get(j, d + 1)}
    conceded = (their, ours) if contested else (set(), set())
    return (
        TERRITORY_WEIGHT
        * (prospect(board, n, seat, conceded[0]) - prospect(board, n, 1 - seat, conceded[1]))
        + len(ours)
        - len(their)
    )


def prospect(board: tuple[int, ...], n: int, seat: int, conceded: set[int]) -> int:
    """Pieces `seat` has placed plus its room, capped by the pieces it has left. Each group,
    tightest first, claims the empty cells nearest it that touch none of `seat`'s other groups
    or their claims (growing there would merge them); the numbers in hand share the empty cells
    that touch nothing of `seat`'s. `conceded` cells count for nobody."""
    numbers, blanks = hand(board, n, seat)
    label, sizes, limits = groups(board, n, seat)
    table = neighbour_table(n)
    members: list[list[int]] = [[] for _ in sizes]
    for index, g in label.items():
        members[g].append(index)
    owner_of = dict(label)  # cell -> group, for pieces and, as they are claimed, empty cells
    for g in sorted(range(len(sizes)), key=lambda g: limits[g] - sizes[g]):
        claim_near(board, table, g, members[g], limits[g] - sizes[g], owner_of, conceded)
    claimed = len(owner_of) - len(label)
    open_cells = sum(
        1
        for j, code in enumerate(board)
        if not code
        and j not in owner_of
        and j not in conceded
        and not any(k in owner_of for k in table[j])
    )
    room = claimed + min(sum(numbers), open_cells)
    return sum(sizes) + min(room, len(numbers) + blanks)


def claim_near(
    board,
    table,
    group: int,
    cells: list[int],
    want: int,
    owner_of: dict[int, int],
    conceded: set[int],
) -> None:
    """Claim for `group` (in `owner_of`) up to `want` empty cells nearest `cells`, reached
    through cells it may claim: empty, unclaimed, not conceded, touching no other group."""
    frontier, got = list(cells), 0
    while frontier and got < want:
        step = []
        for i in frontier:
            for j in table[i]:
                if (
                    got < want
                    and not board[j]
                    and j not in owner_of
                    and j not in conceded
                    and all(owner_of.get(k, group) == group for k in table[j])
                ):
                    owner_of[j] = group
                    step.append(j)
                    got += 1
        frontier = step


def growth_distances(board: tuple[int, ...], n: int, seat: int) -> dict[int, int]:
    """Steps through empty cells from `seat`'s groups that still have room, per empty cell."""
    label, sizes, limits = groups(board, n, seat)
    table = neighbour_table(n)
    frontier = [i for i, g in label.items() if limits[g] > sizes[g]]
    distance: dict[int, int] = {}
    seen = set(frontier)
    steps = 0
    while frontier:
        steps += 1
        reached = []
        for i in frontier:
            for j in table[i]:
                if not board[j] and j not in seen:
                    seen.add(j)
                    reached.append(j)
        frontier = reached
        distance.update((j, steps) for j in frontier)
    return distance


@functools.lru_cache(maxsize=None)
def solver_for(n: int) -> Solver:
    """One solver per board size per process, so its table serves every later move. Its table
    merges mirror images only on the boards the perfect bot solves from the start: past that,
    the solver solves endgames, which never meet a mirror image (`Solver`)."""
    return Solver(n, mirrors=n <= PERFECT_MAX_N)
