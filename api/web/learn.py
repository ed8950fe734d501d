"""Learning the games: puzzles proved by the solvers (`/puzzles/...`), a player's puzzle rating
and history (`/me/puzzles`), and lessons (`/kinds/{kind}/lessons/...`). A request reads a puzzle
and compares moves with its stored line: all solving happened on the workers when it was mined."""

from __future__ import annotations

import time

import marshmallow as ma
from flask import current_app
from flask.views import MethodView
from marshmallow import fields, validate

from api.games import GAMES, IllegalMove, MalformedMove, UnknownField
from api.learn import lessons, service
from api.web.contract import operation
from api.web import auth
from api.web.errors import Blueprint, abort, refuse
from api.web.game_shapes import MoveField, StateField, per_kind

blp = Blueprint(
    "learn",
    __name__,
    url_prefix="/api/v1",
    description="Learning the games: puzzles a solver proves (the named move wins, "
    "every other does not), the daily puzzle, and lessons.",
)


def _store():
    return current_app.extensions["postplay"]["puzzles"]


def _account_id() -> str | None:
    principal = auth.account(required=False)
    return None if principal is None else principal.id


class PuzzleKindArgsSchema(ma.Schema):
    kind = fields.String(
        required=True,
        metadata={"description": "A game with puzzles: " + ", ".join(service.PUZZLE_KINDS) + "."},
    )


class PuzzleSourceSchema(ma.Schema):
    game_id = fields.String(metadata={"description": "The finished game it comes from."})
    playtest = fields.String(metadata={"description": "The playtest it comes from."})
    game = fields.Integer(metadata={"description": "The game's index in that playtest."})
    ply = fields.Integer(metadata={"description": "The ply of that game."})


class LegalListingSchema(ma.Schema):
    moves = fields.List(MoveField("player"))
    complete = fields.Boolean()
    note = fields.String(allow_none=True)


LEGAL = {
    "description": "The legal moves of the seat to move, as GET /games/{id}/legal-moves lists them."
}


class PuzzleSchema(ma.Schema):
    id = fields.String()
    kind = fields.String()
    options = fields.Dict(metadata={"description": "The game's options."})
    state = fields.Dict(metadata={"description": "The position, as the game object's `state`."})
    to_move = fields.Integer(metadata={"description": "The seat the player plays."})
    rating = fields.Integer(metadata={"description": "The puzzle's Glicko-2 rating."})
    plays = fields.Integer()
    solver_moves = fields.Integer(metadata={"description": "How many moves the player makes."})
    source = fields.Nested(PuzzleSourceSchema)
    legal = fields.Nested(LegalListingSchema, metadata=LEGAL)


class DailyPuzzleSchema(PuzzleSchema):
    day = fields.String(metadata={"description": "The day (UTC), YYYY-MM-DD."})


# puzzles typed per kind, their state and options too: a oneOf on `kind` in the document
PuzzleOfKind, DailyPuzzleOfKind = per_kind(PuzzleSchema), per_kind(DailyPuzzleSchema)


class PuzzleAttemptSchema(ma.Schema):
    moves = fields.List(
        MoveField("player"),
        required=True,
        validate=validate.Length(min=1, max=8),
        metadata={
            "description": "The player's moves, in order (the server's "
            "replies between them are the line's)."
        },
    )


class PuzzleLineStepSchema(ma.Schema):
    seat = fields.Integer()
    move = MoveField("played")
    by = fields.String(metadata={"description": "`player` or `server`."})
    words = fields.String(
        metadata={"description": "The move in the game's notation, as the move list shows it."}
    )


class PuzzleVerdictSchema(ma.Schema):
    move = MoveField("player")
    words = fields.String(metadata={"description": "The move in words, as the move list names it."})
    wins = fields.Boolean()


class PuzzleRatingChangeSchema(ma.Schema):
    before = fields.Integer()
    after = fields.Integer()


class PuzzleFirstTrySchema(ma.Schema):
    """An account's first decided try of a puzzle, as rated."""

    kind = fields.String()
    solved = fields.Boolean()
    at = fields.Float(metadata={"description": "When, in seconds since the epoch."})
    before = fields.Integer(metadata={"description": "The account's puzzle rating before it."})
    after = fields.Integer(metadata={"description": "The account's puzzle rating after it."})


