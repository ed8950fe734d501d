"""Scripts run on the calling thread's own connection (api/store/scripts.py), against the real
Redis of the session."""
from __future__ import annotations

import multiprocessing
import threading

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from api.store.embedded import free_port
from api.store.scripts import ThreadScripts

ECHO = "return {KEYS[1], ARGV[1], redis.call('INCR', KEYS[1])}"


def connection_of(scripts: ThreadScripts):
    return scripts.local.connection


def test_a_script_answers_as_redis_pys_own_call_of_it(redis_client):
    scripts = ThreadScripts(redis_client)
    echo = redis_client.register_script(ECHO)
    nothing = redis_client.register_script("return false")
    assert scripts.run(echo, ["counted"], ["é"]) == [b"counted", "é".encode(), 1]
    assert echo(keys=["counted"], args=["é"]) == [b"counted", "é".encode(), 2]
    assert scripts.run(nothing, [], []) is None is nothing()


def test_each_thread_keeps_one_connection_shared_by_every_store_of_the_client(redis_client,
                                                                             redis_url):
    echo = redis_client.register_script(ECHO)
    first, second = ThreadScripts(redis_client), ThreadScripts(redis_client)
    first.run(echo, ["k"], [1])
    second.run(echo, ["k"], [1])
    mine = connection_of(first)
    assert connection_of(second) is mine
    first.run(echo, ["k"], [1])
    assert connection_of(first) is mine  # kept, not made again
    seen = []
    other = threading.Thread(target=lambda: (first.run(echo, ["k"], [1]),
                                             seen.append(connection_of(first))))
    other.start()
    other.join()
    assert seen and seen[0] is not mine
    assert ThreadScripts(redis.Redis(connection_pool=redis_client.connection_pool)).local \
        is first.local  # (the same pool)
    assert ThreadScripts(redis.Redis.from_url(redis_url)).local is not first.local


def test_a_script_redis_has_forgotten_is_loaded_and_run_again(redis_client):
    scripts = ThreadScripts(redis_client)
    echo = redis_client.register_script(ECHO)
    assert scripts.run(echo, ["k"], ["a"])[2] == 1
    redis_client.script_flush()
    assert redis_client.script_exists(echo.sha) == [False]
    assert scripts.run(echo, ["k"], ["a"])[2] == 2
    assert redis_client.script_exists(echo.sha) == [True]


def test_a_connection_redis_closed_is_replaced_and_the_script_run_on_the_new_one(redis_client):
    scripts = ThreadScripts(redis_client)
    echo = redis_client.register_script(ECHO)
    scripts.run(echo, ["k"], ["a"])
    closed = connection_of(scripts)
    # Redis closes this thread's connection (it is the one client named by its address)
    address = closed._sock.getsockname()
    assert redis_client.client_kill(f"{address[0]}:{address[1]}")
    assert scripts.run(echo, ["k"], ["a"])[2] == 2  # ran once, on a new connection
    assert connection_of(scripts) is not closed
    assert int(redis_client.get("k")) == 2


def test_an_error_answer_is_raised_and_the_connection_kept(redis_client):
    scripts = ThreadScripts(redis_client)
    failing = redis_client.register_script("return redis.error_reply('no such seat')")
    echo = redis_client.register_script(ECHO)
    scripts.run(echo, ["k"], ["a"])
    kept = connection_of(scripts)
    with pytest.raises(redis.ResponseError, match="no such seat"):
        scripts.run(failing, [], [])
    assert connection_of(scripts) is kept
    assert scripts.run(echo, ["k"], ["a"])[2] == 2  # nothing left unread on it


def test_a_process_made_by_fork_makes_its_own_connection_and_leaves_the_parents(redis_client):
    scripts = ThreadScripts(redis_client)
    echo = redis_client.register_script(ECHO)
    scripts.run(echo, ["k"], ["a"])
    parents = connection_of(scripts)
    fork = multiprocessing.get_context("fork")
    answers = fork.Queue()

    def child():  # the parent's store, inherited: it must not use the parent's socket
        answers.put(scripts.run(echo, ["k"], ["child"]))
        answers.put(connection_of(scripts) is parents)

    process = fork.Process(target=child)
    process.start()
    process.join(timeout=30)
    assert process.exitcode == 0
    assert answers.get(timeout=5) == [b"k", b"child", 2]
    assert answers.get(timeout=5) is False
    # the child's exit closed its own connection only: the parent's still answers
    assert connection_of(scripts) is parents
    assert scripts.run(echo, ["k"], ["a"])[2] == 3


def test_a_redis_that_cannot_be_reached_is_a_connection_error_and_no_connection_is_kept():
    client = redis.Redis(port=free_port(), retry=Retry(NoBackoff(), 0))  # (refused at once)
    scripts = ThreadScripts(client)
    for _ in range(2):
        with pytest.raises(redis.ConnectionError):
            scripts.run(client.register_script(ECHO), ["k"], ["a"])
        assert getattr(scripts.local, "connection", None) is None
