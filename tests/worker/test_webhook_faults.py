"""A worker killed (kill -9) in the middle of a webhook delivery, the receiver stalling on it: the
delivery's lease runs out and another real worker makes it, under the same webhook-id, so the
event is delivered at least once."""

from __future__ import annotations

import json
import signal
import time

from standardwebhooks import Webhook

from api.notify.delivery import Policy
from tests.api.helpers import auth, move
from tests.webhook_receiver import Receiver
from tests.worker.conftest import wait_for
from tests.worker.test_webhooks import hook, two_players

TIMEOUT_S = 3.0  # the workers' per-attempt timeout: the lease is 2 * 3 + 5 s


def test_a_worker_killed_mid_delivery_leaves_it_to_another(client, start_worker, monkeypatch):
    monkeypatch.setenv("POSTPLAY_WEBHOOK_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("POSTPLAY_WEBHOOK_TIMEOUT_S", str(TIMEOUT_S))
    with Receiver() as receiver:
        ada, bob, game = two_players(client)
        endpoint = hook(client, bob, receiver.url)
        receiver.stall.set()  # the first attempt hangs until its worker is dead
        doomed = start_worker()
        move(client, game, ada, {"type": "say", "number": 4})
        assert receiver.wait_for(1, timeout_s=20), "the worker never began the delivery"
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(timeout=5)
        killed = time.monotonic()
        receiver.stall.clear()
        start_worker()
        lease_s = Policy(timeout_s=TIMEOUT_S).lease_s
        got = receiver.wait_for(2, timeout_s=lease_s + 20)
        assert len(got) == 2, "the delivery was lost with its worker"
        assert time.monotonic() - killed <= lease_s + 20
        first, second = got
        assert first.headers["webhook-id"] == second.headers["webhook-id"]
        payload = Webhook(endpoint["secret"]).verify(second.body, second.headers)
        assert payload["type"] == "turn" and payload["data"]["ply"] == 1

        def delivered():
            log = client.get(
                f"/api/v1/me/webhooks/{endpoint['id']}/deliveries", headers=auth(bob)
            ).get_json()
            return log and log[0]["outcome"] == "delivered" and log

        log = wait_for(delivered, timeout_s=10)
        assert log and log[0]["webhook_id"] == second.headers["webhook-id"]
        assert json.loads(second.body)["data"]["id"] == game["id"]
