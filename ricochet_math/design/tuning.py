"""Paytable tuning: the best few paytables that hit a target RTP.

:func:`tune_paytable` is generic: it knows nothing about Cover or the
main-game bonus, only a function from a paytable (``{line: pays}``) to its
RTP, the lines it may change, the grid their pays live on, their order (for
"a better hand never pays less") and a target.  :func:`tune_cover` plugs in
the exact Cover RTP; the main game's bonus table can be tuned the same way by
passing its RTP function (e.g. the exact one-player perfect-play solver).

The search
----------
* **Linear RTP, exact.**  When the RTP function is a :class:`LinearRTP`
  (RTP = constant + sum of coefficient x pays, which Cover is exactly: each
  line adds P(line) x pays), the integer problem is solved by
  ``scipy.optimize.milp`` (HiGHS): integer pays on the step grid, bounds,
  monotonic order as linear constraints, the target window as a constraint.
  The ``n_best`` candidates are found one after another, each solve excluding
  the ones already found (a "no-good" cut with two binaries per line), so
  they are the ``n_best`` best of the whole grid.  Targets that no paytable
  on the grid reaches are reported with the RTP range the lines can reach.
* **Any other RTP function** (a callable), sequential linearisation: the
  slopes are measured by finite differences (one step up on each free line),
  the linear model is solved as above, every candidate is evaluated with the
  true function, and the model is re-centred on the best candidate, for up
  to ``max_rounds`` rounds.  Exact for linear functions; for others the
  candidates are true evaluations but their optimality is that of a local
  search, and "unreachable" means "not reached by the search" (said so in
  the message).

Plugging in another paytable
----------------------------
The main-game bonus (for the lead's tuning of it) is one call::

    tune_paytable(lambda pays: exact_rtp(rules.with_bonus(**pays)),  # any RTP function
                  rules.bonus, free_lines=[...], target=0.965,
                  rules=rules, section="bonus")

The function may return a float, a mapping or a result object with ``rtp``
(and ``hit_frequency``, ``std_dev``); ``write_toml`` then writes a rule set
with the tuned ``[bonus]``.  Each RTP evaluation is cached, so the cost is
about ``(free lines + 1 + n_best)`` evaluations per linearisation round.

Ranking
-------
Candidates must lie in the *window*: ``[target - tolerance, target +
tolerance]`` for a point target, ``[lo, hi]`` for a range.  They are ranked
by distance to the target (``|rtp - target|`` counted in whole
``resolution`` units, default 0.0001, so that differences nobody quotes do
not decide; for a range, 0 inside it), then by ``changes`` (steps moved from
the base paytable, summed over the free lines), then by closeness to the
middle of the window.

>>> from ricochet_math.design.tuning import tune_cover
>>> result = tune_cover(target=0.96, free_lines=["four_of_a_kind", "straight_flush", "royal_flush"],
...                     step={"straight_flush": 50, "royal_flush": 500}, n_best=3)
>>> result.to_frame()[["rank", "rtp", "changes", "four_of_a_kind", "straight_flush", "royal_flush"]].round(6)
   rank       rtp  changes  four_of_a_kind  straight_flush  royal_flush
0     1  0.960006     13.0              50             500         5500
1     2  0.959938     13.0              51             200         8000
2     3  0.959929     13.0              50             550         5000
"""
from __future__ import annotations

import contextlib
import math
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ricochet_math.errors import RuleError
from ricochet_math.rules.ruleset import Paytable, RuleSet, load_rules, paytables_dir

__all__ = [
    "LinearRTP",
    "Candidate",
    "TuningResult",
    "tune_paytable",
    "cover_rtp_function",
    "tune_cover",
    "enumerate_paytables",
    "override_toml",
    "bonus_rtp_function",
    "bonus_rtp_function_mc",
    "tune_bonus",
]

_RTP_SCALE = 1e4  # the MILP works in basis points so solver tolerances are far below a display digit
_SOLVE_SECONDS = 30.0  # time limit of one MILP solve


# =========================================================================
# RTP functions
# =========================================================================

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


def cover_rtp_function(source: RuleSet | Paytable | str | None = None) -> LinearRTP:
    """Cover's RTP as a :class:`LinearRTP` over its lines' pays (exact).

    RTP = sum over lines of P(line) (1 + pays): constant = P(some line),
    coefficient of a line = P(line), from the 2,598,960 dealer hands.  Exact
    while every line pays more than 0 (a line paying 0 loses like no line,
    which is not linear); :func:`tune_cover` keeps the pays above 0.
    """
    from ricochet_math.design.sidebets import _as_paytable, cover

    table = _as_paytable(source)
    result = cover(table)
    probs = {l.key: l.combinations / result.hands for l in result.lines}

    def metrics(pays: Mapping[str, float]) -> dict[str, float]:
        r = cover(table.with_pays(**{k: _plain(v) for k, v in pays.items()}))
        return {"hit_frequency": r.hit_frequency, "std_dev": r.std_dev}

    return LinearRTP(constant=sum(probs.values()), coefficients=probs, metrics=metrics)


def _plain(x: float) -> int | float:
    """An integral float as an int (for rule sets and TOML)."""
    x = float(x)
    return int(round(x)) if abs(x - round(x)) < 1e-9 and abs(x) < 2**53 else x


# =========================================================================
# Results
# =========================================================================

@dataclass(frozen=True)
class Candidate:
    """One candidate paytable: every line's pays and its figures (per unit staked)."""

    rank: int
    pays: tuple[tuple[str, int | float], ...]
    rtp: float
    distance: float
    changes: float
    hit_frequency: float = math.nan
    std_dev: float = math.nan

    def pays_dict(self) -> dict[str, int | float]:
        return dict(self.pays)


