"""No Monte Carlo figure is shown as exact (issue 28).

A rate never (or always) observed in a simulation has a normal interval of no
width, which reads as an exact figure; it gets the exact binomial
(Clopper-Pearson) interval instead, in the library's estimates, the CLI's
tables and CSVs and the report (the report's own check is in
``tests/reports/test_report_par.py``).  The interval's values are checked against the
closed form of the edge cases and against scipy's ``binomtest``.
"""
from __future__ import annotations

import io
import math

import pandas as pd
import pytest
from scipy.stats import binomtest
from cli_run import run_cli

from ricochet_math.solvers.montecarlo import simulate
from ricochet_math.solvers.stats import Estimate, clopper_pearson, proportion_ci, rate_ci


@pytest.mark.parametrize("n", [1, 7, 200, 2_000])
def test_clopper_pearson_edges_closed_form(n):
    # 0 of n: the upper end solves (1 - p)^n = alpha / 2; n of n: the lower end solves p^n = alpha / 2
    assert clopper_pearson(0, n) == (0.0, pytest.approx(1.0 - 0.025 ** (1.0 / n), rel=1e-12))
    assert clopper_pearson(n, n) == (pytest.approx(0.025 ** (1.0 / n), rel=1e-12), 1.0)


@pytest.mark.parametrize("k,n", [(1, 10), (3, 200), (150, 2_000), (0, 50), (50, 50)])
def test_clopper_pearson_matches_scipy_binomtest(k, n):
    want = binomtest(k, n).proportion_ci(confidence_level=0.95, method="exact")
    low, high = clopper_pearson(k, n)
    assert low == pytest.approx(want.low, abs=1e-12) and high == pytest.approx(want.high, abs=1e-12)


def test_rates_at_the_edges_get_an_exact_binomial_interval():
    zero = proportion_ci(0, 2_000)
    assert zero.estimate == 0.0 and zero.low == 0.0 and zero.high == pytest.approx(0.0018427, rel=1e-4)
    every = proportion_ci(500, 500)
    assert every.estimate == 1.0 and every.high == 1.0 and every.low < 1.0
    # several seats per round: the bound is that of the rounds (the independent samples), conservative
    seats = rate_ci(0, 0, 3 * 400, 400)
    assert (seats.low, seats.high) == clopper_pearson(0, 400)
    # inside the edges the normal interval is unchanged
    inner = proportion_ci(30, 100)
    assert inner.high - inner.low == pytest.approx(2 * 1.959963984540054 * math.sqrt(0.3 * 0.7 / 99), rel=1e-9)


def test_estimate_is_one_division_of_the_stored_count():
    # (count / seats) / rounds can miss the double nearest count / (seats x rounds): 0.1622 is stored as such
    e = rate_ci(16_220 * 5, 16_220 * 5, 5 * 100_000, 100_000)
    assert repr(e.estimate) == "0.1622"


@pytest.fixture(scope="module")
def short_run():
    # 300 rounds of 'always' at 2 players (seed 3): several bonus lines and the split rate are never seen
    return simulate("publisher", 2, "always", 300, seed=3, progress=False, workers=1)


def test_simulation_estimates_never_have_zero_width(short_run):
    summary = short_run.summary()
    unseen = [name for name, v in summary.items() if isinstance(v, Estimate) and v.estimate == 0.0]
    assert unseen, "the run should leave some event unseen, or this test checks nothing"
    rates = [n for n, v in summary.items() if isinstance(v, Estimate) and n.endswith(("_frequency", "_rate"))
             or n.startswith("bonus_")]
    assert len(rates) > 20
    for name in rates:  # (an amount every round alike, 'always' wagering 2, has no spread: not a rate)
        v = summary[name]
        assert v.low < v.high, f"{name}: a Monte Carlo rate with an interval of no width reads as exact"
    for frame in (short_run.hands_frame(), short_run.seat_frame("seat"), short_run.seat_frame("position")):
        for col in [c for c in frame.columns if c.endswith("_low")]:
            base = col[:-4]
            assert (frame[col] < frame[f"{base}_high"]).all(), base


def test_cli_simulate_shows_an_interval_on_every_rate(tmp_path):
    r = run_cli("simulate", "--players", "2", "--strategy", "always", "--rounds", "300", "--seed", "3", "--workers",
                "1")  # in process (tests/cli_run.py)
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith(("split_rate", "bonus_royal_flush"))]
    assert len(lines) == 2, r.stdout
    for line in lines:
        assert "[" in line or "±" in line, line
    assert "no ± where exact" not in r.stdout
    csv = run_cli("simulate", "--players", "2", "--strategy", "always", "--rounds", "300", "--seed", "3", "--workers",
                  "1", "--format", "csv")
    frame = pd.read_csv(io.StringIO(csv.stdout))
    assert frame["split_rate"].iloc[0] == 0.0 and frame["split_rate_high"].iloc[0] > 0.0


def test_a_sampled_kickout_curve_does_not_say_all_deals():
    # notebook 04 titles its plot with the curve's method; at the tiny size the analysis covers 2 classes
    from ricochet_math import kickout_curve, solo_analysis

    solo = solo_analysis("publisher", classes=[0, 84], progress=False)
    curve = kickout_curve("publisher", players=1, grid=["KK", "AAQ"], solo=solo)
    assert "all 2,809,475,760" not in curve.method and "2 of the 169" in curve.method
