"""A TCP proxy on loopback between a worker and the test's Redis that, once a reply from Redis
carries `trigger`, passes that reply on and then freezes every connection through it: the
worker is left waiting on Redis mid-step, holding whatever it had just claimed, for the test
to kill it there."""

from __future__ import annotations

import socket
import threading

from api.store.embedded import free_port


class FreezingProxy:
    def __init__(self, upstream_port: int, trigger: bytes):
        self.upstream_port, self.trigger = upstream_port, trigger
        self.frozen = threading.Event()
        self.port = free_port()
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.sockets: list[socket.socket] = [self.listener]
        self.closed = threading.Event()

    def __enter__(self) -> FreezingProxy:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.closed.set()
        for sock in self.sockets:
            try:
                sock.close()
            except OSError:
                pass

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            far = socket.create_connection(("127.0.0.1", self.upstream_port))
            self.sockets += [near, far]
            threading.Thread(target=self._pump, args=(near, far, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(far, near, True), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, from_redis: bool) -> None:
        try:
            while data := source.recv(65536):
                if self.frozen.is_set():
                    self.closed.wait()  # held: nothing more passes either way
                    return
                sink.sendall(data)
                if from_redis and self.trigger in data:
                    self.frozen.set()
        except OSError:
            return