@dataclass(frozen=True, eq=False)
class TuningResult:
    """The best candidates of :func:`tune_paytable`, ranked, with how they were found.

    ``window`` is the RTP interval candidates had to reach; ``target`` the
    point (or range) they were ranked against.  ``rules`` and ``section``
    (when tuning a rule set's paytable) let :meth:`to_rules` and
    :meth:`write_toml` turn a candidate into a rule set.
    """

    candidates: tuple[Candidate, ...]
    base_pays: tuple[tuple[str, int | float], ...]
    free_lines: tuple[str, ...]
    target: float | tuple[float, float]
    window: tuple[float, float]
    steps: tuple[tuple[str, float], ...]
    method: str
    evaluations: int
    rules: RuleSet | None = None
    section: str | None = None

    @property
    def best(self) -> dict[str, int | float]:
        """The top candidate's pays."""
        return self.candidates[0].pays_dict()

    def to_frame(self):
        """One row per candidate: ``rank, rtp, distance, hit_frequency, std_dev, changes``, then each line's pays."""
        import pandas as pd

        keys = [k for k, _ in self.base_pays]
        rows = []
        for c in self.candidates:
            pays = c.pays_dict()
            rows.append([c.rank, c.rtp, c.distance, c.hit_frequency, c.std_dev, c.changes]
                        + [pays[k] for k in keys])
        return pd.DataFrame(rows, columns=["rank", "rtp", "distance", "hit_frequency", "std_dev", "changes"] + keys)

    def to_rules(self, rank: int = 1, *, name: str | None = None, description: str | None = None) -> RuleSet:
        """The tuned rule set (candidate ``rank``, 1 = best)."""
        if self.rules is None or self.section is None:
            raise RuleError("this tuning result is not tied to a rule set (tune_paytable was given bare pays)")
        pays = self._candidate(rank).pays_dict()
        table = getattr(self.rules, self.section).with_pays(**pays)
        out = self.rules.replace(**{self.section: table})
        if name is not None or description is not None:
            out = out.replace(name=name if name is not None else out.name,
                              description=description if description is not None else out.description)
        return out

    def write_toml(self, path: str | Path, rank: int = 1, *, name: str | None = None,
                   description: str | None = None) -> Path:
        """Write candidate ``rank`` as a rule-set file that ``extends`` the tuned rule set.

        See :func:`override_toml`.  Returns the path written.
        """
        if self.rules is None or self.section is None:
            raise RuleError("this tuning result is not tied to a rule set (tune_paytable was given bare pays)")
        c = self._candidate(rank)
        path = Path(path)
        text = override_toml(self.rules, self.section, c.pays_dict(), path=path, name=name,
                             description=description, note=_figures_note(c, self))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def _candidate(self, rank: int) -> Candidate:
        if not 1 <= rank <= len(self.candidates):
            raise RuleError(f"candidate rank must be 1..{len(self.candidates)}, got {rank}")
        return self.candidates[rank - 1]

    def summary(self) -> str:
        target = (f"{self.target:.4%} (window {self.window[0]:.4%}..{self.window[1]:.4%})"
                  if not isinstance(self.target, tuple) else f"{self.target[0]:.4%}..{self.target[1]:.4%}")
        best = self.candidates[0]
        changed = ", ".join(f"{k} {dict(self.base_pays)[k]:g}->{v:g}" for k, v in best.pays
                            if v != dict(self.base_pays)[k]) or "none"
        return (
            f"Paytable tuning: target RTP {target}; free lines {', '.join(self.free_lines)}\n"
            f"  method: {self.method}; {self.evaluations} RTP evaluations\n"
            f"  best: RTP {best.rtp:.4%} (distance {best.distance:.2e}); changes {changed}"
        )


def _figures_note(c: Candidate, result: TuningResult) -> str:
    parts = [f"RTP {c.rtp:.4%} per unit staked"]
    if not math.isnan(c.hit_frequency):
        parts.append(f"hit frequency {c.hit_frequency:.4%}")
    if not math.isnan(c.std_dev):
        parts.append(f"std dev {c.std_dev:.4f}")
    return ", ".join(parts) + f" (ricochet tune, {result.method})"


# =========================================================================
# The tuner
# =========================================================================

@dataclass(frozen=True)
class _Problem:
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


