"""Design a rule set for every player count at once: one kickout threshold per player count and one
bonus table shared by all, chosen so that N = 1..7 land in an RTP band under a chosen player model.

:func:`design_rule_set` is the whole job (``ricochet design``):

1. **The RTP surface.**  N = 1 is exact: one solo analysis gives every threshold at once
   (:meth:`~ricochet_math.solvers.solo.SoloAnalysis.rtp_with_pays`, linear in the bonus pays for its
   decisions).  N >= 2 is one Monte Carlo sweep per player count
   (:mod:`~ricochet_math.design.threshold_sweep`): one control-variate run at the rule set's threshold
   plus replays of the rounds another grid threshold changes, so every threshold of the finder's
   pattern grid is estimated on the same deals (common random numbers), linear in the pays.
2. **The search** (:mod:`~ricochet_math.design.rule_set_search`): an integer program over the
   thresholds and the bonus pays (steps, bounds, monotonic order as ``ricochet tune`` has them; the
   Quickdraw and Cover tables are never touched), under one of three objectives (``band``,
   ``target``, ``flat``).
3. **Re-solving the decisions: cutting planes and a trust region.**  Under perfect play the decisions
   depend on the bonus.  For fixed decisions the RTP is linear in the pays; the seat takes the best
   decisions for the pays, so the exact solo RTP is the maximum of those linear functions over decision
   sets, convex in the pays, and each re-solved surface is a plane under it that touches it at its own
   pays.  The search therefore **keeps every re-solved surface as a cut** (Kelley's method): the RTP of a
   design is the largest plane known (a lower bound at N = 1, exact at every paytable re-solved), so the
   band's upper edge must hold under every cut (necessary) and the lower edge holds where any cut
   reaches it (sufficient).  The pays may move, per search, by at most a factor (the trust region,
   ``_RADIUS_START``, at least one grid step) from the centre's, the best re-solved paytable so far; the
   factor shrinks when a re-solve disagrees with the cut model.  A proposal is re-solved (N = 1: a new
   exact solo analysis; N >= 2: new sweeps on the **same seeds and rounds**, paired round for round) and
   the iteration recorded (``iterations``: the linear shortcut of the centre's surface, the cut model and
   the re-solved figure per player count, their gaps, plain and paired).  At N >= 2 the convexity is
   measured: every earlier plane against the re-solved figure (``convexity``, paired); the first plane
   that over-predicts by more than the search precision drops that player count to its centre's surface
   alone (the trust region alone).  The search stops when the pays stop moving (the cut model's design
   is a paytable already re-solved) or the cut model and the re-solved figures agree within the search
   precision at the proposed design: **converged**; else after ``max_resolves`` re-solves, **not
   converged**, labelled so.  The design reported is the best re-solved paytable on its own surface, so
   it always carries its own decisions.  When the band is missed, :func:`~ricochet_math.design.
   rule_set_search.relaxed_miss` over the whole grid gives the certificate (``certificate``): N = 1's
   planes bound its exact RTP from below, so a pair "N = 1 and N = k" the relaxation cannot put in the
   band together is a proof for the grid at N = 1 and an estimate (with its interval) at N = k.
4. **Confirmation on fresh seeds.**  The search picks the luckiest of many candidates, so its own
   estimates are biased towards the band.  Every N >= 2 of the chosen design is run again with
   :func:`~ricochet_math.solvers.montecarlo.simulate_to_precision` to a 95% half-width of
   ``confirm_precision`` points on seeds that took no part in the search (:func:`role_seed`: one
   stream per role and player count); the table reports those figures.  N = 1 is exact.
5. **Robustness.**  The same design under other player models (``others``: publisher-like readings,
   weak players, a best-responding seat ``perfect-vs-X`` whose own RTP is shown), each at
   ``other_precision`` points.

An infeasible band is a result, not an error: the closest design (the smallest worst miss) is
returned with ``feasible = False`` and the miss.
"""
from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math._version import __version__
from ricochet_math.arguments import check_seed, check_whole, split_items
from ricochet_math.design.design_record import (  # noqa: F401 (the seed roles re-exported: their home was here)
    CONFIRM, DESIGN_SCHEMA, OTHERS, SEARCH, check_design_files, design_sidecar_path, record_digest, role_seed,
    NOT_MET, verdict_text,
)
from ricochet_math.design.kickout import DEFAULT_GRID, parse_grid
from ricochet_math.design.optimiser_problem import make_problem, plain_number
from ricochet_math.design.optimiser_result import extends_parent
from ricochet_math.design.rule_set_search import (OBJECTIVES, STAGE_SECONDS, DesignChoice, DesignModel, SearchTimeLimit,
                                                  relaxed_miss, search_design)
from ricochet_math.design.threshold_sweep import sweep_players
from ricochet_math.engine.deal import check_players
from ricochet_math.errors import RuleError
from ricochet_math.rules.checks import check_name, name_from_stem
from ricochet_math.rules.ruleset import CATEGORY_PATTERNS, MAX_PLAYERS, RuleSet, load_rules
from ricochet_math.rules.toml_writer import paytable_line, toml_value
from ricochet_math.solvers.executors import executor_for_run
from ricochet_math.solvers.montecarlo import simulate_to_precision
from ricochet_math.solvers.solo import solo_analysis
from ricochet_math.solvers.solo_kernel import bonus_lines
from ricochet_math.storage import atomic_write_text, file_sha256, frame_records, seed_values
from ricochet_math.strategies.registry import get_strategy

__all__ = ["VARY", "DESIGN_SCHEMA", "DEFAULT_OTHERS", "SEARCH", "CONFIRM", "OTHERS", "role_seed", "RuleSetDesign",
           "design_rule_set", "design_sidecar_path", "check_design_files", "MAX_RESOLVES", "DEFAULT_RESOLVES",
           "convexity_by_players"]

VARY = ("kickout", "bonus")
#: the other player models the design is shown under: the best publisher-like reading, the dealer-only
#: pot-odds reading, two weak players (too loose, too tight) and one perfect seat at a pot-odds table
DEFAULT_OTHERS = ("pub-final-dealer-no-bonus", "pot-odds-final", "chaser", "timid", "perfect-vs-pot-odds-final")
#: the most re-solves of the decisions a design may ask for (each is a new exact solo analysis and look-ahead
#: surface)
MAX_RESOLVES = 20
#: the default number of re-solves (each a new exact solo analysis and look-ahead surface)
DEFAULT_RESOLVES = 8
#: RTP fractions to percentage points
_PTS_PER_FRACTION = 100.0


