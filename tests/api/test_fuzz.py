"""Schemathesis against the app's own OpenAPI document, in process: every operation, with
positive and negative data, its examples and boundary values. Path parameters are often a real
game or playtest and the bearer token a real seat's, so moves and resignations reach the engines.

No request may get a 5xx, every response must match the document, and every error must be JSON
with a `message`. A second pass puts what is not an id in every path parameter of every route
(a neighbouring key's suffix, separators, other scripts, 1,000 characters): 0 × 5xx too.
`make test` runs a bounded pass; `make fuzz` a long one
(POSTPLAY_FUZZ_EXAMPLES, per operation) that prints its figures.
"""

from __future__ import annotations

import os
import re
import time

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import checks
from schemathesis.core.failures import Failure, FailureGroup, ServerError
from schemathesis.openapi.checks import JsonSchemaError

from api.bots import levels
from api.games import GAMES
from api.web import create_app
from tests.api.helpers import create

EXAMPLES = int(os.environ.get("POSTPLAY_FUZZ_EXAMPLES", "40"))
CHECKS = [
    checks.not_a_server_error,
    checks.response_schema_conformance,
    checks.content_type_conformance,
]

# the document as the code makes it (`postplay openapi` does the same), loaded at import: the
# fixture loader (`schemathesis.pytest.from_fixture`) sets a node attribute pytest 9.2 no longer
# has. Requests go to the test's `app`, which has the test Redis.
DOCUMENTED = create_app({"RATELIMIT_ENABLED": False})
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", DOCUMENTED)
# real ids and tokens for the hook below, made afresh for each operation's test
POOL: dict = {"games": [], "playtests": []}


def literal_siblings(paths) -> dict[str, set[str]]:
    """Per path parameter, the literal segments beside it (`sweeps` for `playtest_id`:
    /playtests/sweeps beside /playtests/{playtest_id}). OpenAPI matches a literal path before a
    templated one, so a generated id spelling one asks for another operation."""
    literals: dict[str, set[str]] = {}
    split = [path.split("/") for path in paths]
    for segments in split:
        for i, segment in enumerate(segments):
            if segment.startswith("{"):
                literals.setdefault(segment.strip("{}"), set()).update(
                    other[i]
                    for other in split
                    if len(other) > i and other[:i] == segments[:i] and not other[i].startswith("{")
                )
    return literals


LITERALS = literal_siblings(schema.raw_schema["paths"])


class Tally:
    """What the fuzzer sent and what came back."""

    def __init__(self):
        self.requests = 0
        self.server_errors = 0
        self.schema_violations = 0
        self.other_failures = 0
        self.by_status: dict[int, int] = {}
        self.started = time.monotonic()

    def count(self, status: int) -> None:
        self.requests += 1
        self.by_status[status] = self.by_status.get(status, 0) + 1
        self.server_errors += status >= 500

    def failed(self, exc: BaseException) -> None:
        failures = exc.exceptions if isinstance(exc, FailureGroup) else [exc]
        self.schema_violations += any(isinstance(f, JsonSchemaError) for f in failures)
        self.other_failures += any(
            not isinstance(f, (JsonSchemaError, ServerError)) for f in failures
        )

    def line(self) -> str:
        statuses = ", ".join(f"{code}: {n}" for code, n in sorted(self.by_status.items()))
        return (
            f"fuzz: {self.requests} requests, {self.server_errors} server errors (5xx), "
            f"{self.schema_violations} schema violations, {self.other_failures} other "
            f"failures, in {time.monotonic() - self.started:.0f} s ({statuses})"
        )


@pytest.fixture(scope="module")
def tally(request):
    figures = Tally()
    yield figures
    with request.config.pluginmanager.get_plugin("capturemanager").global_and_fixture_disabled():
        print("\n" + figures.line())


