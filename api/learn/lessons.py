"""Lessons for newcomers: for each game a few short tasks in the rules' own words, each on a small
position, each try checked by the server with the reason a wrong one fails.

A lesson's position is the first one, in a seeded random game from the lesson's options, where
its task can be done and can also be failed (the same every time: the seed and the rules fix
it). A try is one move: a legal move that does the task passes; any other legal move fails
with the lesson's `why`; an illegal one fails with the rule it breaks.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from typing import Any, Callable

from api.games import State, get_game
from api.games.base import IllegalMove, Move, play_forced
from api.learn import provers

PLAYOUT_PLIES = 200  # the most a lesson's game is played looking for its position
PLAYOUTS = 50  # games tried, each from its own seed, before a lesson is found to have none


def _is_prime(v: int) -> bool:
    return v > 1 and all(v % f for f in range(2, int(v**0.5) + 1))


@dataclasses.dataclass(frozen=True)
class Lesson:
    kind: str
    title: str
    task: str
    why: str  # what a legal move that fails the task is told
    # (before, move, after) in the lesson's game's own State and Move types, whose fields it reads
    does_task: Callable[[Any, Any, Any], bool]
    options: dict = dataclasses.field(default_factory=dict)
    seed: int = 1
    min_ply: int = 0
    # what else the position must have (some candidate move does the task and some does not)
    fits: Callable[[Any], bool] = lambda state: True
    # moves to try beside the listed legal ones (Prime Drop does not list its double downs)
    more_moves: Callable[[State], list[Move]] = lambda state: []

    @functools.cached_property
    def position(self) -> State:
        for playout in range(PLAYOUTS):
            found = self._search(random.Random(f"{self.kind}:{self.title}:{self.seed}:{playout}"))
            if found is not None:
                return found
        raise LookupError(f"no position for the lesson {self.title!r}")

    def _search(self, rng: random.Random) -> State | None:
        game = get_game(self.kind)
        state, _ = play_forced(game.new(game.check_options(self.options), 0, self.seed))
        for ply in range(PLAYOUT_PLIES):
            if state.is_over():
                return None
            if ply >= self.min_ply and self.fits(state) and self.can_pass_and_fail(state):
                return state
            state, _ = play_forced(state.apply(rng.choice(state.legal_moves())))
        return None

    def candidates(self, state: State) -> list[Move]:
        return state.legal_moves() + self.more_moves(state)

    def can_pass_and_fail(self, state: State) -> bool:
        verdicts = {self.passes(state, m) for m in self.candidates(state)}
        return verdicts == {True, False}

    def passes(self, state: State, move: Move) -> bool:
        return self.does_task(state, move, state.apply(move))

    def check(self, move_data) -> dict:
        """`{"passed", "why"}` for one try (MalformedMove for something that is not a move)."""
        state = self.position
        move = get_game(self.kind).parse_move(move_data)
        try:
            after = state.apply(move)
        except IllegalMove as error:
            return {"passed": False, "why": str(error)}
        if self.does_task(state, move, after):
            return {"passed": True, "why": None}
        return {"passed": False, "why": self.why}

    def example(self, passing: bool) -> Move:
        """A legal move that passes (or fails) the task."""
        return next(
            m for m in self.candidates(self.position) if self.passes(self.position, m) == passing
        )

    def shown(self, n: int) -> dict:
        """The lesson as `GET /kinds/{kind}/lessons/{n}` shows it (the state as a game sends it,
        with the facts its board draws)."""
        state = self.position
        return {
            "kind": self.kind,
            "n": n,
            "title": self.title,
            "task": self.task,
            "options": get_game(self.kind).check_options(self.options),
            "state": state.view(),
            "to_move": state.to_move,
            "legal": state.legal_moves_listing(),
        }


def _wins(before: State, move: Move, after: State) -> bool:
    assert before.to_move is not None  # a lesson's position is running: a seat to move
    return provers.wins(provers.after(before, move), before.to_move)


def _one_win(state: State) -> bool:
    won, rest = provers.winning_moves(state)
    return len(won) == 1 and len(rest) >= 2


# --- Prime Drop ---


def _drops_prime(before, move, after) -> bool:
    if getattr(move, "digit", None) is None or getattr(move, "row", None) is None:
        return False
    cell = (move.row, move.col)
    return all(_is_prime(n.value) for n in after.numbers if cell in n.cells)


def _challenge_succeeds(before, move, after) -> bool:
    return (after.last_challenge or {}).get("success") is True and after.last_challenge.get(
        "seat"
    ) == before.mover


def _has_composite(state) -> bool:
    return any(n.value > 3 and not _is_prime(n.value) for n in state.numbers)


def _goes_out(before, move, after) -> bool:
    return after.outcome() is not None and after.outcome().winner == before.mover


def _reads_both_ways(before, move, after) -> bool:
    cell = (getattr(move, "row", -1), getattr(move, "col", -1))
    runs = [n for n in after.numbers if cell in n.cells and n.length >= 2]
    return bool(runs) and all(_is_prime(n.value) for n in runs)


def _doubles(state) -> list[Move]:
    """Double downs of the mover's first two digits in hand, both next to the board's tiles."""
    game = get_game("prime-drop")
    hand = [d for d in range(1, 10) if state.piles[state.mover][d]]
    out = []
    for number in state.numbers:
        r, c = number.frm
        for (r1, c1), (r2, c2) in (((r, c + 1), (r, c + 2)), ((r + 1, c), (r + 2, c))):
            if hand and all(0 <= x < state.size for x in (r1, c1, r2, c2)):
                out.append(
                    game.parse_move(
                        {
                            "type": "double",
                            "tiles": [
                                {"row": r1, "col": c1, "digit": hand[0]},
                                {"row": r2, "col": c2, "digit": hand[-1]},
                            ],
                        }
                    )
                )
    return [m for m in out if _legal(state, m)]


def _legal(state, move) -> bool:
    try:
        state.apply(move)
    except IllegalMove:
        return False
    return True


# --- Partition ---


def _closes_point(before, move, after) -> bool:
    return type(move).__name__ == "Stick" and after.points[before.turn] > before.points[before.turn]


def _closes_region(before, move, after) -> bool:
    return type(move).__name__ == "Stick" and len(after.closed) > len(before.closed)


def _claims(before, move, after) -> bool:
    return type(move).__name__ == "Claim"


def _subdivides(before, move, after) -> bool:
    return type(move).__name__ == "Subdivide"


def _keeps_open(before, move, after) -> bool:
    return type(move).__name__ == "Stick" and len(after.closed) == len(before.closed)


# --- Ploid ---


def _places_two(before, move, after) -> bool:
    return getattr(move, "piece", None) == 2


def _places_blank(before, move, after) -> bool:
    return getattr(move, "piece", None) == "blank"


def _places_number(before, move, after) -> bool:
    return getattr(move, "piece", None) != "blank"


def _joins_own(before, move, after) -> bool:
    board = after.to_dict()["board"]
    r, c = move.row, move.col
    return any(
        0 <= rr < len(board)
        and 0 <= cc < len(board[0])
        and board[rr][cc] is not None
        and board[rr][cc]["seat"] == before.mover
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
    )


# --- Factor Bingo ---


def _fills(before, move, after) -> bool:
    return type(move).__name__ == "Fill" and move.number in (1, 720)


def _hands_nothing(before, move, after) -> bool:
    return not (after.is_over() and after.outcome().winner != before.mover)


LESSONS: dict[str, list[Lesson]] = {
    "prime-drop": [
        Lesson(
            "prime-drop",
            "A prime stands",
            "Drop one tile so that every number it is part of is prime: nobody can challenge it.",
            "That tile makes a number with a factor: it can be challenged back into your pile.",
            _drops_prime,
            {"size": 9},
            min_ply=2,
        ),
        Lesson(
            "prime-drop",
            "Challenge the composite number",
            "A number on the board has a "
            "factor. Challenge it: name it and a factor between 1 and itself.",
            "That move challenges nothing that falls: find the composite number and a "
            "factor of it.",
            _challenge_succeeds,
            {"size": 9},
            min_ply=1,
            fits=lambda s: _has_composite(s),
        ),
        Lesson(
            "prime-drop",
            "Numbers read both ways",
            "Put a tile next to a tile on the board "
            "so that the run reads as a prime in both directions.",
            "A run is read left to right and right to left (or top to bottom and back): "
            "one of those readings has a factor, or the tile joins no run.",
            _reads_both_ways,
            {"size": 9},
            min_ply=1,
        ),
        Lesson(
            "prime-drop",
            "Make a double down",
            "Lay two tiles in one turn: the first next to "
            "a tile on the board, the second next to any tile (the first counts).",
            "A single drop lays one tile; a double down lays two, each next to a tile.",
            lambda b, m, a: type(m).__name__ == "DoubleDown",
            {"size": 9},
            min_ply=1,
            more_moves=lambda s: _doubles(s)[:1],
        ),
        Lesson(
            "prime-drop",
            "Empty your pile",
            "You hold one tile. Drop it: the first to empty their pile wins.",
            "Only a move that empties your pile wins here.",
            _goes_out,
            {"size": 9, "tiles": {"9": 1, "3": 1}},
            min_ply=2,
            fits=lambda s: sum(s.piles[s.mover]) == 1,
        ),
    ],
    "partition": [
        Lesson(
            "partition",
            "Close a region",
            "Place a stick that cuts a part of the open region off: that part closes.",
            "That stick leaves the open region in one piece.",
            _closes_region,
            min_ply=20,
        ),
        Lesson(
            "partition",
            "Close a region worth a point",
            "Close a region holding discs of "
            "at least three colours: the stick scores a closing point.",
            "That does not close a region of three colours or more.",
            _closes_point,
            min_ply=20,
        ),
        Lesson(
            "partition",
            "Claim a colour",
            "Take a disc from a closed region: its colour becomes yours.",
            "Claiming is taking a disc from a closed region.",
            _claims,
            min_ply=30,
            fits=lambda s: any(type(m).__name__ == "Claim" for m in s.legal_moves()),
        ),
        Lesson(
            "partition",
            "Subdivide",
            "Place a stick inside a closed region, splitting it in two (no closing point).",
            "A subdivision is a stick inside a closed region.",
            _subdivides,
            min_ply=30,
            fits=lambda s: any(type(m).__name__ == "Subdivide" for m in s.legal_moves()),
        ),
        Lesson(
            "partition",
            "Keep it open",
            "Place a stick that closes nothing: the open region stays whole.",
            "That action closes a region, claims or subdivides.",
            _keeps_open,
            min_ply=6,
        ),
    ],
    "ploid": [
        Lesson(
            "ploid",
            "Where can your 2 go?",
            "Place your 2. A group may hold no more pieces than the smallest number in it.",
            "That is not your 2.",
            _places_two,
            {"n": 3},
            min_ply=1,
        ),
        Lesson(
            "ploid",
            "A 1 stands alone",
            "Place your 1: a group holding a 1 may hold no "
            "other piece, so put it where it touches none of yours.",
            "That is not your 1.",
            lambda b, m, a: getattr(m, "piece", None) == 1,
            {"n": 3},
        ),
        Lesson(
            "ploid",
            "Grow a group",
            "Place a piece that joins a group of yours (it touches one of your pieces).",
            "That piece touches none of your pieces.",
            _joins_own,
            {"n": 3},
            min_ply=2,
        ),
        Lesson(
            "ploid",
            "The winning placement",
            "Only one placement wins here against any defence. Find it.",
            "The solver proves that placement does not win.",
            _wins,
            {"n": 3},
            min_ply=5,
            fits=_one_win,
        ),
        Lesson(
            "ploid",
            "Small board, whole game",
            "On the 2 x 3 board, find a placement that wins.",
            "The solver proves that placement does not win.",
            _wins,
            {"n": 2},
            min_ply=1,
        ),
    ],
    "factor-multiple": [
        Lesson(
            "factor-multiple",
            "Go down: a factor",
            "Say a factor of the last number said (a number that divides it).",
            "That number is a multiple, not a factor.",
            lambda b, m, a: b.current % m.number == 0,
            {"n": 20},
            min_ply=1,
        ),
        Lesson(
            "factor-multiple",
            "The only safe number",
            "Every number but one lets your opponent win. Find the safe one.",
            "The solver proves your opponent wins after that number.",
            _wins,
            {"n": 20},
            min_ply=1,
            fits=_one_win,
        ),
        Lesson(
            "factor-multiple",
            "Leave no reply",
            "Say a number after which your opponent has no number left.",
            "Your opponent still has a number to say after that.",
            lambda b, m, a: not a.legal_moves(),
            {"n": 20},
            min_ply=2,
        ),
        Lesson(
            "factor-multiple",
            "1 connects everything",
            "Say 1: every number is a multiple of it.",
            "That is not 1.",
            lambda b, m, a: m.number == 1,
            {"n": 20},
            min_ply=1,
        ),
        Lesson(
            "factor-multiple",
            "A winning number",
            "Find a number that wins against any defence.",
            "The solver proves your opponent wins after that number.",
            _wins,
            {"n": 30},
            min_ply=2,
        ),
    ],
    "factor-bingo": [
        Lesson(
            "factor-bingo",
            "Fill a corner",
            "Fill a letter with 1 or 720: the numbers linked to the most others.",
            "That fills neither 1 nor 720.",
            _fills,
            min_ply=0,
        ),
        Lesson(
            "factor-bingo",
            "Hand over no line",
            "Call a number that completes none of your opponent's lines.",
            "That call completes a line of your opponent's: they win.",
            _hands_nothing,
            min_ply=26,
        ),
        Lesson(
            "factor-bingo",
            "Fill the centre",
            "Fill the centre letter, M: it stands on four lines of both boards.",
            "That fills another letter.",
            lambda b, m, a: type(m).__name__ == "Fill" and m.letter == "M",
            min_ply=0,
        ),
        Lesson(
            "factor-bingo",
            "Complete a line",
            "Call the number that completes a line on your board.",
            "That call completes no line of yours.",
            lambda b, m, a: a.is_over() and a.outcome().winner == b.mover,
            min_ply=26,
        ),
        Lesson(
            "factor-bingo",
            "A gray letter",
            "Fill a gray letter (G, I, M, Q or S): the "
            "same letter on both boards, so the number counts for both players.",
            "That letter is not gray: it stands in different places on the two boards.",
            lambda b, m, a: type(m).__name__ == "Fill" and m.letter in "GIMQS",
            min_ply=3,
        ),
    ],
}


def lessons_of(kind: str) -> list[Lesson]:
    return LESSONS.get(kind, [])
