"""Passwords: argon2id hashes (argon2-cffi), made and checked a few at a time, and new passwords
judged as NIST SP 800-63B asks: against common and breached passwords, words and patterns, by
zxcvbn's estimate, with no composition rules.

Each hash costs tens of megabytes and most of a core for a fraction of a second, on purpose. The
request's own thread does the work (argon2-cffi lets go of the GIL meanwhile), but only `SLOTS`
at once in a process; a request that finds no slot free within `WAIT_S` is answered 503 with
Retry-After, so a flood of guesses costs the server at most those slots and never holds every
request thread waiting in a queue.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import threading

import zxcvbn
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from api.concurrency import OffLoop, off_loop
from api.record.errors import BadField, Overloaded

MIN_LENGTH = 10
MAX_LENGTH = 1024  # argon2 takes any length; this bounds the work one request can ask for
# zxcvbn's own bound: its matching grows fast with length, and a password whose first 72
# characters are hard to guess is hard to guess
JUDGED_LENGTH = 72
# zxcvbn's 3, "safely unguessable": about 10^8 guesses or more
MIN_SCORE = 3
# under one verification's time: a burst of a few checks queues, a flood is refused at once
WAIT_S = 0.1
RETRY_AFTER_S = 1


def _slots() -> int:
    """Cores × 1 hashes at once over the machine: this process' share of its cores, with as many
    web processes as gunicorn starts by default (WEB_CONCURRENCY, else `postplay serve`'s 2)."""
    given = os.environ.get("POSTPLAY_PASSWORD_CHECKS")
    if given:
        return max(1, int(given))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, (cores or 1) // max(1, int(os.environ.get("WEB_CONCURRENCY", "2"))))


# a maintained primitive with the one behaviour wanted: take a slot, or give up after a short
# wait (a thread pool's queue has no bound on its wait, and would hold the request anyway)
SLOTS = threading.BoundedSemaphore(_slots())
# argon2 takes a quarter of a second of CPU: on a thread of its own under the gevent worker
_hasher = OffLoop(PasswordHasher())
_UNKNOWN_NAME_HASH = _hasher.hash(secrets.token_urlsafe(16))


@contextlib.contextmanager
def _slot():
    if not SLOTS.acquire(timeout=WAIT_S):
        raise Overloaded(
            "The server is busy checking passwords: try again in a second.", RETRY_AFTER_S
        )
    try:
        yield
    finally:
        SLOTS.release()


def hash_password(password: str) -> str:
    with _slot():
        return _hasher.hash(password[:MAX_LENGTH])


def verify(password_hash: str | None, password: str) -> bool:
    """Whether `password` matches; with no hash (an unknown name, a deleted account) the same
    work is done against a hash made at start, so the answer takes about the same time."""
    with _slot():
        try:
            return (
                _hasher.verify(password_hash or _UNKNOWN_NAME_HASH, password[:MAX_LENGTH])
                and password_hash is not None
            )
        except (VerificationError, InvalidHashError):
            return False


def needs_rehash(password_hash: str) -> bool:
    """argon2's parameters were raised since this hash was made."""
    return _hasher.check_needs_rehash(password_hash)


def check_new(password: str, field: str, user_inputs: tuple[str, ...] = ()) -> None:
    """BadField naming `field` when `password` is too short, too long, or too easy to guess
    (zxcvbn's words say why); `user_inputs` (the username) count as easy to guess."""
    if len(password) < MIN_LENGTH:
        raise BadField(field, f"A password is at least {MIN_LENGTH} characters.")
    if len(password) > MAX_LENGTH:
        raise BadField(field, f"A password is at most {MAX_LENGTH} characters.")
    with _slot():
        judged = off_loop(zxcvbn.zxcvbn, password[:JUDGED_LENGTH], user_inputs=list(user_inputs))
    if judged["score"] < MIN_SCORE:
        feedback = judged["feedback"]
        words = " ".join(filter(None, [feedback["warning"], *feedback["suggestions"]]))
        raise BadField(field, f"This password is too easy to guess. {words}".strip())
