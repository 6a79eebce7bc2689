"""The joint search of a rule-set design: one kickout threshold per player count and one bonus table
shared by all of them, chosen together.

The input is a :class:`DesignModel`: for every player count ``N`` and every allowed threshold ``t``,
the RTP per initial bet as a linear function of the bonus pays (``constant[N][t] + coefficients[N][t] .
pays``, exact at N = 1 from the solo analysis, from a :class:`~ricochet_math.design.threshold_sweep.
ThresholdSweep` at N >= 2, the decisions of one paytable held fixed) with its 95% half-width.  The pays
live on the grid of :mod:`~ricochet_math.design.optimiser_problem` (steps, bounds, "a better hand never
pays less"), as ``ricochet tune`` has them.

Objectives, each a lexicographic order (:func:`score` computes the key of any design; the integer
program and the brute-force twin :func:`enumerate_designs` minimise the same key):

* ``"band"`` (default): the worst miss (how far the worst player count's whole interval lies outside
  the band; 0 when every interval is inside), then the fewest changes (thresholds changed plus bonus
  lines changed), then the largest smallest margin (the interval's distance to the nearer band edge).
* ``"target"``: the smallest worst deviation ``max_N |RTP_N - target|``, then the fewest changes.
* ``"flat"``: the worst miss of the band, then the smallest spread ``max_N RTP_N - min_N RTP_N``, then
  the fewest changes.

Each then breaks what ties remain by the sum over player counts of ``|RTP_N - centre|`` (the band's
middle, or the target): a player count that does not bind the earlier stages is put as near the middle
as it can be, rather than anywhere in the band.

The integer program (``scipy.optimize.milp``, HiGHS): a binary per (N, threshold), an integer per free
line's pays index, the RTP of each N tied to its chosen threshold by big-M rows (the model is bilinear
in threshold choice and pays, and linear once the threshold is fixed), solved once per stage of the key.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ricochet_math.design.optimiser_problem import TuningProblem, plain_number
from ricochet_math.errors import RuleError, quote

__all__ = ["OBJECTIVES", "DesignModel", "DesignChoice", "score", "search_design", "enumerate_designs"]

OBJECTIVES = ("band", "target", "flat")
#: RTPs inside the program are percentage points (fractions x 100), so tolerances read as points
_PTS = 100.0
#: how much worse than a stage's optimum the next stage may go (points): float rounding of the solver
_STAGE_TOL = 1e-6


@dataclass(frozen=True, eq=False)
class DesignModel:
    """What the search sees.  Per player count (``players``, in order): ``patterns[N]`` the allowed
    thresholds, ``constant[N]`` ``float64[T]``, ``coefficients[N]`` ``float64[T, L]`` (columns in
    ``line_keys`` order), ``half_width[N]`` ``float64[T]`` (0 where exact); ``current[N]`` the rule set's
    threshold.  ``problem``: the pays grid (None: the bonus is not varied, ``base_pays`` stays)."""

    players: tuple[int, ...]
    patterns: dict
    constant: dict
    coefficients: dict
    half_width: dict
    current: dict
    line_keys: tuple[str, ...]
    base_pays: dict
    problem: TuningProblem | None = None

    def rtp(self, n: int, pattern: str, pays: dict) -> float:
        t = self.patterns[n].index(pattern)
        return float(self.constant[n][t] + self.coefficients[n][t] @ np.array([float(pays[k]) for k in self.line_keys]))

    def half(self, n: int, pattern: str) -> float:
        return float(self.half_width[n][self.patterns[n].index(pattern)])


@dataclass(frozen=True)
class DesignChoice:
    """A design: a threshold per player count and the bonus pays, with its figures under the model
    (fractions) and its objective ``key`` (see :func:`score`)."""

    thresholds: dict
    pays: dict
    rtp: dict
    half_width: dict
    miss: float
    changes: int
    margin: float
    spread: float
    deviation: float
    key: tuple = field(compare=False)


def score(model: DesignModel, thresholds: dict, pays: dict, band, objective: str = "band",
          target: float | None = None) -> DesignChoice:
    """The figures and objective key of a design under the model (smaller key = better)."""
    lo, hi = band
    rtp = {n: model.rtp(n, thresholds[n], pays) for n in model.players}
    half = {n: model.half(n, thresholds[n]) for n in model.players}
    miss = max(max(lo - (rtp[n] - half[n]), (rtp[n] + half[n]) - hi, 0.0) for n in model.players)
    margin = min(min(rtp[n] - half[n] - lo, hi - rtp[n] - half[n]) for n in model.players)
    changes = sum(thresholds[n] != model.current[n] for n in model.players)
    changes += sum(float(pays[k]) != float(model.base_pays[k]) for k in model.line_keys)
    spread = max(rtp.values()) - min(rtp.values())
    centre = target if target is not None else (lo + hi) / 2
    deviation = max(abs(r - centre) for r in rtp.values())
    total = sum(abs(r - centre) for r in rtp.values())
    r = lambda x: round(x * _PTS, 6)  # keys compare at a millionth of a point: solver rounding
    if objective == "band":
        key = (r(miss), changes, -r(margin), r(total))
    elif objective == "target":
        key = (r(deviation), changes, r(total))
    else:
        key = (r(miss), r(spread), changes, r(total))
    return DesignChoice(dict(thresholds), dict(pays), rtp, half, miss, changes, margin, spread, deviation, key)


# ---------------------------------------------------------------------------- the integer program

def search_design(model: DesignModel, band, objective: str = "band", target: float | None = None) -> DesignChoice:
    """The best design under the model (module docstring), by ``scipy.optimize.milp``."""
    # lazy: scipy.optimize adds about 0.6 s to `import ricochet_math` (measured)
    from scipy.optimize import Bounds, LinearConstraint, milp

    if objective not in OBJECTIVES:
        raise RuleError(f"unknown objective {quote(objective)}; choose one of {', '.join(OBJECTIVES)}")
    lo_b, hi_b = band[0] * _PTS, band[1] * _PTS
    centre = (target if target is not None else (band[0] + band[1]) / 2) * _PTS
    p = model.problem
    free = p.free if p is not None else ()
    keys = model.line_keys
    # variable layout: x (per N, per threshold) | k (free line indices) | r_N | miss_N | m | y (line changed)
    # | s (margin) | u, l (spread) | dev_N
    xs = {}
    nvar = 0
    for n in model.players:
        xs[n] = nvar + np.arange(len(model.patterns[n]))
        nvar += len(model.patterns[n])
    ik = {k: nvar + j for j, k in enumerate(free)}
    nvar += len(free)
    ir = {n: nvar + j for j, n in enumerate(model.players)}
    nvar += len(model.players)
    imiss = {n: nvar + j for j, n in enumerate(model.players)}
    nvar += len(model.players)
    im = nvar
    nvar += 1
    iy = {k: nvar + j for j, k in enumerate(free)}
    nvar += len(free)
    i_s, i_u, i_l = nvar, nvar + 1, nvar + 2
    nvar += 3
    idev = {n: nvar + j for j, n in enumerate(model.players)}
    nvar += len(model.players)

    lb = np.full(nvar, -np.inf)
    ub = np.full(nvar, np.inf)
    integrality = np.zeros(nvar)
    for n in model.players:
        lb[xs[n]], ub[xs[n]], integrality[xs[n]] = 0, 1, 1
    for k in free:
        lb[ik[k]], ub[ik[k]], integrality[ik[k]] = p.lo[k], p.hi[k], 1
        lb[iy[k]], ub[iy[k]], integrality[iy[k]] = 0, 1, 1
    for n in model.players:
        lb[imiss[n]] = 0.0
        lb[idev[n]] = 0.0
    lb[im] = 0.0

    rows, rlo, rhi = [], [], []

    def add(entries: dict, low: float, high: float) -> None:
        row = np.zeros(nvar)
        for j, v in entries.items():
            row[j] += v
        rows.append(row)
        rlo.append(low)
        rhi.append(high)

    fixed_pays = {k: float(model.base_pays[k]) for k in keys if k not in free}
    for n in model.players:
        T = len(model.patterns[n])
        add({int(j): 1.0 for j in xs[n]}, 1.0, 1.0)
        const = np.array(model.constant[n], dtype=float) * _PTS
        coef = np.array(model.coefficients[n], dtype=float) * _PTS
        c_eff = const + sum(coef[:, keys.index(k)] * v for k, v in fixed_pays.items())
        slope = {k: coef[:, keys.index(k)] * p.step[k] for k in free}
        # the RTP's range over every threshold and pays: the big-M
        low_t = c_eff + sum(np.minimum(slope[k] * p.lo[k], slope[k] * p.hi[k]) for k in free)
        high_t = c_eff + sum(np.maximum(slope[k] * p.lo[k], slope[k] * p.hi[k]) for k in free)
        big = float(high_t.max() - low_t.min()) + 1.0
        lb[ir[n]], ub[ir[n]] = float(low_t.min()) - 1.0, float(high_t.max()) + 1.0
        for t in range(T):
            # x = 1  =>  r_N = c_eff[t] + slope[t] . k
            e = {ir[n]: 1.0, int(xs[n][t]): big}
            e.update({ik[k]: -slope[k][t] for k in free})
            add(e, -np.inf, c_eff[t] + big)
            e = {ir[n]: 1.0, int(xs[n][t]): -big}
            e.update({ik[k]: -slope[k][t] for k in free})
            add(e, c_eff[t] - big, np.inf)
        h = np.array(model.half_width[n], dtype=float) * _PTS
        # miss_N >= lo - (r - h),  miss_N >= (r + h) - hi,  m >= miss_N
        add({imiss[n]: 1.0, ir[n]: 1.0, **{int(xs[n][t]): -h[t] for t in range(T)}}, lo_b, np.inf)
        add({imiss[n]: 1.0, ir[n]: -1.0, **{int(xs[n][t]): -h[t] for t in range(T)}}, -hi_b, np.inf)
        if objective != "target":
            add({im: 1.0, imiss[n]: -1.0}, 0.0, np.inf)
        # margin: s <= r - h - lo,  s <= hi - r - h
        add({i_s: 1.0, ir[n]: -1.0, **{int(xs[n][t]): h[t] for t in range(T)}}, -np.inf, -lo_b)
        add({i_s: 1.0, ir[n]: 1.0, **{int(xs[n][t]): h[t] for t in range(T)}}, -np.inf, hi_b)
        # spread: l <= r <= u;  deviation: dev_N >= |r - centre|
        add({i_u: 1.0, ir[n]: -1.0}, 0.0, np.inf)
        add({i_l: 1.0, ir[n]: -1.0}, -np.inf, 0.0)
        add({idev[n]: 1.0, ir[n]: -1.0}, -centre, np.inf)
        add({idev[n]: 1.0, ir[n]: 1.0}, centre, np.inf)
        if objective == "target":  # m is the worst deviation here
            add({im: 1.0, idev[n]: -1.0}, 0.0, np.inf)
    for k in free:  # y_k = 1 when line k moved: |k - k0| <= (hi - lo) y
        k0 = model.base_pays[k] / p.step[k]
        span = p.hi[k] - p.lo[k] + abs(k0) + 1
        add({ik[k]: 1.0, iy[k]: -span}, -np.inf, k0)
        add({ik[k]: 1.0, iy[k]: span}, k0, np.inf)
    if p is not None and p.monotonic:  # a better hand never pays less (all lines, in the problem's order)
        for a, b in zip(p.keys, p.keys[1:]):
            e, const = {}, 0.0
            for key, sign in ((b, 1.0), (a, -1.0)):
                if key in ik:
                    e[ik[key]] = e.get(ik[key], 0.0) + sign * p.step[key]
                else:
                    const += sign * float(model.base_pays[key])
            if e:
                add(e, -const, np.inf)

    changes = np.zeros(nvar)
    for n in model.players:
        cur = model.patterns[n].index(model.current[n]) if model.current[n] in model.patterns[n] else None
        changes[xs[n]] = 1.0
        if cur is not None:
            changes[xs[n][cur]] = 0.0
    for k in free:
        changes[iy[k]] = 1.0
    spread = np.zeros(nvar)
    spread[i_u], spread[i_l] = 1.0, -1.0
    unit = lambda j: np.eye(1, nvar, j)[0]
    total = np.zeros(nvar)  # the last stage: every player count as close to the centre as it can be
    for n in model.players:
        total[idev[n]] = 1.0
    if objective == "band":
        stages = [unit(im), changes, -unit(i_s), total]
    elif objective == "target":
        stages = [unit(im), changes, total]
    else:
        stages = [unit(im), spread, changes, total]
    x = None
    for cost in stages:
        a = np.array(rows)
        res = milp(cost, constraints=LinearConstraint(a, rlo, rhi), integrality=integrality,
                   bounds=Bounds(lb, ub), options={"time_limit": 60.0})
        if res.x is None:
            raise RuleError(f"the design search found no solution ({res.message})")
        x = res.x
        best = float(cost @ x)
        tol = _STAGE_TOL + 1e-9 * abs(best)
        rows.append(cost.copy())
        rlo.append(-np.inf)
        rhi.append(best + tol if not np.array_equal(cost, changes) else math.floor(best + 0.5) + 1e-6)
    thresholds = {n: model.patterns[n][int(np.argmax(x[xs[n]]))] for n in model.players}
    pays = dict(model.base_pays)
    for k in free:
        pays[k] = plain_number(round(x[ik[k]]) * p.step[k])
    return score(model, thresholds, pays, band, objective, target)


# ---------------------------------------------------------------------------- the slow twin

def enumerate_designs(model: DesignModel, band, objective: str = "band", target: float | None = None,
                      limit: int = 2_000_000) -> DesignChoice:
    """Slow twin of :func:`search_design`: every design on the grid scored by :func:`score`; the best.
    For tests on small grids (refuses more than ``limit`` designs)."""
    p = model.problem
    free = p.free if p is not None else ()
    pay_grid = [range(p.lo[k], p.hi[k] + 1) for k in free]
    n_designs = math.prod(len(model.patterns[n]) for n in model.players) * math.prod(len(g) for g in pay_grid)
    if n_designs > limit:
        raise RuleError(f"{n_designs:,} designs are too many to enumerate (limit {limit:,})")
    best = None
    for idx in itertools.product(*pay_grid):
        pays = dict(model.base_pays)
        for k, i in zip(free, idx):
            pays[k] = plain_number(i * p.step[k])
        if p is not None and p.monotonic and any(float(pays[b]) < float(pays[a]) for a, b in zip(p.keys, p.keys[1:])):
            continue
        for combo in itertools.product(*(model.patterns[n] for n in model.players)):
            c = score(model, dict(zip(model.players, combo)), pays, band, objective, target)
            if best is None or c.key < best.key:
                best = c
    if best is None:
        raise RuleError("no design on the grid keeps the bonus monotonic")
    return best
