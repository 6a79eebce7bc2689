"""The paytable-tuning problem, validated: lines in order, free lines, their grid and bounds, the
target window, and the ranking every search and its slow twin share.

A paytable is ``{line: pays}`` (pays to 1, per unit staked), listed weakest
hand first.  The free lines' pays live on a grid: ``pays = index x step``
with integer ``index`` between bounds.  Candidates must reach the *window*
(``[target - tolerance, target + tolerance]`` for a point target, ``[lo,
hi]`` for a range) and are ranked by :func:`rank_key`: distance to the
target in whole ``resolution`` units, then steps moved from the base
paytable, then closeness to the middle of the window.

Nothing here knows which bet the paytable belongs to (see
:mod:`ricochet_math.design.optimiser`).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ricochet_math.errors import RuleError, quote
from ricochet_math.rules.ruleset import Paytable

__all__ = [
    "LinearRTP", "TuningProblem", "make_problem", "show_target", "full_pays", "distance_to_target",
    "steps_moved", "rank_key", "in_window", "plain_number",
]


@dataclass(frozen=True)
class LinearRTP:
    """An RTP that is exactly linear in the pays: ``constant + sum(coefficients[k] * pays[k])``.

    ``metrics(pays)`` (optional) returns ``{"hit_frequency": ..., "std_dev":
    ...}`` for a full paytable, for the result table.  Calling the object
    gives the RTP of a full ``{line: pays}`` mapping.
    """

    constant: float
    coefficients: Mapping[str, float]
    metrics: Callable[[Mapping[str, float]], Mapping[str, float]] | None = field(default=None, compare=False)

    def __call__(self, pays: Mapping[str, float]) -> float:
        return self.constant + sum(c * float(pays[k]) for k, c in self.coefficients.items())


def plain_number(x: float) -> int | float:
    """An integral float as an int (for rule sets and TOML)."""
    x = float(x)
    return int(round(x)) if abs(x - round(x)) < 1e-9 and abs(x) < 2**53 else x


# ---------------------------------------------------------------- the problem

@dataclass(frozen=True)
class TuningProblem:
    """The validated problem: all lines in order (weakest first), free ones, grid and window."""

    keys: tuple[str, ...]             # all lines, weakest first
    base: dict[str, float]
    free: tuple[str, ...]             # in `keys` order
    step: dict[str, float]
    lo: dict[str, int]                # grid index bounds of free lines (pays = index * step)
    hi: dict[str, int]
    window: tuple[float, float]
    center: float
    point: bool
    monotonic: bool
    resolution: float


def make_problem(
    base_pays: Mapping[str, float] | Paytable,
    free_lines: Iterable[str] | None,
    target: float | tuple[float, float],
    step: float | Mapping[str, float],
    monotonic: bool,
    bounds: tuple[float, float] | Mapping[str, tuple[float, float]] | None,
    order: Sequence[str] | None,
    tolerance: float,
    n_best: int,
    resolution: float = 1e-6,
) -> TuningProblem:
    """Check the arguments of :func:`~ricochet_math.design.optimiser.tune_paytable` (documented
    there) and build the problem; every problem raises one line of
    :class:`~ricochet_math.errors.RuleError`."""
    if isinstance(base_pays, Paytable):
        ordered = sorted(range(len(base_pays)), key=lambda i: (base_pays.lines[i].value(), i))
        base = {base_pays.lines[i].key: float(base_pays.lines[i].pays) for i in ordered}
    elif isinstance(base_pays, Mapping):
        base = {str(k): v for k, v in base_pays.items()}
        for k, v in base.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise RuleError(f"base pays of line {quote(k)} must be a finite number >= 0, got {quote(v)}")
        base = {k: float(v) for k, v in base.items()}
    else:
        raise RuleError(f"base pays must be a mapping line -> pays or a Paytable, got {type(base_pays).__name__}")
    if not base:
        raise RuleError("the paytable to tune has no lines")
    keys = tuple(base)
    if order is not None:
        order = tuple(order)
        if sorted(order) != sorted(keys):
            raise RuleError(f"order must list every line once: {', '.join(keys)}")
        keys = order
    if free_lines is None:
        free_set = set(keys)
    else:
        free_list = [free_lines] if isinstance(free_lines, str) else list(free_lines)
        for k in free_list:
            if k not in base:
                raise RuleError(f"unknown paytable line {quote(k)}; lines: {', '.join(keys)}")
        free_set = set(free_list)
        if not free_set:
            raise RuleError("no free lines to tune")
    free = tuple(k for k in keys if k in free_set)

    # Target and window.
    if isinstance(target, (tuple, list)):
        if len(target) != 2:
            raise RuleError(f"a target RTP range is (lo, hi), got {quote(target)}")
        lo_t, hi_t = (_check_target(t) for t in target)
        if lo_t > hi_t:
            raise RuleError(f"target RTP range is reversed: {lo_t:.4%} > {hi_t:.4%}")
        window, center, point = (lo_t, hi_t), (lo_t + hi_t) / 2, False
    else:
        t = _check_target(target)
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 <= tolerance < 1:
            raise RuleError(f"tolerance must be a fraction in [0, 1), got {quote(tolerance)}")
        window, center, point = (t - tolerance, t + tolerance), t, True

    # Steps and bounds.
    steps: dict[str, float] = {}
    for k in free:
        s = step.get(k, 1) if isinstance(step, Mapping) else step
        if isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s) or s <= 0:
            raise RuleError(f"step of line {quote(k)} must be a number > 0, got {quote(s)}")
        steps[k] = float(s)
    if isinstance(step, Mapping):
        for k in step:
            if k not in free_set:
                raise RuleError(f"step given for line {quote(k)}, which is not a free line")
    lo: dict[str, int] = {}
    hi: dict[str, int] = {}
    for k in free:
        if bounds is None:
            b_lo = 0.0 if base[k] == 0 else steps[k]
            b_hi = max(10 * base[k], 10 * steps[k])
        else:
            b = bounds.get(k) if isinstance(bounds, Mapping) else bounds
            if b is None:
                b_lo, b_hi = (0.0 if base[k] == 0 else steps[k]), max(10 * base[k], 10 * steps[k])
            else:
                try:
                    b_lo, b_hi = (float(x) for x in b)
                except (TypeError, ValueError):
                    raise RuleError(f"bounds of line {quote(k)} must be (lo, hi), got {quote(b)}") from None
        if not (0 <= b_lo <= b_hi and math.isfinite(b_hi)):
            raise RuleError(f"bounds of line {quote(k)} must satisfy 0 <= lo <= hi, got ({b_lo:g}, {b_hi:g})")
        lo[k] = math.ceil(b_lo / steps[k] - 1e-9)
        hi[k] = math.floor(b_hi / steps[k] + 1e-9)
        if lo[k] > hi[k]:
            raise RuleError(f"no multiple of step {steps[k]:g} lies within the bounds ({b_lo:g}, {b_hi:g}) "
                            f"of line {quote(k)}")
    if isinstance(bounds, Mapping):
        for k in bounds:
            if k not in free_set:
                raise RuleError(f"bounds given for line {quote(k)}, which is not a free line")

    if monotonic:
        for a, b in zip(keys, keys[1:]):
            if base[b] < base[a]:
                raise RuleError(f"paytable is not monotonic: {b} pays {base[b]:g} but {a}, a worse hand, "
                                f"pays {base[a]:g}; fix it or pass monotonic=False")
    if isinstance(resolution, bool) or not isinstance(resolution, (int, float)) or not 0 < resolution < 0.1:
        raise RuleError(f"resolution must be a small positive fraction, got {quote(resolution)}")
    if isinstance(n_best, bool) or not isinstance(n_best, int) or n_best < 1:
        raise RuleError(f"n_best must be a whole number >= 1, got {quote(n_best)}")
    return TuningProblem(keys, base, free, steps, lo, hi, window, center, point, monotonic, resolution)


def _check_target(t: Any) -> float:
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
        raise RuleError(f"target RTP must be a number (a fraction such as 0.95), got {quote(t)}")
    if not 0 < t < 2:
        raise RuleError(f"target RTP {quote(t)} is outside (0, 2): give it as a fraction, e.g. 0.95 for 95%")
    return float(t)


def show_target(p: TuningProblem) -> str:
    """The target as the messages show it, in percent."""
    if p.point:
        return f"{p.center:.4%} (+/- {(p.window[1] - p.window[0]) / 2:.4%})"
    return f"{p.window[0]:.4%}..{p.window[1]:.4%}"


# ---------------------------------------------------------------- grid points and ranking

def full_pays(p: TuningProblem, x: Mapping[str, int]) -> dict[str, float]:
    """Every line's pays, in line order, for grid indices ``x`` of the free lines."""
    pays = dict(p.base)
    for k in p.free:
        pays[k] = plain_number(x[k] * p.step[k])
    return {k: pays[k] for k in p.keys}


def distance_to_target(p: TuningProblem, rtp: float) -> float:
    """``|rtp - target|`` for a point target; for a range, how far outside it (0 inside)."""
    if p.point:
        return abs(rtp - p.center)
    lo, hi = p.window
    return max(lo - rtp, 0.0, rtp - hi)


def steps_moved(p: TuningProblem, pays: Mapping[str, float]) -> float:
    """Grid steps moved from the base paytable, summed over the free lines."""
    return float(sum(abs(float(pays[k]) - p.base[k]) / p.step[k] for k in p.free))


def rank_key(p: TuningProblem, pays: Mapping[str, float], rtp: float) -> tuple:
    """Distance to the target in whole resolutions, steps moved, distance to the centre, the pays."""
    return (math.floor(distance_to_target(p, rtp) / p.resolution + 1e-9), steps_moved(p, pays), abs(rtp - p.center),
            tuple(pays[k] for k in p.keys))


def in_window(p: TuningProblem, rtp: float) -> bool:
    """Whether ``rtp`` lies in the target window (to 1e-12, float rounding)."""
    eps = 1e-12
    return p.window[0] - eps <= rtp <= p.window[1] + eps
