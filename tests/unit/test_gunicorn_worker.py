"""The kept-connection list of `postplay serve`'s gunicorn worker answers gthread's questions as
the deque it replaces does (tests/api/test_gunicorn_limits.py runs it in a real gunicorn)."""
from __future__ import annotations

import random
from collections import deque

import pytest

from api.web.gunicorn_worker import KeptConnections


class Conn:
    """A connection as gthread keeps it: compared by identity."""


def test_every_use_gthread_makes_of_it_answers_as_its_deque():
    rng = random.Random(7)
    kept, model = KeptConnections(), deque()
    for _ in range(5000):
        step = rng.random()
        if step < 0.45 or not model:  # a request answered: the connection is kept
            conn = Conn()
            kept.append(conn)
            model.append(conn)
        elif step < 0.85:  # a kept connection sends its next request, from anywhere in line
            conn = rng.choice(model)
            kept.remove(conn)
            model.remove(conn)
        else:  # the oldest times out
            assert kept[0] is model[0]
            assert kept.popleft() is model.popleft()
        assert len(kept) == len(model) and bool(kept) == bool(model)
    assert list(kept) == list(model)


def test_a_connection_not_kept_is_refused_as_the_deque_refuses_it():
    kept = KeptConnections()
    kept.append(Conn())
    with pytest.raises(ValueError):
        kept.remove(Conn())
    kept.popleft()
    with pytest.raises(IndexError):
        kept[0]
