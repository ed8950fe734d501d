"""One test over every registered game, as OpenSpiel runs one simulation test over all of its:
seeded random playouts, with options drawn from each game's own declared ranges, in which every
listed legal move applies, every move reads back from its JSON form, the state round-trips
through JSON at every ply, every game ends within a bound, and its outcome is typed. A game added
to the registry is covered here without a line of its own."""

from __future__ import annotations

import enum
import json
import random

import pytest

from api.games import GAMES, Game, Option, Outcome, State

PLAYOUTS = 6  # per game, each with its own seed and options
MAX_PLIES = 5_000  # far past the longest game any engine allows: reaching it means one never ends
# the reasons an engine gives while `Outcome.reason` is a string (the server adds its own: resign,
# time...); once it is an enum, its members are the known set
ENGINE_REASONS = {"all-tiles-played", "no-moves", "score", "bingo", "repetition"}


def _option_value(option: Option, rng: random.Random):
    """A value the option declares it takes: any choice, any whole number in its range, either
    truth value; a JSON option keeps its default (its shape is the game's own)."""
    if option.choices:
        return rng.choice(option.choices)
    if option.kind == "bool":
        return rng.random() < 0.5
    if option.kind == "int":
        return rng.randint(option.min, option.max)
    return option.default


def _options(game: type[Game], rng: random.Random) -> dict:
    return game.check_options({o.name: _option_value(o, rng) for o in game.options})


def _round_trips(state: State) -> None:
    data = json.loads(json.dumps(state.to_dict()))
    assert data == state.to_dict()  # JSON-ready as it is: nothing a JSON document cannot hold
    assert type(state).from_dict(data) == state


def _typed(outcome: Outcome) -> None:
    assert outcome.winner in (None, 0, 1)
    assert outcome.scores is None or (
        len(outcome.scores) == 2 and all(isinstance(s, int) for s in outcome.scores)
    )
    if isinstance(outcome.reason, enum.Enum):
        assert isinstance(outcome.reason.value, str)  # the word the API shows
    else:
        assert outcome.reason in ENGINE_REASONS
    assert Outcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome


@pytest.mark.parametrize("seed", range(PLAYOUTS))
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_random_playouts_apply_every_listed_move_round_trip_and_end(slug, seed):
    play_out(slug, seed)


@pytest.mark.parametrize("seed", range(PLAYOUTS))
def test_a_game_registered_later_is_covered_too(nim, seed):
    play_out(nim.slug, seed)


def play_out(slug: str, seed: int) -> None:
    """One seeded random playout of the registered game `slug`, checked ply by ply."""
    game = GAMES[slug]
    rng = random.Random(f"{slug}:{seed}")
    options = _options(game, rng)
    first, game_seed = rng.randint(0, 1), rng.getrandbits(32)
    state = game.new(options, first, game_seed)
    assert game.new(options, first, game_seed) == state  # the same seed deals the same game
    for _ in range(MAX_PLIES):
        _round_trips(state)
        if state.is_over():
            break
        assert state.to_move in (0, 1)
        forced = state.forced_move()  # the server's own move (a pass): the seat has no other
        if forced is not None:
            state = state.apply(forced)
            continue
        moves = state.legal_moves()
        assert moves, f"{slug}: the seat to move has no legal move and no forced one"
        read = [
            game.parse_move(data)
            for data in json.loads(json.dumps([move.to_dict() for move in moves]))
        ]
        assert read == moves  # each move reads back from its JSON form as itself
        after = [state.apply(move) for move in moves]  # each applies (else IllegalMove)
        state = after[rng.randrange(len(after))]
    assert state.is_over(), f"{slug}: no end within {MAX_PLIES} plies ({options})"
    assert state.to_move is None
    _typed(state.outcome())