def tune_paytable(
    rtp_function: Callable[[Mapping[str, float]], Any],
    base_pays: Mapping[str, float] | Paytable,
    free_lines: Iterable[str] | None = None,
    target: float | tuple[float, float] = 0.95,
    *,
    step: float | Mapping[str, float] = 1,
    monotonic: bool = True,
    n_best: int = 5,
    bounds: tuple[float, float] | Mapping[str, tuple[float, float]] | None = None,
    order: Sequence[str] | None = None,
    tolerance: float = 0.001,
    resolution: float = 1e-4,
    metrics: Callable[[Mapping[str, float]], Mapping[str, float]] | None = None,
    max_rounds: int = 4,
    rules: RuleSet | None = None,
    section: str | None = None,
) -> TuningResult:
    """The ``n_best`` paytables closest to a target RTP, ranked (see the module docstring).

    Parameters
    ----------
    rtp_function
        ``f(pays) -> RTP`` for a full ``{line: pays}`` mapping (RTP as a
        fraction per unit staked).  It may return a float, a mapping with key
        ``"rtp"`` (and optionally ``"hit_frequency"``, ``"std_dev"``) or an
        object with those attributes.  A :class:`LinearRTP` is solved exactly.
    base_pays
        The current paytable: ``{line: pays}`` listed weakest hand first, or a
        :class:`~ricochet_math.rules.ruleset.Paytable` (ordered by threshold).
    free_lines
        Lines that may change (default: all).  The others keep their pays.
    target
        A target RTP in (0, 2), or a range ``(lo, hi)``.
    step
        Grid of the free lines' pays: they are multiples of ``step`` (one
        number, or ``{line: step}`` with the rest at 1).
    monotonic
        A better hand never pays less (non-decreasing pays in line order),
        over all lines, fixed ones included; the base must already be.
    bounds
        ``(lo, hi)`` pays for every free line, or ``{line: (lo, hi)}``.
        Default per line: ``step`` (0 if the base pays 0) to ``10 x`` the base
        pays (at least ``10 x step``).
    order
        Line keys weakest first, when ``base_pays``' own order is not it.
    tolerance
        Half-width of the window around a point target.
    resolution
        Distances to a point target closer than this count as equal when
        ranking (then fewer steps moved wins); default 1e-4 (0.01%, the
        precision RTPs are quoted to).
    metrics
        ``f(pays) -> {"hit_frequency": ..., "std_dev": ...}`` for the table
        (default: the RTP function's own, if it has one).
    max_rounds
        Linearisation rounds for a non-linear RTP function.
    rules, section
        The rule set and its paytable section (``"cover"``, ``"bonus"``) the
        pays belong to, so the result can be written as a rule set.

    Raises :class:`~ricochet_math.errors.RuleError` (one line) for a base
    paytable that is not monotonic when ``monotonic``, a target outside (0,
    200%), unknown lines, bad steps or bounds, and an unreachable target (with
    the RTP range the free lines can reach, or the nearest RTP found).
    """
    problem = _setup(base_pays, free_lines, target, step, monotonic, bounds, order, tolerance, n_best, resolution)
    if metrics is None:
        metrics = getattr(rtp_function, "metrics", None)
    evaluate = _Evaluator(rtp_function, metrics)
    if isinstance(rtp_function, LinearRTP):
        missing = [k for k in problem.free if k not in rtp_function.coefficients]
        if missing:
            raise RuleError(f"the RTP function has no coefficient for line {missing[0]!r}")
        model = _linear_model(problem, rtp_function)
        _check_reachable(problem, model, exact=True)
        points, limited = _milp_n_best(problem, model, n_best)
        if not points:
            raise RuleError(_grid_miss_message(problem, model))
        method = "exact MILP over the step grid (linear RTP, scipy.optimize.milp)"
        if limited:
            method += f"; {limited} solve(s) hit the time limit, so the ranking may miss better paytables"
        for x in points:
            evaluate(_full_pays(problem, x))
        rounds_used = 1
    else:
        centre = {k: problem.base[k] for k in problem.free}
        rounds_used = 0
        limited_total = 0
        for rounds_used in range(1, max(1, max_rounds) + 1):
            model = _secant_model(problem, evaluate, centre)
            try:
                _check_reachable(problem, model, exact=False)
            except RuleError:
                break
            points, limited = _milp_n_best(problem, model, n_best)
            limited_total += limited
            if not points:
                break
            for x in points:
                evaluate(_full_pays(problem, x))
            best = min(evaluate.cache.items(), key=lambda kv: abs(kv[1]["rtp"] - problem.center))
            new_centre = {k: dict(best[0])[k] for k in problem.free}
            if new_centre == centre:
                break
            centre = new_centre
        method = f"sequential linearisation ({rounds_used} round(s), finite-difference slopes, scipy.optimize.milp)"
        if limited_total:
            method += f"; {limited_total} solve(s) hit the time limit"

    ranked = _rank(problem, evaluate)
    if not ranked:
        nearest = min(evaluate.cache.values(), key=lambda f: abs(f["rtp"] - problem.center))
        raise RuleError(
            f"target RTP {_show_target(problem)} is unreachable: the search found no paytable in the window "
            f"(nearest RTP found {nearest['rtp']:.4%}); widen the bounds, free more lines or use a finer step"
        )
    candidates = tuple(
        Candidate(rank=i + 1, pays=tuple((k, _plain(pays[k])) for k in problem.keys), rtp=f["rtp"],
                  distance=_distance(problem, f["rtp"]), changes=_changes(problem, pays),
                  hit_frequency=f.get("hit_frequency", math.nan), std_dev=f.get("std_dev", math.nan))
        for i, (pays, f) in enumerate(ranked[:n_best])
    )
    return TuningResult(
        candidates=candidates,
        base_pays=tuple((k, _plain(problem.base[k])) for k in problem.keys),
        free_lines=problem.free,
        target=target if not isinstance(target, (int, float)) else float(target),
        window=problem.window,
        steps=tuple((k, problem.step[k]) for k in problem.free),
        method=method,
        evaluations=evaluate.calls,
        rules=rules,
        section=section,
    )


def tune_cover(
    rules: RuleSet | str | None = None,
    target: float | tuple[float, float] = 0.95,
    free_lines: Iterable[str] | None = None,
    **options: Any,
) -> TuningResult:
    """Tune a rule set's Cover paytable (default rule set ``publisher``) with the exact Cover RTP.

    ``options`` are :func:`tune_paytable`'s (``step``, ``bounds``,
    ``n_best``, ``tolerance``, ``monotonic``).  The result's
    :meth:`~TuningResult.write_toml` writes the tuned rule set.
    """
    rules = load_rules(rules)
    if not len(rules.cover):
        raise RuleError(f"rule set {rules.name} has no Cover lines to tune")
    for line in rules.cover:
        if line.pays <= 0:
            raise RuleError(f"Cover line {line.key!r} pays 0 (it loses like no line); "
                            "remove it or give it a payout before tuning")
    bounds = options.get("bounds")
    if bounds is not None:
        items = bounds.items() if isinstance(bounds, Mapping) else [("every line", bounds)]
        for key, b in items:
            if isinstance(b, (tuple, list)) and len(b) == 2 and isinstance(b[0], (int, float)) and b[0] <= 0:
                raise RuleError(f"bounds of {key!r} start at {b[0]:g}: Cover pays must stay above 0 "
                                "(a line paying 0 loses like no line)")
    return tune_paytable(cover_rtp_function(rules.cover), rules.cover, free_lines, target,
                         rules=rules, section="cover", **options)