def _exact_bonus_use(name: str) -> bool | None:
    """How the exact solo analysis reads a strategy at N = 1: True (decides with the bonus), False
    (ignores it), None (not a look-ahead reading: no exact N = 1).  With one player every look-ahead
    reading is the same rule except the no-bonus ones (no later seat; :mod:`ricochet_math.reports.published`);
    ``A-vs-B``'s one seat reads ``A``."""
    s = get_strategy(name)
    if not s.uses_look_ahead:
        return None
    own = s.name.split("-vs-")[0]
    return not own.endswith("no-bonus")


@dataclass(frozen=True, eq=False)
class RuleSetDesign:
    """The result of :func:`design_rule_set`.

    ``rules``: the input; ``designed``: the rule set chosen (``kickout`` and ``bonus`` changed, nothing
    else); ``table``: per player count, the threshold (and the input's), the search's estimate and the
    **confirmation** on fresh seeds with its interval (fractions), and whether that interval lies in
    the band; ``others``: the design under other player models; ``shortcut``: the linear shortcut's
    error at each re-solve; ``iterations``: per re-solve and player count, the proposed design's linear
    shortcut, cut-model and re-solved RTP and their gaps; ``convexity``: every earlier cut against each
    re-solved figure; ``converged`` / ``stop_reason``: how the search ended; ``certificate``: when the band
    is missed, the relaxation's answer (``text``, ``binding`` player counts and lines) or None;
    ``cut_model``: every plane known, on the whole grid; ``log``: the progress lines.  ``feasible``: the search found every interval
    inside the band (objective ``band`` / ``flat``); ``miss``: the search's worst miss (0 when
    feasible); ``confirmed``: every confirmed interval inside the band.
    """

    rules: RuleSet
    designed: RuleSet
    band: tuple[float, float]
    reading: str
    vary: tuple[str, ...]
    objective: str
    target: float | None
    choice: DesignChoice
    table: pd.DataFrame
    others: pd.DataFrame
    shortcut: pd.DataFrame
    seed: int
    search_precision: float
    confirm_precision: float
    evaluated: int
    resolves: int
    log: tuple[str, ...]
    seconds: float
    version: str = __version__
    grid: tuple[str, ...] = field(default=())
    model: DesignModel | None = field(default=None, repr=False)
    iterations: pd.DataFrame | None = field(default=None, repr=False)
    convexity: pd.DataFrame | None = field(default=None, repr=False)
    converged: bool = True
    stop_reason: str = ""
    certificate: dict | None = None
    nonconvex: tuple[int, ...] = ()
    cut_model: DesignModel | None = field(default=None, repr=False)

    @property
    def feasible(self) -> bool:
        return self.choice.miss <= 0.0

    @property
    def miss(self) -> float:
        return float(self.choice.miss)

    @property
    def confirmed(self) -> bool:
        return bool(self.table["in_band"].all())

    @property
    def confirmed_miss(self) -> float:
        """How far the worst confirmed interval lies outside the band (fraction; 0 inside)."""
        lo, hi = self.band
        return float(max(0.0, (lo - self.table["rtp_low"]).max(), (self.table["rtp_high"] - hi).max()))

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> str:
        lo, hi = self.band
        t = self.table
        head = (f"Rule-set design from {self.rules.name}: band {lo:.2%}..{hi:.2%}, reading {self.reading}, "
                f"vary {', '.join(self.vary)}, objective {self.objective}"
                + (f" (target {self.target:.2%})" if self.target is not None else ""))
        if self.feasible:
            verdict = "feasible: the search put every player count's interval inside the band"
        elif self.certificate is not None and self.certificate["relaxed_miss"] <= 0:
            verdict = (f"no design in the band found (not proven out of reach): the closest design the search reached "
                       f"misses it by {self.miss * 100:.3f} points (worst player count's interval outside it)")
        else:
            verdict = (f"infeasible on this grid: closest design misses the band by {self.miss * 100:.3f} points "
                       f"(worst player count's interval outside it)")
        conf = ("confirmed on fresh seeds: every interval inside the band" if self.confirmed else
                f"NOT confirmed on fresh seeds: the worst interval lies {self.confirmed_miss * 100:.3f} points "
                f"outside the band (N = {', '.join(str(int(n)) for n in t.loc[~t.in_band, 'players'])})")
        kick = ", ".join(f"{int(r.players)}: {r.threshold}" + ("" if r.threshold == r.was else f" (was {r.was})")
                         for r in t.itertuples())
        base = dict((l.key, l.pays) for l in self.rules.bonus)
        bonus = ", ".join(f"{l.key} {l.pays:g}" + ("" if float(l.pays) == float(base[l.key]) else
                                                  f" (was {base[l.key]:g})") for l in self.designed.bonus)
        lines = [head, f"  {verdict}", f"  {conf}", f"  {self.convergence_text()}"]
        if self.certificate is not None:
            lines.append(f"  {self.certificate['text']}")
        lines += [f"  kickout: {kick}", f"  bonus: {bonus}",
                 f"  {self.evaluated:,} (player count, threshold) cells evaluated, {self.resolves} re-solve(s), "
                 f"seed {self.seed}, {self.seconds:.0f} s"]
        if self.iterations is not None and len(self.iterations):
            it = self.iterations
            lines.append(f"  linear shortcut (the centre's decisions): worst error {it.linear_error.abs().max() * 100:.3f} "
                         f"points; cut model: worst error {it.gap.abs().max() * 100:.3f} points, at the proposed designs "
                         "(table 'iterations')")
        if self.nonconvex:
            lines.append(f"  not convex on our surfaces at N = {', '.join(map(str, self.nonconvex))} (a plane "
                         "over-predicted a re-solve): the trust region alone there (table 'convexity')")
        return "\n".join(lines)

    def verdict(self) -> str:
        """One line, the design's outcome first (:func:`~ricochet_math.design.design_record.verdict_text`):
        "feasible and confirmed", or what failed.  The written rule set's header and description carry it,
        so a file is never read as meeting a band it misses."""
        t = self.table
        return verdict_text(self.feasible, self.miss, self.confirmed, self.confirmed_miss,
                            [int(n) for n in t.loc[~t.in_band, "players"]], self.converged)

    def convergence_text(self) -> str:
        """One line: converged (and how) or not, with the re-solves it took."""
        head = "converged" if self.converged else "NOT converged"  # the label the table, header and report carry
        reason = self.stop_reason.removeprefix("converged: ").removeprefix("not converged: ")
        return f"{head} after {self.resolves} re-solve(s): {reason}"

    # ---- writing

    def to_toml(self, path: str | Path | None = None, *, name: str | None = None) -> str:
        """The designed rule set as a TOML file that ``extends`` the input rule set (every kickout
        threshold and bonus line written, changed ones marked ``# was``), its verdict (:meth:`verdict`) and
        confirmed figures in the header; the description says "not met" unless the design is feasible,
        confirmed and converged."""
        parent = extends_parent(self.rules, path)
        stem = Path(path).stem if path is not None else f"{self.rules.name}-design"
        name = check_name(name, "", "name") if name else name_from_stem(stem)
        lo, hi = self.band
        ok = self.feasible and self.confirmed and self.converged
        description = (f"{self.rules.name} designed for RTP {lo:.2%}..{hi:.2%} at N = "
                       f"{int(self.table.players.min())}..{int(self.table.players.max())} under {self.reading}"
                       + ("" if ok else NOT_MET))
        out = [f"# {description}.",
               f"# Verdict: {self.verdict()}.",
               f"# Generated by ricochet design (ricochet_math {self.version}) from {self.rules.name} "
               f"(sha256 {self.rules.sha256[:12]}); seed {self.seed}.",
               f"# Search: {self.convergence_text()}.",
               "# Confirmed RTP per initial bet on fresh seeds (95% intervals):"]
        for r in self.table.itertuples():
            iv = "exact" if r.rtp_low == r.rtp_high else f"{r.rtp_low:.3%} to {r.rtp_high:.3%}"
            out.append(f"#   N = {int(r.players)}: {r.rtp:.3%} ({iv})")
        out += ["", f"extends = {toml_value(str(parent))}", f"name = {toml_value(str(name))}",
                f"description = {toml_value(description)}", "", "[kickout]"]
        for n in range(1, MAX_PLAYERS + 1):
            new, old = self.designed.kickout[n], self.rules.kickout[n]
            out.append(f"{n} = {toml_value(new)}" + ("" if new == old else f"   # was {old}"))
        out += ["", "[bonus]"]
        base = {l.key: l.pays for l in self.rules.bonus}
        for line in self.designed.bonus:
            was = "" if float(line.pays) == float(base[line.key]) else f"   # was {plain_number(base[line.key])}"
            out.append(paytable_line(line.key, line.hand_pattern, plain_number(line.pays),
                                     category_pattern=CATEGORY_PATTERNS.get(line.key)) + was)
        return "\n".join(out) + "\n"

    def sidecar(self) -> dict:
        """What the report's "Design rationale" section reads: the design's inputs and tables (JSON)."""
        return {"schema": DESIGN_SCHEMA, "version": self.version, "input_rules": self.rules.name,
                "input_sha256": self.rules.sha256, "band": list(self.band), "reading": self.reading,
                "vary": list(self.vary), "objective": self.objective, "target": self.target, "seed": self.seed,
                "grid": list(self.grid), "search_precision_pp": self.search_precision,
                "confirm_precision_pp": self.confirm_precision, "feasible": self.feasible, "miss": self.miss,
                "confirmed": self.confirmed, "evaluated": self.evaluated, "resolves": self.resolves,
                "seconds": self.seconds, "table": frame_records(self.table),
                "others": frame_records(self.others),
                "shortcut": frame_records(self.shortcut),
                "converged": self.converged, "stop_reason": self.stop_reason,
                "convergence": self.convergence_text(), "certificate": self.certificate,
                "nonconvex": list(self.nonconvex),
                "iterations": [] if self.iterations is None else frame_records(self.iterations),
                "convexity": [] if self.convexity is None else frame_records(self.convexity),
                "bonus_changes": [f"{l.key} {plain_number(b.pays)} -> {plain_number(l.pays)}"
                                  for l, b in zip(self.designed.bonus, self.rules.bonus)
                                  if float(l.pays) != float(b.pays)]}

    def write_toml(self, path: str | Path, *, name: str | None = None) -> Path:
        """Write :meth:`to_toml` to ``path`` and the design's tables beside it
        (:func:`design_sidecar_path`), each whole or not at all.  Returns the TOML's path.

        An existing file at either path is replaced only if this toolkit wrote the pair and neither was
        edited since (:func:`check_design_files`); otherwise one :class:`~ricochet_math.errors.RuleError`
        line, with nothing written."""
        path, side = check_design_files(path)
        text = self.to_toml(path, name=name)
        atomic_write_text(path, text, "designed rule-set file")
        # the record names the rule set as written (its SHA-256 with the files it extends, and the file's own
        # bytes), so a report can tell a record from an edited file and a rewrite can tell ours from a user's
        record = self.sidecar() | {"designed_sha256": load_rules(path).sha256, "rules_file": Path(path).name,
                                   "rules_file_sha256": file_sha256(path)}
        record["record_sha256"] = record_digest(record)
        atomic_write_text(side, json.dumps(record, indent=1) + "\n", "design record")
        return path


