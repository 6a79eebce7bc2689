"""Variance reduction for the Monte Carlo engine: the control-variate estimate.

The batch kernel records, per round, the vector ``u`` of
:mod:`ricochet_math.engine.controls` (the round's total net, its total wagered,
every seat's net, and controls whose means are known exactly) and sums
``u u^T``; this module turns those sums into an estimate of the mean net with
a narrower interval, unbiased.

The coefficients
----------------
(Their fit and the corrections are computed by :mod:`ricochet_math.solvers.linear`, in a
fixed order, so the digits do not depend on the CPU's BLAS kernels.)
``beta`` is fitted by least squares, **cross-fitted**: the engine keeps the
sums of ``u u^T`` separately for even and odd chunks, and each half is
corrected with the coefficients fitted on the other half, so ``beta`` never
depends on the rounds it corrects and the estimate stays exactly unbiased.
(A run with fewer than :data:`MIN_HALF_ROUNDS` rounds in a half, one chunk
for instance, fits one set of coefficients on all its rounds instead, whose
bias is of order 1/rounds, and says so: ``cross_fitted`` is False.)  The
interval uses the residual variance of each half.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ricochet_math.engine.controls import U, control_indices, seat_index
from ricochet_math.solvers.linear import dot, quadratic, solve_psd
from ricochet_math.solvers.stats import Estimate, z_value

__all__ = ["MIN_HALF_ROUNDS", "ControlledEstimate", "controlled_estimate", "controlled_ratio", "fit_coefficients",
           "residual_variance", "seat_index"]

#: fewer rounds than this (or than 50 per control) in either half: fit the coefficients on all
#: rounds instead of cross-fitting (about 50 rounds per coefficient keeps a half's fit stable)
MIN_HALF_ROUNDS = 1200


@dataclass(frozen=True)
class ControlledEstimate:
    """The control-variate estimate of the mean total net per round (ante units, summed over seats).

    ``plain``/``controlled``: :class:`~ricochet_math.solvers.stats.Estimate` of it
    without and with the controls; ``variance_ratio`` = plain variance /
    controlled variance (the factor fewer rounds needed); ``beta``: the two
    halves' coefficients; ``cross_fitted``: False when one half was empty.
    """

    plain: Estimate
    controlled: Estimate
    variance_ratio: float
    beta: np.ndarray
    cross_fitted: bool


def _half(cross):
    n = cross[U.one, U.one]
    mean = cross[U.one] / n
    cov = (cross - n * np.outer(mean, mean)) / max(n - 1.0, 1.0)
    return n, mean, cov


def fit_coefficients(cov, target: int, ctl) -> np.ndarray:
    """The least-squares ``beta`` of ``u[target]`` on the controls ``u[ctl]`` from a covariance matrix
    of ``u`` (:func:`~ricochet_math.solvers.linear.solve_psd`: the same digits on every CPU)."""
    return solve_psd(cov[np.ix_(ctl, ctl)], cov[ctl, target], rcond=1e-12)


def residual_variance(cov, target: int, ctl, beta) -> float:
    """``Var(u[target] - beta . u[ctl])`` from a covariance matrix of ``u``, in a fixed order (unclipped)."""
    return cov[target, target] - 2 * dot(beta, cov[ctl, target]) + quadratic(beta, cov[np.ix_(ctl, ctl)])


def controlled_estimate(cross, means, level: float = 0.95, target: int = U.x) -> ControlledEstimate:
    """Cross-fitted control-variate estimate of the mean of ``u[target]`` (default: the round's total
    net; :func:`seat_index` for one seat's) from the kernel's sums ``cross`` (``float64[2, n_u, n_u]``,
    even and odd chunks) and the exact control ``means`` (``float64[n_u]``)."""
    cross = np.asarray(cross, dtype=np.float64)
    means = np.asarray(means, dtype=np.float64)
    ctl = control_indices(cross.shape[1], target)
    halves = [_half(cross[h]) for h in (0, 1) if cross[h, U.one, U.one] > 1]
    if not halves:
        raise ValueError("no rounds recorded for the control variates")
    crossed = len(halves) == 2 and min(n for n, _, _ in halves) >= max(MIN_HALF_ROUNDS, 50 * len(ctl))
    if crossed:
        betas = [fit_coefficients(cov, target, ctl) for _, _, cov in halves]
    else:  # too few rounds to fit on one half alone: pooled coefficients for both (bias O(1/rounds))
        betas = [fit_coefficients(_half(cross.sum(axis=0))[2], target, ctl)] * 2
    n_all = sum(n for n, _, _ in halves)
    est = var_sum = plain_var = plain_mean = 0.0
    for i, (n, mean, cov) in enumerate(halves):
        beta = betas[1 - i]
        dz = mean[ctl] - means[ctl]
        est += n * (mean[target] - dot(beta, dz))
        var_sum += n * max(residual_variance(cov, target, ctl, beta), 0.0)
        plain_mean += n * mean[target]
        plain_var += n * cov[target, target]
    z = z_value(level)

    def make(m_sum, v_sum):
        m = m_sum / n_all
        se = float(np.sqrt(v_sum) / n_all)
        return Estimate(float(m), se, float(m - z * se), float(m + z * se), level)

    plain, controlled = make(plain_mean, plain_var), make(est, var_sum)
    ratio = (plain.std_error / controlled.std_error) ** 2 if controlled.std_error > 0 else float("inf")
    return ControlledEstimate(plain, controlled, ratio, np.array(betas), crossed)


def controlled_ratio(cross, means, level: float = 0.95) -> Estimate:
    """RTP per total wagered, ``1 + E[X] / E[W]`` (X: the round's total net, W: its total wagered),
    with ``E[X]`` from the cross-fitted control-variate estimate and a delta-method interval that
    includes the wager's own sampling error and its covariance with the corrected net."""
    cross = np.asarray(cross, dtype=np.float64)
    means = np.asarray(means, dtype=np.float64)
    est = controlled_estimate(cross, means, level)
    ctl = control_indices(cross.shape[1], U.x)
    halves = [_half(cross[h]) for h in (0, 1) if cross[h, U.one, U.one] > 1]
    n_all = sum(n for n, _, _ in halves)
    w_bar = sum(n * mean[U.w] for n, mean, _ in halves) / n_all
    ratio = float(est.controlled.estimate / w_bar)
    var_sum = 0.0
    for i, (n, mean, cov) in enumerate(halves):
        beta = est.beta[1 - i]
        v_res = residual_variance(cov, U.x, ctl, beta)
        c_rw = cov[U.x, U.w] - dot(beta, cov[ctl, U.w])
        var_sum += n * max(v_res - 2 * ratio * c_rw + ratio * ratio * cov[U.w, U.w], 0.0)
    se = float(np.sqrt(var_sum) / n_all / w_bar)
    z = z_value(level)
    return Estimate(1.0 + ratio, se, 1.0 + ratio - z * se, 1.0 + ratio + z * se, level)