# ---------------------------------------------------------------- set-up

def _setup(base_pays, free_lines, target, step, monotonic, bounds, order, tolerance, n_best,
           resolution=1e-6) -> _Problem:
    if isinstance(base_pays, Paytable):
        ordered = sorted(range(len(base_pays)), key=lambda i: (base_pays.lines[i].value(), i))
        base = {base_pays.lines[i].key: float(base_pays.lines[i].pays) for i in ordered}
    elif isinstance(base_pays, Mapping):
        base = {str(k): v for k, v in base_pays.items()}
        for k, v in base.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
                raise RuleError(f"base pays of line {k!r} must be a finite number >= 0, got {v!r}")
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
                raise RuleError(f"unknown paytable line {k!r}; lines: {', '.join(keys)}")
        free_set = set(free_list)
        if not free_set:
            raise RuleError("no free lines to tune")
    free = tuple(k for k in keys if k in free_set)

    # Target and window.
    if isinstance(target, (tuple, list)):
        if len(target) != 2:
            raise RuleError(f"a target RTP range is (lo, hi), got {target!r}")
        lo_t, hi_t = (_check_target(t) for t in target)
        if lo_t > hi_t:
            raise RuleError(f"target RTP range is reversed: {lo_t:.4%} > {hi_t:.4%}")
        window, center, point = (lo_t, hi_t), (lo_t + hi_t) / 2, False
    else:
        t = _check_target(target)
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 <= tolerance < 1:
            raise RuleError(f"tolerance must be a fraction in [0, 1), got {tolerance!r}")
        window, center, point = (t - tolerance, t + tolerance), t, True

    # Steps and bounds.
    steps: dict[str, float] = {}
    for k in free:
        s = step.get(k, 1) if isinstance(step, Mapping) else step
        if isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s) or s <= 0:
            raise RuleError(f"step of line {k!r} must be a number > 0, got {s!r}")
        steps[k] = float(s)
    if isinstance(step, Mapping):
        for k in step:
            if k not in free_set:
                raise RuleError(f"step given for line {k!r}, which is not a free line")
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
                    raise RuleError(f"bounds of line {k!r} must be (lo, hi), got {b!r}") from None
        if not (0 <= b_lo <= b_hi and math.isfinite(b_hi)):
            raise RuleError(f"bounds of line {k!r} must satisfy 0 <= lo <= hi, got ({b_lo:g}, {b_hi:g})")
        lo[k] = math.ceil(b_lo / steps[k] - 1e-9)
        hi[k] = math.floor(b_hi / steps[k] + 1e-9)
        if lo[k] > hi[k]:
            raise RuleError(f"no multiple of step {steps[k]:g} lies within the bounds ({b_lo:g}, {b_hi:g}) "
                            f"of line {k!r}")
    if isinstance(bounds, Mapping):
        for k in bounds:
            if k not in free_set:
                raise RuleError(f"bounds given for line {k!r}, which is not a free line")

    if monotonic:
        for a, b in zip(keys, keys[1:]):
            if base[b] < base[a]:
                raise RuleError(f"paytable is not monotonic: {b} pays {base[b]:g} but {a}, a worse hand, "
                                f"pays {base[a]:g}; fix it or pass monotonic=False")
    if isinstance(resolution, bool) or not isinstance(resolution, (int, float)) or not 0 < resolution < 0.1:
        raise RuleError(f"resolution must be a small positive fraction, got {resolution!r}")
    if isinstance(n_best, bool) or not isinstance(n_best, int) or n_best < 1:
        raise RuleError(f"n_best must be a whole number >= 1, got {n_best!r}")
    return _Problem(keys, base, free, steps, lo, hi, window, center, point, monotonic, resolution)


def _check_target(t: Any) -> float:
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
        raise RuleError(f"target RTP must be a number (a fraction such as 0.95), got {t!r}")
    if not 0 < t < 2:
        raise RuleError(f"target RTP {t!r} is outside (0, 2): give it as a fraction, e.g. 0.95 for 95%")
    return float(t)


def _show_target(p: _Problem) -> str:
    if p.point:
        return f"{p.center:.4%} (+/- {(p.window[1] - p.window[0]) / 2:.4%})"
    return f"{p.window[0]:.4%}..{p.window[1]:.4%}"


# ---------------------------------------------------------------- evaluation

class _Evaluator:
    """Calls the RTP function once per distinct paytable and keeps the figures."""

    def __init__(self, rtp_function, metrics) -> None:
        self.f = rtp_function
        self.metrics = metrics
        self.cache: dict[tuple, dict[str, float]] = {}
        self.calls = 0

    def rtp(self, pays: Mapping[str, float]) -> float:
        return self._figures(pays, with_metrics=False)["rtp"]

    def __call__(self, pays: Mapping[str, float]) -> dict[str, float]:
        return self._figures(pays, with_metrics=True)

    def _figures(self, pays, with_metrics: bool) -> dict[str, float]:
        key = tuple((k, float(v)) for k, v in pays.items())
        figures = self.cache.get(key)
        if figures is None:
            self.calls += 1
            figures = _read_figures(self.f(dict(pays)))
            self.cache[key] = figures
        if with_metrics and self.metrics is not None and "hit_frequency" not in figures:
            figures.update({k: float(v) for k, v in self.metrics(dict(pays)).items()})
        return figures


def _read_figures(out: Any) -> dict[str, float]:
    if isinstance(out, Mapping):
        figures = {k: float(out[k]) for k in ("rtp", "hit_frequency", "std_dev") if k in out}
    elif hasattr(out, "rtp"):
        figures = {k: float(getattr(out, k)) for k in ("rtp", "hit_frequency", "std_dev") if hasattr(out, k)}
    else:
        figures = {"rtp": float(out)}
    if "rtp" not in figures or not math.isfinite(figures["rtp"]):
        raise RuleError(f"the RTP function returned no finite RTP: {out!r}")
    return figures