# ---------------------------------------------------------------------------- checks

def _check_band(band) -> tuple[float, float]:
    try:
        lo, hi = (float(x) for x in band)
    except (TypeError, ValueError):
        raise RuleError(f"band must be (lo, hi) RTP fractions such as (0.9597, 0.9691), got {band!r}") from None
    for x in (lo, hi):
        if not math.isfinite(x) or not 0.0 < x < 2.0:
            raise RuleError(f"band edge {x!r} is not an RTP fraction in (0, 2) (e.g. 0.9597 for 95.97%)")
    if lo > hi:
        raise RuleError(f"band is inverted: {lo:.4%} > {hi:.4%}")
    if lo == hi:
        raise RuleError(f"band is empty: both edges are {lo:.4%}")
    return lo, hi


def _check_vary(vary) -> tuple[str, ...]:
    items = [vary] if isinstance(vary, str) else list(vary)
    # one grammar for lists written as text: 'kickout,' or 'kickout,,bonus' is refused, not read as 'kickout'
    items = [v for item in items for v in split_items(str(item), "vary", error=RuleError)] if items else []
    for v in items:
        if v not in VARY:
            raise RuleError(f"vary: unknown part {v!r}; choose from {', '.join(VARY)}")
    if not items:
        raise RuleError(f"vary: nothing to vary; choose from {', '.join(VARY)}")
    return tuple(v for v in VARY if v in items)


