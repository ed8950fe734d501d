"""The gunicorn worker `postplay serve` runs: gunicorn's threaded worker, whose own answers (a
request line or header over its limits, a request that is not HTTP) are JSON like every other
error of the API, rather than gunicorn's HTML page. gunicorn writes them before the request
reaches Flask, through `gunicorn.util.write_error`, which this worker replaces in its process.

It accepts up to one connection per thread each time the listening socket is ready, where
gunicorn's accepts one: players who poll every 30 seconds open a new connection for nearly
every request (a kept-alive one lasts 2 s), and with the threads busy in Python the accepting
thread gets the interpreter back only every few milliseconds, so one connection a turn left
the listen queue to overflow (the kernel then drops the connection attempts, which clients
retry only after 1, 3, 7... seconds) at a few hundred connections a second.

It also freezes the garbage collector's view of everything the app loaded (`gc.freeze`): the
modules, schemas and engines are there for the process' life, yet each full collection walks
them all, with no thread of the process answering meanwhile;
frozen, a full collection walks only what requests left behind."""
from __future__ import annotations

import gc
import json

from gunicorn import util
from gunicorn.workers.gthread import ThreadWorker

# gunicorn's request line and header limits (`--limit-request-line`, `--limit-request-fields`,
# `--limit-request-field_size`), which `postplay serve` passes
LIMIT_REQUEST_LINE = 4094
LIMIT_REQUEST_FIELDS = 100
LIMIT_REQUEST_FIELD_SIZE = 8190
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


class JsonErrorsWorker(ThreadWorker):
    def accept(self, listener):
        """gunicorn's accept, repeated while connections wait (up to one per thread, so that
        the other processes listening get their share) and the worker has room for them."""
        for _ in range(self.cfg.threads):
            if self.nr_conns >= self.worker_connections:
                return
            before = self.nr_conns
            super().accept(listener)
            if self.nr_conns == before:  # nothing was waiting
                return

    def init_process(self):
        util.write_error = write_json_error
        super().init_process()

    def load_wsgi(self):
        super().load_wsgi()
        gc.collect()  # what the import left as garbage goes first, not frozen with the rest
        gc.freeze()
