"""How a web process' requests share it. Under gunicorn's gevent worker (api/cli.py) each request
is a greenlet of one thread, which runs until it waits on I/O: so a slow client costs a greenlet,
never a thread; a long call that does not wait (argon2) must go to a real thread, or it stops
every other request of its process meanwhile; and a wait can be cut short (`deadline`).
Elsewhere (the workers, the tests' Flask client, a threaded server) each call runs where it is.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import Any, TypeVar

import gevent
from gevent import monkey

T = TypeVar("T")


class TimedOut(Exception):
    """A `deadline` passed."""


def cooperative() -> bool:
    """Whether this process runs under gevent (its sockets patched, so waits yield)."""
    return monkey.is_module_patched("socket")


def off_loop(func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`func(*args, **kwargs)`, on a thread of gevent's pool when this process is cooperative
    (the C call releases the GIL there, so the other requests go on), else here."""
    if cooperative():
        return gevent.get_hub().threadpool.apply(func, args, kwargs)
    return func(*args, **kwargs)


class OffLoop:
    """Every method of `target` called through `off_loop`."""

    def __init__(self, target: Any):
        self._target = target

    def __getattr__(self, name: str) -> Callable:
        return functools.partial(off_loop, getattr(self._target, name))


def deadline(seconds: float) -> contextlib.AbstractContextManager:
    """A block whose waits raise TimedOut once `seconds` have passed, where this process is
    cooperative (elsewhere a blocking read cannot be cut short, and the block runs as it is)."""
    if cooperative():
        return gevent.Timeout(seconds, TimedOut)
    return contextlib.nullcontext()