class PuzzleAttemptResultSchema(ma.Schema):
    solved = fields.Boolean()
    more = fields.Boolean(
        metadata={"description": "Right so far: send the moves again with the next one added."}
    )
    line = fields.List(
        fields.Nested(PuzzleLineStepSchema),
        metadata={"description": "The moves played: yours and the server's replies."},
    )
    expected = MoveField("player", metadata={"description": "At a wrong move: the move that wins."})
    expected_words = fields.String(metadata={"description": "`expected` in words."})
    solution = fields.List(
        fields.Nested(PuzzleLineStepSchema),
        metadata={"description": "Once the try is over: the whole line."},
    )
    verdicts = fields.List(
        fields.Nested(PuzzleVerdictSchema),
        metadata={
            "description": "Once the try is over: the solver's verdict of every legal first move."
        },
    )
    rated = fields.Boolean(
        metadata={
            "description": "Whether this try rated the account (its "
            "first decided try of the puzzle)."
        }
    )
    rating = fields.Nested(PuzzleRatingChangeSchema)
    first_try = fields.Nested(
        PuzzleFirstTrySchema,
        metadata={"description": "A repeat: the first try, as rated."},
    )
    state = StateField(
        metadata={"description": "The position the try reached, as the game object's `state`."}
    )
    to_move = fields.Integer(allow_none=True)
    legal = fields.Nested(LegalListingSchema, metadata=LEGAL)


class PuzzleRatingSchema(ma.Schema):
    rating = fields.Integer()
    rd = fields.Float()
    volatility = fields.Float()
    games = fields.Integer()
    provisional = fields.Boolean()


class PuzzleTrySchema(PuzzleFirstTrySchema):
    puzzle_id = fields.String()


class MyPuzzlesSchema(ma.Schema):
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(PuzzleRatingSchema))
    history = fields.List(fields.Nested(PuzzleTrySchema))
    lessons_passed = fields.List(fields.String(), metadata={"description": "`<kind>:<n>`."})


class LessonSchema(ma.Schema):
    kind = fields.String()
    n = fields.Integer(metadata={"description": "Its place in the game's lessons, from 1."})
    title = fields.String()
    task = fields.String()
    options = fields.Dict()
    state = fields.Dict()
    to_move = fields.Integer()
    legal = fields.Nested(LegalListingSchema, metadata=LEGAL)


LessonOfKind = per_kind(LessonSchema)  # typed per kind, as puzzles are


class LessonsSchema(ma.Schema):
    kind = fields.String()
    lessons = fields.List(fields.Nested(LessonOfKind))


class LessonTrySchema(ma.Schema):
    move = MoveField("player", required=True, metadata={"description": "One move, as in a game."})


class LessonVerdictSchema(ma.Schema):
    passed = fields.Boolean()
    why = fields.String(allow_none=True, metadata={"description": "Why a try fails."})


def _puzzle_kind(kind: str) -> str:
    if kind not in service.PUZZLE_KINDS:
        if kind == "prime-drop":
            abort(404, message="Prime Drop has no solver to prove puzzles: it has lessons.")
        abort(
            404,
            message=f"There is no game {kind!r} with puzzles; those with puzzles are "
            f"{', '.join(service.PUZZLE_KINDS)}.",
        )
    return kind


def _puzzle(puzzle_id: str) -> dict:
    puzzle = _store().get(puzzle_id)
    if puzzle is None:
        abort(404, message=f"There is no puzzle {puzzle_id!r}.")
    return puzzle


@blp.route("/puzzles/next")
class NextPuzzle(MethodView):
    @operation(
        "nextPuzzle", auth=("account:read",), anonymous=True, refuses=(400, 401, 403, 404, 422)
    )
    @blp.arguments(PuzzleKindArgsSchema, location="query")
    @blp.response(200, PuzzleOfKind)
    def get(self, args: dict):
        """A puzzle near your puzzle rating (1500 anonymous), never one your account has seen"""
        kind = _puzzle_kind(args["kind"])
        puzzle = service.next_puzzle(_store(), kind, _account_id())
        if puzzle is None:
            abort(404, message="No puzzle is left for you in this game yet.")
        return service.puzzle_view(puzzle)


