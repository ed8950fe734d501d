"""How a channel's sender (`api.notify.fanout.SENDERS`) says a delivery did not go: `Retry`
(for now: tried again with backoff, within the retry window) or `GiveUp` (for good: dropped).
Returning is delivered; anything else it raises is logged and retried as `Retry` is."""

from __future__ import annotations


class Undelivered(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Retry(Undelivered):
    """Not delivered, for now (a 429 or 5xx, no answer, an SMTP server away)."""


class GiveUp(Undelivered):
    """Never to be delivered (the subscription is gone, the address refuses it)."""
