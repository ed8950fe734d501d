"""Ploid bots: every level plays only legal moves; perfect never does worse than the solver says."""

from __future__ import annotations

import random

import pytest

import api.bots.ploid as ploid_bots
from api.bots.base import accepts_draw, choose_move, levels, unavailable
from api.bots import clock
from api.bots.match import play_game
from api.bots.search import step
from api.bots.ploid_solver import Solver, place_move
from api.games.ploid import Place, Ploid, PloidState

LEVELS = ("beginner", "medium", "advanced", "perfect")


def start(n: int, first: int = 0) -> PloidState:
    return Ploid.new(Ploid.check_options({"n": n}), first=first, seed=0)


def test_all_four_levels_are_registered():
    assert set(levels("ploid")) == set(LEVELS)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_to_the_end(level):
    rng = random.Random(7)
    for n in (2, 3) if level == "perfect" else (2, 4):
        state = start(n)
        while not state.is_over():
            mover = state.to_move
            move = (
                choose_move(state, level, rng, 0.05)
                if mover == 0
                else rng.choice(state.legal_moves())
            )
            assert move in state.legal_moves()
            state = step(state, move)


def test_perfect_never_loses_on_n2():
    # The solver proves n = 2 a draw, so perfect play keeps at least a draw from either seat.
    for seed in range(8):
        for levels_ in (("perfect", "beginner"), ("beginner", "perfect")):
            record = play_game("ploid", {"n": 2}, levels_, seed, first=seed % 2, budget_s=0.05)
            perfect_seat = levels_.index("perfect")
            assert record.outcome.winner in (None, perfect_seat)


