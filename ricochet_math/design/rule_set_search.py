"""The joint search of a rule-set design: one kickout threshold per player count and one bonus table
shared by all of them, chosen together.

The input is a :class:`DesignModel`: for every player count ``N`` and every allowed threshold ``t``,
the RTP per initial bet as a linear function of the bonus pays (``constant[N][t] + coefficients[N][t] .
pays``, exact at N = 1 from the solo analysis, from a :class:`~ricochet_math.design.threshold_sweep.
ThresholdSweep` at N >= 2, the decisions of one paytable held fixed) with its 95% half-width.  The pays
live on the grid of :mod:`~ricochet_math.design.optimiser_problem` (steps, bounds, "a better hand never
pays less"), as ``ricochet tune`` has them.

**Cuts.**  A model may carry, per player count, more planes (``cuts``): the linear surfaces of other
paytables' decisions.  The RTP of a threshold is then the **largest** of its planes at the pays.  Under
optimal play the seat takes the best decisions for the pays, so the exact solo RTP is the maximum over
decision sets of linear functions of the pays: every re-solved surface is a plane under it (a supporting
plane at its own pays), and the maximum of the planes known is a lower bound of the RTP everywhere,
exact at every paytable re-solved (Kelley's cutting planes, an outer approximation of a convex function).
``trust``: bounds on the free lines' grid indices (a trust region around the paytable of the last
decisions) inside the problem's own bounds.

Objectives, each a lexicographic order (:func:`score` computes the key of any design; the integer
program and the brute-force twin :func:`enumerate_designs` minimise the same key):

* ``"band"`` (default): the worst miss (how far the worst player count's whole interval lies outside
  the band; 0 when every interval is inside), then the fewest changes (thresholds changed plus bonus
  lines changed, from the rule set's own: ``current`` and ``base_pays``), then the largest smallest
  margin (the interval's distance to the nearer band edge).
* ``"target"``: the smallest worst deviation ``max_N |RTP_N - target|``, then the fewest changes.
* ``"flat"``: the worst miss of the band, then the smallest spread ``max_N RTP_N - min_N RTP_N``, then
  the fewest changes.

Each then breaks what ties remain by the sum over player counts of ``|RTP_N - centre|`` (the band's
middle, or the target): a player count that does not bind the earlier stages is put as near the middle
as it can be, rather than anywhere in the band.

The integer program (``scipy.optimize.milp``, HiGHS): a binary per (N, threshold), an integer per free
line's pays index, the RTP of each N tied to its chosen threshold by big-M rows (the model is bilinear
in threshold choice and pays, and linear once the threshold is fixed), and, where a player count has
more than one plane, a binary per plane choosing the one that is the maximum; solved once per stage of
the key.

:func:`relaxed_miss` is the program of the **relaxation** behind a certificate that a band is out of
reach: the player counts in ``lower_bounds`` (N = 1 under an exact reading) are only held to their
planes from below (their RTP may be anything at or above the largest plane, so only the band's upper edge
binds them: a necessary condition), the others to their estimates with their intervals read leniently
(an interval that touches the band counts as in it).  A positive relaxed miss over the whole grid says no
design of the grid puts those player counts in the band together: a proof for the lower-bounded counts,
an estimate for the others.
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from ricochet_math.design.optimiser_problem import TuningProblem, plain_number
from ricochet_math.errors import RuleError, quote

__all__ = ["OBJECTIVES", "DesignModel", "DesignChoice", "Relaxation", "score", "search_design", "relaxed_miss",
           "enumerate_designs"]

OBJECTIVES = ("band", "target", "flat")
#: RTPs inside the program are percentage points (fractions x 100), so tolerances read as points
_PTS = 100.0
#: how much worse than a stage's optimum the next stage may go (points): float rounding of the solver
_STAGE_TOL = 1e-6
#: seconds HiGHS may take for one stage of the integer program (a large grid with many cuts can need them)
STAGE_SECONDS = 120.0


class SearchTimeLimit(RuleError):
    """The integer program's first stage found no solution within :data:`STAGE_SECONDS`."""


