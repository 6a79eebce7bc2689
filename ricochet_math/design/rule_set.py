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
3. **Re-solving the decisions.**  Under perfect play the decisions depend on the bonus.  The search
   proposes pays with the decisions of the current pays held fixed (linear); if it moves the pays, the
   surface is rebuilt with the proposed pays (N = 1: a new exact solo analysis; N >= 2: new sweeps on
   the **same seeds and rounds**, paired round for round), the shortcut's error is recorded (the linear prediction against the re-solved
   figure at the proposed design, the ``shortcut`` table), and the search runs again from there, until
   the pays stop moving (at most ``max_resolves`` times; then the pays of the last re-solved surface
   are kept and only the thresholds are chosen, so the design reported always has its own decisions).
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

import dataclasses
import hashlib
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
from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.design.kickout import DEFAULT_GRID, parse_grid
from ricochet_math.design.optimiser_problem import make_problem, plain_number
from ricochet_math.design.optimiser_result import extends_parent
from ricochet_math.design.rule_set_search import OBJECTIVES, DesignChoice, DesignModel, search_design
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
from ricochet_math.storage import atomic_write_text, check_writable_file, file_sha256
from ricochet_math.strategies.registry import get_strategy

__all__ = ["VARY", "DESIGN_SCHEMA", "DEFAULT_OTHERS", "SEARCH", "CONFIRM", "OTHERS", "role_seed", "RuleSetDesign",
           "design_rule_set", "design_sidecar_path", "check_design_files", "MAX_RESOLVES"]

VARY = ("kickout", "bonus")
#: the other player models the design is shown under: the best publisher-like reading, the dealer-only
#: pot-odds reading, two weak players (too loose, too tight) and one perfect seat at a pot-odds table
DEFAULT_OTHERS = ("pub-final-dealer-no-bonus", "pot-odds-final", "chaser", "timid", "perfect-vs-pot-odds-final")
#: the most re-solves of the decisions a design may ask for (each is a new exact solo analysis and look-ahead
#: surface)
MAX_RESOLVES = 20
#: the schema name of the design record written beside a designed rule set (:func:`design_sidecar_path`)
DESIGN_SCHEMA = "ricochet_math.design/1"
#: seed roles (:func:`role_seed`)
SEARCH, CONFIRM, OTHERS = 0, 1, 2