def _pays_problem(rules: RuleSet, band, lines, step, bounds, monotonic):
    """The bonus grid (:func:`~ricochet_math.design.optimiser_problem.make_problem`), refusing bounds that
    exclude a line's current pays (the search starts from them)."""
    if isinstance(lines, str):
        lines = split_items(lines, "bonus lines", error=RuleError)
    p = make_problem(rules.bonus, lines, tuple(band), step, monotonic, bounds, None, 0.001, 1)
    for k in p.free:
        base = p.base[k]
        if not p.lo[k] * p.step[k] - 1e-9 <= base <= p.hi[k] * p.step[k] + 1e-9:
            raise RuleError(f"bounds of bonus line {k!r} ({p.lo[k] * p.step[k]:g}..{p.hi[k] * p.step[k]:g} on step "
                            f"{p.step[k]:g}) exclude its current pays {base:g}")
    return p


# ---------------------------------------------------------------------------- the surface

def _solo_model(rules: RuleSet, use_bonus: bool, patterns, progress):
    """N = 1, exact: constant and coefficients per threshold for the decisions of ``rules``' pays."""
    a = solo_analysis(rules, use_bonus=use_bonus, progress=progress)
    k = len(a.pays)
    const, coef = [], []
    for pat, v in patterns:
        c = a.rtp_with_pays(np.zeros(k), v)["rtp_per_initial_bet"]
        row = []
        for ln in range(1, k):
            e = np.zeros(k)
            e[ln] = 1.0
            row.append(a.rtp_with_pays(e, v)["rtp_per_initial_bet"] - c)
        const.append(c)
        coef.append(row)
    return np.array(const), np.array(coef), np.zeros(len(patterns)), a.seconds


class _Surface:
    """The RTP surface for one set of bonus pays (the decisions' pays), built per player count."""

    def __init__(self, rules, reading, players, grids, seed, precision, executor, say, like=None):
        """``like``: a surface whose sweeps' round counts this one repeats (a re-solve: the same seeds and
        the same rounds, so the two surfaces are paired round for round)."""
        self.rules = rules
        self.const, self.coef, self.half, self.sweeps, self.shift = {}, {}, {}, {}, {}
        exact = _exact_bonus_use(reading)
        for n in players:
            t0 = time.perf_counter()
            pats = grids[n]
            if n == 1 and exact is not None:
                c, a, h, _ = _solo_model(rules, exact, pats, progress=False)
                how = "exact (solo analysis)"
            else:
                last = [0.0]

                def tick(done, total, n=n):
                    if time.perf_counter() - last[0] > 30 or done == total:
                        last[0] = time.perf_counter()
                        say(f"    N={n}: {done}/{total} chunks", transient=True)

                rounds = like.sweeps[n].rounds if like is not None and n in like.sweeps else None
                sw = sweep_players(rules, n, reading, [p for p, _ in pats], seed=role_seed(seed, SEARCH, n),
                                   precision=precision, rounds=rounds, executor=executor, progress=tick)
                order = [sw.patterns.index(p) for p, _ in pats]
                c, a, h = sw.constant()[order], sw.coefficients()[order], sw.half_width()[order]
                # the control variates shift the whole surface by one constant (the reference run's adjustment at
                # its pays): kept apart, so another surface's plane can be put on this one's footing, paired
                self.shift[n] = c - sw.constant(plain=True)[order]
                self.sweeps[n] = sw
                how = f"{sw.rounds:,} rounds, {sw.replayed:,} replayed"
            self.const[n], self.coef[n], self.half[n] = c, a, h
            say(f"  N={n}: {len(pats)} thresholds, {how}, {time.perf_counter() - t0:.1f} s")

    def model(self, players, grids, current, line_keys, base_pays, problem) -> DesignModel:
        return DesignModel(tuple(players), {n: tuple(p for p, _ in grids[n]) for n in players}, self.const,
                           self.coef, self.half, current, line_keys, base_pays, problem)


# ---------------------------------------------------------------------------- the job