@dataclass(frozen=True, eq=False)
class DesignModel:
    """What the search sees.  Per player count (``players``, in order): ``patterns[N]`` the allowed
    thresholds, ``constant[N]`` ``float64[T]``, ``coefficients[N]`` ``float64[T, L]`` (columns in
    ``line_keys`` order), ``half_width[N]`` ``float64[T]`` (0 where exact); ``current[N]`` the rule set's
    threshold.  ``base_pays``: the rule set's own pays (the changes are counted from them; the lines
    that are not free keep them).  ``problem``: the pays grid (None: the bonus is not varied, the pays
    are ``fixed_pays`` or else ``base_pays``).

    ``cuts[N]``: more planes of player count N, a tuple of ``(constant float64[T], coefficients
    float64[T, L])``; the RTP is the largest plane (module docstring).  ``trust``: ``{line: (lo, hi)}``
    grid-index bounds of free lines inside the problem's (a trust region); None: the problem's bounds."""

    players: tuple[int, ...]
    patterns: dict
    constant: dict
    coefficients: dict
    half_width: dict
    current: dict
    line_keys: tuple[str, ...]
    base_pays: dict
    problem: TuningProblem | None = None
    cuts: dict | None = None
    trust: dict | None = None
    fixed_pays: dict | None = None

    def planes(self, n: int) -> list:
        """Every plane of player count ``n``: ``[(constant[T], coefficients[T, L]), ...]``, the primary first."""
        return [(np.asarray(self.constant[n], dtype=float), np.asarray(self.coefficients[n], dtype=float))] + \
            [(np.asarray(c, dtype=float), np.asarray(a, dtype=float)) for c, a in (self.cuts or {}).get(n, ())]

    def rtp(self, n: int, pattern: str, pays: dict) -> float:
        t = self.patterns[n].index(pattern)
        vec = np.array([float(pays[k]) for k in self.line_keys])
        return max(float(c[t] + a[t] @ vec) for c, a in self.planes(n))

    def half(self, n: int, pattern: str) -> float:
        return float(self.half_width[n][self.patterns[n].index(pattern)])

    def pays_fixed(self) -> dict:
        """The pays when the bonus is not varied (``problem`` None)."""
        return dict(self.fixed_pays if self.fixed_pays is not None else self.base_pays)

    def index_bounds(self) -> dict:
        """``{free line: (lo, hi)}`` grid-index bounds: the problem's, inside the trust region if any."""
        p = self.problem
        if p is None:
            return {}
        out = {}
        for k in p.free:
            lo, hi = p.lo[k], p.hi[k]
            if self.trust is not None and k in self.trust:
                lo, hi = max(lo, int(self.trust[k][0])), min(hi, int(self.trust[k][1]))
            out[k] = (lo, hi)
        return out


@dataclass(frozen=True)
class DesignChoice:
    """A design: a threshold per player count and the bonus pays, with its figures under the model
    (fractions) and its objective ``key`` (see :func:`score`); ``unfinished_stages``: tie-break stages of the
    integer program that ran out of time (0: every stage solved to optimality or to its time limit's best)."""

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
    unfinished_stages: int = field(default=0, compare=False)


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

