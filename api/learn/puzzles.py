"""Puzzles: positions of finished games in which a solver proves that the side to move wins with
one move only, and every other legal move does not (a draw is not a win).

A puzzle's line starts with that move. While the game goes on and the solver has played fewer
than `MAX_SOLVER_MOVES`, the defender replies with its longest resistance and the solver's next
move must again be the only one that wins; the line stops before a defender's reply after which
the solver would have no single answer (its win is proven there). The longest resistance is the
reply (of those that hand the move back) after which the solver needs the most moves of its own
to force its win; ties go to the reply that leaves the solver the fewest winning answers, then
the most legal moves. Factor Bingo's solver tells the length of a win (`provers.moves_to_win`).
The others prove only who wins (maximum matching, the Ploid and Partition searches), so the length
is found by deepening (`Resistance`): the replies after which the solver cannot force its win
within 1 move, then 2, up to the moves the line has left; past those, every reply still standing
is as long as the line can show. A resistance not found within the position's budget ends the
line before that reply.

A puzzle is JSON: `{"id", "kind", "options", "state", "to_move", "line": [{"seat", "move"}],
"verdicts": [{"move", "wins"}], "rating", "source"}`. Its id is a digest of the kind, options
and state, so a position mined twice is one puzzle.
"""

from __future__ import annotations

import hashlib
import math
from typing import Iterable, Iterator

from api.bots import clock
from api.games import Game, State, get_game
from api.games.base import IllegalMove, MalformedMove, Move, UnknownField
from api.jsontext import dumps
from api.learn import provers

MAX_SOLVER_MOVES = 4
# the most a position may take to prove in the mining (one move's verdict past this: skipped)
POSITION_BUDGET_S = 3.0
MIN_LEGAL_MOVES = 2  # a position with one legal move asks nothing


def puzzle_id(kind: str, options: dict, state: State) -> str:
    """The puzzle's id: the same position (kind, options, state) gives the same id."""
    text = dumps({"kind": kind, "options": options, "state": state.to_dict()})
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()[:16]


def positions(
    kind: str, options: dict, first: int, seed: int, moves: Iterable[dict]
) -> Iterator[tuple[int, State]]:
    """Every position of a game's record (ply, state), from its start to its end."""
    game = get_game(kind)
    state = game.new(game.check_options(options), first, seed)
    yield 0, state
    for ply, data in enumerate(moves, start=1):
        state = state.apply(game.parse_move(data))
        yield ply, state


def mine(
    kind: str,
    options: dict,
    first: int,
    seed: int,
    moves: list[dict],
    source: dict | None = None,
    budget_s: float = POSITION_BUDGET_S,
) -> list[dict]:
    """The puzzles of one finished game, in the order of its plies, each proved and checked
    again (`check`), none twice."""
    if kind not in provers.PROVERS:
        return []
    found, seen = [], set()
    # the last positions first: the solvers keep what they proved (Factor Bingo's card, the
    # Partition search's table), and a later position's proofs are part of an earlier one's
    for ply, state in reversed(list(positions(kind, options, first, seed, moves))):
        if not provers.decides(state) or len(state.legal_moves()) < MIN_LEGAL_MOVES:
            continue
        puzzle = make(kind, options, state, {**(source or {}), "ply": ply}, budget_s)
        if puzzle is not None and puzzle["id"] not in seen and check(puzzle):
            seen.add(puzzle["id"])
            found.append(puzzle)
    return found[::-1]


def make(
    kind: str, options: dict, state: State, source: dict, budget_s: float = POSITION_BUDGET_S
) -> dict | None:
    """The puzzle at `state`, or None where it is none (or not proved within `budget_s`)."""
    deadline = clock.now() + budget_s
    try:
        won, rest = provers.winning_moves(state, deadline)
        if len(won) != 1:
            return None
        line = _line(state, won[0], deadline)
        verdicts = [{"move": m.to_dict(), "wins": m is won[0]} for m in won + rest]
    except (TimeoutError, provers.Undecided):
        return None
    solver_moves = sum(1 for step in line if step["seat"] == state.to_move)
    return {
        "id": puzzle_id(kind, options, state),
        "kind": kind,
        "options": options,
        "state": state.to_dict(),
        "to_move": state.to_move,
        "line": line,
        "verdicts": verdicts,
        "rating": start_rating(solver_moves, len(verdicts)),
        "source": source,
    }


