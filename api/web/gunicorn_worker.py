"""The gunicorn worker `postplay serve` runs: gunicorn's threaded worker, whose own answers (a
request line or header over its limits, a request that is not HTTP) are JSON like every other
error of the API, rather than gunicorn's HTML page. gunicorn writes them before the request
reaches Flask, through `gunicorn.util.write_error`, which this worker replaces in its process.

It freezes the garbage collector's view of everything the app loaded (`gc.freeze`): the
modules, schemas and engines are there for the process' life, yet each full collection walks
them all, with no thread of the process answering meanwhile; frozen, a full collection walks
only what requests left behind.

It keeps the idle kept-alive connections in an ordered dict rather than gunicorn's deque (see
`KeptConnections`)."""
from __future__ import annotations

import gc
import json
from collections import OrderedDict

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker

# gunicorn's request line and header limits (`--limit-request-line`, `--limit-request-fields`,
# `--limit-request-field_size`), which `postplay serve` passes
LIMIT_REQUEST_LINE = 4094
LIMIT_REQUEST_FIELDS = 100
LIMIT_REQUEST_FIELD_SIZE = 8190
# a client's connection is kept between its requests for up to 75 s (nginx's default, and
# longer than a load balancer's usual 60 s idle timeout), where gunicorn keeps it 2 s: a player
# polls every 30 s, so with 2 s every poll opened a connection, and at 10,000 players (`make
# loadtest`) the listen queue overflowed: connection attempts dropped, retried by the clients
# after 1, 3, 7... s. Each process holds up to WORKER_CONNECTIONS, an idle one costing a socket
# in its poller.
KEEPALIVE_S = 75
WORKER_CONNECTIONS = 10_000
MESSAGES = {
    400: "The request is not valid HTTP.",
    414: f"The request line is too long: the URL may be at most {LIMIT_REQUEST_LINE} bytes.",
    431: f"The request headers are too large: at most {LIMIT_REQUEST_FIELDS} of them, each at "
         f"most {LIMIT_REQUEST_FIELD_SIZE} bytes.",
    500: "The server encountered an internal error.",
}


def write_json_error(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's `write_error`, writing the API's error body `{code, status, message}`."""
    body = json.dumps({"code": status_int, "status": reason,
                       "message": MESSAGES.get(status_int, reason + ".")}).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(sock, head.encode("latin1") + body)


class KeptConnections:
    """The idle kept-alive connections of gthread's worker, oldest first, as the deque it keeps
    them in is used (append, remove, popleft, [0], iteration), but with each removal O(1): a
    connection that sends its next request is removed from the middle, and the deque's
    `remove` walks it comparing each entry. With 5,000 players' connections a process
    (`make loadtest`, 10,000 players), that walk was 3-4 % of each web process's CPU (perf),
    spent in the thread every request waits on. An OrderedDict, whose first entry is found
    without walking over the removed ones (a dict's is not)."""

    def __init__(self):
        self._conns: OrderedDict = OrderedDict()

    def append(self, conn) -> None:
        self._conns[conn] = None

    def remove(self, conn) -> None:
        try:
            del self._conns[conn]
        except KeyError:
            raise ValueError("not a kept connection") from None  # as deque.remove says it

    def popleft(self):
        return self._conns.popitem(last=False)[0]

    def __getitem__(self, index: int):
        if index != 0:
            raise IndexError("only the oldest kept connection is read by position")
        if not self._conns:
            raise IndexError("no kept connection")
        return next(iter(self._conns))

    def __iter__(self):
        return iter(list(self._conns))

    def __len__(self) -> int:
        return len(self._conns)


class JsonErrorsWorker(ThreadWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.keepalived_conns = KeptConnections()

    def init_process(self):
        util.write_error = write_json_error
        super().init_process()

    def load_wsgi(self):
        super().load_wsgi()
        gc.collect()  # what the import left as garbage goes first, not frozen with the rest
        gc.freeze()
