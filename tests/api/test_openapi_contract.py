"""The document as a contract for client authors: every operation has a stable, unique
operationId and says which tokens it accepts, and every status a route's code can answer is in
its document.

What a route can answer is read from the code, not from the document: `answers()` parses the view
method and, one call at a time, every function of the project it calls (a name or attribute
resolved through the function's globals; a method on an object it cannot resolve, by its name
among the project's classes outside api/web, unless the standard containers, files or the Redis
client have a method of that name: `.get` on a dict is no view's `get`), and collects what they raise: each refusal or
engine error class (its status from `api.web.errors.status_of`) and each `abort(<status>)`. An
error caught around the call (`try: ... except NotFound:`) does not escape it, and a function
handed to a call as an argument counts as called. This over-approximates (a method name may be
shared by classes the call never reaches), which errs on the side of documenting a status. What
no view raises itself (a 405, a 413 from the body's bound, a 500) is the document's `default`
response, the error body.
"""

from __future__ import annotations

import ast
import functools
import inspect
import io
import pathlib
import re
import sys
import textwrap
from collections import defaultdict

import flask_smorest
import pytest
import redis
from flask.views import MethodView
from flask_smorest import abort

from api.record.errors import NotFound, NotYourTurn
from api.web.errors import status_of

METHODS = ("get", "post", "put", "patch", "delete")


def operations(app):
    """(document path, method, view function) of every route of the API's document."""
    for rule in app.url_map.iter_rules():
        view = app.view_functions[rule.endpoint]
        view_class = getattr(view, "view_class", None)
        if view_class is None or not issubclass(view_class, MethodView):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in METHODS:
            func = getattr(view_class, method, None)
            if func is not None:
                yield path, method, func


@pytest.fixture
def document(client):
    return client.get("/api/v1/openapi.json").get_json()


def test_every_operation_has_a_unique_operation_id_and_declares_its_tokens(app, document):
    seen: dict[str, str] = {}
    for path, ops in document["paths"].items():
        for method, op in ops.items():
            if method not in METHODS:
                continue
            where = f"{method.upper()} {path}"
            assert op.get("operationId"), f"{where} has no operationId: add @operation(...)"
            assert op["operationId"] not in seen, (
                f"{where} and {seen.get(op['operationId'])} share {op['operationId']!r}"
            )
            seen[op["operationId"]] = where
            assert "security" in op, f"{where} does not say which tokens it accepts"
            for requirement in op["security"]:
                for scheme in requirement:
                    assert scheme in document["components"]["securitySchemes"], where
            assert op.get("tags"), f"{where} has no tag"
    assert len(seen) == sum(1 for _ in operations(app))


def test_a_public_operation_declares_no_token_and_a_seat_operation_a_seat_token(document):
    assert document["paths"]["/api/v1/kinds"]["get"]["security"] == []
    move = document["paths"]["/api/v1/games/{game_id}/moves"]["post"]
    assert {"seatToken": []} in move["security"] and {} not in move["security"]
    scopes = document["components"]["securitySchemes"]["accountToken"]["flows"]["password"]
    assert {"read", "play", "challenge", "webhooks"} <= set(scopes["scopes"])


def test_every_status_the_code_can_raise_is_documented(app, document):
    missing = []
    for path, method, func in operations(app):
        documented = set(document["paths"][path][method]["responses"])
        for status in sorted(answers(func)):
            if str(status) not in documented:
                missing.append(f"{method.upper()} {path}: {status}")
    assert not missing, "statuses the code can answer but the document does not say: " + ", ".join(
        missing
    )


def test_the_reading_of_the_code_finds_what_a_view_raises(app):
    found = {(path, method): answers(func) for path, method, func in operations(app)}
    # the play service: unknown game, no token, another game's token, over or not your turn
    assert {404, 401, 403, 409} <= found["/api/v1/games/{game_id}/moves", "post"]
    # the engine's refusals of a move: malformed (400), illegal (422)
    assert {400, 422} <= found["/api/v1/games/{game_id}/moves", "post"]
    assert found["/api/v1/kinds", "get"] == set()


def _caught_then_refused(game_id: str):
    try:
        raise NotFound(f"There is no game {game_id!r}.")
    except NotFound:
        pass
    if not game_id:
        abort(429, message="Slow down.")
    raise NotYourTurn("Not your turn.")


def test_an_error_caught_around_a_call_does_not_escape_it():
    assert answers(_caught_then_refused) == {409, 429}


# --- reading the code ---


