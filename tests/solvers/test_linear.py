"""The fixed-order linear algebra of the control-variate fits (solvers/linear.py) against numpy's
BLAS/LAPACK path: the same numbers to rounding, and a basic solution where the controls are
dependent."""
import math

import numpy as np
import pytest

from ricochet_math.solvers.linear import dot, gram, quadratic, solve_psd, wald_statistic


def _covariance(rng, rows, cols):
    u = rng.normal(size=(rows, cols))
    return np.atleast_2d(np.cov(u, rowvar=False))


@pytest.mark.parametrize("n", [1, 2, 5, 12, 30])
def test_solve_psd_is_lstsq_on_full_rank(n):
    rng = np.random.default_rng(20261201 + n)
    m = _covariance(rng, 400, n)
    b = rng.normal(size=n)
    want = np.linalg.lstsq(m, b, rcond=None)[0]
    got = solve_psd(m, b)
    # relative to the solution's size; the condition numbers here are below 10
    assert np.max(np.abs(got - want)) <= 1e-12 * np.max(np.abs(want))
    assert np.max(np.abs(m @ got - b)) <= 1e-12 * np.max(np.abs(b))


def test_solve_psd_sets_a_zero_control_and_a_duplicate_to_zero():
    rng = np.random.default_rng(7)
    u = rng.normal(size=(500, 3))
    # columns: a, b, 0, a + b, a  (the 0 control and two dependent ones)
    z = np.column_stack([u[:, 0], u[:, 1], np.zeros(500), u[:, 0] + u[:, 1], u[:, 0]])
    y = 0.5 * u[:, 0] - 2.0 * u[:, 1] + u[:, 2]
    full = np.cov(np.column_stack([z, y]), rowvar=False)
    m, b = full[:5, :5], full[:5, 5]
    beta = solve_psd(m, b)
    # exactly two coefficients taken (rank 2), the others 0; the fit itself is the unique one
    assert np.count_nonzero(beta) == 2
    assert beta[2] == 0.0
    assert np.max(np.abs(m @ beta - b)) <= 1e-12 * np.max(np.abs(b))
    # the same corrected value as numpy's minimum-norm solution, whatever the control means are
    dz = rng.normal(size=3)
    shift = np.array([dz[0], dz[1], 0.0, dz[0] + dz[1], dz[0]])
    want = np.linalg.lstsq(m, b, rcond=1e-12)[0]
    assert dot(beta, shift) == pytest.approx(float(want @ shift), rel=1e-12)
    assert quadratic(beta, m) == pytest.approx(float(want @ m @ want), rel=1e-12)


def test_solve_psd_of_nothing_and_of_zeros():
    assert solve_psd(np.zeros((0, 0)), np.zeros(0)).shape == (0,)
    assert np.array_equal(solve_psd(np.zeros((3, 3)), np.ones(3)), np.zeros(3))


def test_dot_and_quadratic_are_exactly_rounded():
    # a sum numpy's pairwise/BLAS order gets wrong in the last bits, fsum gets right
    a = [1e16, 1.0, -1e16, 1.0]
    assert dot(a, [1.0] * 4) == 2.0
    m = np.array([[2.0, 0.5], [0.5, 1.0]])
    x = np.array([0.3, -1.7])
    assert quadratic(x, m) == math.fsum([0.3 * 2.0 * 0.3, 0.3 * 0.5 * -1.7, -1.7 * 0.5 * 0.3, -1.7 * 1.0 * -1.7])


def test_the_fit_is_repeatable_to_the_bit():
    # the fit is plain Python floats in a fixed order: the same input gives the same bits every time
    rng = np.random.default_rng(3)
    m = _covariance(rng, 300, 8)
    b = rng.normal(size=8)
    first = solve_psd(m, b)
    assert all(np.array_equal(first, solve_psd(m.copy(), b.copy())) for _ in range(3))


def test_gram_is_the_cross_product_summed_row_by_row():
    rng = np.random.default_rng(11)
    v = rng.choice([0.0, 1.0, 0.5, 1 / 3], size=(257, 6))
    got = gram(v)
    # the same sums, one row at a time in order, in plain Python floats
    want = np.zeros((6, 6))
    for row in v.tolist():
        for i in range(6):
            for j in range(6):
                want[i, j] += row[i] * row[j]
    assert np.array_equal(got, want)
    assert np.allclose(got, v.T @ v, rtol=1e-14, atol=0)
    assert gram(np.zeros((4, 0))).shape == (0, 0)
    with pytest.raises(ValueError, match="2-D"):
        gram(np.zeros(3))


def test_wald_statistic_is_the_quadratic_form_of_the_inverse():
    rng = np.random.default_rng(12)
    c = _covariance(rng, 200, 4) / 200
    d = rng.normal(size=4) * 0.1
    assert wald_statistic(d, c) == pytest.approx(float(d @ np.linalg.solve(c, d)), rel=1e-12)
    assert wald_statistic(d, np.zeros((4, 4))) == 0.0