@blp.route("/puzzles/daily")
class DailyPuzzle(MethodView):
    @operation("dailyPuzzle", refuses=(400, 404, 422))
    @blp.arguments(PuzzleKindArgsSchema, location="query")
    @blp.response(200, DailyPuzzleOfKind)
    def get(self, args: dict):
        """The day's puzzle of a game (UTC), the same for everybody"""
        kind = _puzzle_kind(args["kind"])
        day = service.today()
        chosen = service.choose_daily(_store(), kind, day)
        if chosen is None:
            abort(404, message="This game has no puzzle yet.")
        return {**service.puzzle_view(_puzzle(chosen)), "day": day}


@blp.route("/puzzles/<puzzle_id>")
class Puzzle(MethodView):
    @operation("getPuzzle", refuses=(404, 422))
    @blp.response(200, PuzzleOfKind)
    def get(self, puzzle_id: str):
        """One puzzle's position"""
        return service.puzzle_view(_puzzle(puzzle_id))


@blp.route("/puzzles/<puzzle_id>/attempt")
class Attempt(MethodView):
    @operation(
        "attemptPuzzle", auth=("account:read",), anonymous=True, refuses=(400, 401, 403, 404, 422)
    )
    @blp.arguments(PuzzleAttemptSchema)
    @blp.response(200, PuzzleAttemptResultSchema)
    def post(self, body: dict, puzzle_id: str):
        """Try a puzzle: your moves judged against the proved line; a signed-in first try rates"""
        puzzle = _puzzle(puzzle_id)
        account_id = _account_id()
        try:
            return service.judge(_store(), puzzle, body["moves"], account_id)
        except (MalformedMove, IllegalMove) as error:
            refuse(error)


@blp.route("/me/puzzles")
class MyPuzzles(MethodView):
    @operation("myPuzzles", auth=("account:read",), refuses=(401, 403))
    @blp.response(200, MyPuzzlesSchema)
    def get(self):
        """Your puzzle ratings (one per game, apart from game ratings), tries and lessons"""
        principal = auth.account()
        return service.player_view(_store(), principal.id)


def _kind(kind: str) -> str:
    if kind not in GAMES:
        abort(404, message=f"There is no game {kind!r}.")
    return kind


def _lesson(kind: str, n: int) -> lessons.Lesson:
    found = lessons.lessons_of(_kind(kind))
    if not 1 <= n <= len(found):
        abort(
            404,
            message=f"{GAMES[kind].title} has lessons 1 to {len(found)}; there is no lesson {n}.",
        )
    return found[n - 1]


@blp.route("/kinds/<kind>/lessons")
class Lessons(MethodView):
    @operation("listLessons", refuses=(404, 422))
    @blp.response(200, LessonsSchema)
    def get(self, kind: str):
        """A game's lessons, in order"""
        return {
            "kind": kind,
            "lessons": [
                lesson.shown(n) for n, lesson in enumerate(lessons.lessons_of(_kind(kind)), start=1)
            ],
        }


@blp.route("/kinds/<kind>/lessons/<int:n>")
class Lesson(MethodView):
    @operation("getLesson", refuses=(404, 422))
    @blp.response(200, LessonOfKind)
    def get(self, kind: str, n: int):
        """One lesson: its position and task"""
        return _lesson(kind, n).shown(n)


@blp.route("/kinds/<kind>/lessons/<int:n>/check")
class LessonCheck(MethodView):
    @operation(
        "checkLesson", auth=("account:read",), anonymous=True, refuses=(400, 401, 403, 404, 422)
    )
    @blp.arguments(LessonTrySchema)
    @blp.response(200, LessonVerdictSchema)
    def post(self, body: dict, kind: str, n: int):
        """Check a try: passed, or why not (a signed-in pass is kept with the account)"""
        lesson = _lesson(kind, n)
        try:
            verdict = lesson.check(body["move"])
        except (MalformedMove, UnknownField) as error:
            refuse(error)
        principal = auth.account(required=False)
        if verdict["passed"] and principal is not None:
            _store().pass_lesson(principal.id, kind, n, time.time())
        return verdict