@pytest.fixture(autouse=True)
def pool(client):
    """Real games of every kind (two people, one open seat, a bot) and a playtest, with the
    seat tokens of their human seats."""
    games = []
    for kind in sorted(GAMES):
        for seats in (
            [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
            [{"human": {"name": "Ada"}}, {"open": True}],
            [{"human": {"name": "Ada"}}, {"bot": next(iter(levels(kind)))}],
        ):
            game = create(client, kind=kind, seats=seats, first=0)
            games.append((game["id"], sorted(game["tokens"].values())))
    playtest = client.post(
        "/api/v1/playtests",
        json={"kind": "factor-multiple", "bots": ["random", "random"], "games": 2},
    )
    assert playtest.status_code == 202, playtest.get_json()
    POOL.update(
        games=games,
        playtests=[playtest.get_json()["id"]],
        ply=lambda game_id: client.get(f"/api/v1/games/{game_id}").get_json()["ply"],
    )


@schema.hook
def flatmap_case(context, case):
    return st.tuples(st.integers(0, 3 * len(GAMES)), st.integers(0, 2), st.booleans()).map(
        lambda drawn: _with_real_ids(case, POOL, *drawn)
    )


def _with_real_ids(case, pool, game: int, seat: int, current_ply: bool):
    """Put a pool game (or keep the generated id, at index len) and one of its seat tokens (or
    none, at seat 2) in the case, and for a move, the game's current ply when `current_ply`."""
    params = case.path_parameters or {}
    for name, value in params.items():
        if value in LITERALS.get(name, ()):
            params[name] = f"{value}-"  # an id, not the literal path's segment
    if "game_id" in params and game < len(pool["games"]):
        game_id, tokens = pool["games"][game]
        params["game_id"] = game_id
        if seat < len(tokens):
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {tokens[seat]}"}
        if current_ply and isinstance(case.body, dict) and "ply" in case.body:
            case.body["ply"] = pool["ply"](game_id)
    if "playtest_id" in params and game % 2:
        params["playtest_id"] = pool["playtests"][0]
    return case


@schema.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)
def test_no_server_error_and_every_response_as_documented(case, app, tally):
    # uncompressed: schemathesis reads the body as it comes (compression is tested on its own)
    case.headers = {**(case.headers or {}), "Accept-Encoding": "identity"}
    response = case.call(app=app)
    tally.count(response.status_code)
    try:
        case.validate_response(response, checks=CHECKS)
    except (Failure, FailureGroup) as exc:
        tally.failed(exc)
        raise
    if response.status_code >= 400:
        body = response.json()
        if not (
            isinstance(body, dict) and isinstance(body.get("message"), str) and body["message"]
        ):
            tally.other_failures += 1
            pytest.fail(f"an error without a message: {body!r}")


# what a path parameter may be instead of an id: a real id with a neighbouring key's suffix, a
# separator, an encoded slash, characters of any script, 1,000 characters
_PIECES = st.sampled_from(
    [
        ":moves",
        ":tokens",
        ":analysis:0",
        ":chunks",
        "/",
        "%2F",
        "%2f",
        ":",
        "*",
        "..",
        "%00",
        "é",
        "𝟘",
        "\u202e",
        " ",
        "a" * 1000,
    ]
)
_OTHER_ID = st.one_of(
    st.lists(_PIECES, min_size=1, max_size=4).map("".join),
    st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=1000),
)
# every route with a path parameter, with its methods (HEAD and OPTIONS are Werkzeug's own)
_ROUTES = sorted(
    (rule.rule, method)
    for rule in DOCUMENTED.url_map.iter_rules()
    if rule.arguments and rule.rule.startswith("/api/")
    for method in rule.methods - {"HEAD", "OPTIONS"}
)


@settings(
    max_examples=3 * EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)
@given(route=st.sampled_from(_ROUTES), real=st.booleans(), other=_OTHER_ID, where=st.integers(0, 2))
def test_no_path_parameter_is_a_server_error(client, route, real, other, where):
    rule, method = route
    game_id = POOL["games"][0][0]
    # the junk alone, after a real id, or before it
    bad = [other, f"{game_id}{other}", f"{other}{game_id}"][where] if real else other
    path = re.sub(r"<[^>]+>", lambda _: bad, rule)
    answer = client.open(path, method=method, json={})
    assert answer.status_code < 500, (method, path, answer.get_data(as_text=True)[:300])
    if answer.status_code >= 400:
        assert answer.get_json()["message"], (method, path)