def role_seed(seed: int, role: int, players: int) -> int:
    """The seed of one role (``SEARCH``, ``CONFIRM``, ``OTHERS``) at ``players`` seats: the first 64
    bits of ``SeedSequence(seed, spawn_key=(role, players))``.  Each is the root of its own chunk
    streams (chunk ``i`` from ``SeedSequence(role_seed, spawn_key=(i,))``), so the confirmation's deals
    are independent of the search's."""
    return int(np.random.SeedSequence(seed, spawn_key=(role, players)).generate_state(1, np.uint64)[0])


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
    error at each re-solve; ``log``: the progress lines.  ``feasible``: the search found every interval
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
        lines = [head, f"  {verdict}", f"  {conf}", f"  kickout: {kick}", f"  bonus: {bonus}",
                 f"  {self.evaluated:,} (player count, threshold) cells evaluated, {self.resolves} re-solve(s), "
                 f"seed {self.seed}, {self.seconds:.0f} s"]
        if len(self.shortcut):
            worst = self.shortcut["difference"].abs().max()
            lines.append(f"  linear shortcut (decisions of the old pays): worst error {worst * 100:.3f} points "
                         "at the proposed design (table 'shortcut')")
        return "\n".join(lines)

    # ---- writing

    def to_toml(self, path: str | Path | None = None, *, name: str | None = None) -> str:
        """The designed rule set as a TOML file that ``extends`` the input rule set (every kickout
        threshold and bonus line written, changed ones marked ``# was``), its confirmed figures in the
        header."""
        parent = extends_parent(self.rules, path)
        stem = Path(path).stem if path is not None else f"{self.rules.name}-design"
        name = check_name(name, "", "name") if name else name_from_stem(stem)
        lo, hi = self.band
        description = (f"{self.rules.name} designed for RTP {lo:.2%}..{hi:.2%} at N = "
                       f"{int(self.table.players.min())}..{int(self.table.players.max())} under {self.reading}")
        out = [f"# {description}.",
               f"# Generated by ricochet design (ricochet_math {self.version}) from {self.rules.name} "
               f"(sha256 {self.rules.sha256[:12]}); seed {self.seed}.",
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
                "seconds": self.seconds, "table": json.loads(self.table.to_json(orient="records")),
                "others": json.loads(self.others.to_json(orient="records")),
                "shortcut": json.loads(self.shortcut.to_json(orient="records")),
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
        record["record_sha256"] = _record_digest(record)
        atomic_write_text(side, json.dumps(record, indent=1) + "\n", "design record")
        return path


def design_sidecar_path(rules_path: str | Path) -> Path:
    """The design record written beside a designed rule set: ``NAME.design.json``."""
    p = Path(rules_path)
    return p.with_name(p.stem + ".design.json")


def _record_digest(record: Mapping) -> str:
    """The SHA-256 of a design record's content (every key but the digest itself), as written canonically."""
    body = {k: v for k, v in record.items() if k != "record_sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()


def check_design_files(path: str | Path) -> tuple[Path, Path]:
    """``(rules file, design record)`` if :meth:`RuleSetDesign.write_toml` may write them, else one
    :class:`~ricochet_math.errors.RuleError` line naming the file; call it before the design runs.

    Either may be new.  An existing one is replaced only when it is the toolkit's and unchanged: the record
    must be a design record whose content matches its own digest, and the rules file must be the one that
    record names, with the bytes it recorded (a record of an older version, without those digests: the rule
    set it recorded).  A file a user wrote or edited there is never overwritten."""
    path = check_writable_file(path, "designed rule-set file")
    side = check_writable_file(design_sidecar_path(path), "design record")
    record = None
    if side.exists():
        try:
            record = json.loads(side.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            record = None
        if (not isinstance(record, dict) or record.get("schema") != DESIGN_SCHEMA
                or record.get("record_sha256", _record_digest(record)) != _record_digest(record)):
            raise RuleError(f"design record {side} exists and is not a design record ricochet_math wrote (or was "
                            "edited since); nothing was written: choose another --write file or move it away")
    if path.exists() and not _is_designed_file(path, record):
        raise RuleError(f"designed rule-set file {path} exists and was not written by ricochet design (or was "
                        f"edited since, or its {side.name} is missing); nothing was written: choose another "
                        "--write file or move it away")
    return path, side


def _is_designed_file(path: Path, record: Mapping | None) -> bool:
    if record is None or record.get("rules_file") != path.name:
        return False
    if "rules_file_sha256" in record:
        return file_sha256(path) == record["rules_file_sha256"]
    try:  # a record of an older version: it kept the rule set's SHA-256 only
        return load_rules(path).sha256 == record.get("designed_sha256")
    except RuleError:
        return False


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
    items = [v.strip() for item in items for v in str(item).split(",") if v.strip()]
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
        lines = [k.strip() for k in lines.split(",") if k.strip()]
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
        self.const, self.coef, self.half, self.sweeps = {}, {}, {}, {}
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
                    other_precision: float = 0.2, max_resolves: int = 3, executor=None,
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
    shortcut_rows = []
    resolves = 0
    with executor_for_run(executor) as runner:
        pays = {k: plain_number(v) for k, v in zip(line_keys, base_vec[1:])}
        say(f"design: {len(players)} player count(s), reading {reading}, vary {', '.join(vary)}, "
            f"objective {objective}; building the RTP surface")
        surface = _Surface(rules, reading, players, grids, seed, search_precision, runner, say)
        evaluated += sum(len(grids[n]) for n in players)
        while True:
            model = surface.model(players, grids, current, line_keys, pays, problem)
            choice = search_design(model, band, objective, target)
            say(f"  search over {_designs_on_grid(model):,} designs (integer program): worst miss "
                f"{choice.miss * 100:.3f} points, {choice.changes} change(s), thresholds "
                f"{', '.join(choice.thresholds[n] for n in players)}")
            if problem is None or choice.pays == pays:
                break
            if resolves >= max_resolves:  # keep the last re-solved pays: the design has its own decisions
                choice = search_design(dataclasses.replace(model, problem=None), band, objective, target)
                say(f"  pays still moving after {max_resolves} re-solve(s): kept the last re-solved pays")
                break
            resolves += 1
            moved = ", ".join(f"{k} {pays[k]:g}->{choice.pays[k]:g}" for k in line_keys if choice.pays[k] != pays[k])
            say(f"re-solve {resolves}: bonus {moved}; rebuilding the surface with its own decisions (same seeds and rounds)")
            new_rules = rules.with_bonus(**{k: choice.pays[k] for k in line_keys})
            old_surface = surface
            surface = _Surface(new_rules, reading, players, grids, seed, search_precision, runner, say,
                               like=old_surface)
            evaluated += sum(len(grids[n]) for n in players)
            new_model = surface.model(players, grids, current, line_keys, dict(choice.pays), problem)
            for n in players:
                th = choice.thresholds[n]
                predicted = model.rtp(n, th, choice.pays)
                resolved = new_model.rtp(n, th, choice.pays)
                # the same difference from the plain means: paired round for round on the same deals, so
                # only the rounds whose decisions changed contribute (exact at N = 1)
                plain = predicted - resolved
                if n in old_surface.sweeps:
                    vec = np.array([float(choice.pays[k]) for k in line_keys])
                    t_old = old_surface.sweeps[n].patterns.index(th)
                    t_new = surface.sweeps[n].patterns.index(th)
                    plain = float(old_surface.sweeps[n].rtp(vec, plain=True)[t_old]
                                  - surface.sweeps[n].rtp(vec, plain=True)[t_new])
                shortcut_rows.append({"resolve": resolves, "players": n, "threshold": th, "predicted": predicted,
                                      "resolved": resolved, "difference": predicted - resolved,
                                      "difference_plain": plain,
                                      "half_width": new_model.half(n, th) + model.half(n, th),
                                      "exact": n == 1 and _exact_bonus_use(reading) is not None})
            pays = dict(choice.pays)
        designed = rules.with_bonus(**{k: choice.pays[k] for k in line_keys}) if problem is not None else rules
        for n in players:
            if choice.thresholds[n] != rules.kickout[n]:
                designed = designed.with_kickout(n, choice.thresholds[n])
        say("confirmation on fresh seeds")
        table = _confirm(designed, rules, reading, players, band, choice, seed, confirm_precision, runner, say)
        say("the design under other player models")
        other = _others(designed, others, players, band, seed, other_precision, runner, say)
    seconds = time.perf_counter() - t_start
    say(f"done in {seconds:.0f} s")
    return RuleSetDesign(rules=rules, designed=designed, band=band, reading=reading, vary=vary,
                         objective=objective, target=target, choice=choice, table=table, others=other,
                         shortcut=pd.DataFrame(shortcut_rows, columns=["resolve", "players", "threshold", "predicted",
                                                                       "resolved", "difference", "difference_plain",
                                                                       "half_width",
                                                                       "exact"]),
                         seed=seed, search_precision=float(search_precision),
                         confirm_precision=float(confirm_precision), evaluated=evaluated, resolves=resolves,
                         log=tuple(log), seconds=seconds, grid=tuple(p for p, _ in points),
                         model=model if problem is None or choice.pays == model.base_pays
                         else dataclasses.replace(model, problem=None))


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
    return pd.DataFrame(rows)


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
