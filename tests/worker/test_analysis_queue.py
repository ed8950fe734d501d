"""Analyses wait on a queue of their own, which the worker kept for players never serves: a
person's bot replies while 20 whole-game analyses are queued, each from another client."""

from __future__ import annotations

from rq import Queue, Worker
from rq.registry import StartedJobRegistry

from api.followups import ANALYSIS_QUEUE, QUEUE
from tests.api.helpers import create, move
from tests.worker.conftest import wait_for

ANALYSES = 20
ANALYSIS_BUDGET_S = 2.0  # each analysis is one position at this think time: 40 s of work in all
BOT_BUDGET_S = 0.2
# a generous bound on the bot's reply (it takes about BOT_BUDGET_S): a correctness bound on a
# loaded machine, not a measure of speed
REPLY_WITHIN_S = 30


def test_a_persons_bot_replies_while_twenty_whole_game_analyses_are_queued(
    client, redis_client, start_worker, monkeypatch
):
    monkeypatch.setenv("POSTPLAY_ANALYSIS_BUDGET_S", str(ANALYSIS_BUDGET_S))
    players = start_worker(budget_s=BOT_BUDGET_S, role="players")
    start_worker(budget_s=BOT_BUDGET_S, role="all")
    for i in range(ANALYSES):
        game = create(
            client, kind="ploid", first=0, seats=[{"human": {"name": "Ada"}}, {"bot": "beginner"}]
        )
        asked = client.get(
            f"/api/v1/games/{game['id']}/analysis/plies",
            environ_base={"REMOTE_ADDR": f"10.0.1.{i}"},
        )
        assert asked.status_code == 202, asked.get_json()
    analyses = Queue(ANALYSIS_QUEUE, connection=redis_client)
    assert wait_for(lambda: StartedJobRegistry(queue=analyses).count, timeout_s=15)

    person = create(client, first=0, seats=[{"human": {"name": "Bo"}}, {"bot": "greedy"}])
    move(client, person, person["tokens"]["0"], {"type": "say", "number": 98})
    replied = wait_for(
        lambda: client.get(f"/api/v1/games/{person['id']}").get_json()["ply"] == 2,
        timeout_s=REPLY_WITHIN_S,
    )
    assert replied, "the bot did not reply"
    # some analyses not even started: the bot did not wait behind them
    assert analyses.count > 0, "the analyses were all done first: the test proved nothing"
    served = {w.pid: w.queue_names() for w in Worker.all(connection=redis_client)}
    assert served[players.pid] == [QUEUE]