class _Program:
    """The integer program of a model (module docstring): the variables, the rows, and the stage costs.

    ``lower_only``: player counts held to their planes from below only (the relaxation); ``lenient``: the
    other counts' intervals count as in the band when they touch it (the relaxation)."""

    def __init__(self, model: DesignModel, band, objective: str, target: float | None,
                 lower_only=frozenset(), lenient: bool = False):
        lo_b, hi_b = band[0] * _PTS, band[1] * _PTS
        centre = (target if target is not None else (band[0] + band[1]) / 2) * _PTS
        p = model.problem
        free = p.free if p is not None else ()
        bounds = model.index_bounds()
        keys = model.line_keys
        self.model, self.free = model, free
        self.unfinished_stages = 0  # tie-break stages that ran out of time (their earlier stage's solution kept)
        # variable layout: x (per N, per threshold) | z (per N, per plane, where more than one) | k (free line
        # indices) | r_N | miss_N | m | y (line changed) | s (margin) | u, l (spread) | dev_N
        nvar = 0
        xs, zs = {}, {}
        planes = {n: model.planes(n) for n in model.players}
        for n in model.players:
            xs[n] = nvar + np.arange(len(model.patterns[n]))
            nvar += len(model.patterns[n])
        for n in model.players:
            if len(planes[n]) > 1 and n not in lower_only:
                zs[n] = nvar + np.arange(len(planes[n]))
                nvar += len(planes[n])
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
        self.xs, self.ik, self.ir, self.im, self.nvar = xs, ik, ir, im, nvar

        lb = np.full(nvar, -np.inf)
        ub = np.full(nvar, np.inf)
        integrality = np.zeros(nvar)
        for n in model.players:
            lb[xs[n]], ub[xs[n]], integrality[xs[n]] = 0, 1, 1
        for n in zs:
            lb[zs[n]], ub[zs[n]], integrality[zs[n]] = 0, 1, 1
        for k in free:
            lb[ik[k]], ub[ik[k]], integrality[ik[k]] = bounds[k][0], bounds[k][1], 1
            lb[iy[k]], ub[iy[k]], integrality[iy[k]] = 0, 1, 1
        for n in model.players:
            lb[imiss[n]] = 0.0
            lb[idev[n]] = 0.0
        lb[im] = 0.0
        self.lb, self.ub, self.integrality = lb, ub, integrality
        self.rows, self.rlo, self.rhi = [], [], []
        add = self.add

        fixed = model.pays_fixed() if p is None else model.base_pays
        fixed_pays = {k: float(fixed[k]) for k in keys if k not in free}
        for n in model.players:
            T = len(model.patterns[n])
            add({int(j): 1.0 for j in xs[n]}, 1.0, 1.0)
            # each plane's RTP at the fixed lines, and its slope per grid step of each free line (points)
            effs = []
            for const, coef in planes[n]:
                const, coef = const * _PTS, coef * _PTS
                c_eff = const + sum(coef[:, keys.index(k)] * v for k, v in fixed_pays.items())
                slope = {k: coef[:, keys.index(k)] * p.step[k] for k in free}
                effs.append((c_eff, slope))
            # the RTP's range over every threshold, plane and pays: the big-M
            low_t = min(float((c + sum(np.minimum(sl[k] * bounds[k][0], sl[k] * bounds[k][1]) for k in free)).min())
                        for c, sl in effs)
            high_t = max(float((c + sum(np.maximum(sl[k] * bounds[k][0], sl[k] * bounds[k][1]) for k in free)).max())
                         for c, sl in effs)
            big = high_t - low_t + 1.0
            lb[ir[n]] = low_t - 1.0
            ub[ir[n]] = high_t + 1.0 if n not in lower_only else np.inf
            if n in zs:
                add({int(j): 1.0 for j in zs[n]}, 1.0, 1.0)
            for c, (c_eff, slope) in enumerate(effs):
                for t in range(T):
                    # x_t = 1  =>  r_N >= plane c (every plane: r is at least the largest)
                    e = {ir[n]: 1.0, int(xs[n][t]): -big}
                    e.update({ik[k]: -slope[k][t] for k in free})
                    add(e, c_eff[t] - big, np.inf)
                    if n in lower_only:
                        continue
                    # x_t = 1 and z_c = 1 (or the only plane)  =>  r_N <= plane c
                    e = {ir[n]: 1.0, int(xs[n][t]): big}
                    e.update({ik[k]: -slope[k][t] for k in free})
                    if n in zs:
                        e[int(zs[n][c])] = big
                        add(e, -np.inf, c_eff[t] + 2 * big)
                    else:
                        add(e, -np.inf, c_eff[t] + big)
            h = np.array(model.half_width[n], dtype=float) * _PTS
            if n in lower_only:
                h = np.zeros_like(h)
            sign = -1.0 if lenient and n not in lower_only else 1.0  # lenient: the interval need only touch
            # miss_N >= lo - (r - h),  miss_N >= (r + h) - hi,  m >= miss_N
            add({imiss[n]: 1.0, ir[n]: 1.0, **{int(xs[n][t]): -sign * h[t] for t in range(T)}}, lo_b, np.inf)
            add({imiss[n]: 1.0, ir[n]: -1.0, **{int(xs[n][t]): -sign * h[t] for t in range(T)}}, -hi_b, np.inf)
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
        for k in free:  # y_k = 1 when line k moved from the rule set's pays: |k - k0| <= span y
            k0 = model.base_pays[k] / p.step[k]
            span = p.hi[k] - p.lo[k] + abs(k0) + 1
            add({ik[k]: 1.0, iy[k]: -span}, -np.inf, k0)
            add({ik[k]: 1.0, iy[k]: span}, k0, np.inf)
        if p is not None and p.monotonic:  # a better hand never pays less (all lines, in the problem's order)
            for a, b in zip(p.keys, p.keys[1:]):
                e, const = {}, 0.0
                for key, sgn in ((b, 1.0), (a, -1.0)):
                    if key in ik:
                        e[ik[key]] = e.get(ik[key], 0.0) + sgn * p.step[key]
                    else:
                        const += sgn * float(model.base_pays[key])
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
        self.changes = changes
        if objective == "band":
            self.stages = [unit(im), changes, -unit(i_s), total]
        elif objective == "target":
            self.stages = [unit(im), changes, total]
        else:
            self.stages = [unit(im), spread, changes, total]

    def add(self, entries: dict, low: float, high: float) -> None:
        row = np.zeros(self.nvar)
        for j, v in entries.items():
            row[j] += v
        self.rows.append(row)
        self.rlo.append(low)
        self.rhi.append(high)

    def solve(self, stages: int | None = None) -> np.ndarray:
        """Minimise the stages in order (the first ``stages`` of them), each held near its optimum for the
        next; the last solution."""
        # lazy: scipy.optimize adds about 0.6 s to `import ricochet_math` (measured)
        from scipy.optimize import Bounds, LinearConstraint, milp

        x = None
        for cost in self.stages[:stages]:
            a = np.array(self.rows)
            res = milp(cost, constraints=LinearConstraint(a, self.rlo, self.rhi), integrality=self.integrality,
                       bounds=Bounds(self.lb, self.ub), options={"time_limit": STAGE_SECONDS})
            if res.x is None:
                if x is None:
                    raise SearchTimeLimit(f"the design search found no solution ({res.message})")
                # a tie-break stage that found nothing better within its time: the earlier stage's solution
                # satisfies every row so far, so it stands (the stages after it only break ties)
                self.unfinished_stages += 1
                break
            x = res.x
            best = float(cost @ x)
            tol = _STAGE_TOL + 1e-9 * abs(best)
            self.rows.append(cost.copy())
            self.rlo.append(-np.inf)
            self.rhi.append(best + tol if not np.array_equal(cost, self.changes) else math.floor(best + 0.5) + 1e-6)
        return x

    def design(self, x) -> tuple[dict, dict]:
        """The thresholds and the full pays of a solution."""
        m, p = self.model, self.model.problem
        thresholds = {n: m.patterns[n][int(np.argmax(x[self.xs[n]]))] for n in m.players}
        pays = m.pays_fixed() if p is None else dict(m.base_pays)
        for k in self.free:
            pays[k] = plain_number(round(x[self.ik[k]]) * p.step[k])
        return thresholds, pays


