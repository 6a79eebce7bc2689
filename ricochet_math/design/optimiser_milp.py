"""The integer program behind paytable tuning: a linear model of the RTP over the free lines'
grid indices, solved with ``scipy.optimize.milp`` (HiGHS).

* :func:`linear_model`: exact, from a :class:`~ricochet_math.design.optimiser_problem.LinearRTP`;
  :func:`secant_model`: finite-difference slopes of any RTP function at a point.
* :func:`check_reachable`: the RTP range the free lines can reach (two LPs),
  so an unreachable target is reported with that range.
* :func:`milp_n_best`: the ``n_best`` grid points in the window, best first
  under the model, in the order of
  :func:`~ricochet_math.design.optimiser_problem.rank_key`; each solve
  excludes the points already found (a "no-good" cut with two binaries per
  line), so they are the best of the whole grid.

RTPs are scaled to basis points inside the solver so its tolerances are far
below a displayed digit.
"""
from __future__ import annotations

import contextlib
import math
import os
import sys
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ricochet_math.errors import RuleError
from ricochet_math.design.optimiser_problem import LinearRTP, TuningProblem, plain_number, show_target

__all__ = ["LinearModel", "linear_model", "secant_model", "check_reachable", "grid_miss_message", "milp_n_best"]

_RTP_SCALE = 1e4  # the MILP works in basis points so solver tolerances are far below a display digit
_SOLVE_SECONDS = 30.0  # time limit of one MILP solve


@dataclass(frozen=True)
class LinearModel:
    """RTP = const + sum(slope[k] * index[k]) over free lines, index = pays / step."""

    const: float
    slope: dict[str, float]


def linear_model(p: TuningProblem, f: LinearRTP) -> LinearModel:
    """The exact model of a linear RTP: the fixed lines' pays folded into the constant."""
    const = f.constant + sum(c * p.base[k] for k, c in f.coefficients.items() if k not in p.free)
    return LinearModel(const, {k: f.coefficients[k] * p.step[k] for k in p.free})


def secant_model(p: TuningProblem, evaluate, centre: Mapping[str, float]) -> LinearModel:
    """Finite-difference slopes at ``centre`` (one step up, or down at the upper bound)."""
    pays0 = dict(p.base)
    pays0.update(centre)
    pays0 = {k: pays0[k] for k in p.keys}
    r0 = evaluate.rtp(pays0)
    slope = {}
    for k in p.free:
        h = p.step[k] if pays0[k] + p.step[k] <= p.hi[k] * p.step[k] + 1e-9 else -p.step[k]
        moved = dict(pays0)
        moved[k] = plain_number(pays0[k] + h)
        slope[k] = (evaluate.rtp(moved) - r0) / h * p.step[k]
    const = r0 - sum(slope[k] * pays0[k] / p.step[k] for k in p.free)
    return LinearModel(const, slope)


def _rtp_range(p: TuningProblem, model: LinearModel) -> tuple[float, float]:
    """Lowest and highest model RTP over the free lines' bounds (monotonic order included): two LPs."""
    # lazy: scipy.optimize adds about 0.6 s to `import ricochet_math` (measured)
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


def check_reachable(p: TuningProblem, model: LinearModel, exact: bool) -> None:
    lo, hi = _rtp_range(p, model)
    if hi < p.window[0] - 1e-12 or lo > p.window[1] + 1e-12:
        how = "" if exact else " (by the linear model of the RTP function)"
        raise RuleError(
            f"target RTP {show_target(p)} is unreachable: with free lines {', '.join(p.free)} within their "
            f"bounds the RTP ranges from {lo:.4%} to {hi:.4%}{how}"
        )


def grid_miss_message(p: TuningProblem, model: LinearModel) -> str:
    lo, hi = _rtp_range(p, model)
    return (f"target RTP {show_target(p)} is unreachable on the step grid: free lines "
            f"{', '.join(p.free)} reach {lo:.4%} to {hi:.4%} but no paytable with these steps lands in the "
            "window; use a finer step, a wider tolerance or free more lines")


def _monotonic_rows(p: TuningProblem) -> tuple[np.ndarray, np.ndarray]:
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


def milp_n_best(p: TuningProblem, model: LinearModel, n_best: int) -> tuple[list[dict[str, int]], int]:
    """The ``n_best`` grid points in the window, best first under the model (no-good cuts between solves).

    Variables: ``x`` (free line indices, integer), ``d`` (distance to the
    centre, scaled), ``c`` (steps moved per line), then two binaries per line
    per point already found (``x`` must differ from it in some line).

    * Point target, two solves per candidate: the least distance ``d*``, then
      the fewest steps moved (then the least distance) among the points in
      the same distance bucket (whole resolutions) as ``d*``: the order of
      :func:`rank_key`.
    * Range target, one solve: the fewest steps moved, then (weighted below
      one step) the distance to the middle of the range.
    """
    # lazy: scipy.optimize adds about 0.6 s to `import ricochet_math` (measured)
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
            # 2. Its distance bucket (whole resolutions, as rank_key) is b or b - 1: try b - 1.
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