def _line(state: State, first: Move, deadline: float) -> list[dict]:
    """The whole line from `state`: see the module docstring."""
    solver = state.to_move
    assert solver is not None  # a running position: a seat to move
    search = Resistance(solver, deadline)
    line = [{"seat": solver, "move": first.to_dict()}]
    state = provers.after(state, first)
    solver_moves = 1
    while not state.is_over() and solver_moves < MAX_SOLVER_MOVES:
        if state.to_move == solver:  # (Partition: three actions a turn)
            won, _ = search.winning(state)
            if len(won) != 1:
                break
            line.append({"seat": solver, "move": won[0].to_dict()})
            state = provers.after(state, won[0])
            solver_moves += 1
            continue
        replies = [
            (reply, answer)
            for reply in state.legal_moves()
            if not (answer := provers.after(state, reply)).is_over() and answer.to_move == solver
        ]
        try:
            longest = search.longest(replies, MAX_SOLVER_MOVES - solver_moves)
        except TimeoutError:
            break  # (the line as far as it is proven to be the longest resistance)
        best = None
        for reply, answer in longest:
            won, rest = search.winning(answer)
            key = (len(won), -(len(won) + len(rest)))
            if best is None or key < best[0]:
                best = key, reply, won, answer
        if best is None or len(best[2]) != 1:  # (the solver's win is proven: no single answer)
            break
        _, reply, (answer_move,), answer = best
        line += [
            {"seat": 1 - solver, "move": reply.to_dict()},
            {"seat": solver, "move": answer_move.to_dict()},
        ]
        state = provers.after(answer, answer_move)
        solver_moves += 1
    return line


class Resistance:
    """How long the defender holds out against `solver`'s win, within one line's `deadline`:
    each position's winning moves proved once (`winning`), and each "wins within k" once."""

    def __init__(self, solver: int, deadline: float | None):
        self.solver, self.deadline = solver, deadline
        self._won: dict[State, tuple[list[Move], list[Move]]] = {}
        self._forces: dict[tuple[State, int], bool] = {}

    def winning(self, state: State) -> tuple[list[Move], list[Move]]:
        if state not in self._won:
            self._won[state] = provers.winning_moves(state, self.deadline)
        return self._won[state]

    def longest(self, replies: list[tuple[Move, State]], most: int) -> list[tuple[Move, State]]:
        """The replies (each with the position it leaves) after which the solver needs the most
        moves of its own to force its win, counted up to `most` (past it, all that stand)."""
        kind = replies[0][1].game.slug if replies else ""
        if provers.tells_length(kind):
            lengths = [provers.moves_to_win(answer, self.deadline) or 0 for _, answer in replies]
            return [r for r, n in zip(replies, lengths) if n == max(lengths)]
        standing = replies
        for k in range(1, most + 1):
            resisting = [(r, answer) for r, answer in standing if not self.forces(answer, k)]
            if not resisting:
                return standing  # each forced within k moves, none within k - 1
            standing = resisting
        return standing

    def forces(self, state: State, k: int) -> bool:
        """Whether the solver forces its win from `state` within `k` more moves of its own: a
        search over the moves the kind's solver proves winning (any move, for the last one)."""
        outcome = state.outcome()
        if outcome is not None:
            return outcome.winner == self.solver
        if (state, k) not in self._forces:
            if state.to_move != self.solver:  # every reply must lose within k
                forced = all(self.forces(provers.after(state, r), k) for r in state.legal_moves())
            elif k == 0:
                forced = False
            else:  # (the last move must end the game: no proof needed to find it)
                moves = state.legal_moves() if k == 1 else self.winning(state)[0]
                forced = any(self.forces(provers.after(state, m), k - 1) for m in moves)
            self._forces[state, k] = forced
        return self._forces[state, k]