def _full_pays(p: _Problem, x: Mapping[str, int]) -> dict[str, float]:
    pays = dict(p.base)
    for k in p.free:
        pays[k] = _plain(x[k] * p.step[k])
    return {k: pays[k] for k in p.keys}


def _distance(p: _Problem, rtp: float) -> float:
    if p.point:
        return abs(rtp - p.center)
    lo, hi = p.window
    return max(lo - rtp, 0.0, rtp - hi)


def _changes(p: _Problem, pays: Mapping[str, float]) -> float:
    return float(sum(abs(float(pays[k]) - p.base[k]) / p.step[k] for k in p.free))


def _rank_key(p: _Problem, pays: Mapping[str, float], rtp: float) -> tuple:
    """Distance to the target in whole resolutions, steps moved, distance to the centre, the pays."""
    return (math.floor(_distance(p, rtp) / p.resolution + 1e-9), _changes(p, pays), abs(rtp - p.center),
            tuple(pays[k] for k in p.keys))


def _in_window(p: _Problem, rtp: float) -> bool:
    eps = 1e-12
    return p.window[0] - eps <= rtp <= p.window[1] + eps


def _rank(p: _Problem, evaluate: _Evaluator) -> list[tuple[dict[str, float], dict[str, float]]]:
    found = []
    for key, f in evaluate.cache.items():
        pays = dict(key)
        if not _in_window(p, f["rtp"]):
            continue
        if p.monotonic and any(pays[b] < pays[a] for a, b in zip(p.keys, p.keys[1:])):
            continue
        if any(not (p.lo[k] * p.step[k] - 1e-9 <= pays[k] <= p.hi[k] * p.step[k] + 1e-9)
               or abs(pays[k] / p.step[k] - round(pays[k] / p.step[k])) > 1e-9 for k in p.free):
            continue
        found.append((pays, f))
    found.sort(key=lambda pf: _rank_key(p, pf[0], pf[1]["rtp"]))
    for pays, f in found:
        evaluate(pays)  # fill in the metrics of the ones shown
    return found


# ---------------------------------------------------------------- linear models

@dataclass(frozen=True)
class _Model:
    """RTP = const + sum(slope[k] * index[k]) over free lines, index = pays / step."""

    const: float
    slope: dict[str, float]


def _linear_model(p: _Problem, f: LinearRTP) -> _Model:
    const = f.constant + sum(c * p.base[k] for k, c in f.coefficients.items() if k not in p.free)
    return _Model(const, {k: f.coefficients[k] * p.step[k] for k in p.free})


def _secant_model(p: _Problem, evaluate: _Evaluator, centre: Mapping[str, float]) -> _Model:
    """Finite-difference slopes at ``centre`` (one step up, or down at the upper bound)."""
    pays0 = dict(p.base)
    pays0.update(centre)
    pays0 = {k: pays0[k] for k in p.keys}
    r0 = evaluate.rtp(pays0)
    slope = {}
    for k in p.free:
        h = p.step[k] if pays0[k] + p.step[k] <= p.hi[k] * p.step[k] + 1e-9 else -p.step[k]
        moved = dict(pays0)
        moved[k] = _plain(pays0[k] + h)
        slope[k] = (evaluate.rtp(moved) - r0) / h * p.step[k]
    const = r0 - sum(slope[k] * pays0[k] / p.step[k] for k in p.free)
    return _Model(const, slope)


def _rtp_range(p: _Problem, model: _Model) -> tuple[float, float]:
    """Lowest and highest model RTP over the free lines' bounds (monotonic order included): two LPs."""
    from scipy.optimize import linprog

    c = np.array([model.slope[k] for k in p.free])
    a_ub, b_ub = _monotonic_rows(p)
    bnds = [(p.lo[k], p.hi[k]) for k in p.free]
    out = []
    for sign in (1.0, -1.0):
        res = linprog(sign * c * _RTP_SCALE, A_ub=a_ub if len(b_ub) else None, b_ub=b_ub if len(b_ub) else None,
                      bounds=bnds, method="highs")
        if res.status != 0:
            raise RuleError("the paytable constraints cannot all hold: the monotonic order conflicts with "
                            "the bounds of the free lines")
        out.append(model.const + float(c @ res.x))
    return out[0], out[1]


def _check_reachable(p: _Problem, model: _Model, exact: bool) -> None:
    lo, hi = _rtp_range(p, model)
    if hi < p.window[0] - 1e-12 or lo > p.window[1] + 1e-12:
        how = "" if exact else " (by the linear model of the RTP function)"
        raise RuleError(
            f"target RTP {_show_target(p)} is unreachable: with free lines {', '.join(p.free)} within their "
            f"bounds the RTP ranges from {lo:.4%} to {hi:.4%}{how}"
        )


def _grid_miss_message(p: _Problem, model: _Model) -> str:
    lo, hi = _rtp_range(p, model)
    return (f"target RTP {_show_target(p)} is unreachable on the step grid: free lines "
            f"{', '.join(p.free)} reach {lo:.4%} to {hi:.4%} but no paytable with these steps lands in the "
            "window; use a finer step, a wider tolerance or free more lines")


def _monotonic_rows(p: _Problem) -> tuple[np.ndarray, np.ndarray]:
    """``A x <= b`` rows (over the free lines' indices) for non-decreasing pays in line order."""
    n = len(p.free)
    col = {k: i for i, k in enumerate(p.free)}
    rows, rhs = [], []
    if p.monotonic:
        for a, b in zip(p.keys, p.keys[1:]):
            if a not in col and b not in col:
                continue
            row = np.zeros(n)
            bound = 0.0
            if a in col:
                row[col[a]] += p.step[a]
            else:
                bound -= p.base[a]
            if b in col:
                row[col[b]] -= p.step[b]
            else:
                bound += p.base[b]
            rows.append(row)
            rhs.append(bound)
    return np.array(rows).reshape(len(rows), n), np.array(rhs)