def design_rule_set(rules=None, band=(0.9597, 0.9691), *, reading: str = "perfect",
                    vary: Iterable[str] | str = ("kickout", "bonus"), objective: str = "band",
                    target: float | None = None, players: Iterable[int] = range(1, 8), grid=DEFAULT_GRID,
                    lines: Iterable[str] | str | None = None, step: float | Mapping[str, float] = 1,
                    bounds=None, monotonic: bool = True, seed: int = 2026, search_precision: float = 0.1,
                    confirm_precision: float = 0.05, others: Iterable[str] = DEFAULT_OTHERS,
                    other_precision: float = 0.2, max_resolves: int = DEFAULT_RESOLVES, executor=None,
                    progress: bool = False) -> RuleSetDesign:
    """Design a kickout table and bonus for every player count at once (module docstring).

    ``band``: (lo, hi) RTP per initial bet, fractions.  ``reading``: the player model of the design
    (any strategy name; ``perfect`` by default).  ``vary``: ``"kickout"``, ``"bonus"`` or both.
    ``objective``: ``"band"``, ``"target"`` (needs ``target``, a fraction) or ``"flat"``.  ``grid``: the
    threshold patterns each player count may take (the kickout finder's grid; the rule set's own
    threshold is always allowed).  ``lines``, ``step``, ``bounds``, ``monotonic``: the bonus grid, as
    :func:`~ricochet_math.design.tuning.tune_bonus` (default bounds: ``step`` to 10 x the current
    pays).  ``search_precision`` / ``confirm_precision`` / ``other_precision``: 95% half-widths in
    percentage points of the search's sweeps, the confirmation and the other readings.
    ``executor``: None (local threads), a Dask client or scheduler address: the same digits.

    Every argument is checked before any work: one :class:`~ricochet_math.errors.RuleError` (or
    ``StrategyError``) line each.
    """
    t_start = time.perf_counter()
    rules = load_rules(rules)
    band = _check_band(band)
    vary = _check_vary(vary)
    get_strategy(reading)
    others = tuple(others)
    for o in others:
        get_strategy(o)
    if objective not in OBJECTIVES:
        raise RuleError(f"unknown objective {objective!r}; choose one of {', '.join(OBJECTIVES)}")
    if objective == "target":
        if target is None or not isinstance(target, (int, float)) or not 0.0 < float(target) < 2.0:
            raise RuleError(f"objective 'target' needs a target RTP fraction in (0, 2), got {target!r}")
        target = float(target)
    elif target is not None:
        raise RuleError(f"a target RTP is only used with objective 'target' (objective is {objective!r})")
    players = sorted({check_players(n) for n in ([players] if isinstance(players, int) else players)})
    if not players:
        raise RuleError("players: no player count given")
    seed = check_seed(seed, allow_none=False)
    max_resolves = check_whole(max_resolves, "max_resolves", low=0, high=MAX_RESOLVES)
    for what, v in (("search_precision", search_precision), ("confirm_precision", confirm_precision),
                    ("other_precision", other_precision)):
        if not isinstance(v, (int, float)) or not 0.0 < float(v) <= 10.0:
            raise RuleError(f"{what} must be a half-width in percentage points in (0, 10], got {v!r}")
    problem = _pays_problem(rules, band, lines, step, bounds, monotonic) if "bonus" in vary else None
    points = parse_grid(grid) if "kickout" in vary else []
    grids = {}
    for n in players:
        own = (rules.kickout[n], rules.kickout_value(n))
        pts = [p for p in points if p[1] != own[1]] + [own]
        grids[n] = sorted(pts, key=lambda t: t[1])
    current = {n: rules.kickout[n] for n in players}
    _, base_vec, names = bonus_lines(rules.bonus)
    line_keys = tuple(names[1:])

    log: list[str] = []

    def say(text: str, transient: bool = False) -> None:
        if not transient:
            log.append(text)
        if progress:
            print(text, file=sys.stderr, flush=True)

    evaluated = 0
    with executor_for_run(executor) as runner:
        origin = {k: plain_number(v) for k, v in zip(line_keys, base_vec[1:])}
        say(f"design: {len(players)} player count(s), reading {reading}, vary {', '.join(vary)}, "
            f"objective {objective}; building the RTP surface")
        search = _CutSearch(rules, reading, players, grids, current, line_keys, origin, problem, band, objective,
                            target, seed, search_precision, runner, say)
        evaluated += sum(len(grids[n]) for n in players)
        search.run(max_resolves)
        evaluated += search.resolves * sum(len(grids[n]) for n in players)
        choice, final_model = search.final()
        say(f"  design: {search.status_text()}")
        certificate = search.certificate(final_model) if choice.miss > 0 and objective != "target" else None
        designed = rules.with_bonus(**{k: choice.pays[k] for k in line_keys}) if problem is not None else rules
        for n in players:
            if choice.thresholds[n] != rules.kickout[n]:
                designed = designed.with_kickout(n, choice.thresholds[n])
        say("confirmation on fresh seeds")
        table = _confirm(designed, rules, reading, players, band, choice, seed, confirm_precision, runner, say)
        table["search"] = "converged" if search.converged else "NOT converged"
        say("the design under other player models")
        other = _others(designed, others, players, band, seed, other_precision, runner, say)
    seconds = time.perf_counter() - t_start
    say(f"done in {seconds:.0f} s")
    iterations = pd.DataFrame(search.rows, columns=ITERATION_COLUMNS)
    # the linear shortcut alone (the centre's surface against the re-solved figure), as before the cuts
    shortcut = iterations[["iteration", "players", "threshold", "linear", "resolved", "linear_error",
                           "linear_error_paired", "half_width", "exact"]].set_axis(
        ["resolve", "players", "threshold", "predicted", "resolved", "difference", "difference_plain", "half_width",
         "exact"], axis=1)
    return RuleSetDesign(rules=rules, designed=designed, band=band, reading=reading, vary=vary,
                         objective=objective, target=target, choice=choice, table=table, others=other,
                         shortcut=shortcut, seed=seed, search_precision=float(search_precision),
                         confirm_precision=float(confirm_precision), evaluated=evaluated, resolves=search.resolves,
                         log=tuple(log), seconds=seconds, grid=tuple(p for p, _ in points), model=final_model,
                         iterations=iterations, convexity=pd.DataFrame(search.convex_rows, columns=CONVEXITY_COLUMNS),
                         converged=search.converged, stop_reason=search.reason, certificate=certificate,
                         nonconvex=tuple(sorted(n for n in players if not search.convex[n])),
                         cut_model=search.model(trust=False) if problem is not None else None)


#: the trust region: a free line's pays may move by this factor (up or down) from the centre's in one search,
#: and at least one grid step; it halves its excess over 1 when a re-solve disagrees with the cut model by
#: more than ``_SHRINK_AT`` x the search precision, and doubles it (to ``_RADIUS_MAX``) after an agreeing step
_RADIUS_START, _RADIUS_MAX, _SHRINK_AT = 2.0, 4.0, 2.0
ITERATION_COLUMNS = ["iteration", "players", "threshold", "pays", "linear", "predicted", "resolved", "gap",
                     "linear_error", "linear_error_paired", "gap_paired", "half_width", "exact", "radius", "step"]
CONVEXITY_COLUMNS = ["iteration", "cut_from", "players", "threshold", "cut", "resolved", "over_prediction",
                     "over_prediction_paired", "exact", "lower_bound"]


def _pays_text(pays: dict, origin: dict) -> str:
    """The lines that differ from the rule set's pays: ``"straight 3, royal_flush 1500"`` ("shipped" if none)."""
    moved = [f"{k} {pays[k]:g}" for k in origin if float(pays[k]) != float(origin[k])]
    return ", ".join(moved) if moved else "shipped"