def start_rating(solver_moves: int, legal_moves: int) -> float:
    """A puzzle's first rating: longer lines and more moves to choose from make it harder.

    >>> start_rating(1, 2), start_rating(4, 40)
    (1000.0, 1946.0)
    """
    return float(round(1000 + 200 * (solver_moves - 1) + 80 * math.log2(legal_moves / 2)))


def state_of(puzzle: dict) -> State:
    return get_game(puzzle["kind"]).state_class.from_dict(puzzle["state"])


def check(puzzle: dict, budget_s: float | None = None) -> bool:
    """Prove the puzzle again from its stored form: at each of the solver's moves of the line
    that move wins and every other legal move does not; each defender's reply is legal."""
    game = get_game(puzzle["kind"])
    state = state_of(puzzle)
    solver = state.to_move
    deadline = None if budget_s is None else clock.now() + budget_s
    try:
        for step in puzzle["line"]:
            move = game.parse_move(step["move"])
            if state.to_move != step["seat"]:
                return False
            if step["seat"] == solver:
                won, _ = provers.winning_moves(state, deadline)
                if won != [move]:
                    return False
            state = provers.after(state, move)
    except (IllegalMove, MalformedMove, TimeoutError, provers.Undecided):
        return False
    return True


def attempt(puzzle: dict, moves: list) -> dict:
    """Judge a try: `moves` are the moves of the side to move (the replies between them are the
    line's, played by the server). The answer: `solved`; the `line` as played (the player's
    moves, each reply of the server after them); at a wrong move, `expected` (the line's move
    there, in words as `expected_words`) and the whole `solution`; `more` while every move so far
    was right and the line goes on. Each step of a line carries its move's `words`. MalformedMove
    or IllegalMove (naming `moves.<i>`) for a move that is not one."""
    game = get_game(puzzle["kind"])
    state = state_of(puzzle)
    solver, line = state.to_move, puzzle["line"]
    played: list[dict] = []
    at = 0
    for i, data in enumerate(moves):
        try:
            move = game.parse_move(data)
            state.apply(move)
        except (MalformedMove, UnknownField) as error:
            raise MalformedMove(f"Move {i + 1}: {error}", f"moves.{i}") from None
        except IllegalMove as error:
            raise IllegalMove(f"Move {i + 1}: {error}") from None
        words = move.words(state)
        if move.to_dict() != line[at]["move"]:
            played.append({"seat": solver, "move": move.to_dict(), "by": "player", "words": words})
            return {
                "solved": False,
                "more": False,
                "line": played,
                "expected": line[at]["move"],
                "expected_words": game.parse_move(line[at]["move"]).words(state),
                "solution": _told(game, state_of(puzzle), line),
                **_position(state.apply(move)),
            }
        played.append({**line[at], "by": "player", "words": words})
        state, at = provers.after(state, move), at + 1
        while at < len(line) and line[at]["seat"] != solver:
            reply = game.parse_move(line[at]["move"])
            played.append({**line[at], "by": "server", "words": reply.words(state)})
            state, at = provers.after(state, reply), at + 1
        if at == len(line):
            return {
                "solved": True,
                "more": False,
                "line": played,
                "solution": _told(game, state_of(puzzle), line),
                **_position(state),
            }
    return {
        "solved": False,
        "more": True,
        "line": played,
        **_position(state),
        "legal": state.legal_moves_listing(),
    }


def verdicts(puzzle: dict) -> list[dict]:
    """The solver's verdict of each legal first move, each with the move's `words`."""
    game, state = get_game(puzzle["kind"]), state_of(puzzle)
    return [{**v, "words": game.parse_move(v["move"]).words(state)} for v in puzzle["verdicts"]]


def _told(game: type[Game], state: State, line: list[dict]) -> list[dict]:
    """The steps of `line` played from `state`, each with its move's words."""
    told = []
    for step in line:
        move = game.parse_move(step["move"])
        told.append({**step, "words": move.words(state)})
        state = provers.after(state, move)
    return told


def _position(state: State) -> dict:
    """The position a try has reached, as a game object shows it (with the facts a board draws)."""
    return {"state": state.view(), "to_move": state.to_move}