@contextlib.contextmanager
def _solver_output_silenced():
    """Send file descriptor 1 to the null device while HiGHS runs.

    Some HiGHS builds print a debug line
    (``HighsMipSolverData::transformNewIntegerFeasibleSolution tmpSolver.run();``)
    straight to the C stdout whatever the output options say (HiGHS.jl issues
    312 and 318); it would corrupt ``ricochet tune --format csv``.
    """
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError, AttributeError):
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _milp_n_best(p: _Problem, model: _Model, n_best: int) -> tuple[list[dict[str, int]], int]:
    """The ``n_best`` grid points in the window, best first under the model (no-good cuts between solves).

    Variables: ``x`` (free line indices, integer), ``d`` (distance to the
    centre, scaled), ``c`` (steps moved per line), then two binaries per line
    per point already found (``x`` must differ from it in some line).

    * Point target, two solves per candidate: the least distance ``d*``, then
      the fewest steps moved (then the least distance) among the points in
      the same distance bucket (whole resolutions) as ``d*``: the order of
      :func:`_rank_key`.
    * Range target, one solve: the fewest steps moved, then (weighted below
      one step) the distance to the middle of the range.
    """
    from scipy.optimize import Bounds, LinearConstraint, milp

    n = len(p.free)
    slope = np.array([model.slope[k] for k in p.free]) * _RTP_SCALE
    const = model.const * _RTP_SCALE
    centre = p.center * _RTP_SCALE
    wlo, whi = p.window[0] * _RTP_SCALE, p.window[1] * _RTP_SCALE
    resolution = p.resolution * _RTP_SCALE
    base_idx = np.array([p.base[k] / p.step[k] for k in p.free])
    lo = np.array([p.lo[k] for k in p.free], dtype=float)
    hi = np.array([p.hi[k] for k in p.free], dtype=float)
    big = hi - lo + 1.0
    half = max((whi - wlo) / 2.0, 1e-6)
    mono_a, mono_b = _monotonic_rows(p)
    ix, idd, ic = 0, n, n + 1
    ib = 2 * n + 1
    found: list[np.ndarray] = []
    stats = {"limited": 0}

    def solve(cost: np.ndarray, d_max: float, abs_gap: float = 0.0):
        """Optimal (or, on the time limit, best found) solution vector, or None if there is none."""
        m = len(found)
        nvar = 2 * n + 1 + 2 * n * m
        rows, lower, upper = [], [], []

        def add(lb: float, ub: float, **entries) -> None:
            r = np.zeros(nvar)
            for where, value in entries.get("at", ()):
                r[where] = value
            rows.append(r)
            lower.append(lb)
            upper.append(ub)

        x_cols = list(range(ix, ix + n))
        add(wlo - const, whi - const, at=zip(x_cols, slope))                          # in the window
        add(-np.inf, centre - const, at=[*zip(x_cols, slope), (idd, -1.0)])            # d >= rtp - centre
        add(-np.inf, const - centre, at=[*zip(x_cols, -slope), (idd, -1.0)])           # d >= centre - rtp
        for i in range(n):
            add(-np.inf, base_idx[i], at=[(ix + i, 1.0), (ic + i, -1.0)])              # c >= x - base
            add(-np.inf, -base_idx[i], at=[(ix + i, -1.0), (ic + i, -1.0)])            # c >= base - x
        for row, b in zip(mono_a, mono_b):
            add(-np.inf, b, at=zip(x_cols, row))                                       # monotonic order
        for j, point in enumerate(found):
            first = ib + 2 * n * j
            for i in range(n):
                u, v = first + 2 * i, first + 2 * i + 1
                add(-np.inf, point[i] - 1 + big[i], at=[(ix + i, 1.0), (u, big[i])])   # u -> x <= point - 1
                add(-np.inf, big[i] - point[i] - 1, at=[(ix + i, -1.0), (v, big[i])])  # v -> x >= point + 1
            add(1.0, np.inf, at=[(c, 1.0) for c in range(first, first + 2 * n)])       # differ somewhere
        full_cost = np.zeros(nvar)
        full_cost[: cost.size] = cost
        integrality = np.zeros(nvar)
        integrality[ix:ix + n] = 1
        integrality[ib:] = 1
        lb = np.zeros(nvar)
        ub = np.full(nvar, np.inf)
        lb[ix:ix + n], ub[ix:ix + n] = lo, hi
        ub[idd] = d_max
        ub[ib:] = 1.0
        options = {"mip_rel_gap": 0.0, "presolve": True, "time_limit": _SOLVE_SECONDS}
        if abs_gap > 0:
            options["mip_abs_gap"] = abs_gap
        with _solver_output_silenced(), warnings.catch_warnings():
            # mip_abs_gap is a HiGHS option scipy passes through verbatim, with a warning.
            warnings.filterwarnings("ignore", message="Unrecognized options detected", category=RuntimeWarning)
            res = milp(full_cost, constraints=LinearConstraint(np.array(rows), lower, upper),
                       integrality=integrality, bounds=Bounds(lb, ub), options=options)
        if res.status == 1:  # time or iteration limit
            stats["limited"] += 1
            if res.x is None:
                raise RuleError(f"the MILP solver found no paytable within its {_SOLVE_SECONDS:g} s limit; "
                                "free fewer lines, narrow the bounds or use coarser steps")
        elif res.status != 0 or res.x is None:
            return None
        return res.x

    out: list[dict[str, int]] = []
    for _ in range(n_best):
        cost = np.zeros(2 * n + 1)
        if p.point:
            # 1. The least distance, to within half a resolution (proving the exact least
            #    distance is a hard number-theory problem and decides nothing).
            cost[idd] = 1.0
            first = solve(cost, np.inf, abs_gap=0.5 * resolution)
            if first is None:
                break
            # 2. Its distance bucket (whole resolutions, as _rank_key) is b or b - 1: try b - 1.
            # 3. The fewest steps moved in that bucket, then the least distance (below one step).
            bucket = math.floor(first[idd] / resolution + 1e-9)
            sol = None
            for b in ([bucket - 1] if bucket >= 1 else []) + [bucket]:
                cost = np.zeros(2 * n + 1)
                cost[ic:ic + n] = 1.0
                cost[idd] = 0.5 / ((b + 1) * resolution)
                sol = solve(cost, (b + 1) * resolution * (1 - 1e-12))
                if sol is not None:
                    break
            sol = first if sol is None else sol
        else:
            cost[ic:ic + n] = 1.0
            cost[idd] = 0.5 / half
            sol = solve(cost, np.inf)
            if sol is None:
                break
        x = np.round(sol[ix:ix + n]).astype(np.int64)
        found.append(x.astype(float))
        out.append({k: int(x[i]) for i, k in enumerate(p.free)})
    return out, stats["limited"]


