"""Partition's endgame search in C (api/bots/_partition_endgame.c) against the Python
`endgame_search`, its reference: the same action, value and completeness from the endgames of
bot games, and the same clock reads up to a deadline."""

from __future__ import annotations

import itertools
import random
import signal

import pytest

import api.bots.partition as bots
from api.bots import _partition_endgame, clock
from api.bots.match import play_game
from api.games.partition import Claim, Partition, Subdivide
from tests.unit.test_partition import around, position


def endgames(lo: int, hi: int, options: dict, seeds, levels=("medium", "medium")):
    """Every position of bot games with `lo` to `hi` open hexes (the bots here use no clock, so
    the games are the same every run)."""
    for seed in seeds:
        record = play_game("partition", options, levels, seed=seed, budget_s=0.01)
        state = Partition.new(Partition.check_options(options), record.first, seed)
        for _, move in record.history:
            if lo <= state.open_size <= hi:
                yield state
            state = state.apply(move)


def both(state, deadline=float("inf")):
    """Each search's answer (or its exception's type) from empty tables."""
    answers = []
    for search in (bots.endgame_search, bots.native_endgame_search):
        bots.clear_endgame_tables()
        try:
            answers.append(search(state, deadline))
        except TimeoutError as error:
            answers.append(type(error))
    return answers


def kinds(state) -> set[str]:
    """What the search may try here: equal splits (a part to close), final splits, claims,
    subdivisions."""
    found = set()
    for move, _ in bots.endgame_moves(state):
        if isinstance(move, Claim):
            found.add("claim")
        elif isinstance(move, Subdivide):
            found.add("subdivision")
        elif move.close is not None:
            found.add("equal split")
        elif (
            side := state.open_edges.bridges.get(move.edge)
        ) and 2 * side.bit_count() == state.open_size:
            found.add("final split")
    return found


GAMES = [
    ({}, ("medium", "medium")),
    ({}, ("beginner", "medium")),
    ({"singleton_rule": False}, ("medium", "beginner")),
]


def test_the_c_search_answers_as_the_python_one_on_the_endgames_of_bot_games():
    compared, seen = 0, set()
    for options, levels in GAMES:
        for state in endgames(2, 10, options, range(12), levels):
            python, native = both(state)
            assert native == python, state.to_dict()
            compared += 1
            seen |= kinds(state)
    assert compared > 200
    assert seen >= {"claim", "subdivision", "final split"}


def test_the_c_search_answers_as_the_python_one_where_an_equal_split_names_its_part():
    # an equal split that does not end the game needs parts of 6: 12 open hexes or more
    splits = (state for state in endgames(12, 12, {}, range(12)) if "equal split" in kinds(state))
    for state in itertools.islice(splits, 2):
        python, native = both(state)
        assert native == python, state.to_dict()


def counted(search, state, deadline: float, monkeypatch) -> tuple:
    """`search`'s answer (or TimeoutError) from an empty table on a counting clock, each read
    one tick after the last, and the reads it made."""
    bots.clear_endgame_tables()
    ticks = itertools.count()
    monkeypatch.setattr(clock, "_now", lambda: float(next(ticks)))
    try:
        answer = search(state, deadline)
    except TimeoutError:
        answer = TimeoutError
    return answer, next(ticks)


def test_the_c_search_reads_the_clock_where_the_python_one_does(monkeypatch):
    # each search runs out of time at the same node for the same deadline: it raises
    # TimeoutError, or returns the draw proved by then (incomplete), or finishes
    seen = set()
    for state in endgames(9, 11, {}, range(12)):
        reads = counted(bots.native_endgame_search, state, float("inf"), monkeypatch)[1]
        for deadline in range(-1, reads + 1, max(1, reads // 16)):
            python, native = (
                counted(search, state, deadline, monkeypatch)
                for search in (bots.endgame_search, bots.native_endgame_search)
            )
            assert native == python
            seen.add(TimeoutError if python[0] is TimeoutError else python[0][1])
        if len(seen) == 3:
            break
    assert seen == {TimeoutError, False, True}


def test_a_position_solved_before_is_answered_from_the_c_table_out_of_time():
    state = next(endgames(9, 9, {}, range(12)))
    bots.clear_endgame_tables()
    proved = bots.native_endgame_search(state, float("inf"))
    assert _partition_endgame.entries() > 0
    assert bots.native_endgame_search(state, float("-inf")) == proved
    bots.clear_endgame_tables()
    assert _partition_endgame.entries() == 0
    with pytest.raises(TimeoutError):
        bots.native_endgame_search(state, float("-inf"))


def test_the_clocks_exception_reaches_the_caller(monkeypatch):
    def broken():
        raise RuntimeError("no clock")

    monkeypatch.setattr(clock, "_now", broken)
    bots.clear_endgame_tables()
    state = position(around(0, 1, 2, 6, 7, 8), open_at=0)
    with pytest.raises(RuntimeError, match="no clock"):
        bots.native_endgame_search(state, 0.0)


def test_a_signal_handlers_exception_stops_the_c_search():
    # a worker's job timeout and Ctrl-C arrive as signals: the search, which holds the
    # interpreter, lets their handlers run as it reads the clock
    def alarm(signum, frame):
        raise RuntimeError("alarm")

    state = next(endgames(20, 22, {}, range(12)))  # far beyond what the search finishes in 0.1 s
    bots.clear_endgame_tables()
    previous = signal.signal(signal.SIGALRM, alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.1)
        with pytest.raises(RuntimeError, match="alarm"):
            bots.native_endgame_search(state, float("inf"))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_the_c_search_turns_down_a_finished_game_and_a_malformed_state():
    state = Partition.new(Partition.check_options({}), first=0, seed=3)
    rng = random.Random(3)
    while not state.is_over():
        state = state.apply(rng.choice(state.legal_moves()))
    with pytest.raises(ValueError, match="over"):
        _partition_endgame.search(state, 0.0, clock.now)
    with pytest.raises(AttributeError):
        _partition_endgame.search(object(), 0.0, clock.now)
