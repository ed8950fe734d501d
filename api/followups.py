"""The follow-up jobs a change calls for: a bot's move when a server bot is to move (or its answer
when an offer waits for it: the same job answers first) and the rating job when a rated game
ended, put on an RQ queue by `after_change`, and analyses on request (on a queue of their own). Deadlines and background
rules need no job: the store writes them due with the record itself, and every worker's background thread runs them
(`api.play.background`). Jobs carry what they expect (the ply), so a stale or duplicated job is a
no-op; one that is lost is enqueued again by the reconciler. The jobs run in `worker.jobs`.
"""

from __future__ import annotations

import logging
import os
import time

import redis
from rq import Queue, Retry

from api.record import GameRecord, Status
from api.store import keys
from api.store.puzzles import PuzzleStore

log = logging.getLogger(__name__)

QUEUE = "postplay"  # a player waits: bot replies to people, ratings
# analyses, games between two server bots, then playtests: served after the players' queue, and
# never by the worker kept for players, so that no player's bot waits behind a batch or a long
# game's analysis (about 90 s of CPU at the default think time)
ANALYSIS_QUEUE = "postplay-analysis"
BOT_GAMES_QUEUE = "postplay-bot-games"
PLAYTEST_QUEUE = "postplay-playtests"
QUEUES = (QUEUE, ANALYSIS_QUEUE, BOT_GAMES_QUEUE, PLAYTEST_QUEUE)
PLAYER_QUEUES = (QUEUE,)
# how long a requested analysis of a position may take before a new request asks again (a
# whole game's holds its place in its client's budget: `api.analysis`)
ANALYSIS_WAIT_S = 120
ANALYSIS_TIMEOUT_S = 1800
# a finished game's mining: enqueued once a day at most; the most it may take
MINING_WAIT_S = 86400
MINING_TIMEOUT_S = 1800


def mining_on() -> bool:
    """Whether finished games and playtest games are mined for puzzles (POSTPLAY_PUZZLE_MINING,
    on unless "off")."""
    return os.environ.get("POSTPLAY_PUZZLE_MINING", "on") != "off"


# a bot move whose job raised, or whose work-horse died, is retried at once this often (a job
# lost with its whole worker is the reconciler's)
BOT_MOVE_RETRIES = 2


def bot_job_id(record: GameRecord) -> str:
    """The job a bot owes the game as it stands: its move at this ply, or its answer to the
    offers of this version (a new offer at the same ply is a new job)."""
    if record.bot_to_answer is not None:
        return f"bot-{record.id}-{record.ply}-v{record.version}"
    return f"bot-{record.id}-{record.ply}"


def ratings_job_id(game_id: str) -> str:
    return f"ratings-{game_id}"


def mining_job_id(game_id: str) -> str:
    return f"mine-{game_id}"


class RQFollowups:
    def __init__(self, client: redis.Redis):
        self.queue = Queue(QUEUE, connection=client)
        self.bot_games_queue = Queue(BOT_GAMES_QUEUE, connection=client)
        self.analysis_queue = Queue(ANALYSIS_QUEUE, connection=client)

    def after_change(self, record: GameRecord) -> None:
        """Enqueue the bot's move (or answer) if a bot is to act, and the rating job when a rated
        game ended. The change is already stored, so a failure here is logged, never raised: the
        reconciler finds the job in the store's indexes and enqueues it."""
        try:
            if record.bot_to_act is not None:
                self.enqueue_bot_move(record)
            if record.rating_due:
                self.enqueue_ratings(record.id)
            if record.status is Status.FINISHED:
                self.enqueue_mining(record.id)
        except redis.RedisError:
            log.exception(
                "could not enqueue the jobs of %s at ply %d; the reconciler will",
                record.id,
                record.ply,
            )

    def enqueue_bot_move(self, record: GameRecord) -> None:
        queue = self.bot_games_queue if record.all_bots else self.queue
        job = "worker.jobs.bot_answer" if record.bot_to_answer else "worker.jobs.bot_move"
        queue.enqueue(
            job,
            record.id,
            record.ply,
            job_id=bot_job_id(record),
            retry=Retry(max=BOT_MOVE_RETRIES),
            result_ttl=60,
            failure_ttl=86400,
        )

    def enqueue_ratings(self, game_id: str) -> None:
        self.queue.enqueue(
            "worker.jobs.rate",
            game_id,
            job_id=ratings_job_id(game_id),
            retry=Retry(max=BOT_MOVE_RETRIES),
            result_ttl=60,
            failure_ttl=86400,
        )

    def enqueue_mining(self, game_id: str, again: bool = False) -> None:
        """Mine a finished game's puzzles on the playtest queue (`worker.learn`), once: the job
        itself skips a game mined already, so a repeat does nothing. The game is noted as owed
        its mining until the job ends, so that the reconciler enqueues it `again` if the job
        dies with its worker."""
        if not mining_on():
            return
        job_id = mining_job_id(game_id)
        connection = self.queue.connection
        PuzzleStore(connection).owe_mining(game_id, time.time())
        if again or connection.set(keys.pending_key(job_id), 1, nx=True, ex=MINING_WAIT_S):
            Queue(PLAYTEST_QUEUE, connection=self.queue.connection).enqueue(
                "worker.learn.mine_game",
                game_id,
                job_id=job_id,
                result_ttl=60,
                failure_ttl=3600,
                job_timeout=MINING_TIMEOUT_S,
            )

    def request_analysis(self, game_id: str, ply: int) -> None:
        """Analyse the position at `ply` on a worker; repeated requests meanwhile add nothing."""
        job_id = f"analysis-{game_id}-{ply}"
        if self.queue.connection.set(keys.pending_key(job_id), 1, nx=True, ex=ANALYSIS_WAIT_S):
            self.analysis_queue.enqueue(
                "worker.jobs.analyse",
                game_id,
                ply,
                job_id=job_id,
                result_ttl=60,
                failure_ttl=3600,
                job_timeout=ANALYSIS_TIMEOUT_S,
            )

    def request_game_analysis(self, game_id: str, ply: int, key: str, client: str) -> None:
        """Analyse every move of the game up to `ply` on a worker, cached under `key` (the
        caller has taken its place in `client`'s budget: one job per key)."""
        self.analysis_queue.enqueue(
            "worker.jobs.analyse_game",
            game_id,
            ply,
            key,
            client,
            job_id=f"analysis-game-{key}",
            result_ttl=60,
            failure_ttl=3600,
            job_timeout=ANALYSIS_TIMEOUT_S,
        )