class _CutSearch:
    """The search that keeps what it learned (module docstring, step 3): every re-solved surface kept as a
    plane, a trust region on the pays' step, the convexity of each player count measured, convergence
    recorded."""

    def __init__(self, rules, reading, players, grids, current, line_keys, origin, problem, band, objective,
                 target, seed, precision, runner, say):
        self.rules, self.reading, self.players, self.grids = rules, reading, players, grids
        self.current, self.line_keys, self.origin, self.problem = current, line_keys, origin, problem
        self.band, self.objective, self.target = band, objective, target
        self.seed, self.precision, self.runner, self.say = seed, precision, runner, say
        self.exact1 = _exact_bonus_use(reading) is not None
        first = _Surface(rules, reading, players, grids, seed, precision, runner, say)
        self.points = [(dict(origin), first)]  # (pays, surface): every paytable re-solved, in order
        self.centre = 0
        self.radius = _RADIUS_START
        # N = 1 under an exact reading is convex by the argument above (the cuts are lower bounds); N >= 2 is
        # measured at every re-solve and dropped to the trust region alone the first time a cut over-predicts
        self.convex = {n: True for n in players}
        self.rows, self.convex_rows = [], []
        self.resolves = 0
        self.converged = False
        self.reason = ""
        self.last_choice = None

    # ---- models

    def _is_exact(self, n: int) -> bool:
        return n == 1 and self.exact1

    def model(self, *, cuts: bool = True, trust: bool = True, point: int | None = None) -> DesignModel:
        """The cut model around the centre (or one point's own surface, ``point``, the pays fixed there)."""
        if point is not None:
            pays, s = self.points[point]
            return DesignModel(tuple(self.players), {n: tuple(p for p, _ in self.grids[n]) for n in self.players},
                               s.const, s.coef, s.half, self.current, self.line_keys, self.origin, None,
                               fixed_pays=dict(pays))
        pays, s = self.points[self.centre]
        extra = {}
        if cuts:
            for n in self.players:
                if self.convex[n]:
                    # at N >= 2 each plane on the centre's control-variate footing: the planes then differ by
                    # their paired (same rounds) differences only, not by each run's own adjustment
                    extra[n] = tuple((q.const[n] - q.shift.get(n, 0.0) + s.shift.get(n, 0.0), q.coef[n])
                                     for j, (_, q) in enumerate(self.points) if j != self.centre)
        box = None
        if trust and self.problem is not None:
            p = self.problem
            box = {}
            for k in p.free:
                kc = float(pays[k]) / p.step[k]
                box[k] = (min(math.floor(kc - 1 + 1e-9), math.floor(kc / self.radius + 1e-9)),
                          max(math.ceil(kc + 1 - 1e-9), math.ceil(kc * self.radius - 1e-9)))
        return DesignModel(tuple(self.players), {n: tuple(p for p, _ in self.grids[n]) for n in self.players},
                           s.const, s.coef, s.half, self.current, self.line_keys, self.origin, self.problem,
                           cuts=extra or None, trust=box)

    def own(self, j: int) -> DesignChoice:
        """The best thresholds for point ``j``'s pays on its own surface (its own decisions)."""
        return search_design(self.model(point=j), self.band, self.objective, self.target)

    def _visited(self, pays: dict) -> int | None:
        for j, (q, _) in enumerate(self.points):
            if all(float(q[k]) == float(pays[k]) for k in self.line_keys):
                return j
        return None

    # ---- the iteration

    def run(self, max_resolves: int) -> None:
        say = self.say
        if self.problem is None:
            self.converged, self.reason = True, "the bonus is not varied: no re-solve needed"
            return
        while True:
            model = self.model()
            try:
                choice = search_design(model, self.band, self.objective, self.target)
            except SearchTimeLimit as e:
                if not self.resolves:
                    raise
                return self._out_of_time(e)
            self.last_choice = choice
            say(f"  search (cut model, {sum(len(v) for v in (model.cuts or {}).values())} extra plane(s), trust "
                f"x{self.radius:g}): worst miss {choice.miss * 100:.3f} points, {choice.changes} change(s), "
                f"bonus {_pays_text(choice.pays, self.origin)}, thresholds "
                f"{', '.join(choice.thresholds[n] for n in self.players)}"
                + (f" ({choice.unfinished_stages} tie-break stage(s) of the integer program ran out of time: "
                   "the earlier stage's design kept)" if choice.unfinished_stages else ""))
            j = self._visited(choice.pays)
            if j is not None:
                self.converged = True
                self.reason = ("the pays stopped moving: the cut model's design is a paytable already re-solved "
                               f"({_pays_text(choice.pays, self.origin)})")
                self.centre = j
                return
            if self.resolves >= max_resolves:
                self.reason = (f"not converged: the pays were still moving after {max_resolves} re-solve(s) "
                               f"(the search proposed {_pays_text(choice.pays, self.origin)})")
                return
            self.resolves += 1
            it = self.resolves
            say(f"re-solve {it}: bonus {_pays_text(choice.pays, self.origin)}; rebuilding the surface with its own "
                "decisions (same seeds and rounds)")
            new_rules = self.rules.with_bonus(**{k: choice.pays[k] for k in self.line_keys})
            surface = _Surface(new_rules, self.reading, self.players, self.grids, self.seed, self.precision,
                               self.runner, say, like=self.points[0][1])
            self.points.append((dict(choice.pays), surface))
            new = len(self.points) - 1
            gaps = self._record(it, choice, model, surface)
            worst = max(abs(g) for g in gaps.values())
            # agreement at a proposal the trust region held back is a step, not the end: the region grows
            edge = self._at_trust_edge(model, choice.pays)
            agree = worst <= self.precision / _PTS_PER_FRACTION
            try:
                better = self.own(new).key < self.own(self.centre).key
            except SearchTimeLimit as e:
                for r in self.rows[-len(self.players):]:
                    r["step"] = "not compared (time limit)"
                return self._out_of_time(e)
            if agree and edge:
                step = "agrees, at the trust region's edge"
            elif agree:
                step = "agrees"
            elif better:
                step = "accepted"
            else:
                step = "rejected"
            for r in self.rows[-len(self.players):]:
                r["step"] = step
            if better or agree:
                self.centre = new
            if agree and not edge:
                self.converged = True
                self.reason = (f"converged: the cut model and the re-solved figures agree within the search precision "
                               f"({self.precision:g} points) at the proposed design (worst gap "
                               f"{worst * _PTS_PER_FRACTION:.3f} points)")
                return
            if worst > _SHRINK_AT * self.precision / _PTS_PER_FRACTION:
                self.radius = 1.0 + (self.radius - 1.0) / 2
            elif better or agree:
                self.radius = min(_RADIUS_MAX, 1.0 + 2 * (self.radius - 1.0))
            say(f"  worst gap {worst * _PTS_PER_FRACTION:.3f} points; step {step}; trust region now x{self.radius:g}")

    def _out_of_time(self, error: SearchTimeLimit) -> None:
        """End the search, not converged: non-convergence is a result, and the best re-solved design so far
        is the one reported, labelled."""
        self.reason = (f"not converged: after {self.resolves} re-solve(s) the integer program found no design "
                       f"within its time limit ({STAGE_SECONDS:g} s a stage; {error})")
        self.say(f"  {self.reason}")

    def _at_trust_edge(self, model: DesignModel, pays: dict) -> bool:
        """Whether a free line of ``pays`` sits on the trust region's bound where the grid goes further."""
        p = self.problem
        for k, (lo, hi) in model.index_bounds().items():
            i = round(float(pays[k]) / p.step[k])
            if (i == hi and hi < p.hi[k]) or (i == lo and lo > p.lo[k]):
                return True
        return False

    def _record(self, it, choice, model, surface) -> dict:
        """The iteration's rows (the linear shortcut, the cut model and the re-solved figure per player count)
        and the convexity rows (every earlier plane against the re-solved figure); updates ``convex``."""
        vec = np.array([float(choice.pays[k]) for k in self.line_keys])
        _, centre_surface = self.points[self.centre]
        gaps = {}
        for n in self.players:
            th = choice.thresholds[n]
            t = [p for p, _ in self.grids[n]].index(th)
            linear = float(centre_surface.const[n][t] + centre_surface.coef[n][t] @ vec)
            predicted = model.rtp(n, th, choice.pays)
            resolved = float(surface.const[n][t] + surface.coef[n][t] @ vec)
            # paired: the plain means on the same rounds, so only the rounds whose decisions changed count
            lin_p, gap_p = linear - resolved, predicted - resolved
            if n in surface.sweeps:
                new_plain = float(surface.sweeps[n].rtp(vec, plain=True)[surface.sweeps[n].patterns.index(th)])
                sw = centre_surface.sweeps[n]
                lin_p = float(sw.rtp(vec, plain=True)[sw.patterns.index(th)]) - new_plain
                best = max((float(q.sweeps[n].rtp(vec, plain=True)[q.sweeps[n].patterns.index(th)])
                            for j, (_, q) in enumerate(self.points[:-1]) if j == self.centre or self.convex[n]))
                gap_p = best - new_plain
            gaps[n] = predicted - resolved
            self.rows.append({"iteration": it, "players": n, "threshold": th,
                              "pays": _pays_text(choice.pays, self.origin), "linear": linear, "predicted": predicted,
                              "resolved": resolved, "gap": predicted - resolved, "linear_error": linear - resolved,
                              "linear_error_paired": lin_p, "gap_paired": gap_p,
                              "half_width": float(surface.half[n][t] + centre_surface.half[n][t]),
                              "exact": self._is_exact(n), "radius": self.radius, "step": ""})
            for j, (pays_j, q) in enumerate(self.points[:-1]):
                cut = float(q.const[n][t] + q.coef[n][t] @ vec)
                over_p = cut - resolved
                if n in surface.sweeps:
                    over_p = float(q.sweeps[n].rtp(vec, plain=True)[q.sweeps[n].patterns.index(th)]) - new_plain
                lower = over_p <= (1e-10 if self._is_exact(n) else self.precision / _PTS_PER_FRACTION)
                self.convex_rows.append({"iteration": it, "cut_from": _pays_text(pays_j, self.origin), "players": n,
                                         "threshold": th, "cut": cut, "resolved": resolved,
                                         "over_prediction": cut - resolved, "over_prediction_paired": over_p,
                                         "exact": self._is_exact(n), "lower_bound": bool(lower)})
                if not lower and not self._is_exact(n) and self.convex[n]:
                    self.convex[n] = False
                    self.say(f"  N={n}: the plane of {_pays_text(pays_j, self.origin)} over-predicts the re-solved "
                             f"figure by {over_p * _PTS_PER_FRACTION:.3f} points (paired): not convex here, the "
                             "trust region alone from now on")
        return gaps

    # ---- the answer

    def final(self) -> tuple[DesignChoice, DesignModel]:
        """The design reported: the best re-solved paytable by its own surface (its own decisions), and that
        surface as a model with the pays fixed."""
        best = min(range(len(self.points)), key=lambda j: (self.own(j).key, j != self.centre))
        self.final_point = best
        if best != self.centre and self.problem is not None:
            # at N >= 2 the planes' maximum can stand above a paytable's own surface (each run's control variates,
            # a plane that over-predicts): the design is then another paytable than the one the search ended on
            self.reason += (f"; the design reported is the re-solved paytable with the best figures on its own "
                            f"surface ({_pays_text(self.points[best][0], self.origin)})")
        return self.own(best), self.model(point=best)

    def status_text(self) -> str:
        return self.reason

    def certificate(self, final_model: DesignModel) -> dict | None:
        """When the band is out of reach: the relaxation over the whole grid with every plane known (N = 1
        under an exact reading held from below only: a proof for the grid; N >= 2 as estimates with their
        intervals), and the binding player counts (the pairs N = 1 and N = k that cannot be in the band
        together, or a k alone), with the lines at a bound there.  None when the relaxation admits a design
        (the grid may hold one the search did not reach) or when the bonus is not varied and the design is
        the grid's best anyway."""
        model = self.model(trust=False) if self.problem is not None else final_model
        lower = (1,) if self.exact1 and 1 in self.players else ()
        whole = relaxed_miss(model, self.band, lower_bounds=lower)
        out = {"relaxed_miss": whole.miss, "lower_bounded": list(lower), "binding": []}
        if whole.miss <= 1e-9:
            out["proved"] = False
            out["text"] = (f"no certificate: the relaxation (every plane known, the whole grid) admits a design, at "
                           f"bonus {_pays_text(whole.pays, self.origin)}; the grid may hold one the search did not "
                           "reach")
            return out
        groups = [(n,) for n in self.players] + ([(1, n) for n in self.players if n != 1] if lower else [])
        for g in groups:
            if len(g) == 2 and any(b["players"] == [g[1]] for b in out["binding"]):
                continue  # N = k alone already out of reach
            r = relaxed_miss(model, self.band, lower_bounds=lower, players=g)
            if r.miss > 1e-9:
                out["binding"].append({
                    "players": list(g), "miss": r.miss, "thresholds": {str(n): r.thresholds[n] for n in g},
                    "pays": _pays_text(r.pays, self.origin), "at_bound": r.at_bound,
                    "rtp": {str(n): r.rtp[n] for n in g},
                    "half_width": {str(n): model.half(n, r.thresholds[n]) for n in g},
                    "proof": all(n in lower for n in g)})
        out["proved"] = bool(lower) and any(b["proof"] or 1 in b["players"] for b in out["binding"])
        parts = []
        for b in out["binding"]:
            lines = ", ".join(f"{k} at its {side} bound" for k, side in b["at_bound"].items()) or "no line at a bound"
            est = "; ".join(f"N = {n} estimated {100 * b['rtp'][str(n)]:.3f}% ± {100 * b['half_width'][str(n)]:.3f}"
                            for n in b["players"] if n not in lower)
            parts.append(f"N = {' and '.join(map(str, b['players']))} miss by at least {100 * b['miss']:.3f} points "
                         f"(closest: bonus {b['pays']}; {lines}" + (f"; {est}" if est else "") + ")")
        who = ("N = 1's planes are lower bounds of its exact RTP (a proof for the grid), N >= 2 are estimates with "
               "their intervals" if lower else "every player count is an estimate with its interval")
        out["text"] = (f"out of reach on this grid: even the cut model cannot put every player count in the band "
                       f"(relaxed worst miss {100 * whole.miss:.3f} points; {who}): " + "; ".join(parts))
        return out


