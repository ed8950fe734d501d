"""`postplay run`'s supervisor: start the pieces in order, restart any that dies (with a growing
wait if it keeps dying, and a line saying why), and stop them all in reverse order on Ctrl-C.

Hand-written rather than a supervisord config: the pieces are three kinds of our own process on
one machine, the embedded default must need nothing installed beyond the venv, and what it does
(order, backoff, process groups) fits in a page.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

FIRST_BACKOFF_S = 1.0
MAX_BACKOFF_S = 30.0
STABLE_S = 60.0  # a piece that ran this long before dying is restarted at once
POLL_S = 0.2
STOP_TIMEOUT_S = 10.0


@dataclasses.dataclass
class Child:
    name: str
    argv: list[str]
    log: Path | None = None  # where its output goes (default: this terminal)
    proc: subprocess.Popen | None = None
    started: float = 0.0
    backoff: float = FIRST_BACKOFF_S
    restart_at: float | None = None

    def start(self) -> None:
        out = open(self.log, "ab") if self.log else None
        # a session of its own: Ctrl-C reaches only the supervisor, which stops the pieces in
        # order; and the piece's whole group (a worker's horse) can be ended with it
        self.proc = subprocess.Popen(
            self.argv, stdout=out, stderr=subprocess.STDOUT if out else None, start_new_session=True
        )
        self.started = time.monotonic()
        self.restart_at = None

    def kill_group(self, sig: int) -> None:
        assert self.proc is not None  # only a started piece is killed
        try:
            os.killpg(self.proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def supervise(children: list[Child], banner: str, ready=None) -> int:
    """Run `children` until SIGINT/SIGTERM. `ready(child)` is waited for after each start (the
    embedded Redis answering) before the next piece starts."""
    stopping = False

    def stop(*_):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    for child in children:
        child.start()
        if ready is not None:
            ready(child)
    print(banner, flush=True)
    while not stopping:
        now = time.monotonic()
        for child in children:
            if child.restart_at is not None:
                if now >= child.restart_at:
                    say(f"restarting {child.name}")
                    child.start()
                continue
            assert child.proc is not None  # every piece started before the loop
            code = child.proc.poll()
            if code is None:
                continue
            child.kill_group(signal.SIGKILL)  # whatever it left behind in its group
            if now - child.started >= STABLE_S:
                child.backoff = FIRST_BACKOFF_S
            say(
                f"{child.name} (pid {child.proc.pid}) {_how(code)}; restarting in "
                f"{child.backoff:.0f} s"
            )
            child.restart_at = now + child.backoff
            child.backoff = min(child.backoff * 2, MAX_BACKOFF_S)
        time.sleep(POLL_S)
    for child in reversed(children):  # the web first, the Redis last
        if child.proc is None or child.proc.poll() is not None:
            continue
        child.proc.terminate()
        try:
            child.proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            child.kill_group(signal.SIGKILL)
            child.proc.wait()
    say("stopped")
    return 0


def say(line: str) -> None:
    print(f"postplay: {line}", file=sys.stderr, flush=True)


def _how(code: int) -> str:
    if code < 0:
        return f"was killed by {signal.Signals(-code).name}"
    return f"exited with status {code}"
