"""The web worker's accept: one turn of its loop takes every waiting connection, up to one per
thread and never past its connection limit (gunicorn's own took one), on a real listening
socket with real clients queued in its backlog. What it accepts goes to the thread pool; here
the worker's `enqueue_req` keeps them instead, so the test sees what one turn took."""
from __future__ import annotations

import socket

import pytest
from gunicorn.config import Config

from api.web.gunicorn_worker import JsonErrorsWorker


@pytest.fixture
def listener():
    sock = socket.create_server(("127.0.0.1", 0), backlog=64)
    sock.setblocking(False)  # as gunicorn sets it before it polls
    clients = []
    yield sock, clients
    for client in clients:
        client.close()
    sock.close()


def worker(threads: int, connections: int) -> JsonErrorsWorker:
    made = JsonErrorsWorker.__new__(JsonErrorsWorker)  # no arbiter: only accept's state
    made.cfg = Config()
    made.cfg.set("threads", threads)
    made.worker_connections, made.nr_conns = connections, 0
    made.taken = []
    made.enqueue_req = made.taken.append
    return made


def queue_clients(listener, count: int) -> None:
    sock, clients = listener
    for _ in range(count):
        clients.append(socket.create_connection(sock.getsockname()))


def test_one_turn_accepts_a_connection_per_thread(listener):
    queue_clients(listener, 6)
    w = worker(threads=4, connections=1000)
    w.accept(listener[0])
    assert len(w.taken) == w.nr_conns == 4
    w.accept(listener[0])
    assert len(w.taken) == w.nr_conns == 6  # the rest, and no error once the queue is empty
    for conn in w.taken:
        conn.sock.close()


def test_a_full_worker_accepts_nothing_more(listener):
    queue_clients(listener, 3)
    w = worker(threads=4, connections=2)
    w.accept(listener[0])
    assert len(w.taken) == w.nr_conns == 2
    for conn in w.taken:
        conn.sock.close()
