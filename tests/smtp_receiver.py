"""A real SMTP server on loopback (aiosmtpd) for the e-mail tests: it records every message it
is handed (recipients and the parsed message) and, while `stall` is set, keeps the sender
waiting for its answer to the message (as a server that hangs mid-send)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage

from aiosmtpd.controller import Controller

from api.store.embedded import free_port


@dataclasses.dataclass
class Mail:
    to: list[str]
    message: EmailMessage

    @property
    def text(self) -> str:
        return self.message.get_body(("plain",)).get_content()


class SmtpReceiver:
    def __init__(self):
        self.received: list[Mail] = []
        self.arrived = threading.Condition()
        self.stall = threading.Event()
        self.port = free_port()
        self.url = f"smtp://127.0.0.1:{self.port}"
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope):
        with self.arrived:
            self.received.append(
                Mail(
                    list(envelope.rcpt_tos),
                    message_from_bytes(envelope.original_content, policy=policy.default),
                )
            )
            self.arrived.notify_all()
        while self.stall.is_set():
            await asyncio.sleep(0.05)
        return "250 Message accepted"

    def __enter__(self) -> "SmtpReceiver":
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stall.clear()
        self.controller.stop()

    def wait_for(self, count: int, timeout_s: float) -> list[Mail]:
        """The mails received, once there are `count` of them (fewer at the timeout)."""
        end = time.monotonic() + timeout_s
        with self.arrived:
            while len(self.received) < count and time.monotonic() < end:
                self.arrived.wait(timeout=max(0.0, end - time.monotonic()))
            return list(self.received)
