"""A real local HTTP receiver for webhooks (the tests' and the benchmark's): it records every
request it gets (headers, body, when) and answers each with the next status of its script (200
once the script is spent), after stalling while `stall` is set. With `tls` (a certificate and
its key, PEM files) it speaks https."""

from __future__ import annotations

import dataclasses
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from api.store.embedded import free_port


@dataclasses.dataclass
class Received:
    headers: dict[str, str]
    body: str
    at: float


class LoopbackServer:
    """A test server on loopback that collects what it receives: started and stopped as a
    context manager; `received` filled under `arrived` by its handler; `stall` holds answers
    back while set. Subclasses make `server` (serving on `thread`) and those three."""

    server: ThreadingHTTPServer
    thread: threading.Thread
    received: list
    arrived: threading.Condition
    stall: threading.Event

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stall.clear()
        self.server.shutdown()
        self.server.server_close()

    def wait_for(self, count: int, timeout_s: float) -> list:
        """What was received, once there are `count` of them (fewer at the timeout)."""
        end = time.monotonic() + timeout_s
        with self.arrived:
            while len(self.received) < count and time.monotonic() < end:
                self.arrived.wait(timeout=max(0.0, end - time.monotonic()))
            return list(self.received)


class Receiver(LoopbackServer):
    def __init__(
        self, statuses: list[int] = (), path: str = "/hook", tls: tuple[str, str] | None = None
    ):
        self.statuses = list(statuses)
        self.received: list[Received] = []
        self.arrived = threading.Condition()
        self.stall = threading.Event()  # while set, a request waits before it is answered
        self.port = free_port()
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}{path}"
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
                with receiver.arrived:
                    receiver.received.append(
                        Received({k.lower(): v for k, v in self.headers.items()}, body, time.time())
                    )
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.arrived.notify_all()
                while receiver.stall.is_set():
                    time.sleep(0.05)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