def convexity_by_players(convexity: pd.DataFrame | None) -> pd.DataFrame:
    """The convexity table in one row per player count: the cuts checked, the worst over-prediction of a
    re-solved figure by an earlier cut (fractions; the paired one on the same rounds at N >= 2), and whether
    every cut stayed a lower bound (to 1e-10 at N = 1, to the search precision paired at N >= 2)."""
    cols = ["players", "cuts_checked", "worst_over_prediction", "worst_over_prediction_paired", "lower_bound"]
    if convexity is None or not len(convexity):
        return pd.DataFrame(columns=cols)
    g = convexity.groupby("players", sort=True)
    return pd.DataFrame({"players": list(g.groups), "cuts_checked": g.size().to_numpy(),
                         "worst_over_prediction": g.over_prediction.max().to_numpy(),
                         "worst_over_prediction_paired": g.over_prediction_paired.max().to_numpy(),
                         "lower_bound": g.lower_bound.all().to_numpy()})[cols]


def _designs_on_grid(model: DesignModel) -> int:
    """Candidate designs the search chose among: threshold combinations times paytables on the grid."""
    count = math.prod(len(model.patterns[n]) for n in model.players)
    if model.problem is not None:
        count *= math.prod(model.problem.hi[k] - model.problem.lo[k] + 1 for k in model.problem.free)
    return count


