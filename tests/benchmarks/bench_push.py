"""Web Push from one real worker (`postplay worker`, its delivery thread) to a local push service
(tests/push_service.py, which checks each push's VAPID JWT and decrypts it as a browser would).

1. Latency: a move stored -> its `turn` push received and decrypted, over MOVES moves between two
   accounts that each subscribed a device. Baseline, in the same run on the same worker: RQ's
   round trip for an empty job (enqueued -> seen finished, polled every 2 ms). Prints the medians
   and their ratio (the goal: at most 1.5).
2. Throughput: FANOUT `turn` events written to the outbox at once for an account with one
   device, fanned out and pushed by the one worker; deliveries per second, against the push
   service's own ceiling: the same encrypted push POSTed to it from as many threads as the worker
   sends with (POSTPLAY_WEBHOOK_THREADS, 4), measured in the same run.

Run: `make bench` (all benchmarks) or `.venv/bin/python -m tests.benchmarks.bench_push`
(BENCH_PUSH_MOVES, BENCH_PUSH_FANOUT to change the counts).
"""

from __future__ import annotations

import json
import os
import statistics
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import redis
import requests
from pywebpush import WebPusher
from rq import Queue

from api.followups import QUEUE, RQFollowups
from api.notify import push
from api.notify.delivery import Policy
from api.notify.events import GAME_EVENTS
from api.play import service
from api.players import accounts as players
from api.record import Seat
from api.store import keys
from api.store.accounts import AccountStore
from api.store.games import GameStore
from api.store.notices import NoticeStore
from tests.benchmarks.delivery import (
    TIMEOUT_S,
    empty_jobs,
    moves_to_deliveries,
    one_worker,
    summary,
)
from tests.push_service import PushService

MOVES = int(os.environ.get("BENCH_PUSH_MOVES", "100"))
FANOUT = int(os.environ.get("BENCH_PUSH_FANOUT", "10000"))


def main() -> None:
    with one_worker() as client:
        notices = NoticeStore(client)
        with PushService(push.public_key(notices)) as service_:
            baseline = empty_jobs(Queue(QUEUE, connection=client), MOVES)
            seats = [subscribed(client, service_, name) for name in ("bench_a", "bench_b")]
            latency = moves_to_deliveries(client, seats, service_, MOVES)
            print(f"{MOVES} moves, each pushed to the next mover's device; one worker")
            print(summary("RQ empty job round trip (baseline)", baseline))
            print(summary("move -> push received, decrypted", latency))
            print(
                f"median ratio to baseline "
                f"{statistics.median(latency) / statistics.median(baseline):.2f}"
            )
            rate = fan_out(client, service_, FANOUT)
            ceiling = service_ceiling(service_, notices, FANOUT // 5)
        print(
            f"{FANOUT} pushes fanned out and sent by one worker: {rate:,.0f} deliveries/s; "
            f"the push service's own ceiling {ceiling:,.0f}/s; ratio {rate / ceiling:.2f}"
        )


def subscribed(client: redis.Redis, service_: PushService, name: str) -> Seat:
    accounts = AccountStore(client)
    account, token, _ = players.sign_up(accounts, name, "correct horse battery")
    device = service_.browser(name)
    push.subscribe(
        NoticeStore(client),
        players.authenticate(accounts, token),
        device.subscription(service_),
        name,
    )
    return Seat.for_account(account["id"], name)


def fan_out(client: redis.Redis, service_: PushService, count: int) -> float:
    """Deliveries per second of `count` turn events, written to the outbox at once."""
    seat = subscribed(client, service_, "bench_fan")
    opponent = Seat.for_account(uuid.uuid4().hex, "bench_other")
    record, _ = service.create_game(
        GameStore(client, GAME_EVENTS),
        RQFollowups(client),
        "factor-multiple",
        {"n": 200},
        [opponent, seat],
        first=0,
    )
    body = json.dumps(
        {
            "type": "turn",
            "timestamp": "",
            "data": {
                "id": record.id,
                "kind": "factor-multiple",
                "seats": [
                    {"name": "bench_other", "player": "bench_other"},
                    {"name": "bench_fan", "player": "bench_fan"},
                ],
            },
        }
    )
    before = len(service_.received)
    with client.pipeline(transaction=False) as pipe:
        for _ in range(count):
            pipe.xadd(
                keys.outbox_key(),
                {
                    "event": json.dumps(
                        {
                            "id": f"msg_{uuid.uuid4().hex}",
                            "type": "turn",
                            "account": seat.account,
                            "game": record.id,
                            "ts": time.time(),
                            "body": body,
                        }
                    )
                },
            )
        started = time.time()
        pipe.execute()
    got = service_.wait_for(before + count, timeout_s=count / 10)
    if len(got) < before + count or any(p.error for p in got[before:]):
        raise RuntimeError(f"{before + count - len(got)} pushes did not arrive whole")
    return count / (got[-1].at - started)


def service_ceiling(service_: PushService, notices: NoticeStore, count: int) -> float:
    """Pushes per second the push service takes (verified and decrypted), sent to it from as
    many threads as a worker sends with: one push encrypted and signed as the worker makes it
    (pywebpush, handed a session that keeps the request instead of sending it), POSTed `count`
    times, each on a new connection as the worker makes them."""
    sub = service_.browser("ceiling").subscription(service_)
    delivery = {
        "msg": "msg_ceiling",
        "type": "turn",
        "game": "g",
        "title": "Ploid",
        "text": "Your move against Ada (Ploid)",
        "url": "/#/game/g",
    }
    kept = {}

    class Keep(requests.Session):
        def post(self, url, data=None, headers=None, **kwargs):
            kept.update(url=url, data=data, headers=dict(headers))
            answer = requests.Response()
            answer.status_code = 201
            return answer

    claims = {"sub": push.subject(), "aud": service_.origin, "exp": int(time.time()) + 3600}
    with Keep() as session:
        WebPusher(sub, requests_session=session).send(
            push.payload(delivery),
            {**push.vapid(notices).sign(claims), "Topic": push.topic("msg_ceiling")},
            ttl=60,
        )
    before = len(service_.received)

    def one(_):
        requests.post(
            kept["url"], data=kept["data"], headers=kept["headers"], timeout=TIMEOUT_S
        ).close()

    started = time.time()
    with ThreadPoolExecutor(Policy.from_env().threads) as pool:
        list(pool.map(one, range(count)))
    took = time.time() - started
    got = service_.received[before:]
    if len(got) < count or any(p.error for p in got):
        raise RuntimeError("the push service did not take every push")
    return count / took


if __name__ == "__main__":
    main()
