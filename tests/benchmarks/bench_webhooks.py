"""Webhook latency: a move stored -> its `turn` webhook received by a local HTTP receiver, over
MOVES moves between two accounts that each registered a webhook, delivered by one real worker
(`postplay worker`, its webhook thread). Baseline, measured in the same run on the same worker:
RQ's round trip for an empty job (enqueued -> seen finished, polled the same way every 2 ms).
Prints the median and the max of each and the ratio of the medians.

Run: `make bench` (all benchmarks) or `.venv/bin/python -m tests.benchmarks.bench_webhooks`.
"""

from __future__ import annotations

import os
import statistics

import redis
from rq import Queue

from api.followups import QUEUE
from api.notify import endpoints
from api.record import Seat
from api.players import accounts as players
from api.store.accounts import AccountStore
from api.store.webhooks import WebhookStore
from tests.benchmarks.delivery import empty_jobs, moves_to_deliveries, one_worker, summary
from tests.webhook_receiver import Receiver

MOVES = int(os.environ.get("BENCH_WEBHOOK_MOVES", "100"))


def main() -> None:
    with one_worker() as client, Receiver() as receiver:
        baseline = empty_jobs(Queue(QUEUE, connection=client), MOVES)
        latency = moves_to_deliveries(client, registered(client, receiver), receiver, MOVES)
    print(f"{MOVES} moves, each told to the next mover by a webhook; one worker")
    print(summary("RQ empty job round trip (baseline)", baseline))
    print(summary("move -> webhook received", latency))
    print(
        f"median ratio to baseline {statistics.median(latency) / statistics.median(baseline):.2f}"
    )


def registered(client: redis.Redis, receiver: Receiver) -> list[Seat]:
    """Two accounts, each with a webhook for its turns at `receiver`."""
    accounts, hooks = AccountStore(client), WebhookStore(client)
    seats = []
    for name in ("bench_a", "bench_b"):
        account, token, _ = players.sign_up(accounts, name, "correct horse battery")
        endpoints.register(hooks, players.authenticate(accounts, token), receiver.url, ["turn"])
        seats.append(Seat.for_account(account["id"], name))
    return seats


if __name__ == "__main__":
    main()
