"""The committed OpenAPI document is the one the code generates, and the one the server serves."""

import json
from pathlib import Path

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def test_committed_openapi_equals_the_served_document(client):
    served = client.get("/api/v1/openapi.json").get_json()
    assert json.loads(COMMITTED.read_text()) == served, "run `make openapi` and commit the result"