def _figure(rules, n, strategy, precision, seed, runner):
    """RTP per initial bet (fractions: estimate, low, high), rounds, method of one player count under one
    strategy: exact at N = 1 for a look-ahead reading, else a run sized to ``precision`` points (a
    best-responding seat ``A-vs-B``: seat 1 plays it, the others ``B``, and the figure is seat 1's)."""
    exact = _exact_bonus_use(strategy)
    if n == 1 and exact is not None:
        s = solo_analysis(rules, use_bonus=exact).at_threshold()
        r = s["rtp_per_initial_bet"]
        return r, r, r, 0, "exact"
    seats = strategy
    if "-vs-" in strategy:
        seats = [strategy] + [strategy.split("-vs-", 1)[1]] * (n - 1)
    res = simulate_to_precision(rules, n, seats, precision=precision, seed=seed, progress=False, executor=runner)
    if "-vs-" in strategy:
        row = res.seat_frame().iloc[0]
    else:
        row = res.to_frame().iloc[0]
    key = "rtp_initial_cv" if "rtp_initial_cv" in row.index else "rtp_initial"
    return (float(row[key]), float(row[f"{key}_low"]), float(row[f"{key}_high"]), res.rounds,
            f"monte carlo, {res.rounds:,} rounds, seed {res.seeds[0]}"
            + (", control variates" if key.endswith("_cv") else ""))


def _confirm(designed, rules, reading, players, band, choice, seed, precision, runner, say) -> pd.DataFrame:
    lo, hi = band
    rows = []
    for n in players:
        t0 = time.perf_counter()
        r, low, high, rounds, method = _figure(designed, n, reading, precision, role_seed(seed, CONFIRM, n), runner)
        rows.append({"players": n, "threshold": designed.kickout[n], "was": rules.kickout[n],
                     "search_rtp": choice.rtp[n], "search_half_width": choice.half_width[n],
                     "rtp": r, "rtp_low": low, "rtp_high": high, "in_band": bool(low >= lo and high <= hi),
                     "rounds": rounds, "seed": role_seed(seed, CONFIRM, n) if rounds else None, "method": method})
        say(f"  N={n}: {r:.3%} [{low:.3%}, {high:.3%}] {method}, {time.perf_counter() - t0:.1f} s")
    frame = pd.DataFrame(rows)
    # exact integers (object column): with the exact N = 1 row's gap, pandas made the 64-bit seeds float64
    frame["seed"] = pd.Series(seed_values(r["seed"] for r in rows), dtype=object)
    return frame


def _others(designed, others, players, band, seed, precision, runner, say) -> pd.DataFrame:
    lo, hi = band
    rows = []
    for o in others:
        for n in players:
            t0 = time.perf_counter()
            r, low, high, rounds, method = _figure(designed, n, o, precision, role_seed(seed, OTHERS, n), runner)
            rows.append({"reading": o, "players": n, "rtp": r, "rtp_low": low, "rtp_high": high,
                         "in_band": bool(low >= lo and high <= hi), "rounds": rounds, "method": method})
            say(f"  {o} N={n}: {r:.3%} [{low:.3%}, {high:.3%}], {time.perf_counter() - t0:.1f} s")
    return pd.DataFrame(rows, columns=["reading", "players", "rtp", "rtp_low", "rtp_high", "in_band", "rounds",
                                       "method"])
