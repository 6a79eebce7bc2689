"""A peer in the same run: OpenSpiel (test-only dependency) solves the same games; its exploitability after
the same iterations must equal ours to 1e-9 (it does to the last digit: the kernel does OpenSpiel's
arithmetic in OpenSpiel's order), and its best response must give our figure for our strategy."""
from __future__ import annotations

import pytest

from eq_helpers import openspiel_pair, to_openspiel_policy
from ricochet_math.equilibrium import solve

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import discounted_cfr, exploitability as os_exploitability  # noqa: E402
from open_spiel.python.algorithms import cfr as os_cfr  # noqa: E402

TOLERANCE = 1e-9


def _cpp_curve(theirs, marks):
    solver, done, out = pyspiel.CFRPlusSolver(theirs), 0, []
    for m in marks:
        for _ in range(m - done):
            solver.evaluate_and_update_policy()
        done = m
        out.append(pyspiel.nash_conv(theirs, solver.average_policy()))
    return out


@pytest.mark.parametrize("name, players, marks", [("kuhn", 2, (1, 10, 100, 1000)), ("kuhn", 3, (1, 10, 100)),
                                                  ("leduc", 2, (1, 5, 20))])
def test_cfr_plus_exploitability_equals_openspiels_cpp(name, players, marks):
    ours, theirs, ids = openspiel_pair(name, players)
    result = solve(ours, "cfr+", marks[-1], every=1)
    mine = dict(zip(result.curve_iterations.tolist(), result.curve_nash_conv.tolist()))
    for m, value in zip(marks, _cpp_curve(theirs, marks)):
        assert abs(mine[m] - value) <= TOLERANCE, (m, mine[m], value)


@pytest.mark.slow
def test_leduc_cfr_plus_1000_iterations_equal_openspiels_cpp():
    ours, theirs, ids = openspiel_pair("leduc")
    marks = (100, 250, 500, 1000)
    result = solve(ours, "cfr+", 1000, every=50)
    mine = dict(zip(result.curve_iterations.tolist(), result.curve_nash_conv.tolist()))
    for m, value in zip(marks, _cpp_curve(theirs, marks)):
        assert abs(mine[m] - value) <= TOLERANCE, (m, mine[m], value)
    assert mine[1000] / 2 == pytest.approx(2.57e-4, abs=5e-7)  # the "2.6e-4 chips", OpenSpiel's measure


def test_cfr_plus_and_dcfr_equal_openspiels_python():
    ours, theirs, ids = openspiel_pair("kuhn")
    for solver, theirs_solver in (("cfr+", os_cfr.CFRPlusSolver(theirs)), ("dcfr", discounted_cfr.DCFRSolver(theirs))):
        for _ in range(100):
            theirs_solver.evaluate_and_update_policy()
        value = os_exploitability.nash_conv(theirs, theirs_solver.average_policy())
        assert abs(solve(ours, solver, 100).exploitability - value) <= TOLERANCE, solver


@pytest.mark.parametrize("name, players", [("kuhn", 2), ("kuhn", 3), ("leduc", 2)])
def test_openspiels_best_response_gives_our_exploitability_of_our_strategy(name, players):
    ours, theirs, ids = openspiel_pair(name, players)
    for solver in ("cfr+", "mccfr"):
        result = solve(ours, solver, 50, seed=3)
        policy = to_openspiel_policy(result.strategy(), ours, theirs, ids)
        assert abs(os_exploitability.nash_conv(theirs, policy) - result.exploitability) <= 1e-12
        if players == 2:  # OpenSpiel's exploitability (half of NashConv) is for two players only
            assert abs(os_exploitability.exploitability(theirs, policy) - result.exploitability / 2) <= 1e-12