# ---------------------------------------------------------------- the slow twin

def enumerate_paytables(
    rtp_function: Callable[[Mapping[str, float]], Any],
    base_pays: Mapping[str, float] | Paytable,
    free_lines: Iterable[str] | None = None,
    target: float | tuple[float, float] = 0.95,
    *,
    step: float | Mapping[str, float] = 1,
    monotonic: bool = True,
    n_best: int = 5,
    bounds: tuple[float, float] | Mapping[str, tuple[float, float]] | None = None,
    order: Sequence[str] | None = None,
    tolerance: float = 0.001,
    resolution: float = 1e-4,
    limit: int = 2_000_000,
) -> list[tuple[dict[str, float], float]]:
    """Slow twin of :func:`tune_paytable`: every grid paytable, evaluated and ranked the same way.

    Returns the ``n_best`` ``(pays, rtp)`` best in the window.  Refuses grids
    of more than ``limit`` points; meant for tests on small grids.
    """
    import itertools

    p = _setup(base_pays, free_lines, target, step, monotonic, bounds, order, tolerance, n_best, resolution)
    size = math.prod(p.hi[k] - p.lo[k] + 1 for k in p.free)
    if size > limit:
        raise RuleError(f"grid of {size:,} paytables is too large to enumerate (limit {limit:,})")
    evaluate = _Evaluator(rtp_function, None)
    for idx in itertools.product(*(range(p.lo[k], p.hi[k] + 1) for k in p.free)):
        pays = _full_pays(p, dict(zip(p.free, idx)))
        if p.monotonic and any(pays[b] < pays[a] for a, b in zip(p.keys, p.keys[1:])):
            continue
        evaluate.rtp(pays)
    return [(pays, f["rtp"]) for pays, f in _rank(p, evaluate)[:n_best]]


# =========================================================================
# Writing a tuned rule set
# =========================================================================

def override_toml(rules: RuleSet, section: str, pays: Mapping[str, float], *, path: str | Path | None = None,
                  name: str | None = None, description: str | None = None, note: str = "") -> str:
    """TOML text of a rule set that ``extends`` ``rules`` and sets ``[section]`` pays.

    Every line of the section is written (changed ones marked ``# was N``), so
    the figures in the header hold even if the parent's other lines change.
    ``extends`` names a shipped rule set by its bare name, any other file by a
    path relative to ``path``'s folder.
    """
    table: Paytable = getattr(rules, section)
    unknown = [k for k in pays if k not in table]
    if unknown:
        raise RuleError(f"[{section}] has no line {unknown[0]!r}")
    src = Path(rules.source.replace(" (modified)", "")) if rules.source else None
    if rules.source.endswith("(modified)") or src is None or not src.is_file():
        raise RuleError(f"rule set {rules.name} was changed in code or has no file; "
                        "write it whole with RuleSet.to_toml() instead")
    shipped = paytables_dir().resolve()
    if src.resolve().parent == shipped:
        parent = src.stem
    else:
        base_dir = Path(path).resolve().parent if path is not None else Path.cwd()
        parent = os.path.relpath(src.resolve(), base_dir)
    stem = Path(path).stem if path is not None else f"{rules.name}-tuned"
    name = name or stem
    description = description or f"{rules.name} with a tuned [{section}] paytable"
    out = [f"# {description}.", f"# Generated by ricochet_math.design.tuning from {rules.name} (sha256 {rules.sha256[:12]})."]
    if note:
        out.append(f"# {note}")
    out += ["", f"extends = {_toml_str(parent)}", f"name = {_toml_str(name)}",
            f"description = {_toml_str(description)}", "", f"[{section}]"]
    from ricochet_math.rules.ruleset import CATEGORY_PATTERNS

    for line in table:
        new = _plain(pays.get(line.key, line.pays))
        was = "" if float(new) == float(line.pays) else f"   # was {_plain(line.pays)}"
        if CATEGORY_PATTERNS.get(line.key) == line.hand_pattern:
            out.append(f"{_toml_key(line.key)} = {new}{was}")
        else:
            out.append(f"{_toml_key(line.key)} = {{ hand = {_toml_str(line.hand_pattern)}, pays = {new} }}{was}")
    return "\n".join(out) + "\n"


def _toml_key(key: str) -> str:
    import re

    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_str(key)


def _toml_str(s: str) -> str:
    import json

    return json.dumps(str(s), ensure_ascii=False)


# =========================================================================
# The main game's bonus table (one player, exact)
# =========================================================================