def answers(view) -> set[int]:
    """The statuses `view` (a MethodView's method) and what it calls can raise."""
    out = set()
    for raised in _raises(inspect.unwrap(view)):
        if isinstance(raised, int):
            out.add(raised)
            continue
        try:
            out.add(status_of(raised))
        except KeyError:  # not a refusal (a bug would be a 500, the fuzzer's to find)
            pass
    return out


# method names too common to follow by name alone
COMMON = {
    name
    for kind in (
        dict,
        list,
        str,
        set,
        bytes,
        pathlib.Path,
        io.BufferedReader,
        redis.Redis,
        redis.client.Pipeline,
    )
    for name in dir(kind)
}


@functools.cache
def _methods_by_name() -> dict[str, list]:
    """Every method of the project's classes outside api/web, by name (but COMMON's)."""
    found = defaultdict(list)
    for name, module in list(sys.modules.items()):
        if not (name.startswith("api.") and not name.startswith("api.web")) or module is None:
            continue
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != name:
                continue
            for attr, value in vars(cls).items():
                if attr in COMMON:
                    continue
                func = getattr(value, "__func__", getattr(value, "fget", value))
                if inspect.isfunction(func):
                    found[attr].append(func)
    return found


_IN_PROGRESS: set = set()


@functools.cache
def _raises(func) -> frozenset:
    if func in _IN_PROGRESS or not inspect.isfunction(func):
        return frozenset()
    if (func.__module__ or "").split(".")[0] not in ("api", "tests"):
        return frozenset()
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError):
        return frozenset()
    scope = dict(func.__globals__)
    if func.__closure__:
        scope.update(
            zip(
                func.__code__.co_freevars, (c.cell_contents for c in func.__closure__ if _filled(c))
            )
        )
    _IN_PROGRESS.add(func)
    try:
        return frozenset(_Reader(scope).nodes(tree.body[0].body))
    finally:
        _IN_PROGRESS.discard(func)


def _filled(cell) -> bool:
    try:
        cell.cell_contents  # noqa: B018 (reading it is the test: an empty cell raises)
    except ValueError:
        return False
    return True


class _Reader:
    def __init__(self, scope: dict):
        self.scope = scope

    def nodes(self, nodes) -> set:
        out = set()
        for node in nodes:
            out |= self.node(node)
        return out

    def node(self, node) -> set:
        if isinstance(node, ast.Try):
            inner = self.nodes(node.body)
            caught = tuple(c for h in node.handlers for c in self._classes(h.type))
            kept = {r for r in inner if isinstance(r, int) or not issubclass(r, caught)}
            return (
                kept
                | self.nodes(node.handlers)
                | self.nodes(node.orelse)
                | self.nodes(node.finalbody)
            )
        out = set()
        if isinstance(node, ast.Raise) and node.exc is not None:
            target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            cls = self.resolve(target)
            if inspect.isclass(cls) and issubclass(cls, Exception):
                out.add(cls)
        if isinstance(node, ast.Call):
            out |= self.call(node)
            for arg in node.args:  # a function handed on (a callback) may be called
                passed = self.resolve(arg)
                if inspect.isfunction(passed):
                    out |= set(_raises(passed))
        for child in ast.iter_child_nodes(node):
            out |= self.node(child)
        return out

    def call(self, node: ast.Call) -> set:
        target = self.resolve(node.func)
        if target is flask_smorest.abort:
            first = node.args[0] if node.args else None
            return {first.value} if isinstance(first, ast.Constant) else set()
        if inspect.ismethod(target):
            target = target.__func__
        if inspect.isfunction(target):
            return set(_raises(target))
        if inspect.isclass(target):  # a class made: its __init__ may refuse
            init = vars(target).get("__init__")
            return set(_raises(init)) if init is not None else set()
        if target is None and isinstance(node.func, ast.Attribute):
            return {r for func in _methods_by_name().get(node.func.attr, ()) for r in _raises(func)}
        return set()

    def resolve(self, node):
        """The object a name or dotted attribute stands for here, or None."""
        if isinstance(node, ast.Name):
            return self.scope.get(
                node.id,
                getattr(__builtins__, node.id, None)
                if not isinstance(__builtins__, dict)
                else __builtins__.get(node.id),
            )
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            if base is None or not (inspect.ismodule(base) or inspect.isclass(base)):
                return None
            return getattr(base, node.attr, None)
        return None

    def _classes(self, node) -> list:
        if node is None:
            return [Exception]
        if isinstance(node, ast.Tuple):
            return [c for elt in node.elts for c in self._classes(elt)]
        cls = self.resolve(node)
        return [cls] if inspect.isclass(cls) and issubclass(cls, BaseException) else []
