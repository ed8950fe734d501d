"""A client generated from the document as it stood before the contract work of issue 43
(tests/contract/openapi-before-43.json: the last openapi/openapi.json without an operationId)
still compiles against today's: no path, method or status it could name is dropped, and its
operations are only renamed (each has an operationId now).

In Python, every (path, method, status) of the old document is one of today's, path parameters
compared by place, not name. In TypeScript, as a client author meets it: tsc type-checks
tests/contract/old_client.ts (a client of the old document's openapi-typescript types that
plays a game through paths, parameters, bodies and statuses) and a file naming every old
(path, method, status) and request body through `paths`, once against the old document's types
and once against today's; and fails on a document that drops one old status. The node tools
are test_clients.py's: skipped with a message where node is missing, never under CI=true.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.api.test_clients import DOC, TOOLS, _node_tools, typescript_types

OLD = TOOLS / "openapi-before-43.json"
METHODS = ("get", "put", "post", "delete", "patch")


def _operations(doc: dict):
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def unnamed(path: str) -> str:
    """A path template with its parameters' names left out: /games/{game_id} -> /games/{}."""
    return re.sub(r"\{[^}]*\}", "{}", path)


def answers(doc: dict) -> set[tuple[str, str, str]]:
    """(path, method, status) of every answer the document describes, `default` included."""
    return {
        (unnamed(path), method, status)
        for path, method, operation in _operations(doc)
        for status in operation["responses"]
    }


@pytest.fixture(scope="module")
def old() -> dict:
    return json.loads(OLD.read_text())


@pytest.fixture(scope="module")
def new() -> dict:
    return json.loads(DOC.read_text())


def test_the_old_document_is_the_one_before_operation_ids(old):
    operations = list(_operations(old))
    assert len(operations) == 57
    assert not any("operationId" in operation for _, _, operation in operations)
    assert "securitySchemes" not in old.get("components", {})


def test_no_path_method_or_status_of_the_old_document_is_dropped(old, new):
    dropped = answers(old) - answers(new)
    assert not dropped, sorted(dropped)
    # each old operation is still there, renamed: its generated function's name is its id now
    today = {(unnamed(path), method): op for path, method, op in _operations(new)}
    unnamed_now = [
        f"{method.upper()} {path}"
        for path, method, _ in _operations(old)
        if "operationId" not in today[(unnamed(path), method)]
    ]
    assert not unnamed_now, unnamed_now


def old_answer_types(old: dict) -> str:
    """TypeScript naming, through openapi-typescript's `paths`, every (path, method, status) of
    the old document and every request body it takes: it compiles where each is still there."""
    named = []
    for path, method, operation in sorted(_operations(old), key=lambda o: o[:2]):
        at = f"paths[{json.dumps(path)}][{json.dumps(method)}]"
        named += [f'{at}["responses"][{json.dumps(s)}]' for s in sorted(operation["responses"])]
        for content in operation.get("requestBody", {}).get("content", {}):
            named.append(f'NonNullable<{at}["requestBody"]>["content"][{json.dumps(content)}]')
    body = "".join(f"  {n},\n" for n in named)
    return f'import type {{ paths }} from "./openapi";\n\nexport type OldAnswers = [\n{body}];\n'


@pytest.fixture(scope="module")
def node_bin():
    return _node_tools()


def type_check(node_bin: Path, doc: Path, where: Path, old: dict) -> subprocess.CompletedProcess:
    """tsc over the old client and the old answers' names, against `doc`'s types."""
    where.mkdir()
    shutil.copy(TOOLS / "old_client.ts", where / "old_client.ts")
    (where / "old_answers.ts").write_text(old_answer_types(old))
    config = json.loads((TOOLS / "tsconfig.json").read_text())
    config["files"] = ["old_client.ts", "old_answers.ts", "openapi.d.ts"]
    (where / "tsconfig.json").write_text(json.dumps(config))
    made = typescript_types(node_bin, where / "openapi.d.ts", doc)
    assert made.returncode == 0, made.stdout + made.stderr
    return subprocess.run(
        [str(node_bin / "tsc"), "--project", str(where)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_client_of_the_old_document_compiles_against_its_types_and_todays(
    node_bin, tmp_path, old
):
    for name, doc in (("old", OLD), ("today", DOC)):
        checked = type_check(node_bin, doc, tmp_path / name, old)
        assert checked.returncode == 0, f"against the {name} document: {checked.stdout}"


def test_the_check_fails_where_an_old_status_is_dropped(node_bin, tmp_path, old):
    """tsc is really checking: today's document without getGame's 304 breaks the old client."""
    new = json.loads(DOC.read_text())
    responses = new["paths"]["/api/v1/games/{game_id}"]["get"]["responses"]
    del responses["304"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(new))
    checked = type_check(node_bin, broken, tmp_path / "broken", old)
    assert checked.returncode != 0 and "304" in checked.stdout, checked.stdout
    assert "old_client.ts" in checked.stdout and "old_answers.ts" in checked.stdout
