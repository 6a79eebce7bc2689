"""Small linear algebra with the same digits on every CPU, for the control-variate fits.

numpy's ``@`` and ``np.linalg.lstsq`` go through BLAS and LAPACK, whose kernels are chosen
for the CPU they run on (AVX2, AVX-512, ...) and add in different orders: the same sums of
``u u^T`` gave control-variate estimates that differed in the last digit between two
machines.  The coefficients and corrections here are a few dozen numbers, so they are
computed in plain Python floats, in a fixed order: every sum of products is exactly rounded
(:func:`math.fsum`) and the least-squares fit is a pivoted Cholesky elimination, so a
figure is the same to the last bit wherever it is computed (the project's reproducibility
rule: same rule set, seed and size, same digits on any machine).
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["dot", "gram", "quadratic", "solve_psd", "wald_statistic"]


def dot(a, b) -> float:
    """``sum_i a[i] b[i]``, exactly rounded (each product is rounded once, then the sum once)."""
    return math.fsum(float(x) * float(y) for x, y in zip(np.asarray(a).tolist(), np.asarray(b).tolist()))


def gram(v) -> np.ndarray:
    """``v^T v`` for a rounds x k array (the cross-product sums of a batch) by numpy's own reduction
    down the rows (row after row; pairwise for a single column), whose order does not depend on the
    CPU, where a BLAS product adds in an order of its own."""
    v = np.ascontiguousarray(v, dtype=np.float64)
    if v.ndim != 2:
        raise ValueError(f"gram: a 2-D array is needed, not {v.ndim}-D")
    if v.shape[1] == 0:
        return np.zeros((0, 0))
    return np.stack([(v * v[:, [i]]).sum(axis=0) for i in range(v.shape[1])])


def quadratic(x, m) -> float:
    """``x^T m x`` for a square ``m``, exactly rounded over the products ``x[i] m[i, j] x[j]``
    (each rounded twice, left to right)."""
    xs = np.asarray(x, dtype=np.float64).tolist()
    rows = np.asarray(m, dtype=np.float64).tolist()
    return math.fsum(xi * mij * xj for xi, row in zip(xs, rows) for mij, xj in zip(row, xs))


def solve_psd(m, b, rcond: float = 1e-12) -> np.ndarray:
    """A solution of ``m x = b`` for a symmetric positive semi-definite ``m`` (a covariance
    matrix), by Cholesky elimination with diagonal pivoting: the largest remaining diagonal is
    eliminated first, and elimination stops when it falls to ``rcond`` times the largest
    diagonal of ``m`` (the directions left are linear combinations of those already taken, to
    that precision: their coefficients are set to 0).  For an ``m`` of full rank this is the
    unique solution, as ``np.linalg.lstsq`` gives it up to rounding; for a rank-deficient one it
    is a solution with the dependent coefficients at 0, which corrects a mean by the same
    amount when the dependence is exact (a control that is always 0, or a sum of others)."""
    a = np.asarray(m, dtype=np.float64).tolist()
    rhs = np.asarray(b, dtype=np.float64).tolist()
    n = len(rhs)
    if n == 0:
        return np.zeros(0)
    order = list(range(n))
    scale = max((abs(a[i][i]) for i in range(n)), default=0.0)
    rank = 0
    # L (unit lower, in pivot order) and D, built one pivot at a time
    low = [[0.0] * n for _ in range(n)]
    diag = [0.0] * n
    for k in range(n):
        # the remaining diagonal of the Schur complement, in pivot order
        best, best_i = -1.0, k
        for i in range(k, n):
            p = order[i]
            d = a[p][p] - math.fsum(low[i][t] * low[i][t] * diag[t] for t in range(k))
            if d > best:
                best, best_i = d, i
        if best <= rcond * scale or best <= 0.0:
            break
        order[k], order[best_i] = order[best_i], order[k]
        low[k], low[best_i] = low[best_i], low[k]
        p = order[k]
        diag[k] = best
        low[k][k] = 1.0
        for i in range(k + 1, n):
            q = order[i]
            s = a[q][p] - math.fsum(low[i][t] * low[k][t] * diag[t] for t in range(k))
            low[i][k] = s / best
        rank += 1
    # L D L^T y = b on the pivots taken (forward, diagonal, backward); the others are 0
    y = [0.0] * rank
    for i in range(rank):
        y[i] = rhs[order[i]] - math.fsum(low[i][t] * y[t] for t in range(i))
    z = [y[i] / diag[i] for i in range(rank)]
    x = [0.0] * rank
    for i in range(rank - 1, -1, -1):
        x[i] = z[i] - math.fsum(low[t][i] * x[t] for t in range(i + 1, rank))
    out = np.zeros(n)
    for i in range(rank):
        out[order[i]] = x[i]
    return out


def wald_statistic(d, c) -> float:
    """``d^T c^-1 d`` for a covariance matrix ``c`` (the Wald statistic of a difference ``d`` of means),
    through :func:`solve_psd` (a singular ``c`` uses the basic solution: the same value wherever ``d``
    lies in ``c``'s range, as it does for differences of the means ``c`` describes); 0 when ``c`` is
    all zeros."""
    d = np.asarray(d, dtype=np.float64)
    return dot(d, solve_psd(c, d)) if np.any(c) else 0.0