def bonus_rtp_function(rules: RuleSet | str | None = None, analysis=None) -> LinearRTP:
    """The one-player main-game RTP per initial bet as a :class:`LinearRTP` over the bonus pays.

    Exact for the perfect-play decisions of ``analysis`` (default: the exact
    solo analysis of ``rules``, cached on disk after its first run): every
    outcome's probability is fixed and the bonus adds ``pays x P(line)``.
    Changing the pays could change a few marginal decisions; :func:`tune_bonus`
    re-solves the best candidate to measure that.
    """
    from ricochet_math.solvers.solo import solo_analysis

    rules = load_rules(rules)
    a = analysis if analysis is not None else solo_analysis(rules)
    df = a.return_table()
    p = df["probability"].to_numpy()
    names = list(a.line_names)
    line_idx = np.array([names.index(b) for b in df["bonus"]])
    paid = (df["outcome"] != "fold").to_numpy()
    if not a.bonus_on_automatic_win:
        paid &= (df["outcome"] != "automatic win").to_numpy()
    base_net = df["net"].to_numpy() - np.where(paid, a.pays[line_idx], 0.0)
    constant = 1.0 + float((p * base_net).sum())
    coefficients = {names[ln]: float(p[paid & (line_idx == ln)].sum()) for ln in range(1, len(names))}

    def metrics(pays: Mapping[str, float]) -> dict[str, float]:
        vec = np.array([0.0] + [float(pays[k]) for k in names[1:]])
        r = a.rtp_with_pays(vec)
        return {"hit_frequency": r["bonus_hit_frequency"], "std_dev": r["std_net"]}

    return LinearRTP(constant=constant, coefficients=coefficients, metrics=metrics)


def bonus_rtp_function_mc(rules: RuleSet | str | None = None, players: int = 2, *, rounds: int = 20_000,
                          seed: int = 2026, strategy: str = "perfect", result=None) -> LinearRTP:
    """Main-game RTP per initial bet at ``players`` >= 2 as a :class:`LinearRTP` over the bonus
    pays, from one Monte Carlo run with its decisions held fixed.

    Each bonus line must be a named category (straight .. royal_flush); the
    coefficient of a line is its observed paid-hand frequency per player-round.
    Exact for those decisions and that sample: the estimate's own sampling error
    (in the run's confidence interval) still applies to the constant.
    """
    from ricochet_math.evaluator.evaluation import BONUS_CATEGORY_NAMES
    from ricochet_math.solvers.montecarlo import simulate

    rules = load_rules(rules)
    r = result if result is not None else simulate(rules, players=players, strategy=strategy, rounds=rounds,
                                                   seed=seed, progress=False)
    s = r.summary()
    cats = {name.lower().replace(" ", "_"): i for i, name in enumerate(BONUS_CATEGORY_NAMES)}
    freq = {}
    for line in rules.bonus:
        key = str(line.hand_pattern).lower().replace(" ", "_")
        if key not in cats:
            raise RuleError(f"bonus line {line.key!r} ({line.hand_pattern}) is not a hand category: "
                            "tuning at several players needs category lines (straight .. royal_flush)")
        freq[line.key] = float(s[f"bonus_{key}"].estimate)
    constant = float(s["rtp_initial"].estimate) - sum(freq[ln.key] * float(ln.pays) for ln in rules.bonus)
    return LinearRTP(constant=constant, coefficients=freq)


def tune_bonus(
    rules: RuleSet | str | None = None,
    target: float | tuple[float, float] = 0.965,
    free_lines: Iterable[str] | None = None,
    *,
    players: int = 1,
    resolve: bool = False,
    analysis=None,
    rounds: int = 20_000,
    seed: int = 2026,
    strategy: str = "perfect",
    **options: Any,
) -> TuningResult:
    """Tune the high-hand bonus table to a target RTP per initial bet at ``players`` seats.

    * One player: exact (:func:`bonus_rtp_function`), decisions of the current
      paytable held fixed.
    * Several players: one Monte Carlo run (``rounds``, ``seed``, ``strategy``)
      with its decisions held fixed (:func:`bonus_rtp_function_mc`).

    The search is a MILP on that linear RTP.  With ``resolve=True`` the best
    candidate is re-solved with its own perfect play (N = 1: a full exact
    analysis, minutes; N >= 2: a new run with the same seed, so common random
    numbers) and the re-solved RTP is added to the result's method text: the
    effect of players adapting to the new pays is measured, not assumed.
    """
    from ricochet_math.rules.ruleset import MAX_PLAYERS

    rules = load_rules(rules)
    if not 1 <= int(players) <= MAX_PLAYERS:
        raise RuleError(f"players must be 1..{MAX_PLAYERS}, got {players}")
    if players == 1:
        f = bonus_rtp_function(rules, analysis)
    else:
        f = bonus_rtp_function_mc(rules, players, rounds=rounds, seed=seed, strategy=strategy)
    result = tune_paytable(f, rules.bonus, free_lines, target, rules=rules, section="bonus", **options)
    if players > 1:
        result = dataclasses.replace(result, method=result.method + (
            f"; {players} players: linear in the pays with the decisions of one {strategy} run held fixed "
            f"({rounds:,} rounds, seed {seed})"))
    if resolve and result.candidates:
        best = result.candidates[0]
        tuned = rules.with_bonus(**{k: _plain(v) for k, v in best.pays_dict().items()})
        if players == 1:
            from ricochet_math.solvers.solo import solo_analysis
            exact = solo_analysis(tuned).at_threshold()["rtp_per_initial_bet"]
            how = "re-solved with its own perfect play"
        else:
            from ricochet_math.solvers.montecarlo import simulate
            exact = float(simulate(tuned, players=players, strategy=strategy, rounds=rounds, seed=seed,
                                   progress=False).summary()["rtp_initial"].estimate)
            how = "re-simulated with its own decisions (same seed)"
        note = (f"; candidate 1 {how}: RTP {exact:.6%} "
                f"(fixed-strategy {best.rtp:.6%}, difference {exact - best.rtp:+.6%})")
        result = dataclasses.replace(result, method=result.method + note)
    return result
