"""Against a real gunicorn, started as `postplay serve` starts it: the limits gunicorn enforces
before Flask sees a request (request line, headers, its own settings) refuse what is over them,
a chunked body over 64 KiB is the API's JSON 413, and a client's connection is kept between
its polls."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest
import requests

from api.cli import LIMIT_REQUEST_FIELD_SIZE, LIMIT_REQUEST_LINE
from api.web.input_bounds import MAX_BODY_BYTES
from tests.live import answer, gunicorn

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server(redis_url, tmp_path_factory):
    """(host, port) of gunicorn serving the app with `postplay serve`'s worker and limits."""
    log = tmp_path_factory.mktemp("gunicorn") / "web.log"
    with gunicorn(redis_url, log, "--threads", "2") as address:
        yield address


def raw(server, request: bytes) -> tuple[int, bytes]:
    """Send `request` as it is; the status and body of the answer."""
    with socket.create_connection(server, timeout=10) as sock:
        sock.sendall(request)
        head, body = answer(sock)
    return int(head.split(b"\r\n")[0].split()[1]), body


def test_a_request_line_over_the_limit_is_refused_before_the_app(server):
    path = "/api/v1/games?kind=" + "x" * LIMIT_REQUEST_LINE
    assert raw(server, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())[0] == 414


def test_a_request_line_under_the_limit_reaches_the_app(server):
    path = "/api/v1/games?kind=" + "x" * (LIMIT_REQUEST_LINE - 100)
    code, body = raw(
        server, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
    )
    assert code == 200 and json.loads(body) == []


def test_a_header_over_the_limit_is_refused_before_the_app(server):
    header = "X-Big: " + "x" * LIMIT_REQUEST_FIELD_SIZE
    assert (
        raw(server, f"GET /api/v1/kinds HTTP/1.1\r\nHost: x\r\n{header}\r\n\r\n".encode())[0] == 431
    )


def test_too_many_headers_are_refused_before_the_app(server):
    headers = "".join(f"X-H{i}: 1\r\n" for i in range(150))
    assert raw(server, f"GET /api/v1/kinds HTTP/1.1\r\nHost: x\r\n{headers}\r\n".encode())[0] == 431


def test_a_request_that_is_not_http_is_a_400(server):
    assert raw(server, b"HELLO\r\n\r\n")[0] == 400


def test_a_chunked_body_over_the_limit_is_a_json_413(server):
    games = f"http://{server[0]}:{server[1]}/api/v1/games"
    before = requests.get(games, timeout=10).headers["X-Pagination"]
    body = json.dumps({"kind": "factor-multiple", "seats": [{"open": True}] * 2}).encode()

    def chunks():
        yield body
        for _ in range(MAX_BODY_BYTES // 4096 + 1):
            yield b" " * 4096

    response = requests.post(
        games, data=chunks(), timeout=10, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 413 and response.json()["message"]
    assert requests.get(games, timeout=10).headers["X-Pagination"] == before


def test_a_chunked_body_under_the_limit_is_read(server):
    body = json.dumps({"kind": "factor-multiple", "seats": [{"open": True}] * 2}).encode()
    response = requests.post(
        f"http://{server[0]}:{server[1]}/api/v1/games",
        data=iter([body[:10], body[10:]]),
        timeout=10,
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 201, response.text


def test_a_client_connection_is_kept_between_polls(server):
    """gunicorn's own keep-alive (2 s) would have closed it before the second request."""
    request = b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.create_connection(server, timeout=10) as sock:
        for pause in (0, 3):
            time.sleep(pause)
            sock.sendall(request)
            answer = b""
            while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                chunk = sock.recv(65536)
                assert chunk, "the server closed the connection"
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200 ")


def test_kept_connections_are_answered_in_any_order(server):
    """Requests on many kept connections, each round in another order: every one is answered."""
    request = b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n\r\n"
    socks = [socket.create_connection(server, timeout=10) for _ in range(20)]
    try:
        for order in (list(range(20)), list(range(19, -1, -1)), [7, 3, 15, 0, 19, 11] * 2):
            for i in order:
                socks[i].sendall(request)
                answer = b""
                while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
                    chunk = socks[i].recv(65536)
                    assert chunk, "the server closed the connection"
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 200 ")
    finally:
        for sock in socks:
            sock.close()
