"""The audit's attacks on the edge (issue 41, items 5, 6 and 8), made again against a real server
(`postplay serve`, with the test Redis, private webhook targets refused as in production): IPv6
spellings of a private address, ids that reach a neighbouring key, a move nested 1,200 deep in a
query, and fifteen asks for one rematch."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from api.store.embedded import free_port
from tests.api.test_accounts import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
API = "/api/v1"


@pytest.fixture(scope="module")
def server(redis_url, tmp_path_factory):
    """The base URL of `postplay serve` (one web process) on the test Redis."""
    log = tmp_path_factory.mktemp("edge") / "web.log"
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "POSTPLAY_RATELIMIT": "off"}
    env.pop("POSTPLAY_WEBHOOK_ALLOW_PRIVATE", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "api.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--web-workers",
            "1",
        ],
        cwd=ROOT,
        env=env,
        stdout=open(log, "wb"),
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                requests.get(f"{base}{API}/kinds", timeout=2)
                break
            except requests.RequestException:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError(f"the server did not start; see {log}") from None
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def account(server, name: str) -> str:
    made = requests.post(
        f"{server}{API}/accounts", json={"username": name, "password": PASSWORD}, timeout=10
    )
    assert made.status_code == 201, made.text
    return made.json()["token"]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def two_people(server) -> dict:
    made = requests.post(
        f"{server}{API}/games",
        timeout=10,
        json={
            "kind": "factor-multiple",
            "first": 0,
            "seats": [{"human": {"name": "Ada"}}, {"human": {"name": "Bo"}}],
        },
    )
    assert made.status_code == 201, made.text
    return made.json()


@pytest.fixture(scope="module")
def hooks_owner(server) -> str:
    return account(server, "HookOwner")


@pytest.mark.parametrize(
    "host",
    [
        "[::127.0.0.1]",  # IPv4-compatible
        "[::ffff:127.0.0.1]",  # IPv4-mapped
        "[::ffff:0:a00:1]",  # IPv4-translated (SIIT)
        "[64:ff9b::a00:1]",  # NAT64, well-known prefix, to 10.0.0.1
        "[64:ff9b::7f00:1]:8080",
        "[64:ff9b:1::a00:1]",  # NAT64, local-use prefix
        "[2002:7f00:1::1]",  # 6to4 of 127.0.0.1
        "[2002:a9fe:a9fe::1]",  # 6to4 of the cloud metadata address
        "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",  # Teredo
        "[fec0::1]",  # site-local
    ],
)
def test_an_ipv6_spelling_of_a_private_target_is_refused(server, hooks_owner, host):
    token = hooks_owner
    refused = requests.post(
        f"{server}{API}/me/webhooks",
        headers=bearer(token),
        timeout=10,
        json={"url": f"http://{host}/hook", "events": ["turn"]},
    )
    assert refused.status_code == 422, refused.text
    assert "url" in refused.json()["errors"]["json"]
    assert "public addresses" in refused.json()["message"]
    assert (
        requests.get(f"{server}{API}/me/webhooks", headers=bearer(token), timeout=10).json() == []
    )


def test_ids_that_reach_neighbouring_keys_are_404(server):
    game = two_people(server)
    playtest = requests.post(
        f"{server}{API}/playtests",
        timeout=10,
        json={"kind": "factor-multiple", "bots": ["random", "random"], "games": 1},
    )
    assert playtest.status_code == 202, playtest.text
    paths = [
        f"/games/{game['id']}{key}{tail}"
        for key in (":moves", ":tokens", ":analysis:0")
        for tail in ("", "/moves", "/export", "/chat")
    ]
    paths += [
        f"/playtests/{playtest.json()['id']}:chunks",
        f"/games/{game['id']}%3Amoves",
        f"/games/{game['id'].upper()}",
        f"/games/{game['id']}0",
    ]
    for path in paths:
        for method in ("GET", "POST"):
            answer = requests.request(
                method,
                f"{server}{API}{path}",
                timeout=10,
                headers=bearer(game["tokens"]["0"]),
                json={},
            )
            assert answer.status_code == 404, (method, path, answer.text)
            assert answer.json()["message"], (method, path)
    # the game itself is untouched, and still found by its own id
    assert requests.get(f"{server}{API}/games/{game['id']}", timeout=10).json()["ply"] == 0


def test_a_move_nested_1200_deep_in_the_query_is_a_400(server):
    game = two_people(server)
    answer = requests.get(
        f"{server}{API}/games/{game['id']}/legal-moves", params={"move": "[" * 1200}, timeout=10
    )
    assert answer.status_code == 400, answer.text
    assert "move" in answer.json()["errors"]["json"]


def test_fifteen_asks_make_one_rematch(server):
    ada, bo = account(server, "RematchAda"), account(server, "RematchBo")
    made = requests.post(
        f"{server}{API}/games",
        headers=bearer(ada),
        timeout=10,
        json={"kind": "factor-multiple", "seats": [{"me": True}, {"player": "RematchBo"}]},
    )
    game = made.json()
    url = f"{server}{API}/games/{game['id']}"
    assert requests.post(f"{url}/accept", headers=bearer(bo), timeout=10).status_code == 201
    assert requests.post(f"{url}/resign", headers=bearer(bo), timeout=10).status_code == 201
    asked = [requests.post(f"{url}/rematch", headers=bearer(ada), timeout=10) for _ in range(15)]
    assert [a.status_code for a in asked] == [201] + [200] * 14
    assert {a.json()["id"] for a in asked} == {asked[0].json()["id"]}
    incoming = requests.get(f"{server}{API}/me/challenges", headers=bearer(bo), timeout=10).json()[
        "incoming"
    ]
    assert [c["id"] for c in incoming] == [asked[0].json()["id"]]