@pytest.mark.parametrize("seed", range(6))
def test_perfect_never_loses_on_n3_whatever_the_budget(seed):
    # n = 3 is a proved draw; a tiny budget must not make perfect guess (its openings are booked)
    rival = ("beginner", "medium", "advanced")[seed % 3]
    levels_ = ("perfect", rival) if seed % 2 == 0 else (rival, "perfect")
    record = play_game("ploid", {"n": 3}, levels_, seed, first=(seed // 2) % 2, budget_s=0.01)
    assert record.outcome.winner in (None, levels_.index("perfect"))


def test_perfect_is_offered_only_on_solved_boards():
    assert unavailable("ploid", "perfect", {"n": 3}) is None
    assert "n = 3" in unavailable("ploid", "perfect", {"n": ploid_bots.PERFECT_MAX_N + 1})
    assert unavailable("ploid", "advanced", {"n": 8}) is None


def test_perfect_accepts_a_draw_only_where_the_solver_proves_one():
    empty = start(3)
    assert accepts_draw(empty, "perfect")  # n = 3 is a draw from the start
    assert not accepts_draw(empty, "advanced")  # every other bot declines
    values = set()
    for placement in empty.legal_placements():  # Black to move after each White opening
        child = empty.apply(place_move(empty, *placement))
        value = ploid_bots.proven_value(child)
        values.add(value)
        assert accepts_draw(child, "perfect") is (value == 0)
    assert 0 in values and values - {0}  # some openings lose: no draw is accepted there
    later = step(
        step(step(step(empty, Place(1, 1, 3)), Place(0, 0, 2)), Place(2, 3, 1)), Place(2, 0, 3)
    )  # past the book: a fresh solve decides
    assert ploid_bots.proven_value(later) == Solver(3).value(later)
    assert accepts_draw(later, "perfect") is (Solver(3).value(later) == 0)


def medium_game_position(n: int, empties: int, seed: int) -> PloidState:
    """The first position of a game between two medium bots with at most `empties` empty cells."""
    rng, state = random.Random(seed), start(n, first=seed % 2)
    while state.board.count(0) > empties and not state.is_over():
        state = step(state, ploid_bots.medium(state, rng, 1.0))
    return state


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def test_placement_verdict_is_the_sign_of_the_solved_value_and_wins_whether_it_is_positive():
    solver, exact = Solver(3), Solver(3)
    for seed in range(4):
        state = medium_game_position(3, 7, seed)
        for placement in state.legal_placements():
            value = -exact.value(state.apply(place_move(state, *placement)))
            assert solver.placement_verdict(state, placement) == sign(value)
            assert solver.placement_wins(state, placement) == (value > 0)


def test_the_endgame_solve_reports_the_verdicts_it_proved():
    state = medium_game_position(5, 18, 1)
    proven: dict = {}
    verdict, placement = ploid_bots.solved_choice(state, random.Random(0), clock.now() + 20, proven)
    assert proven[placement] == verdict
    for proved, proved_verdict in proven.items():
        child = state.apply(place_move(state, *proved))
        assert proved_verdict == sign(-Solver(5).value(child))


def test_the_search_leaves_out_the_placements_it_is_told_to_avoid():
    state = medium_game_position(5, 24, 0)
    search = ploid_bots.Search(5, clock.now() + 20, 6, random.Random(0))
    _, first = search.best(state, 2)
    _, second = search.best(state, 2, {first})
    assert second != first and second in state.legal_placements()


@pytest.mark.parametrize("seed", range(3))
def test_advanced_plays_the_solved_verdict_in_the_endgame(seed):
    state = medium_game_position(5, 18, seed)
    assert ploid_bots.in_endgame(state)
    score, placement, exact = ploid_bots.advanced_choice(state, random.Random(seed), 20.0)
    verdict = sign(Solver(5).value(state))
    assert exact and score == ploid_bots.WIN * verdict
    assert sign(-Solver(5).value(state.apply(place_move(state, *placement)))) == verdict


def test_in_a_drawn_endgame_advanced_keeps_the_draw_it_judges_best():
    # where perfect play draws, the opponent may still go wrong: of the placements that keep
    # the draw, advanced plays the one its judgement likes best, not any
    solver = Solver(3)
    for seed in range(40):
        state = medium_game_position(3, 7, seed)
        verdicts = {p: solver.placement_verdict(state, p) for p in state.legal_placements()}
        judged = {
            (i, v): score
            for score, (i, v, _) in ploid_bots.Search.judged_moves(
                3, state.board, state.mover, state.last_number
            )
        }
        drawing = [p for p, verdict in verdicts.items() if verdict == 0]
        if max(verdicts.values()) == 0 and len({judged[p] for p in drawing}) > 1:
            break
    else:
        pytest.fail("no drawn position with a choice of drawing placements")
    verdict, placement = ploid_bots.solved_choice(state, random.Random(0), clock.now() + 20)
    assert verdict == 0 and placement in drawing
    assert judged[placement] == max(judged[p] for p in drawing)


def test_where_it_cannot_win_advanced_keeps_the_verdict_where_its_opponent_slips_most():
    # of the placements that keep a draw (or a loss), advanced plays the one whose opponent's
    # best-looking replies, then all replies, leave it the best verdicts on average
    solver = Solver(3)
    for seed in range(10):
        state = medium_game_position(3, 8, seed)
        verdicts = {p: solver.placement_verdict(state, p) for p in state.legal_placements()}
        verdict = max(verdicts.values())
        chances = {
            p: ploid_bots.slip_chances(state.apply(place_move(state, *p)), verdict, solver, None)
            for p, v in verdicts.items()
            if v == verdict
        }
        if verdict < 1 and len(set(chances.values())) > 1:
            break
    else:
        pytest.fail("no drawn or lost position where the opponent's chances to slip differ")
    solved, default = ploid_bots.solved_choice(state, random.Random(0), clock.now() + 20)
    placement = ploid_bots.likeliest_slip(state, solved, default, {}, clock.now() + 20)
    assert solved == verdict and verdicts[placement] == verdict
    assert chances[placement] == max(chances.values())
    assert placement != default  # (here the judgement alone prefers a worse trap)
    # the mean over all replies is that of the replies' exact values, seen from the mover
    child = state.apply(place_move(state, *placement))
    replies = [child.apply(place_move(child, *p)) for p in child.legal_placements()]
    exact = [sign(Solver(3).value(after)) for after in replies]
    assert chances[placement][1] == sum(exact) / len(exact)


def test_analysis_of_an_endgame_gives_the_exact_margin():
    state = medium_game_position(5, 18, 0)
    analysis = ploid_bots.analyse_position(state, random.Random(0), 20.0)
    margin = Solver(5).value(state)
    assert analysis["exact"] and analysis["margin"] == margin and analysis["value"] == sign(margin)
    best = Ploid.parse_move(analysis["best"])
    assert -Solver(5).value(state.apply(best)) == margin