def _check_objective(objective: str) -> None:
    if objective not in OBJECTIVES:
        raise RuleError(f"unknown objective {quote(objective)}; choose one of {', '.join(OBJECTIVES)}")


def search_design(model: DesignModel, band, objective: str = "band", target: float | None = None) -> DesignChoice:
    """The best design under the model (module docstring), by ``scipy.optimize.milp``."""
    _check_objective(objective)
    prog = _Program(model, band, objective, target)
    thresholds, pays = prog.design(prog.solve())
    return dataclasses.replace(score(model, thresholds, pays, band, objective, target),
                               unfinished_stages=prog.unfinished_stages)


@dataclass(frozen=True)
class Relaxation:
    """The relaxation's answer (:func:`relaxed_miss`): the smallest worst miss of the relaxed program
    (fraction; 0: the relaxation puts every player count in the band), the design where it is reached, the
    relaxed RTP per player count there (fractions: at least the largest plane for the lower-bounded
    counts), and the free lines sitting at a bound of the grid there (``{line: "upper"|"lower"}``)."""

    miss: float
    players: tuple[int, ...]
    thresholds: dict
    pays: dict
    rtp: dict
    at_bound: dict


def relaxed_miss(model: DesignModel, band, lower_bounds=(1,), players=None) -> Relaxation:
    """The relaxation of the band over the model's whole grid (module docstring; the trust region is
    dropped): ``lower_bounds`` the player counts whose planes are lower bounds of the RTP (held from
    below only), ``players`` a subset of the model's player counts (default all)."""
    if players is not None:
        keep = tuple(n for n in model.players if n in set(players))
        pick = lambda d: {n: d[n] for n in keep}
        model = dataclasses.replace(
            model, players=keep, patterns=pick(model.patterns), constant=pick(model.constant),
            coefficients=pick(model.coefficients), half_width=pick(model.half_width), current=pick(model.current),
            cuts=None if model.cuts is None else {n: model.cuts[n] for n in keep if n in model.cuts})
    model = dataclasses.replace(model, trust=None)
    lower = frozenset(n for n in lower_bounds if n in model.players)
    prog = _Program(model, band, "band", None, lower_only=lower, lenient=True)
    x = prog.solve(stages=1)
    thresholds, pays = prog.design(x)
    p = model.problem
    at_bound = {}
    for k in prog.free:
        i = int(round(x[prog.ik[k]]))
        if i >= p.hi[k]:
            at_bound[k] = "upper"
        elif i <= p.lo[k]:
            at_bound[k] = "lower"
    return Relaxation(max(0.0, float(x[prog.im]) / _PTS), model.players, thresholds, pays,
                      {n: float(x[prog.ir[n]]) / _PTS for n in model.players}, at_bound)


# ---------------------------------------------------------------------------- the slow twin

def enumerate_designs(model: DesignModel, band, objective: str = "band", target: float | None = None,
                      limit: int = 2_000_000) -> DesignChoice:
    """Slow twin of :func:`search_design`: every design on the grid scored by :func:`score`; the best.
    For tests on small grids (refuses more than ``limit`` designs)."""
    p = model.problem
    free = p.free if p is not None else ()
    bounds = model.index_bounds()
    pay_grid = [range(bounds[k][0], bounds[k][1] + 1) for k in free]
    n_designs = math.prod(len(model.patterns[n]) for n in model.players) * math.prod(len(g) for g in pay_grid)
    if n_designs > limit:
        raise RuleError(f"{n_designs:,} designs are too many to enumerate (limit {limit:,})")
    best = None
    for idx in itertools.product(*pay_grid):
        pays = model.pays_fixed() if p is None else dict(model.base_pays)
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
