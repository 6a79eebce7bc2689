"""The generic paytable optimiser: the best few paytables that hit a target RTP.

:func:`tune_paytable` knows nothing about Cover or the main-game bonus, only
a function from a paytable (``{line: pays}``, pays to 1) to its RTP (a
fraction per unit staked), the lines it may change, the grid their pays live
on, their order (for "a better hand never pays less") and a target.  The
bets plug in their RTP functions in :mod:`ricochet_math.design.tuning`
(:func:`~ricochet_math.design.tuning.tune_cover`: the exact Cover RTP;
:func:`~ricochet_math.design.tuning.tune_bonus`: the main game's bonus
table).  The pieces: the validated problem and its ranking
(:mod:`~ricochet_math.design.optimiser_problem`), the integer program
(:mod:`~ricochet_math.design.optimiser_milp`), the result and its rule-set
file (:mod:`~ricochet_math.design.optimiser_result`).

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
Any paytable of a rule set is one call::

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

>>> from ricochet_math.design.optimiser_problem import LinearRTP
>>> rtp = LinearRTP(constant=0.5, coefficients={"low": 0.05, "high": 0.01})
>>> result = tune_paytable(rtp, {"low": 2, "high": 10}, target=0.80, n_best=2)
>>> [c.pays_dict() for c in result.candidates], [round(c.rtp, 6) for c in result.candidates]
([{'low': 4, 'high': 10}, {'low': 3, 'high': 15}], [0.8, 0.8])
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ricochet_math.errors import RuleError, quote
from ricochet_math.design.optimiser_milp import (
    check_reachable, grid_miss_message, linear_model, milp_n_best, secant_model,
)
from ricochet_math.design.optimiser_problem import (
    LinearRTP, TuningProblem, distance_to_target, full_pays, in_window, make_problem, plain_number, rank_key,
    show_target, steps_moved,
)
from ricochet_math.design.optimiser_result import Candidate, TuningResult
from ricochet_math.rules.ruleset import Paytable, RuleSet

__all__ = ["tune_paytable", "enumerate_paytables"]


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
    problem = make_problem(base_pays, free_lines, target, step, monotonic, bounds, order, tolerance, n_best, resolution)
    if metrics is None:
        metrics = getattr(rtp_function, "metrics", None)
    evaluate = _Evaluator(rtp_function, metrics)
    if isinstance(rtp_function, LinearRTP):
        missing = [k for k in problem.free if k not in rtp_function.coefficients]
        if missing:
            raise RuleError(f"the RTP function has no coefficient for line {quote(missing[0])}")
        model = linear_model(problem, rtp_function)
        check_reachable(problem, model, exact=True)
        points, limited = milp_n_best(problem, model, n_best)
        if not points:
            raise RuleError(grid_miss_message(problem, model))
        method = "exact MILP over the step grid (linear RTP, scipy.optimize.milp)"
        if limited:
            method += f"; {limited} solve(s) hit the time limit, so the ranking may miss better paytables"
        for x in points:
            evaluate(full_pays(problem, x))
        rounds_used = 1
    else:
        centre = {k: problem.base[k] for k in problem.free}
        rounds_used = 0
        limited_total = 0
        for rounds_used in range(1, max(1, max_rounds) + 1):
            model = secant_model(problem, evaluate, centre)
            try:
                check_reachable(problem, model, exact=False)
            except RuleError:
                break
            points, limited = milp_n_best(problem, model, n_best)
            limited_total += limited
            if not points:
                break
            for x in points:
                evaluate(full_pays(problem, x))
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
            f"target RTP {show_target(problem)} is unreachable: the search found no paytable in the window "
            f"(nearest RTP found {nearest['rtp']:.4%}); widen the bounds, free more lines or use a finer step"
        )
    candidates = tuple(
        Candidate(rank=i + 1, pays=tuple((k, plain_number(pays[k])) for k in problem.keys), rtp=f["rtp"],
                  distance=distance_to_target(problem, f["rtp"]), changes=steps_moved(problem, pays),
                  hit_frequency=f.get("hit_frequency", math.nan), std_dev=f.get("std_dev", math.nan))
        for i, (pays, f) in enumerate(ranked[:n_best])
    )
    return TuningResult(
        candidates=candidates,
        base_pays=tuple((k, plain_number(problem.base[k])) for k in problem.keys),
        free_lines=problem.free,
        target=target if not isinstance(target, (int, float)) else float(target),
        window=problem.window,
        steps=tuple((k, problem.step[k]) for k in problem.free),
        method=method,
        evaluations=evaluate.calls,
        rules=rules,
        section=section,
    )

# ---------------------------------------------------------------- evaluation and ranking

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
    """``rtp`` (and ``hit_frequency``, ``std_dev`` when given) from what an RTP function returned."""
    if isinstance(out, Mapping):
        figures = {k: float(out[k]) for k in ("rtp", "hit_frequency", "std_dev") if k in out}
    elif hasattr(out, "rtp"):
        figures = {k: float(getattr(out, k)) for k in ("rtp", "hit_frequency", "std_dev") if hasattr(out, k)}
    else:
        figures = {"rtp": float(out)}
    if "rtp" not in figures or not math.isfinite(figures["rtp"]):
        raise RuleError(f"the RTP function returned no finite RTP: {quote(out)}")
    return figures


def _rank(p: TuningProblem, evaluate: _Evaluator) -> list[tuple[dict[str, float], dict[str, float]]]:
    """The evaluated paytables that are candidates (in the window, monotonic if asked, on the grid),
    best first by :func:`~ricochet_math.design.optimiser_problem.rank_key`, with their figures."""
    found = []
    for key, f in evaluate.cache.items():
        pays = dict(key)
        if not in_window(p, f["rtp"]):
            continue
        if p.monotonic and any(pays[b] < pays[a] for a, b in zip(p.keys, p.keys[1:])):
            continue
        if any(not (p.lo[k] * p.step[k] - 1e-9 <= pays[k] <= p.hi[k] * p.step[k] + 1e-9)
               or abs(pays[k] / p.step[k] - round(pays[k] / p.step[k])) > 1e-9 for k in p.free):
            continue
        found.append((pays, f))
    found.sort(key=lambda pf: rank_key(p, pf[0], pf[1]["rtp"]))
    for pays, f in found:
        evaluate(pays)  # fill in the metrics of the ones shown
    return found


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
    p = make_problem(base_pays, free_lines, target, step, monotonic, bounds, order, tolerance, n_best, resolution)
    size = math.prod(p.hi[k] - p.lo[k] + 1 for k in p.free)
    if size > limit:
        raise RuleError(f"grid of {size:,} paytables is too large to enumerate (limit {limit:,})")
    evaluate = _Evaluator(rtp_function, None)
    for idx in itertools.product(*(range(p.lo[k], p.hi[k] + 1) for k in p.free)):
        pays = full_pays(p, dict(zip(p.free, idx)))
        if p.monotonic and any(pays[b] < pays[a] for a, b in zip(p.keys, p.keys[1:])):
            continue
        evaluate.rtp(pays)
    return [(pays, f["rtp"]) for pays, f in _rank(p, evaluate)[:n_best]]
