"""The matching solver against brute-force game-tree search, and its matching against networkx."""

import dataclasses
import doctest
import json
import random

import networkx as nx
import pytest

import api.bots.fm_solver as fm_solver
from api.bots.fm_solver import UNMATCHED, Position, alternating_forest, analyse, analyse_by_search
from api.games.factor_multiple import FactorMultiple, Say


def start(n, even_start=True):
    # the engine's option range starts at 10; the solver and the table go down to n = 2
    options = FactorMultiple.check_options({"even_start": even_start})
    return dataclasses.replace(FactorMultiple.new(options, first=0, seed=0), n=n)


def random_game(rng, n, even_start):
    """Every position of one random game, the finished one included."""
    state = start(n, even_start)
    positions = [state]
    while not state.is_over():
        state = state.apply(Say(rng.choice(state.legal_numbers())))
        positions.append(state)
    return positions


def test_docstring_examples():
    assert doctest.testmod(fm_solver).failed == 0


def test_analysis_is_json_ready_and_lists_every_legal_move():
    state = start(100).apply(Say(58))
    result = analyse(state)
    assert json.loads(json.dumps(result)) == result
    assert [m["number"] for m in result["moves"]] == state.legal_numbers() == [1, 2, 29]
    assert result["moves"][0]["move"] == {"type": "say", "number": 1}
    assert result["to_move_wins"] == any(m["wins"] for m in result["moves"])


def test_a_finished_game_is_lost_for_the_seat_to_move():
    state = start(100)
    for k in (98, 49, 7, 77, 11, 55, 1, 97):
        state = state.apply(Say(k))
    assert analyse(state) == {"to_move_wins": False, "moves": []}


def check_forest(seed, sizes):
    """Against networkx: the same matching size, and D exactly as defined (v in D iff removing v
    keeps the maximum matching size), on random graphs rich in odd cycles."""
    rng = random.Random(seed)
    size = rng.randint(*sizes)
    edge_chance = rng.choice([0.1, 0.2, 0.35]) * min(1, 24 / size)  # sparse when large
    graph = nx.gnp_random_graph(size, edge_chance, seed=seed)
    nu = len(nx.max_weight_matching(graph, maxcardinality=True))
    expected = [
        len(nx.max_weight_matching(graph.subgraph(set(graph) - {v}), maxcardinality=True)) == nu
        for v in graph
    ]
    mate = [UNMATCHED] * size
    uncoverable = alternating_forest([list(graph[v]) for v in range(size)], mate)
    assert all(
        mate[v] == UNMATCHED or (mate[mate[v]] == v and graph.has_edge(v, mate[v]))
        for v in range(size)
    )
    assert sum(m != UNMATCHED for m in mate) == 2 * nu
    assert uncoverable == expected


@pytest.mark.parametrize("seed", range(200))
def test_forest_gives_a_maximum_matching_and_its_uncoverable_vertices(seed):
    check_forest(seed, (1, 24))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_forest_on_larger_graphs(seed):
    check_forest(seed, (40, 80))


@pytest.mark.parametrize("even_start", [True, False])
@pytest.mark.parametrize("n", range(2, 25))
def test_opening_matches_search_small(n, even_start):
    state = start(n, even_start)
    assert analyse(state) == analyse_by_search(state)


@pytest.mark.slow
@pytest.mark.parametrize("even_start", [True, False])
@pytest.mark.parametrize("n", range(25, 41))
def test_opening_matches_search_up_to_40(n, even_start):
    state = start(n, even_start)
    assert analyse(state) == analyse_by_search(state)


def check_games(seed, games):
    rng = random.Random(seed)
    for _ in range(games):
        for state in random_game(rng, rng.randint(2, 30), rng.random() < 0.5):
            assert analyse(state) == analyse_by_search(state), state.to_dict()


@pytest.mark.parametrize("seed", range(4))
def test_every_position_of_random_games_matches_search(seed):
    check_games(seed, games=10)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 110))
def test_every_position_of_many_random_games_matches_search(seed):
    check_games(seed, games=30)


@pytest.mark.parametrize("seed", range(6))
def test_opponent_replies_agree_with_the_analysis_after_the_move(seed):
    rng = random.Random(seed)
    for state in random_game(rng, rng.randint(10, 80), True)[:-1]:
        position = Position(state)
        for k in position.moves:
            after = analyse(state.apply(Say(k)))
            assert position.opponent_replies(k) == (
                len(after["moves"]),
                sum(m["wins"] for m in after["moves"]),
            )
            assert position.reply_count(k) == len(after["moves"])
