"""Small statistics helpers for Monte Carlo results: means, rates, ratios and their confidence intervals.

Everything works from **sums** (``sum x``, ``sum x^2``, ``n``), the raw material a
Monte Carlo run keeps so that runs can be merged; nothing here needs the
samples themselves.  Intervals are normal approximations with the sample
standard deviation (the runs are large), except :func:`wilson_ci`, offered
for small counts, and at the edges: a rate with nothing (or everything)
observed has a normal interval of no width, which would read as an exact
figure, so :func:`rate_ci` and :func:`proportion_ci` give it the exact
binomial (Clopper-Pearson) interval instead (:func:`clopper_pearson`).

>>> ci = mean_ci(total=30.0, total_sq=100.0, n=10)
>>> round(ci.estimate, 3), round(ci.std_error, 4)
(3.0, 0.3333)
>>> proportion_ci(50, 100).half_width < 0.1
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

__all__ = [
    "Estimate",
    "z_value",
    "rounds_for_half_width",
    "mean_ci",
    "proportion_ci",
    "rate_ci",
    "clopper_pearson",
    "wilson_ci",
    "ratio_ci",
    "sample_std",
]


def z_value(level: float = 0.95) -> float:
    """Two-sided normal quantile for a confidence ``level`` (0.95 -> 1.95996...)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"confidence level must be in (0, 1), got {level!r}")
    return NormalDist().inv_cdf(0.5 + level / 2.0)


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its standard error and a confidence interval ``[low, high]`` at ``level``."""

    estimate: float
    std_error: float
    low: float
    high: float
    level: float = 0.95

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def shifted(self, offset: float, scale: float = 1.0) -> Estimate:
        """``offset + scale * x`` applied to the estimate and the interval (a negative scale swaps the ends)."""
        lo, hi = offset + scale * self.low, offset + scale * self.high
        return Estimate(offset + scale * self.estimate, abs(scale) * self.std_error, min(lo, hi), max(lo, hi),
                        self.level)

    def clipped(self, low: float = 0.0, high: float = 1.0) -> Estimate:
        """The interval cut to ``[low, high]`` (a rate's normal interval can leave ``[0, 1]``)."""
        return Estimate(self.estimate, self.std_error, max(self.low, low), min(self.high, high), self.level)

    def __format__(self, spec: str) -> str:
        spec = spec or ".4g"
        return f"{self.estimate:{spec}} [{self.low:{spec}}, {self.high:{spec}}]"


def _interval(estimate: float, se: float, level: float) -> Estimate:
    z = z_value(level)
    estimate, se = float(estimate), float(se)
    return Estimate(estimate, se, estimate - z * se, estimate + z * se, level)


def sample_std(total: float, total_sq: float, n: float) -> float:
    """Sample standard deviation (``n - 1`` in the denominator) from ``sum x``, ``sum x^2`` and ``n``."""
    if n < 2:
        return math.nan
    var = (total_sq - total * total / n) / (n - 1)
    return math.sqrt(max(var, 0.0))


def mean_ci(total: float, total_sq: float, n: float, level: float = 0.95) -> Estimate:
    """Mean of ``n`` independent samples with a normal-approximation interval (sample std / sqrt n)."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan, level)
    return _interval(total / n, sample_std(total, total_sq, n) / math.sqrt(n), level)


def clopper_pearson(count: float, n: float, level: float = 0.95) -> tuple[float, float]:
    """The exact binomial (Clopper-Pearson) interval of a rate after ``count`` successes in ``n``
    independent trials: ``[B(a/2; k, n-k+1), B(1-a/2; k+1, n-k)]`` with ``B`` the beta quantile
    (scipy.stats.beta), 0 and 1 at the ends.  0 of 2,000 at 95% gives [0, 0.00184]."""
    from scipy.stats import beta  # here, not at the top: scipy.stats costs a second to import

    alpha = 1.0 - level
    k, n = float(count), float(n)
    low = 0.0 if k <= 0 else float(beta.ppf(alpha / 2.0, k, n - k + 1.0))
    high = 1.0 if k >= n else float(beta.ppf(1.0 - alpha / 2.0, k + 1.0, n - k))
    return low, high


def rate_ci(total: float, total_sq: float, trials: float, samples: float, level: float = 0.95) -> Estimate:
    """A rate: ``total`` events in ``trials`` yes/no trials grouped in ``samples`` independent samples
    (``trials = samples x seats``: the seats of a round share it), ``total_sq`` the sum over samples of
    the squared per-sample counts.

    The estimate is ``total / trials``, one division of the stored count (no rounding of parts); the
    interval is the normal one of the per-sample mean (sample std / sqrt(samples)) cut to ``[0, 1]``,
    except at the edges: with no event (or only events) observed that interval has no width and would
    read as exact, so the rate gets the exact binomial interval of ``samples`` trials instead
    (:func:`clopper_pearson`; conservative for several seats per sample, as the chance that a sample
    holds an event at all bounds each seat's).
    """
    if samples <= 0 or trials <= 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan, level)
    seats = trials / samples
    est = mean_ci(total / seats, total_sq / (seats * seats), samples, level).clipped(0.0, 1.0)
    p = total / trials
    if 0.0 < total < trials:
        return Estimate(p, est.std_error, est.low, est.high, level)
    low, high = clopper_pearson(0.0 if total <= 0 else samples, samples, level)
    return Estimate(p, est.std_error, low, high, level)


def proportion_ci(count: float, n: float, level: float = 0.95) -> Estimate:
    """A rate ``count / n`` of independent yes/no trials, normal approximation (Wald, sample std),
    the interval cut to ``[0, 1]``; with ``count`` 0 or ``n`` the exact binomial interval
    (:func:`rate_ci`)."""
    return rate_ci(count, count, n, n, level)


def wilson_ci(count: float, n: float, level: float = 0.95) -> Estimate:
    """A rate with the Wilson score interval (better than :func:`proportion_ci` for rare events)."""
    if n <= 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan, level)
    z = z_value(level)
    p = count / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Estimate(float(p), math.sqrt(p * (1 - p) / n), float(centre - half), float(centre + half), level)


def ratio_ci(sum_x: float, sum_y: float, sum_xx: float, sum_yy: float, sum_xy: float, n: float,
             level: float = 0.95) -> Estimate:
    """Ratio of means ``sum x / sum y`` over ``n`` independent pairs ``(x_i, y_i)``, delta-method interval.

    ``Var(R) ~ (s_xx - 2 R s_xy + R^2 s_yy) / (n * ybar^2)`` with the sample
    (co)variances ``s``: the standard ratio-estimator interval (used for RTP
    per total wagered: returned / wagered, the round as the sample).
    """
    if n < 2 or sum_y == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan, level)
    r = sum_x / sum_y
    xbar, ybar = sum_x / n, sum_y / n
    s_xx = (sum_xx - n * xbar * xbar) / (n - 1)
    s_yy = (sum_yy - n * ybar * ybar) / (n - 1)
    s_xy = (sum_xy - n * xbar * ybar) / (n - 1)
    var = (s_xx - 2 * r * s_xy + r * r * s_yy) / (n * ybar * ybar)
    return _interval(r, math.sqrt(max(var, 0.0)), level)


def rounds_for_half_width(std_error: float, rounds: int, target: float, level: float = 0.95,
                          margin: float = 1.1) -> int:
    """Rounds a run needs for an interval of half-width ``target`` at ``level``, from a pilot of ``rounds``
    rounds whose estimate had standard error ``std_error`` (the error falls as 1/sqrt(rounds)); ``margin``
    pads the pilot's own uncertainty about that error.  Never fewer than the pilot's rounds."""
    if not std_error > 0.0:  # a pilot with no spread (every round alike): the pilot's size is enough
        return int(rounds)
    return max(int(rounds), math.ceil(margin * rounds * (z_value(level) * std_error / target) ** 2))
