"""Certification-style reports: one folder with an HTML and a PDF version of the same report and its tables as CSV.

:func:`build_report` computes every figure a test lab or a casino reads for
one rule set and writes ``reports/<rule set>/``::

    report.html      self-contained (inline CSS, plots as inline SVG): opens with no network
    report.pdf       the same report, made with matplotlib's PdfPages only
    tables/*.csv     every table, full precision

The sections, in the order a lab reads them (issue 6):

1. the game and the full rule set in force, with the rule-set file's SHA-256;
2. method: exact or Monte Carlo (rounds, seed, confidence level, variance
   reduction), the perfect-play definition, run time;
3. main game by player count: RTP both ways (95% CI where simulated), house
   edge per ante, element of risk, fold / win / kickout / hit frequency,
   standard deviation, average bet;
4. return tables: N = 1 exact (combinations, probability, "1 in N", net,
   contribution); N >= 2 per-outcome frequencies and the return decomposition
   from the simulation;
5. bonus and side bets (exact): paytables with true odds and payout odds,
   return tables, RTP, house edge, hit frequency, standard deviation;
   5b. volatility: volatility index at 90/95/99%, the band of the RTP a
   player can expect after 10^3 .. 10^8 rounds, the lowest and highest RTP
   over the strategies analysed, exact-vs-Monte-Carlo reconciliation;
6. weak-player profiles next to perfect play (and a perfect seat among
   publisher-like players);
7. published figures vs computed (:mod:`ricochet_math.reports.published`);
8. plots: RTP and fold frequency by player count, RTP against the kickout
   threshold (N = 1, exact), distribution of a seat's net result per round,
   the RTP band against rounds played;
9. provenance: package version, git commit, Python / numpy / numba versions,
   machine, date.

Where the figures come from
---------------------------
* N = 1: exact, :func:`ricochet_math.solvers.solo.solo_analysis` (all 2,809,475,760
  deals and their 14,190 draws; perfect play solved exactly).  The first run
  for a rule set takes a few minutes; it is cached on disk afterwards.
* N >= 2: Monte Carlo, :func:`ricochet_math.solvers.montecarlo.simulate` with perfect
  play, every run from the same ``seed`` (common random numbers: every
  strategy is dealt the same cards).
* Side bets, the kickout rate and the N = 1 kickout curve: exact counts.

Sizes
-----
``size`` picks the Monte Carlo effort (:data:`SIZES`): ``"small"`` finishes
in a few minutes on two cores once the N = 1 analyses are cached (2,000
rounds per player count for the solver readings, so the N >= 2 intervals are
a few percent wide: the report says so next to them); ``"full"`` is for a lab
(200,000 rounds per player count and reading: hours);  ``"tiny"`` is for the
tests (a sampled N = 1 analysis, a few hundred rounds: the figures mean
nothing).  ``rounds`` overrides the solver-reading rounds of a size.

Reproducibility
---------------
The same rule set, size and seed give the same bytes in every file, except
the build date and the run times, which live in clearly marked places only:
``<span class="volatile">`` in the HTML, rows with ``volatile = True`` in
``tables/run_times.csv`` and ``tables/provenance.csv``, and the "Run time"
table and the date line of the PDF.  Matplotlib's PDF creation date is
removed and its SVG hash salt fixed; ``reproducible=True`` leaves the date
and run times out (the date comes from ``SOURCE_DATE_EPOCH`` when set), so
that the PDF too is byte-identical between builds.

Nothing half-written, and resuming
----------------------------------
The report is written into a temporary folder beside ``out_dir`` and moved
into place only when complete.  Work in progress lives in
``<out_dir's parent>/.<name>.work/``: every Monte Carlo run checkpoints its
finished chunks there (``simulate(checkpoint=...)``) and every finished job
keeps its result there, so a stopped report started again with the same
arguments resumes; the folder is removed when the report is complete.

>>> from ricochet_math.reports.build import build_report
>>> result = build_report(players=[1, 2], size="tiny", out_dir="/tmp/ricochet-doc-report",
...                       progress=False)                      # doctest: +SKIP
>>> sorted(p.name for p in result.files)[:2]                   # doctest: +SKIP
['report.html', 'report.pdf']
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import io
import json
import math
import os
import pickle
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ricochet_math.errors import RicochetError, RuleError

from ricochet_math.engine.round import parse_players  # noqa: E402  (re-exported: one parser of player counts)

__all__ = ["ReportSize", "SIZES", "ReportResult", "build_report", "parse_players"]

LEVEL = 0.95
VOLATILITY_LEVELS = (0.90, 0.95, 0.99)
BAND_ROUNDS = tuple(10 ** k for k in range(3, 9))
WEAK_PROFILES = ("always", "pair", "timid", "chaser", "dealer-only", "bonus-hunter")
READINGS = ("perfect", "perfect-no-bonus", "myopic", "myopic-no-bonus", "pot-odds-now", "pot-odds-now-no-bonus",
            "pot-odds-final", "pot-odds-final-no-bonus")
#: the reading the best-response table plays against (spec: "publisher-like")
PUBLISHER_LIKE = "pot-odds-final"
N_DEALS = 2_809_475_760
N_DRAWS = 14_190
N_DEALER_HANDS = 2_598_960


# ============================================================================
# Sizes and the result
# ============================================================================

@dataclass(frozen=True)
class ReportSize:
    """How much Monte Carlo a report runs (every count is rounds per player count).

    ``rounds``: perfect play and each solver reading (the published-figures
    comparison) at N >= 2; ``solo_rounds``: a perfect-play simulation at N = 1
    to reconcile with the exact figures; weak profiles run ``max(rounds,
    50_000)`` rounds (as :func:`~ricochet_math.reports.published.published_figures`
    does); ``response_rounds``: one perfect seat among publisher-like
    players; ``distribution_rounds``: rounds recorded one by one for the
    distribution of a seat's net result; ``solo_classes``: ``None`` for the
    exact N = 1 analysis over all 169 starting-hand classes, or a few class
    indices (tests only: the N = 1 figures then cover those classes only).
    """

    name: str
    rounds: int
    solo_rounds: int
    response_rounds: int
    distribution_rounds: int
    solo_classes: tuple[int, ...] | None = None
    weak_profiles: tuple[str, ...] = WEAK_PROFILES
    readings: tuple[str, ...] = READINGS
    note: str = ""

    def weak_rounds(self, rounds: int | None = None) -> int:
        return max(int(rounds if rounds is not None else self.rounds), 50_000)


SIZES: dict[str, ReportSize] = {
    "tiny": ReportSize(
        "tiny", rounds=200, solo_rounds=2_000, response_rounds=200, distribution_rounds=200,
        solo_classes=(0, 84), weak_profiles=("timid", "chaser"),
        readings=("perfect", "perfect-no-bonus", "pot-odds-final"),
        note="TEST SIZE: the N = 1 analysis covers 2 of the 169 starting-hand classes and the Monte Carlo "
             "runs are a few hundred rounds; no figure in this report means anything."),
    "small": ReportSize(
        "small", rounds=2_000, solo_rounds=20_000, response_rounds=1_000, distribution_rounds=1_000,
        note="SMALL SIZE: N = 1 is exact, but the perfect-play Monte Carlo runs at N >= 2 are 2,000 rounds per "
             "player count, so their 95% intervals on RTP are several percent wide: they show the shape, not a "
             "certifiable figure. Build with size 'full' for a lab."),
    "full": ReportSize(
        "full", rounds=200_000, solo_rounds=2_000_000, response_rounds=100_000, distribution_rounds=20_000,
        note="FULL SIZE: N = 1 exact; N >= 2 perfect play and every solver reading over 200,000 rounds per "
             "player count."),
}


@dataclass(frozen=True)
class ReportResult:
    """What :func:`build_report` wrote: the folder, its files (relative paths), the tables by name."""

    out_dir: Path
    files: tuple[Path, ...]
    tables: Mapping[str, Any] = field(repr=False)
    size: str
    seconds: float

    @property
    def html(self) -> Path:
        return self.out_dir / "report.html"

    @property
    def pdf(self) -> Path:
        return self.out_dir / "report.pdf"

    def main_game(self):
        """The main-game table (one row per player count) as a ``pandas.DataFrame``."""
        return self.tables["main_game"].copy()

    def summary(self) -> str:
        return (f"report written to {self.out_dir} ({len(self.files)} files, size {self.size}, "
                f"{self.seconds:.0f} s): {self.html.name}, {self.pdf.name}, tables/*.csv")


# ============================================================================
# Document model: sections of paragraphs, tables and plots
# ============================================================================

class _Volatile(str):
    """Text that changes between builds (the date, run times): marked in every output."""


@dataclass
class _Para:
    text: str
    kind: str = "p"          # "p", "h3", "note"


@dataclass
class _Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
    csv: str | None = None          # file stem under tables/ (None: a view of another table's CSV)
    data: Any = None                # the DataFrame written as CSV
    note: str = ""
    align: list[str] | None = None  # "l" / "r" per column

    def __post_init__(self) -> None:
        if self.align is None:
            self.align = ["l"] + ["r"] * (len(self.columns) - 1)


@dataclass
class _Plot:
    name: str
    title: str
    caption: str
    draw: Callable[[Any, tuple[float, float, float, float]], None]
    width: float = 7.2
    height: float = 3.4


@dataclass
class _Section:
    number: str
    title: str
    blocks: list = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return "s" + self.number

    def p(self, text: str) -> None:
        self.blocks.append(_Para(" ".join(text.split())))

    def h3(self, text: str) -> None:
        self.blocks.append(_Para(text, "h3"))

    def note(self, text: str) -> None:
        self.blocks.append(_Para(" ".join(text.split()), "note"))

    def table(self, *args, **kwargs) -> _Table:
        t = _Table(*args, **kwargs)
        self.blocks.append(t)
        return t

    def plot(self, *args, **kwargs) -> None:
        self.blocks.append(_Plot(*args, **kwargs))


# ---------------------------------------------------------------- formatting

def _isnan(x) -> bool:
    """None, NaN or pandas' NA."""
    return x is None or (isinstance(x, float) and math.isnan(x)) or type(x).__name__ == "NAType"


def _pct(x, digits: int = 3) -> str:
    return "n/a" if _isnan(x) else f"{100.0 * float(x):.{digits}f}%"


def _ci(lo, hi, digits: int = 2) -> str:
    if _isnan(lo) or _isnan(hi):
        return "n/a"
    if lo == hi:
        return "exact"
    return f"{100.0 * lo:.{digits}f} to {100.0 * hi:.{digits}f}%"


def _num(x, digits: int = 4) -> str:
    return "n/a" if _isnan(x) else f"{float(x):,.{digits}f}"


def _int(x) -> str:
    return f"{int(x):,}"


def _one_in(p) -> str:
    if _isnan(p) or p <= 0:
        return "never"
    n = 1.0 / float(p)
    if n < 100:
        return f"1 in {n:.2f}"
    if n < 10_000:
        return f"1 in {n:,.1f}"
    return f"1 in {n:,.0f}"


def _odds(p) -> str:
    """True odds against, ``(1 - p) / p`` to 1."""
    if _isnan(p) or p <= 0:
        return "n/a"
    x = (1.0 - float(p)) / float(p)
    return f"{x:,.2f} to 1" if x < 1000 else f"{x:,.0f} to 1"


def _pays(x) -> str:
    x = float(x)
    return f"{x:g} to 1"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# ============================================================================
# Computing: jobs run in a thread pool, each result kept in the work folder
# ============================================================================

@dataclass
class _Job:
    key: str
    label: str
    cost: float
    run: Callable[[], Any]


def _job_key(label: str, params: Mapping[str, Any]) -> str:
    from ricochet_math import __version__

    text = json.dumps({"label": label, "version": __version__, **params}, sort_keys=True, default=str)
    return f"{_slug(label)}-{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def _run_jobs(jobs: Sequence[_Job], work: Path, progress: bool,
              timer: Callable[[], float]) -> tuple[dict[str, Any], dict[str, float]]:
    """Run the jobs one after another (each Monte Carlo run uses every core itself).

    A finished job's result is pickled in ``work`` and read back instead of
    running the job again, so a stopped report resumes; a job stopped midway
    resumes from its own checkpoint.
    """
    from tqdm.auto import tqdm

    results: dict[str, Any] = {}
    seconds: dict[str, float] = {}
    pending = []
    for job in jobs:
        path = work / f"job-{job.key}.pkl"
        if path.exists():
            try:
                with open(path, "rb") as fh:
                    results[job.key] = pickle.load(fh)
                seconds[job.key] = math.nan
                continue
            except Exception:  # a damaged file: run the job again
                path.unlink(missing_ok=True)
        pending.append(job)
    total = sum(j.cost for j in jobs)
    done = sum(j.cost for j in jobs if j not in pending)
    bar = tqdm(total=round(total, 1), initial=round(done, 1), desc="report", file=sys.stderr,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}{postfix}",
               disable=not progress, leave=False)
    try:
        for job in pending:
            bar.set_postfix_str(job.label)
            t0 = timer()
            out = job.run()
            seconds[job.key] = timer() - t0
            results[job.key] = out
            path = work / f"job-{job.key}.pkl"
            tmp = path.with_name(path.name + ".tmp")
            with open(tmp, "wb") as fh:
                pickle.dump(out, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
            bar.update(round(job.cost, 1))
    finally:
        bar.close()
    return results, seconds


@dataclass
class _Data:
    """Everything computed for one report (raw results; the sections are built from it)."""

    rules: Any
    size: ReportSize
    players: tuple[int, ...]
    rounds: int
    seed: int
    solo: Any
    solo_no_bonus: Any
    quickdraw: dict
    cover: Any
    sidebets: Any
    curve: Any
    perfect: dict            # N -> SimulationResult (N >= 2, and N = 1 simulation)
    weak: dict               # (profile, N) -> SimulationResult
    response: dict           # N -> SimulationResult
    published: Any
    distribution: tuple      # (N, net array of seat results)
    timings: list            # (step, seconds)
    exact_kickout: dict      # N -> exact P(dealer kicked out)


def _compute(rules, size: ReportSize, players: tuple[int, ...], rounds: int, seed: int, work: Path,
             progress: bool, timer: Callable[[], float]) -> _Data:
    from ricochet_math.evaluator.evaluation import value_counts_5
    from ricochet_math.design.kickout import DEFAULT_GRID
    from ricochet_math.reports.published import PublishedFigures, published_figures
    from ricochet_math.design.sidebets import cover, quickdraw_both, sidebets_summary
    from ricochet_math.solvers.montecarlo import simulate
    from ricochet_math.solvers.solo import solo_analysis

    timings: list[tuple[str, float]] = []
    classes = None if size.solo_classes is None else np.asarray(size.solo_classes, dtype=np.int64)

    t0 = timer()
    solo = solo_analysis(rules, classes=classes, progress=progress)
    timings.append(("N = 1 exact analysis (perfect play)", timer() - t0))
    t0 = timer()
    solo_nb = solo_analysis(rules, classes=classes, use_bonus=False, progress=progress)
    timings.append(("N = 1 exact analysis (perfect play ignoring the bonus)", timer() - t0))

    t0 = timer()
    qd = quickdraw_both(rules)
    cv = cover(rules)
    sbs = sidebets_summary(rules)
    counts = value_counts_5()
    exact_kick = {n: float(counts[rules.kickout_value(n):].sum()) / N_DEALER_HANDS for n in range(1, 8)}
    grid = sorted({*DEFAULT_GRID, rules.kickout[1]}, key=_pattern_value)
    curve = solo.threshold_curve(grid)
    timings.append(("side bets, kickout rates and N = 1 kickout curve (exact)", timer() - t0))

    many = [n for n in players if n >= 2]
    weak_rounds = size.weak_rounds(rounds)
    base = {"rules": rules.sha256, "seed": seed}
    jobs: list[_Job] = []

    def sim_job(label, n, strategy, n_rounds, cost_rate):
        key = _job_key(label, {**base, "players": n, "strategy": strategy, "rounds": n_rounds})
        ckpt = work / f"sim-{key}.npz"

        def run():
            return simulate(rules, n, strategy, n_rounds, seed, progress=progress, checkpoint=ckpt)

        return _Job(key, label, n_rounds / cost_rate, run)

    # rough rounds per second, for running the longest jobs first
    speed = {1: 3000.0, 2: 900.0, 3: 600.0, 4: 400.0, 5: 300.0, 6: 250.0, 7: 200.0}
    keys: dict[tuple, str] = {}
    for n in many:
        j = sim_job(f"perfect N={n}", n, "perfect", rounds, speed[n])
        keys[("perfect", n)] = j.key
        jobs.append(j)
    if 1 in players:
        j = sim_job("perfect N=1 simulation", 1, "perfect", size.solo_rounds, speed[1])
        keys[("perfect", 1)] = j.key
        jobs.append(j)
    for n in players:
        for profile in size.weak_profiles:
            j = sim_job(f"{profile} N={n}", n, profile, weak_rounds, 300_000.0)
            keys[("weak", profile, n)] = j.key
            jobs.append(j)
    for n in many:
        seats = [f"perfect-vs-{PUBLISHER_LIKE}"] + [PUBLISHER_LIKE] * (n - 1)
        j = sim_job(f"best response N={n}", n, seats, size.response_rounds, speed[n] * 0.7)
        keys[("response", n)] = j.key
        jobs.append(j)

    weak_players = 4 if 4 in players else max(players)
    for reading in size.readings:
        key = _job_key(f"published {reading}", {**base, "players": many, "rounds": rounds})

        def run(reading=reading):
            return published_figures(rules, rounds=rounds, seed=seed, readings=(reading,), players=many,
                                     weak_profiles=(), progress=progress, solo=solo, solo_no_bonus=solo_nb)

        keys[("published", reading)] = key
        jobs.append(_Job(key, f"published {reading}", sum(rounds / speed[n] for n in many) * 1.5, run))
    key = _job_key("published weak", {**base, "players": weak_players, "rounds": rounds,
                                      "profiles": list(size.weak_profiles)})

    def run_weak():
        return published_figures(rules, rounds=rounds, seed=seed, readings=(), players=many,
                                 weak_profiles=size.weak_profiles, weak_players=weak_players, progress=False,
                                 solo=solo, solo_no_bonus=solo_nb)

    keys[("published", "weak")] = key
    jobs.append(_Job(key, "published weak profiles", 1.0, run_weak))

    dist_n = 4 if 4 in many else (max(many) if many else None)
    if dist_n is not None:
        key = _job_key("net distribution", {**base, "players": dist_n, "rounds": size.distribution_rounds})

        def run_dist():
            from ricochet_math.evaluator.cards import random_deals
            from ricochet_math.engine.kernel import cards_needed, play_decks

            rng = np.random.default_rng(np.random.SeedSequence(seed))
            decks = random_deals(rng, size.distribution_rounds, cards_needed(dist_n)).astype(np.int64)
            rec = play_decks(rules, decks, "perfect", players=dist_n)
            return np.asarray(rec.net, dtype=np.float64)

        keys[("distribution",)] = key
        jobs.append(_Job(key, f"net distribution N={dist_n}", size.distribution_rounds / speed[dist_n], run_dist))

    # Warm the kernels in this thread first (compiling them once, not from every thread at once).
    t0 = timer()
    simulate(rules, max(players), "perfect", 8, seed, progress=False, workers=1)
    simulate(rules, max(players), "always", 8, seed, progress=False, workers=1)
    timings.append(("kernel warm-up", timer() - t0))

    results, secs = _run_jobs(jobs, work, progress, timer)
    for job in sorted(jobs, key=lambda j: j.label):
        timings.append((f"Monte Carlo: {job.label}", secs[job.key]))

    perfect = {n: results[keys[("perfect", n)]] for n in players if ("perfect", n) in keys}
    weak = {(p, n): results[keys[("weak", p, n)]] for n in players for p in size.weak_profiles}
    response = {n: results[keys[("response", n)]] for n in many}
    parts = [results[keys[("published", r)]] for r in size.readings] + [results[keys[("published", "weak")]]]
    import pandas as pd

    published = PublishedFigures(
        table=pd.concat([p.table for p in parts], ignore_index=True),
        by_players=pd.concat([p.by_players for p in parts if len(p.by_players)], ignore_index=True),
        rules_name=rules.name, rounds=int(rounds), seed=int(seed),
        seconds=float(sum(p.seconds for p in parts)),
    )
    distribution = (dist_n, results[keys[("distribution",)]]) if dist_n is not None else (None, None)
    return _Data(rules=rules, size=size, players=players, rounds=rounds, seed=seed, solo=solo,
                 solo_no_bonus=solo_nb, quickdraw=qd, cover=cv, sidebets=sbs, curve=curve, perfect=perfect,
                 weak=weak, response=response, published=published, distribution=distribution,
                 timings=timings, exact_kickout=exact_kick)


def _pattern_value(pattern: str) -> int:
    from ricochet_math.evaluator.evaluation import pattern_value

    return int(pattern_value(pattern))


# ============================================================================
# Figures derived from the raw results
# ============================================================================

def _solo_figures(solo) -> dict:
    """The N = 1 exact figures, with the hit frequency (P(net > 0)) added."""
    d = dict(solo.at_threshold())
    table = solo.return_table()
    d["hit_frequency"] = float(table.loc[table["net"] > 0, "probability"].sum())
    return d


def _est(summary: dict, name: str) -> tuple[float, float, float, float]:
    e = summary[name]
    return float(e.estimate), float(e.low), float(e.high), float(e.std_error)


def _main_rows(d: _Data):
    import pandas as pd

    rows = []
    for n in d.players:
        if n == 1:
            s = _solo_figures(d.solo)
            method = "exact" if d.solo.complete else f"exact over {int(d.solo.classes_done.sum())} of 169 classes"
            row = {"players": 1, "method": method, "rounds": None}
            for name, key in (("rtp_initial", "rtp_per_initial_bet"), ("rtp_wagered", "rtp_per_wagered"),
                              ("house_edge", "house_edge_per_ante"), ("element_of_risk", "element_of_risk"),
                              ("fold_frequency", "fold_frequency"), ("win_frequency", "win_frequency"),
                              ("kickout_rate", "kickout_rate"), ("hit_frequency", "hit_frequency")):
                row[name] = row[f"{name}_low"] = row[f"{name}_high"] = float(s[key])
            row["sd_net"] = float(s["std_net"])
            row["average_wagered"] = float(s["average_bet"])
        else:
            r = d.perfect[n]
            m = r.summary()
            row = {"players": n, "method": "monte carlo", "rounds": r.rounds}
            for name in ("rtp_initial", "rtp_wagered", "house_edge", "element_of_risk", "fold_frequency",
                         "win_frequency", "kickout_rate", "hit_frequency"):
                row[name], row[f"{name}_low"], row[f"{name}_high"], _ = _est(m, name)
            if "rtp_initial_cv" in m:  # the same RTP with the control variates: same rounds, narrower interval
                cv = m["rtp_initial_cv"]
                row["method"] = "monte carlo, control variates"
                row["rtp_initial_cv"], row["rtp_initial_cv_low"], row["rtp_initial_cv_high"] = cv.estimate, cv.low, cv.high
                w = m["rtp_wagered_cv"]
                row["rtp_wagered_cv"], row["rtp_wagered_cv_low"], row["rtp_wagered_cv_high"] = w.estimate, w.low, w.high
            row["sd_net"] = float(m["sd_net"])
            row["average_wagered"] = float(m["average_wagered"].estimate)
        row["kickout_rate_exact"] = d.exact_kickout[n]
        row["kickout_threshold"] = d.rules.kickout[n]
        if "rtp_initial_cv" not in row:  # exact, or a run without controls: the headline is the plain figure
            for name in ("rtp_initial", "rtp_wagered"):
                row[f"{name}_cv"], row[f"{name}_cv_low"], row[f"{name}_cv_high"] = (
                    row[name], row[f"{name}_low"], row[f"{name}_high"])
        rows.append(row)
    out = pd.DataFrame(rows)
    out["rounds"] = out["rounds"].astype("Int64")
    return out


def _category_pays(rules) -> dict[int, float] | None:
    """Bonus pays per final-hand category (0..9, 9 = royal flush), or None when a line splits a category."""
    from ricochet_math.evaluator.evaluation import bonus_category
    from ricochet_math.evaluator.tables import NUM_VALUES

    pays: dict[int, set] = {}
    for v in range(NUM_VALUES):
        pays.setdefault(int(bonus_category(v)), set()).add(float(rules.bonus.payout(v)))
    if any(len(s) != 1 for s in pays.values()):
        return None
    return {c: next(iter(s)) for c, s in pays.items()}


def _mc_return_table(rules, r):
    """Per-outcome frequencies and the return decomposition of one simulated player count."""
    import pandas as pd

    from ricochet_math.evaluator.evaluation import BONUS_CATEGORY_NAMES
    from ricochet_math.engine.kernel import F_AUTO, F_BEATEN, F_BONUS, F_BONUS0, F_FOLD, F_PLAY, F_SHARE, F_SPLIT, F_WIN

    t = r.sums.total
    seat_rounds = float(r.rounds * r.players)
    rows = []

    def add(group, item, count, amount, contribution):
        p = count / seat_rounds if count is not None else math.nan
        rows.append({"players": r.players, "group": group, "item": item, "count": count, "probability": p,
                     "amount": amount, "contribution": contribution})

    won = t[F_WIN] - t[F_AUTO] - t[F_SPLIT]
    add("outcome", "fold", t[F_FOLD], -1.0, math.nan)
    add("outcome", "automatic win (dealer kicked out, everyone else folded)", t[F_AUTO], math.nan, math.nan)
    add("outcome", "played and won the pot alone", won, math.nan, math.nan)
    add("outcome", "played and shared the pot", t[F_SPLIT], math.nan, math.nan)
    add("outcome", "played and was beaten", t[F_BEATEN], math.nan, math.nan)
    add("return", "ante (every seat, every round)", seat_rounds, -1.0, -1.0)
    add("return", "play bet", t[F_PLAY], -1.0, -t[F_PLAY] / seat_rounds)
    wins = t[F_WIN]
    add("return", "pot won or shared (average share when won)", wins,
        (t[F_SHARE] / wins) if wins else math.nan, t[F_SHARE] / seat_rounds)
    cat_pays = _category_pays(rules)
    if cat_pays is None:
        add("return", "high-hand bonus (all lines)", float(t[F_BONUS0:F_BONUS0 + 10].sum()), math.nan,
            t[F_BONUS] / seat_rounds)
    else:
        for c, name in enumerate(BONUS_CATEGORY_NAMES):
            pays = cat_pays.get(c, 0.0)
            if pays > 0:
                count = t[F_BONUS0 + c]
                add("return", f"bonus: {name.lower()}", count, pays, count * pays / seat_rounds)
    total = sum(x["contribution"] for x in rows if x["group"] == "return")
    add("total", "expected net per player-round (RTP per initial bet - 1)", None, math.nan, total)
    return pd.DataFrame(rows)


def _bonus_table(solo, rules):
    """The high-hand bonus paytable with N = 1 exact line probabilities (perfect play)."""
    import pandas as pd

    rt = solo.return_table()
    rt = rt[rt["outcome"] != "fold"]
    total = float(solo.return_table()["combinations"].sum())
    rows = []
    lines = sorted(rules.bonus, key=lambda ln: ln.value())
    for ln in lines:
        comb = int(rt.loc[rt["bonus"] == ln.key, "combinations"].sum())
        p = comb / total
        rows.append({"line": ln.key, "hand": ln.hand_pattern, "pays": float(ln.pays), "combinations": comb,
                     "probability": p, "contribution": p * float(ln.pays)})
    return pd.DataFrame(rows)


def _volatility(main, levels=VOLATILITY_LEVELS, band=BAND_ROUNDS):
    import pandas as pd

    from ricochet_math.solvers.stats import z_value

    vi, rows = [], []
    for _, r in main.iterrows():
        sd = float(r["sd_net"])
        vi.append({"players": int(r["players"]), "method": r["method"], "sd_net": sd,
                   **{f"vi_{int(round(100 * lv))}": z_value(lv) * sd for lv in levels}})
        for n in band:
            for lv in levels:
                h = z_value(lv) * sd / math.sqrt(n)
                rows.append({"players": int(r["players"]), "rounds": n, "level": lv,
                             "rtp_low": float(r["rtp_initial_cv"]) - h, "rtp_high": float(r["rtp_initial_cv"]) + h,
                             "half_width": h})
    return pd.DataFrame(vi), pd.DataFrame(rows)


def _strategy_rtps(d: _Data):
    """Every strategy analysed, per player count: RTP per initial bet with its interval (long format)."""
    import pandas as pd

    rows = []
    main = _main_rows(d)
    for _, r in main.iterrows():
        rows.append({"players": int(r["players"]), "strategy": "perfect", "source": r["method"],
                     "rtp_initial": r["rtp_initial_cv"], "rtp_initial_low": r["rtp_initial_cv_low"],
                     "rtp_initial_high": r["rtp_initial_cv_high"], "fold_frequency": r["fold_frequency"],
                     "win_frequency": r["win_frequency"]})
    by = d.published.by_players
    for _, r in by.iterrows():
        if r["reading"] == "perfect" or int(r["players"]) not in d.players:
            continue
        rows.append({"players": int(r["players"]), "strategy": r["reading"], "source": r["method"],
                     "rtp_initial": r["rtp_initial"], "rtp_initial_low": r["rtp_initial_low"],
                     "rtp_initial_high": r["rtp_initial_high"], "fold_frequency": r["fold_frequency"],
                     "win_frequency": r["win_frequency"]})
    for (profile, n), res in sorted(d.weak.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        m = res.summary()
        rows.append({"players": n, "strategy": profile, "source": f"monte carlo {res.rounds:,} rounds",
                     "rtp_initial": m["rtp_initial"].estimate, "rtp_initial_low": m["rtp_initial"].low,
                     "rtp_initial_high": m["rtp_initial"].high, "fold_frequency": m["fold_frequency"].estimate,
                     "win_frequency": m["win_frequency"].estimate})
    out = pd.DataFrame(rows)
    order = {s: i for i, s in enumerate(("perfect",) + READINGS[1:] + WEAK_PROFILES)}
    out["_o"] = [order.get(s, 99) for s in out["strategy"]]
    return out.sort_values(["players", "_o"], kind="stable").drop(columns="_o").reset_index(drop=True)


def _reconciliation(d: _Data):
    """Exact figures next to Monte Carlo estimates of the same quantity."""
    import pandas as pd

    rows = []

    def add(quantity, n, exact, est, note=""):
        mean, lo, hi, se = est
        z = (mean - exact) / se if se and se > 0 else math.nan
        rows.append({"quantity": quantity, "players": n, "exact": exact, "monte_carlo": mean, "ci_low": lo,
                     "ci_high": hi, "difference": mean - exact, "z": z,
                     "within_95_ci": bool(lo <= exact <= hi), "note": note})

    if 1 in d.perfect:
        r = d.perfect[1]
        m = r.summary()
        s = _solo_figures(d.solo)
        note = "" if d.solo.complete else "exact side covers sampled classes only: not comparable"
        for name, key in (("RTP per initial bet", ("rtp_initial", "rtp_per_initial_bet")),
                          ("RTP per total wagered", ("rtp_wagered", "rtp_per_wagered")),
                          ("fold frequency", ("fold_frequency", "fold_frequency")),
                          ("win frequency", ("win_frequency", "win_frequency")),
                          ("hit frequency", ("hit_frequency", "hit_frequency"))):
            add(f"{name} (perfect play)", 1, float(s[key[1]]), _est(m, key[0]), note)
    qd = d.quickdraw[d.rules.quickdraw.comparison]
    for n in sorted(d.perfect):
        m = d.perfect[n].summary()
        add("kickout rate", n, d.exact_kickout[n], _est(m, "kickout_rate"))
        add(f"Quickdraw RTP ({d.rules.quickdraw.comparison})", n, qd.rtp, _est(m, "quickdraw_rtp"))
        add("Cover RTP", n, d.cover.rtp, _est(m, "cover_rtp"))
    return pd.DataFrame(rows)


# ============================================================================
# Sections
# ============================================================================

_GAME = (
    "Ricochet Poker (James Ernest / Cheapass Games), casino version. One to seven players and the dealer each "
    "ante 1 unit into the pot. Each player is dealt two cards face up and the dealer five. If the dealer's hand "
    "is at or above the kickout threshold for the number of players she folds (is kicked out); her ante stays "
    "in the pot. The players then act once each, lowest two-card hand first: fold (the ante stays in the pot) "
    "or play (1 more unit into the pot, exactly three more cards). A player who plays must reach the best "
    "five-card hand standing (the dealer's while she is in; the dealer loses ties) or is out; a better hand "
    "knocks out the hands it beats. The pot goes to the highest remaining hand (split between ties); if only "
    "the dealer remains the house takes it. A player whose five-card hand is a straight or better is paid the "
    "high-hand bonus by the house, win or lose. Two optional side bets are settled on the deal: Quickdraw (the "
    "player's two cards against the dealer's five) and Cover (on the dealer's five cards). Every amount in "
    "this report is in units of the ante."
)

_PERFECT = (
    "Perfect play (the toolkit's default strategy): each player chooses fold or play to maximise their own "
    "expected net result, knowing everything on the table (all cards are face up), given that every later "
    "player also plays perfectly; a player plays only when EV(play) > EV(fold) strictly. With one player this "
    "is solved exactly over all deals and draws. With two or more players each decision is taken by the "
    "perfect-play look-ahead of ricochet_math.strategies.perfect at the table as it stands (the later seats' draws "
    "modelled from the cards unseen at the decision), inside the Monte Carlo engine."
)

_PROFILES = {
    "always": "plays every hand",
    "pair": "plays a pair or better, folds everything else",
    "timid": "too tight: plays only a pair, A-K or A-Q, whatever the table shows",
    "chaser": "too loose: plays everything except unpaired cards against three of a kind or better",
    "dealer-only": "thinks the game is against the dealer: plays when she is kicked out, else only when the two "
                   "cards match or beat her top two ranked cards",
    "bonus-hunter": "plays for the bonus table: pairs, suited cards and cards that can share a straight",
}

_READING_TEXT = {
    "perfect": "perfect play (the default)",
    "perfect-no-bonus": "perfect play deciding on pot equity alone (the bonus is still paid)",
    "myopic": "maximise EV against the hand currently to beat, ignoring the seats still to act",
    "myopic-no-bonus": "myopic, ignoring the bonus when deciding",
    "pot-odds-now": "dealer-only pot odds, with the pot right after my play",
    "pot-odds-now-no-bonus": "pot odds now, ignoring the bonus",
    "pot-odds-final": "dealer-only pot odds, with the final pot when later seats follow the same rule",
    "pot-odds-final-no-bonus": "pot odds final, ignoring the bonus",
}


def _source_text(rules) -> str:
    """The rule-set file, as a path relative to the shipped folder or the working folder when possible."""
    from ricochet_math.rules.ruleset import paytables_dir

    src = rules.source or "(none)"
    modified = src.endswith("(modified)")
    path = Path(src.replace(" (modified)", "")) if rules.source else None
    if path is not None and path.is_absolute():
        try:
            shown = f"paytables/{path.resolve().relative_to(paytables_dir().resolve()).as_posix()} (shipped)"
        except ValueError:
            try:
                shown = path.resolve().relative_to(Path.cwd().resolve()).as_posix()
            except ValueError:
                shown = path.name
        src = shown + (" (modified in code)" if modified else "")
    return src


def _sections(d: _Data, main, run_times: list[tuple[str, str]], provenance: list[tuple[str, str, bool]]):
    import pandas as pd

    from ricochet_math.evaluator.evaluation import describe

    rules, size = d.rules, d.size
    many = [n for n in d.players if n >= 2]
    secs: list[_Section] = []
    ci_text = f"{int(LEVEL * 100)}% CI"

    # ---------------------------------------------------------------- 1
    s = _Section("1", "Game and rule set in force")
    s.p(_GAME)
    s.p(f"Rule set '{rules.name}': {rules.description}. File: {_source_text(rules)}; SHA-256 of the file "
        f"(with the files it extends): {rules.sha256}.")
    frame = rules.to_frame(describe=True)
    s.table("Every key of the rule set in force", ["section", "key", "value", "detail"],
            [[r.section, r.key, str(r.value), r.detail] for r in frame.itertuples()], csv="rule_set", data=frame,
            align=["l", "l", "l", "l"])
    kick = pd.DataFrame([{"players": n, "threshold": rules.kickout[n], "hand": describe(rules.kickout_value(n)),
                          "kickout_rate_exact": d.exact_kickout[n]} for n in range(1, 8)])
    s.table("Kickout table: the dealer folds at or above the threshold (exact kickout rate over the 2,598,960 "
            "dealer hands)", ["players", "threshold", "weakest hand kicked out", "P(dealer kicked out)", "1 in N"],
            [[str(r.players), r.threshold, r.hand, _pct(r.kickout_rate_exact, 4), _one_in(r.kickout_rate_exact)]
             for r in kick.itertuples()], csv="kickout_table", data=kick, align=["r", "l", "l", "r", "r"])
    secs.append(s)

    # ---------------------------------------------------------------- 2
    s = _Section("2", "Method")
    if size.note:
        s.note(size.note)
    solo_text = ("exact: every one of the 2,809,475,760 deals (two player cards, five dealer cards) and each "
                 "deal's 14,190 three-card draws counted as integers; perfect play solved exactly"
                 if d.solo.complete else
                 f"exact counts over {int(d.solo.classes_done.sum())} of the 169 starting-hand classes only "
                 "(test size): not the game's figures")
    weak_rounds = size.weak_rounds(d.rounds)
    rows = [
        ("Main game, 1 player", "exact", solo_text),
        ("Main game, 2-7 players", "Monte Carlo",
         f"{d.rounds:,} rounds per player count, perfect play, seed {d.seed}"),
        ("Chunks and seeding", "Monte Carlo",
         f"rounds in chunks ({_chunk_text(d)}); chunk i is dealt from numpy SeedSequence(seed).spawn(n)[i] "
         "(xoshiro256** in the kernel): results do not depend on the number of threads"),
        ("N = 1 perfect-play simulation", "Monte Carlo",
         f"{size.solo_rounds:,} rounds, to reconcile the engine with the exact analysis (Section 5b)"),
        ("Strategy readings, published figures", "exact (N = 1) and Monte Carlo",
         f"{d.rounds:,} rounds per player count and reading (ricochet_math.reports.published)"),
        ("Weak-player profiles", "Monte Carlo", f"{weak_rounds:,} rounds per player count and profile"),
        ("Perfect seat among publisher-like players", "Monte Carlo",
         f"{size.response_rounds:,} rounds per player count"),
        ("Distribution of a seat's net result", "exact (N = 1) and Monte Carlo",
         f"{size.distribution_rounds:,} rounds recorded one by one"
         + (f" at {d.distribution[0]} players" if d.distribution[0] else "")),
        ("Side bets", "exact", "Quickdraw over all 2,809,475,760 deals, Cover over all 2,598,960 dealer hands"),
        ("Kickout rate, kickout curve (N = 1)", "exact", "dealer-hand counts; the N = 1 solo analysis"),
        ("Confidence intervals", f"{int(LEVEL * 100)}%, normal approximation",
         "sample standard deviation, the round as the independent sample (the seats of a round share a pot and "
         "a deck); RTP per total wagered is a ratio estimator with a delta-method interval"),
        ("Variance reduction", "common random numbers only",
         "every strategy and reading is run with the same seed, so all are dealt the same cards: differences "
         "between them are more precise than either figure alone; no other variance reduction is used, so "
         "each single figure is plain Monte Carlo"),
    ]
    frame = pd.DataFrame(rows, columns=["item", "method", "detail"])
    s.table("How each figure was computed", ["item", "method", "detail"], [list(r) for r in rows], csv="method",
            data=frame, align=["l", "l", "l"])
    s.p(_PERFECT)
    s.p("RTP is given both ways because the publisher does not say which convention its figures use: RTP per "
        "initial bet = 1 + E[net] per ante (1 - house edge per ante), and RTP per total wagered = E[returned] / "
        "E[wagered] (1 - element of risk). Hit frequency is P(net > 0) for a seat; fold frequency is folds per "
        "player-round (kicked-out rounds included); win frequency counts rounds in which the seat wins or "
        "shares the pot, automatic wins included.")
    s.table("Run time (seconds; varies between builds)", ["step", "seconds"],
            [[name, _Volatile(sec)] for name, sec in run_times], csv=None)
    secs.append(s)

    # ---------------------------------------------------------------- 3
    s = _Section("3", "Main game by player count (perfect play)")
    s.p(f"One row per player count. N = 1 is exact; N >= 2 is Monte Carlo with its {ci_text} beside each estimate. "
        "The RTPs of the Monte Carlo rows are estimated with control variates of exactly known mean "
        "(ricochet_math.solvers.variance: unbiased, the same rounds, a narrower interval); the plain sample means are in "
        "the CSV (rtp_initial, rtp_wagered) and are what the return table below adds up to. "
        "House edge is per ante, element of risk per unit wagered, standard deviation is that of one seat's net "
        "result per round (ante units), average bet is the average amount wagered by a seat per round.")
    if size.name != "full" and many:
        s.note(f"The Monte Carlo rows are {d.rounds:,} rounds each: read their intervals before their centres.")
    s.table("Return to player", ["N", "method", "rounds", "RTP per initial bet", ci_text, "RTP per wagered",
                                 ci_text, "house edge", "element of risk"],
            [[str(r.players), r.method, "" if _isnan(r.rounds) or r.rounds is None else _int(r.rounds),
              _pct(r.rtp_initial_cv), _ci(r.rtp_initial_cv_low, r.rtp_initial_cv_high), _pct(r.rtp_wagered_cv),
              _ci(r.rtp_wagered_cv_low, r.rtp_wagered_cv_high), _pct(1.0 - r.rtp_initial_cv),
              _pct(1.0 - r.rtp_wagered_cv)]
             for r in main.itertuples()], csv="main_game", data=main, align=["r", "l"] + ["r"] * 7)
    s.table("Frequencies, standard deviation and average bet",
            ["N", "fold frequency", ci_text, "win frequency", ci_text, "kickout rate", "hit frequency",
             "std dev", "average bet"],
            [[str(r.players), _pct(r.fold_frequency, 2), _ci(r.fold_frequency_low, r.fold_frequency_high),
              _pct(r.win_frequency, 2), _ci(r.win_frequency_low, r.win_frequency_high), _pct(r.kickout_rate, 2),
              _pct(r.hit_frequency, 2), _num(r.sd_net, 4), _num(r.average_wagered, 4)]
             for r in main.itertuples()], csv=None)
    secs.append(s)

    # ---------------------------------------------------------------- 4
    s = _Section("4", "Return tables")
    if 1 in d.players:
        rt = d.solo.return_table()
        s.h3("One player: exact return table (perfect play)")
        s.p("Each outcome of a round: the deal and the three-card draw, counted over all 2,809,475,760 x 14,190 "
            "equally likely (deal, draw) pairs. Net is the seat's net result in antes (bonus included); the "
            "contributions sum to the expected net per round, i.e. RTP per initial bet - 1."
            + ("" if d.solo.complete else " TEST SIZE: sampled classes only."))
        rows = [[r.outcome, r.bonus.replace("_", " "), _int(r.combinations), _pct(r.probability, 5),
                 _one_in(r.probability), _num(r.net, 0), f"{r.contribution:+.6f}"]
                for r in rt.itertuples() if r.combinations > 0]
        rows.append(["total", "", _int(rt["combinations"].sum()), _pct(rt["probability"].sum(), 5), "", "",
                     f"{rt['contribution'].sum():+.6f}"])
        s.table("Return table, 1 player", ["outcome", "bonus line", "combinations", "probability", "1 in N",
                                           "net", "contribution"], rows, csv="return_table_1",
                data=rt, align=["l", "l", "r", "r", "r", "r", "r"],
                note="Outcomes that cannot happen (0 combinations) are left out here; the CSV has every line.")
    if many:
        s.h3("Two or more players: outcome frequencies and the return, from the simulation")
        s.p("Per player-round (perfect play). The outcome rows count what happened to a seat; the return rows "
            "decompose the seat's net result (net = pot share + bonus - wagered), so their contributions add "
            "up exactly to the expected net. A pot share varies with the pot, so its amount is the average "
            "share when won.")
        frames = []
        for n in many:
            t = _mc_return_table(rules, d.perfect[n])
            frames.append(t)
            rows = []
            for r in t.itertuples():
                rows.append([r.group, r.item, "" if r.count is None or _isnan(r.count) else _int(r.count),
                             "" if _isnan(r.probability) else _pct(r.probability, 4),
                             "" if _isnan(r.probability) else _one_in(r.probability),
                             "" if _isnan(r.amount) else _num(r.amount, 3),
                             "" if _isnan(r.contribution) else f"{r.contribution:+.5f}"])
            s.table(f"{n} players ({d.perfect[n].rounds:,} rounds)",
                    ["group", "item", "count", "probability", "1 in N", "amount", "contribution"], rows, csv=None,
                    align=["l", "l", "r", "r", "r", "r", "r"])
        all_mc = pd.concat(frames, ignore_index=True)
        s.blocks[-1].csv, s.blocks[-1].data = "return_tables_mc", all_mc
        s.p("The CSV tables/return_tables_mc.csv holds every player count's rows.")
    secs.append(s)

    # ---------------------------------------------------------------- 5
    s = _Section("5", "Bonus and side bets")
    s.p("True odds are the odds against the event, (1 - p) / p to 1; payout odds are what the paytable pays, "
        "x to 1. RTP, house edge, hit frequency and standard deviation are per unit staked (for the bonus: per "
        "ante of a seat). Every figure in this section is exact.")
    s.h3("High-hand bonus (part of the main game)")
    bt = _bonus_table(d.solo, rules)
    bonus_rtp = float(bt["contribution"].sum())
    hit = float(bt["probability"].sum())
    second = float((bt["probability"] * bt["pays"] ** 2).sum())
    s.p(f"Paid by the house on a seat's final five-card hand, win or lose. Probabilities are per round for one "
        f"player under perfect play (exact{'' if d.solo.complete else ', sampled classes'}): the bonus returns "
        f"{_pct(bonus_rtp, 4)} of an ante, hits {_pct(hit, 4)} of rounds ({_one_in(hit)}), standard deviation "
        f"{math.sqrt(max(second - bonus_rtp ** 2, 0.0)):.4f} antes. With more players each seat's bonus frequencies "
        "are in Section 4.")
    s.table("Bonus paytable, 1 player", ["line", "hand", "payout odds", "probability", "true odds", "1 in N",
                                         "contribution"],
            [[r.line.replace("_", " "), r.hand, _pays(r.pays), _pct(r.probability, 5), _odds(r.probability),
              _one_in(r.probability), f"{r.contribution:.6f}"] for r in bt.itertuples()], csv="bonus_paytable",
            data=bt, align=["l", "l", "r", "r", "r", "r", "r"])
    s.h3("Quickdraw")
    rows = []
    for comparison, q in d.quickdraw.items():
        rows.append({"comparison": comparison, "in_rules": comparison == rules.quickdraw.comparison,
                     "pays": float(q.pays), "win_combinations": q.win_combinations, "deals": q.deals,
                     "probability": q.win_probability, "rtp": q.rtp, "house_edge": q.house_edge,
                     "hit_frequency": q.hit_frequency, "std_dev": q.std_dev, "break_even_pays": q.break_even_pays})
    qf = pd.DataFrame(rows)
    s.p("Wins when the player's two-card hand beats the dealer's five-card hand; ties win for the player. Both "
        "readings of the comparison (spec, 'Side bets') are shown; the rule set uses "
        f"'{rules.quickdraw.comparison}'.")
    s.table("Quickdraw paytable and figures", ["comparison", "in rules", "payout odds", "P(win)", "true odds",
                                               "RTP", "house edge", "hit frequency", "std dev", "break-even"],
            [[r.comparison, "yes" if r.in_rules else "no", _pays(r.pays), _pct(r.probability, 4),
              _odds(r.probability), _pct(r.rtp, 4), _pct(r.house_edge, 4), _pct(r.hit_frequency, 4),
              _num(r.std_dev, 4), f"{r.break_even_pays:.3f} to 1"] for r in qf.itertuples()], csv="quickdraw",
            data=qf, align=["l", "l"] + ["r"] * 8)
    q = d.quickdraw[rules.quickdraw.comparison]
    qd_rt = q.by_dealer()
    s.table(f"Quickdraw return table by the dealer's hand ({rules.quickdraw.comparison})",
            ["dealer hand", "deals", "probability", "player wins", "P(win | hand)", "RTP contribution"],
            [[r.dealer_category, _int(r.combinations), _pct(r.probability, 4), _int(r.wins), _pct(r.win_rate, 3),
              f"{r.rtp_contribution:.6f}"] for r in qd_rt.itertuples()], csv="quickdraw_return_table", data=qd_rt)
    qd_pl = q.by_player("category")
    s.table(f"Quickdraw by the player's hand ({rules.quickdraw.comparison})",
            ["player hand", "deals", "probability", "player wins", "P(win | hand)", "RTP contribution"],
            [[r.player, _int(r.combinations), _pct(r.probability, 4), _int(r.wins), _pct(r.win_rate, 3),
              f"{r.rtp_contribution:.6f}"] for r in qd_pl.itertuples()], csv="quickdraw_by_player", data=qd_pl)
    s.h3("Cover")
    c = d.cover
    ct = c.to_frame()
    s.p(f"Pays on the dealer's five-card hand; each line pays for hands at or above it and below the next line. "
        f"RTP {_pct(c.rtp, 4)} (house edge {_pct(c.house_edge, 4)}), hit frequency {_pct(c.hit_frequency, 4)}, "
        f"standard deviation {c.std_dev:.4f} per unit staked.")
    s.table("Cover paytable and return table", ["line", "from", "payout odds", "hands", "probability",
                                                "true odds", "1 in N", "RTP contribution"],
            [[r["key"].replace("_", " "), r["from"], _pays(r["pays"]) if r["key"] != "(no line)" else "loses",
              _int(r["combinations"]), _pct(r["probability"], 5), _odds(r["probability"]),
              _one_in(r["probability"]), f"{r['rtp_contribution']:.6f}"] for _, r in ct.iterrows()],
            csv="cover_return_table", data=ct,
            align=["l", "l"] + ["r"] * 6)
    sb = d.sidebets
    s.table("Side bets at a glance (per unit staked)", ["bet", "reading", "in rules", "RTP", "house edge",
                                                        "hit frequency", "std dev"],
            [[r.bet, r.reading if len(r.reading) < 40 else "rule set's paytable", "yes" if r.in_rules else "no",
              _pct(r.rtp, 4), _pct(r.house_edge, 4), _pct(r.hit_frequency, 4), _num(r.std_dev, 4)]
             for r in sb.itertuples()], csv="sidebets_summary", data=sb, align=["l", "l", "l"] + ["r"] * 4)
    secs.append(s)

    # ---------------------------------------------------------------- 5b
    s = _Section("5b", "Volatility")
    vi, band = _volatility(main)
    s.p("The volatility index is z x (standard deviation of a seat's net result per round): after n rounds the "
        "player's RTP per initial bet lies within RTP +/- VI / sqrt(n) with the stated confidence (normal "
        "approximation, perfect play).")
    s.table("Volatility index (perfect play)", ["N", "method", "std dev", "VI 90%", "VI 95%", "VI 99%"],
            [[str(r.players), r.method, _num(r.sd_net, 4), _num(r.vi_90, 3), _num(r.vi_95, 3), _num(r.vi_99, 3)]
             for r in vi.itertuples()], csv="volatility_index", data=vi, align=["r", "l", "r", "r", "r", "r"])
    wide_rows = []
    for n_rounds in BAND_ROUNDS:
        row = [f"{n_rounds:,}"]
        for n in main["players"]:
            b = band[(band.players == n) & (band.rounds == n_rounds) & (band.level == 0.95)].iloc[0]
            row.append(f"{100 * b.rtp_low:.2f} to {100 * b.rtp_high:.2f}")
        wide_rows.append(row)
    s.table("Band of the RTP per initial bet after n rounds, 95% (percent; 90% and 99% in the CSV)",
            ["rounds"] + [f"N = {n}" for n in main["players"]], wide_rows, csv="rtp_band", data=band)
    strat = _strategy_rtps(d)
    rng_rows = []
    for n, g in strat.groupby("players", sort=True):
        lo, hi = g.loc[g["rtp_initial"].idxmin()], g.loc[g["rtp_initial"].idxmax()]
        rng_rows.append({"players": int(n), "strategies": len(g), "min_strategy": lo["strategy"],
                         "min_rtp": lo["rtp_initial"], "min_low": lo["rtp_initial_low"],
                         "min_high": lo["rtp_initial_high"], "max_strategy": hi["strategy"],
                         "max_rtp": hi["rtp_initial"], "max_low": hi["rtp_initial_low"],
                         "max_high": hi["rtp_initial_high"]})
    rng = pd.DataFrame(rng_rows)
    s.p("Lowest and highest RTP per initial bet over every strategy analysed in this report (perfect play, the "
        "solver readings of Section 7, the weak-player profiles of Section 6; every seat playing the same "
        "strategy).")
    s.table("RTP range over the strategies analysed", ["N", "strategies", "lowest", "RTP", ci_text, "highest",
                                                      "RTP", ci_text],
            [[str(r.players), str(r.strategies), r.min_strategy, _pct(r.min_rtp, 2), _ci(r.min_low, r.min_high),
              r.max_strategy, _pct(r.max_rtp, 2), _ci(r.max_low, r.max_high)] for r in rng.itertuples()],
            csv="rtp_range_over_strategies", data=rng, align=["r", "r", "l", "r", "r", "l", "r", "r"])
    rec = _reconciliation(d)
    s.p("Exact vs Monte Carlo: where a figure is known exactly, the simulation's estimate of it, its interval "
        "and z = (estimate - exact) / standard error. About 1 row in 20 may fall outside a 95% interval by "
        "chance alone.")
    s.table("Exact vs Monte Carlo reconciliation", ["quantity", "N", "exact", "Monte Carlo", ci_text, "z",
                                                    "inside"],
            [[r.quantity, str(r.players), _pct(r.exact, 4), _pct(r.monte_carlo, 4), _ci(r.ci_low, r.ci_high),
              "n/a" if _isnan(r.z) else f"{r.z:+.2f}", ("yes" if r.within_95_ci else "NO") + (" *" if r.note else "")]
             for r in rec.itertuples()], csv="reconciliation", data=rec, align=["l", "r", "r", "r", "r", "r", "l"],
            note="* the exact N = 1 side covers sampled starting-hand classes only (test size)"
            if (rec["note"] != "").any() else "")
    secs.append(s)

    # ---------------------------------------------------------------- 6
    s = _Section("6", "Weak players next to perfect play")
    s.p("The weak-player profiles are models of typical mistakes, not measured behaviour: "
        + "; ".join(f"{p}: {_PROFILES.get(p, p)}" for p in size.weak_profiles)
        + ". Every seat at the table plays the profile; RTP per initial bet, Monte Carlo "
        f"({weak_rounds:,} rounds per cell, the same deals as perfect play).")
    cols = ["perfect"] + list(size.weak_profiles)
    rows = []
    for n in d.players:
        g = strat[strat.players == n].set_index("strategy")
        rows.append([str(n)] + [_pct(g.loc[c, "rtp_initial"], 2) if c in g.index else "" for c in cols])
    weak_frame = strat[strat.strategy.isin(cols)].reset_index(drop=True)
    s.table("RTP per initial bet: perfect play and the weak profiles", ["N"] + cols, rows, csv="weak_players",
            data=weak_frame)
    rows = []
    for n in d.players:
        g = strat[strat.players == n].set_index("strategy")
        rows.append([str(n)] + [_pct(g.loc[c, "fold_frequency"], 1) if c in g.index else "" for c in cols])
    s.table("Fold frequency: perfect play and the weak profiles", ["N"] + cols, rows, csv=None)
    readings = [r for r in size.readings]
    s.p("The solver readings of the spec ('Strategy readings'), every seat following the same reading: "
        + "; ".join(f"{r}: {_READING_TEXT.get(r, r)}" for r in readings) + ".")
    rows = []
    for n in d.players:
        g = strat[strat.players == n].set_index("strategy")
        rows.append([str(n)] + [_pct(g.loc[c, "rtp_initial"], 2) if c in g.index else "" for c in readings])
    s.table("RTP per initial bet by strategy reading", ["N"] + [r.replace("-no-bonus", " nb") for r in readings],
            rows, csv="strategy_readings", data=strat[strat.strategy.isin(readings)].reset_index(drop=True),
            note="'nb' = no bonus in the decision. Intervals are in the CSV.")
    if many:
        rows, frame_rows = [], []
        for n in many:
            sf = d.response[n].seat_frame()
            key = "rtp_initial_cv" if "rtp_initial_cv" in sf.columns else "rtp_initial"  # controlled if kept
            me, others = sf.iloc[0], sf.iloc[1:]
            g = strat[strat.players == n].set_index("strategy")
            table_rtp = g.loc[PUBLISHER_LIKE, "rtp_initial"] if PUBLISHER_LIKE in g.index else math.nan
            frame_rows.append({"players": n, "rounds": d.response[n].rounds, "seat_rtp": me[key],
                               "seat_rtp_low": me[f"{key}_low"], "seat_rtp_high": me[f"{key}_high"],
                               "others_rtp": float(others[key].mean()),
                               "all_publisher_like_rtp": table_rtp})
            rows.append([str(n), _int(d.response[n].rounds), _pct(me[key], 2),
                         _ci(me[f"{key}_low"], me[f"{key}_high"]), _pct(others[key].mean(), 2),
                         _pct(table_rtp, 2)])
        s.p(f"A lab cares about the highest RTP a skilled player can reach: one seat plays perfectly against "
            f"what it knows the others do ('perfect-vs-{PUBLISHER_LIKE}') at a table where every other seat "
            f"follows the publisher-like reading '{PUBLISHER_LIKE}'.")
        s.table("A perfect seat among publisher-like players", ["N", "rounds", "skilled seat RTP", ci_text,
                                                                "other seats", f"all {PUBLISHER_LIKE}"],
                rows, csv="best_response", data=pd.DataFrame(frame_rows))
    secs.append(s)

    # ---------------------------------------------------------------- 7
    s = _Section("7", "Published figures vs computed")
    pub = d.published.to_frame()
    s.p("The publisher's figures (rulebook, second casino page) next to ours under every strategy reading. "
        f"N = 1 is exact; N >= 2 is Monte Carlo, {d.rounds:,} rounds per player count and reading, seed "
        f"{d.seed}, common random numbers across readings. RTP is per initial bet.")
    s.table("Published vs computed", ["figure", "published", "reading", "computed", ci_text, "difference"],
            [[r.figure, _pct(r.published, 2), r.reading, _pct(r.computed, 2), _ci(r.ci_low, r.ci_high),
              f"{100 * r.difference:+.2f} pts"] for r in pub.itertuples()], csv="published_vs_computed",
            data=pub, align=["l", "r", "l", "r", "r", "r"])
    best_rows = []
    # the weak-player rows are one figure ("closer to 90%") whatever the profile: the closest profile wins
    group = [re.sub(r" \(.*\)$", " (closest profile)", f) if f.startswith("RTP of weak players") else f
             for f in pub["figure"]]
    for fig_name, g in pub.groupby(group, sort=False):
        b = g.loc[g["difference"].abs().idxmin()]
        best_rows.append({"figure": fig_name, "published": b.published, "closest_reading": b.reading,
                          "computed": b.computed, "ci_low": b.ci_low, "ci_high": b.ci_high,
                          "difference": b.difference})
    best = pd.DataFrame(best_rows)
    s.table("The reading closest to each published figure", ["figure", "published", "closest reading",
                                                             "computed", ci_text, "difference"],
            [[r.figure, _pct(r.published, 2), r.closest_reading, _pct(r.computed, 2), _ci(r.ci_low, r.ci_high),
              f"{100 * r.difference:+.2f} pts"] for r in best.itertuples()], csv="published_closest", data=best,
            align=["l", "r", "l", "r", "r", "r"])
    for para in _published_explanation(d.published):
        s.p(para)
    secs.append(s)

    # ---------------------------------------------------------------- 8
    s = _Section("8", "Plots")
    s.plot("rtp_by_players", "RTP and fold frequency by player count",
           f"Perfect play: N = 1 exact, N >= 2 Monte Carlo with {ci_text} bars; the shaded band is the "
           "publisher's RTP range, the crosses its fold frequencies; thin lines are the weak profiles.",
           lambda fig, box: _plot_by_players(fig, box, main, strat, size.weak_profiles))
    s.plot("rtp_vs_threshold", "RTP against the kickout threshold (1 player, exact)",
           "Every threshold from the same exact analysis (the decision while the dealer is in does not depend "
           "on the threshold); the dashed line marks the rule set's threshold."
           + ("" if d.solo.complete else " TEST SIZE: sampled classes only."),
           lambda fig, box: _plot_threshold(fig, box, d.curve, rules.kickout[1]))
    dist_n = d.distribution[0]
    s.plot("net_distribution", "Distribution of a seat's net result per round",
           "Left: 1 player, exact (perfect play). Right: "
           + (f"one seat at {dist_n} players, {size.distribution_rounds:,} simulated rounds (perfect play)."
              if dist_n else "no multi-player count in this report."),
           lambda fig, box: _plot_distribution(fig, box, d.solo, d.distribution))
    s.plot("rtp_band", "RTP band against rounds played",
           "The RTP per initial bet a player can expect after n rounds: the solid line is the RTP, the dashed "
           "lines the 95% band RTP +/- VI95 / sqrt(n), one colour per player count.",
           lambda fig, box: _plot_band(fig, box, main))
    secs.append(s)

    # ---------------------------------------------------------------- 9
    s = _Section("9", "Provenance")
    s.table("Provenance", ["item", "value"], [[k, _Volatile(v) if vol else v] for k, v, vol in provenance],
            csv=None, align=["l", "l"])
    secs.append(s)
    return secs


def _chunk_text(d: _Data) -> str:
    """The chunk sizes the runs used, e.g. '256 rounds for perfect play, 65,536 for the weak profiles'."""
    parts = []
    solver = sorted({r.chunk_size for r in list(d.perfect.values()) + list(d.response.values())})
    fixed = sorted({r.chunk_size for r in d.weak.values()})
    if solver:
        parts.append(" / ".join(f"{c:,}" for c in solver) + " rounds for the solver strategies")
    if fixed:
        parts.append(" / ".join(f"{c:,}" for c in fixed) + " for the weak profiles")
    return ", ".join(parts) or "none run"


def _published_explanation(pub) -> list[str]:
    """The published-figures module's own account of the gaps (the '## Where the gaps come from' part)."""
    md = pub.to_markdown()
    m = re.search(r"## Where the gaps come from\s*(.*?)(?:\n\s*Run time|\Z)", md, re.S)
    if not m:
        return []
    out = []
    for item in re.split(r"\n\* ", "\n" + m.group(1).strip()):
        item = re.sub(r"^\*\s+", "", item.strip())
        item = re.sub(r"\*\*(.*?)\*\*", r"\1", item).replace("`", "")
        if item:
            out.append(" ".join(item.split()))
    return out


# ============================================================================
# Plots (each draws into a box of a figure, in inches: (x0, y0, width, height))
# ============================================================================

def _axes(fig, box, left=0.6, right=0.15, bottom=0.5, top=0.35):
    W, H = fig.get_size_inches()
    x0, y0, w, h = box
    return fig.add_axes(((x0 + left) / W, (y0 + bottom) / H, (w - left - right) / W, (h - bottom - top) / H))


def _split(box, k, gap=0.3):
    x0, y0, w, h = box
    each = (w - gap * (k - 1)) / k
    return [(x0 + i * (each + gap), y0, each, h) for i in range(k)]


def _plot_by_players(fig, box, main, strat, profiles):
    from matplotlib.ticker import PercentFormatter

    b1, b2 = _split(box, 2)
    ax = _axes(fig, b1)
    n = main["players"].to_numpy()
    rtp = main["rtp_initial_cv"].to_numpy()
    err = np.vstack([rtp - main["rtp_initial_cv_low"].to_numpy(), main["rtp_initial_cv_high"].to_numpy() - rtp])
    ax.axhspan(0.9597, 0.9691, color="0.88", zorder=0, label="published range")
    for p in profiles:
        g = strat[strat.strategy == p]
        ax.plot(g["players"], g["rtp_initial"], lw=0.8, alpha=0.7, label=p)
    ax.errorbar(n, rtp, yerr=err, fmt="o-", color="k", capsize=3, lw=1.5, label="perfect play", zorder=5)
    ax.set_xlabel("players")
    ax.set_ylabel("RTP per initial bet")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xticks(n)
    ax.set_title("RTP", fontsize=9)
    ax.legend(fontsize=6, loc="best", frameon=False)
    ax.grid(alpha=0.3)
    ax = _axes(fig, b2)
    f = main["fold_frequency"].to_numpy()
    ferr = np.vstack([f - main["fold_frequency_low"].to_numpy(), main["fold_frequency_high"].to_numpy() - f])
    ax.errorbar(n, f, yerr=ferr, fmt="o-", color="k", capsize=3, lw=1.5, label="perfect play")
    ax.plot([1, 7], [0.229, 0.1094], "x", color="C3", ms=8, mew=2, label="published")
    ax.set_xlabel("players")
    ax.set_ylabel("fold frequency")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xticks(range(1, 8))
    ax.set_title("Fold frequency", fontsize=9)
    ax.legend(fontsize=6, frameon=False)
    ax.grid(alpha=0.3)


def _plot_threshold(fig, box, curve, threshold):
    from matplotlib.ticker import PercentFormatter

    ax = _axes(fig, box, bottom=0.75)
    x = np.arange(len(curve))
    ax.plot(x, curve["rtp_per_initial_bet"], "o-", color="k", label="RTP per initial bet")
    ax.plot(x, curve["rtp_per_wagered"], "s--", color="C0", ms=4, label="RTP per total wagered")
    if threshold in list(curve["pattern"]):
        i = list(curve["pattern"]).index(threshold)
        ax.axvline(i, color="C3", ls="--", lw=1, label=f"rule set: {threshold}")
    ax.axhline(1.0, color="0.6", lw=0.8)
    ax.set_xticks(x)
    ax.set_xticklabels(curve["pattern"], rotation=45, ha="right", fontsize=7)
    ax.set_xlabel("kickout threshold (the dealer folds at or above)")
    ax.set_ylabel("RTP")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(fontsize=7, frameon=False)
    ax.grid(alpha=0.3)


def _plot_distribution(fig, box, solo, distribution):
    b1, b2 = _split(box, 2)
    ax = _axes(fig, b1)
    rt = solo.return_table()
    g = rt.groupby("net")["probability"].sum()
    g = g[g > 0]
    ax.bar([str(int(v)) if float(v).is_integer() else f"{v:g}" for v in g.index], g.to_numpy(), color="C0")
    ax.set_yscale("log")
    ax.set_xlabel("net result (antes)")
    ax.set_ylabel("probability")
    ax.set_title("1 player, exact", fontsize=9)
    ax.tick_params(axis="x", labelsize=6, rotation=90)
    ax.grid(alpha=0.3, axis="y")
    ax = _axes(fig, b2)
    n, net = distribution
    if n is None:
        ax.text(0.5, 0.5, "no multi-player count", ha="center", va="center", transform=ax.transAxes)
        ax.set_axis_off()
        return
    seat = np.round(np.asarray(net)[:, 0], 6)
    values, counts = np.unique(seat, return_counts=True)
    ax.bar(np.arange(len(values)), counts / counts.sum(), color="C1")
    step = max(1, len(values) // 12)
    ax.set_xticks(np.arange(len(values))[::step])
    ax.set_xticklabels([f"{v:g}" for v in values[::step]], rotation=90, fontsize=6)
    ax.set_yscale("log")
    ax.set_xlabel("net result of seat 1 (antes)")
    ax.set_ylabel("frequency")
    ax.set_title(f"{n} players, {len(seat):,} rounds", fontsize=9)
    ax.grid(alpha=0.3, axis="y")


def _plot_band(fig, box, main):
    from matplotlib.ticker import PercentFormatter

    from ricochet_math.solvers.stats import z_value

    ax = _axes(fig, box)
    x = np.logspace(2, 8, 61)
    z = z_value(0.95)
    for i, r in enumerate(main.itertuples()):
        h = z * r.sd_net / np.sqrt(x)
        colour = f"C{i % 10}"
        ax.plot(x, np.full_like(x, r.rtp_initial_cv), color=colour, lw=1.2, label=f"N = {r.players}")
        ax.plot(x, r.rtp_initial_cv - h, color=colour, lw=0.8, ls="--")
        ax.plot(x, r.rtp_initial_cv + h, color=colour, lw=0.8, ls="--")
    ax.axhline(1.0, color="0.5", lw=0.8)
    ax.set_xscale("log")
    centre = main["rtp_initial_cv"].to_numpy(dtype=float)
    ax.set_ylim(min(centre.min(), 1.0) - 0.25, max(centre.max(), 1.0) + 0.25)
    ax.set_xlabel("rounds played")
    ax.set_ylabel("RTP per initial bet (95% band)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(fontsize=6, ncol=4, frameon=False)
    ax.grid(alpha=0.3)


# ============================================================================
# Rendering
# ============================================================================

_RC = {
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "axes.titlesize": 9,
    "svg.hashsalt": "ricochet-report",
    "svg.fonttype": "none",
    "pdf.fonttype": 42,
    "pdf.compression": 6,
    "path.simplify": True,
    "figure.dpi": 100,
}


# The PDF uses the PDF core fonts (Helvetica, Courier): no font embedding, several times faster to
# write than embedded TrueType subsets, and every PDF reader has them.
_RC_PDF = {"pdf.use14corefonts": True, "font.family": "Helvetica", "axes.unicode_minus": False}


def _rc_context(pdf: bool = False):
    import logging

    import matplotlib as mpl

    class _Ctx:
        def __enter__(self):
            self._ctx = mpl.rc_context()
            self._ctx.__enter__()
            mpl.rcdefaults()
            mpl.rcParams.update(_RC)
            if pdf:
                mpl.rcParams.update(_RC_PDF)
            self._log = logging.getLogger("matplotlib.font_manager")
            self._level = self._log.level
            self._log.setLevel(logging.ERROR)   # "Helvetica not found, using ..." for layout metrics
            return self

        def __exit__(self, *exc):
            self._log.setLevel(self._level)
            return self._ctx.__exit__(*exc)

    return _Ctx()


def _svg(plot: _Plot) -> str:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(plot.width, plot.height))
    plot.draw(fig, (0.0, 0.0, plot.width, plot.height))
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    text = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", text)
    text = re.sub(r'\s+version="1\.1"', "", text)
    prefix = plot.name + "-"
    text = re.sub(r'\bid="', f'id="{prefix}', text)
    text = text.replace("url(#", f"url(#{prefix}").replace('href="#', f'href="#{prefix}')
    return text.strip()


def _render_html(path: Path, sections, title: str, subtitle: list[str], date: str) -> None:
    import jinja2
    from markupsafe import Markup, escape

    def cell(value):
        if isinstance(value, _Volatile):
            return Markup('<span class="volatile" title="varies between builds">{}</span>').format(str(value))
        return value

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("ricochet_math.reports", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]), trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
    )
    env.filters["cell"] = cell
    blocks = []
    for s in sections:
        items = []
        for b in s.blocks:
            if isinstance(b, _Para):
                items.append({"kind": b.kind, "text": b.text})
            elif isinstance(b, _Table):
                items.append({"kind": "table", "title": b.title, "columns": b.columns, "rows": b.rows,
                              "csv": b.csv, "note": b.note, "align": b.align})
            else:
                items.append({"kind": "figure", "title": b.title, "caption": b.caption, "svg": Markup(_svg(b)),
                              "name": b.name})
        blocks.append({"number": s.number, "title": s.title, "anchor": s.anchor, "blocks": items})
    html = env.get_template("report.html.j2").render(title=title, subtitle=subtitle, sections=blocks,
                                                     date=cell(_Volatile(date)), escape=escape)
    path.write_text(html, encoding="utf-8")


class _PdfWriter:
    """Flow text, tables and plots onto A4 pages (matplotlib only)."""

    W, H = 8.27, 11.69
    X0, X1, TOP, BOTTOM = 0.7, 7.57, 0.7, 0.75
    SANS, MONO = "Helvetica", "Courier"     # PDF core fonts: nothing to embed, fast to write

    def __init__(self, pdf, footer: str):
        self.pdf, self.footer = pdf, footer
        self.fig = None
        self.page = 0
        self.y = 0.0

    # -- pages
    def new_page(self):
        from matplotlib.figure import Figure

        self.finish_page()
        self.fig = Figure(figsize=(self.W, self.H))
        self.page += 1
        self.y = self.H - self.TOP

    def finish_page(self):
        if self.fig is not None:
            self.fig.text(self.X0 / self.W, 0.4 / self.H, _latin1(self.footer), fontsize=6.5, color="0.4",
                          parse_math=False)
            self.fig.text(self.X1 / self.W, 0.4 / self.H, f"page {self.page}", fontsize=6.5, color="0.4",
                          ha="right", parse_math=False)
            self.pdf.savefig(self.fig)
            self.fig = None

    def need(self, h: float):
        if self.fig is None or self.y - h < self.BOTTOM:
            self.new_page()

    def text(self, line: str, size: float, *, weight="normal", family=None, color="black",
             indent: float = 0.0, lead: float = 1.3):
        self.lines([line], size, weight=weight, family=family, color=color, indent=indent, lead=lead)

    def lines(self, lines: Sequence[str], size: float, *, weight="normal", family=None, color="black",
              indent: float = 0.0, lead: float = 1.3, on_new_page=None):
        """Draw lines top-down, ``size * lead`` points apart, breaking pages as needed."""
        pitch = size * lead / 72.0
        family = family or self.SANS
        for line in lines:
            if self.fig is None or self.y - pitch < self.BOTTOM:
                self.new_page()
                if on_new_page is not None:
                    on_new_page()
            baseline = self.y - 0.8 * size / 72.0      # the same baseline whatever glyphs a line holds
            self.fig.text((self.X0 + indent) / self.W, baseline / self.H, _latin1(line), fontsize=size,
                          fontweight=weight, family=family, color=color, va="baseline", parse_math=False)
            self.y -= pitch

    # -- blocks
    def heading(self, text: str, size: float = 13):
        self.need(size * 3.5 / 72.0)
        self.y -= 0.12
        self.text(text, size, weight="bold")
        self.y -= 0.05

    def paragraph(self, text: str, size: float = 8.5, color="black"):
        width = int((self.X1 - self.X0) * 72.0 / (size * 0.52))
        self.lines(textwrap.wrap(text, width) or [""], size, color=color)
        self.y -= 0.08

    def table(self, t: _Table):
        cells = [list(t.columns)] + [[str(c) for c in row] for row in t.rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(t.columns))]
        cap = 46
        if sum(widths) + 2 * len(widths) > 150:   # wrap the widest text columns
            widths = [min(w, cap) for w in widths]
        lines = []
        for k, row in enumerate(cells):
            wrapped = [textwrap.wrap(c, widths[i]) or [""] for i, c in enumerate(row)]
            for j in range(max(len(w) for w in wrapped)):
                parts = []
                for i, w in enumerate(wrapped):
                    piece = w[j] if j < len(w) else ""
                    parts.append(piece.rjust(widths[i]) if t.align[i] == "r" and k > 0 else piece.ljust(widths[i]))
                lines.append(("  ".join(parts).rstrip(), k == 0))
        chars = max(len(s) for s, _ in lines)
        size = min(7.0, (self.X1 - self.X0) * 72.0 / (0.602 * max(chars, 1)))
        mono = self.MONO
        header = [s for s, is_head in lines if is_head]
        body = [s for s, is_head in lines if not is_head]
        rule = "-" * chars
        self.need(size * 1.3 / 72.0 * (len(header) + 1 + min(len(body), 3)) + 0.3)

        def head(title=t.title):
            self.text(title, 8.5, weight="bold")
            self.lines(header, size, family=mono, weight="bold")
            self.text(rule, size, family=mono, color="0.5")

        head()
        self.lines(body, size, family=mono, on_new_page=lambda: head(t.title + " (continued)"))
        if t.note:
            self.paragraph(t.note, 7, color="0.3")
        self.y -= 0.12

    def plot(self, p: _Plot):
        w = self.X1 - self.X0
        h = p.height * w / p.width
        self.need(h + 0.9)
        self.text(p.title, 8.5, weight="bold")
        p.draw(self.fig, (self.X0, self.y - h, w, h))
        self.y -= h + 0.05
        self.paragraph(p.caption, 7.5, color="0.3")


_LATIN1 = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2265": ">=", "\u2264": "<=",
                         "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2026": "...",
                         "\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"})


def _latin1(text: str) -> str:
    """Text the PDF core fonts can show: a few common symbols spelled out, anything else outside Latin-1 as '?'."""
    return str(text).translate(_LATIN1).encode("latin-1", "replace").decode("latin-1")


def _render_pdf(path: Path, sections, title: str, subtitle: list[str], date: str) -> None:
    from matplotlib.backends.backend_pdf import PdfPages

    metadata = {"Title": title, "Subject": "Ricochet Poker certification-style report",
                "Creator": "ricochet_math.reports.build", "CreationDate": None, "ModDate": None}
    with PdfPages(path, metadata=metadata) as pdf:
        w = _PdfWriter(pdf, title)
        w.new_page()
        w.y -= 1.0
        for line in textwrap.wrap(title, 52):
            w.text(line, 18, weight="bold")
        w.y -= 0.1
        for line in subtitle:
            w.paragraph(line, 9.5)
        w.paragraph(f"Built: {date} (varies between builds)", 9.5, color="0.35")
        w.y -= 0.3
        w.text("Contents", 12, weight="bold")
        w.lines([f"{s.number}.  {s.title}" for s in sections], 10, indent=0.2, lead=1.6)
        for s in sections:
            w.new_page()
            w.heading(f"{s.number}. {s.title}")
            for b in s.blocks:
                if isinstance(b, _Para):
                    if b.kind == "h3":
                        w.need(0.6)
                        w.y -= 0.05
                        w.text(b.text, 10.5, weight="bold")
                        w.y -= 0.03
                    elif b.kind == "note":
                        w.paragraph(b.text, 8.5, color="#a00000")
                    else:
                        w.paragraph(b.text)
                elif isinstance(b, _Table):
                    w.table(b)
                else:
                    w.plot(b)
        w.finish_page()


def _write_csvs(directory: Path, sections, extra: Mapping[str, Any]) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    frames = {}
    for s in sections:
        for b in s.blocks:
            if isinstance(b, _Table) and b.csv:
                if b.csv in frames:
                    raise RuntimeError(f"two tables write {b.csv}.csv")
                frames[b.csv] = b.data
    frames.update(extra)
    for name in sorted(frames):
        p = directory / f"{name}.csv"
        frames[name].to_csv(p, index=False, lineterminator="\n")
        written.append(p)
    return written


# ============================================================================
# Provenance
# ============================================================================

def _git_commit() -> tuple[str, str]:
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10)
        if head.returncode != 0:
            return "none (not a git checkout)", ""
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
        return head.stdout.strip(), "yes" if dirty.stdout.strip() else "no"
    except (OSError, subprocess.SubprocessError):
        return "unknown (git not available)", ""


def _provenance(rules, size, players, rounds, seed, date: str) -> list[tuple[str, str, bool]]:
    import matplotlib
    import numba
    import pandas
    import scipy

    from ricochet_math import __version__

    commit, dirty = _git_commit()
    rows = [
        ("package", f"ricochet_math {__version__}", False),
        ("git commit", commit, False),
        ("uncommitted changes to tracked files", dirty or "n/a", False),
        ("python", platform.python_version(), False),
        ("numpy", np.__version__, False),
        ("numba", numba.__version__, False),
        ("pandas", pandas.__version__, False),
        ("scipy", scipy.__version__, False),
        ("matplotlib", matplotlib.__version__, False),
        ("platform", platform.platform(), False),
        ("machine", f"{platform.machine()}, {os.cpu_count()} logical CPUs", False),
        ("rule set", f"{rules.name} ({_source_text(rules)})", False),
        ("rule set sha256", rules.sha256, False),
        ("arguments", f"size={size.name} players={','.join(map(str, players))} rounds={rounds} seed={seed}", False),
        ("built", date, True),
    ]
    return rows


def _build_date(reproducible: bool) -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            return _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        except ValueError:
            pass
    if reproducible:
        return "not recorded (reproducible build)"
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


# ============================================================================
# The entry point
# ============================================================================

def build_report(rules=None, players: Iterable[int] | str = range(1, 8), *, rounds: int | None = None,
                 seed: int = 2026, out_dir: str | os.PathLike | None = None, size: str = "small",
                 progress: bool = True, reproducible: bool = False) -> ReportResult:
    """Compute and write the report for a rule set (see the module docstring).

    ``rules``: a :class:`~ricochet_math.rules.ruleset.RuleSet`, a file or a shipped
    name (default ``publisher``).  ``players``: the player counts (default
    1..7; ``"2-4"`` style text accepted).  ``rounds``: Monte Carlo rounds per
    player count for perfect play and each solver reading (default: the
    size's).  ``seed``: the one seed of every Monte Carlo run.  ``out_dir``:
    the folder to write (default ``reports/<rule set name>``; replaced
    whole when the new report is complete).  ``size``: ``"tiny"``,
    ``"small"`` or ``"full"`` (:data:`SIZES`).  ``progress``: progress bars
    on stderr.  ``reproducible``: leave the date and run times out, so that
    every file is byte-identical between builds.

    Raises :class:`~ricochet_math.errors.RuleError` (one line) for a bad
    rule set, player count, size, rounds or seed.
    """
    import pandas as pd

    from ricochet_math.rules.ruleset import load_rules

    t_start = time.perf_counter()
    rules = load_rules(rules)
    players = parse_players(players)
    if size not in SIZES:
        raise RuleError(f"unknown report size {size!r}; choose one of {', '.join(SIZES)}")
    preset = SIZES[size]
    if rounds is None:
        rounds = preset.rounds
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or rounds < 1:
        raise RuleError(f"rounds must be a positive whole number, got {rounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise RuleError(f"seed must be a whole number >= 0, got {seed!r}")
    rounds, seed = int(rounds), int(seed)
    out = Path(out_dir) if out_dir is not None else Path("reports") / rules.name
    out = out.resolve()
    if out.exists() and not out.is_dir():
        raise RicochetError(f"output path {out} exists and is not a folder")
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.parent / f".{out.name}.work"
    work.mkdir(exist_ok=True)

    timer = (lambda: 0.0) if reproducible else time.perf_counter
    data = _compute(rules, preset, players, rounds, seed, work, progress, timer)

    date = _build_date(reproducible)
    main = _main_rows(data)
    run_rows = [(name, "not recorded" if reproducible else ("resumed" if _isnan(sec) else f"{sec:.1f}"))
                for name, sec in data.timings]
    provenance = _provenance(rules, preset, players, rounds, seed, date)
    title = f"Ricochet Poker: mathematics report for rule set '{rules.name}'"
    subtitle = [
        f"Rule set {rules.name} (SHA-256 {rules.sha256[:16]}...), player counts "
        f"{', '.join(map(str, players))}, size {preset.name}, seed {seed}.",
        "N = 1 exact" + ("" if data.solo.complete else " (sampled classes: test size)")
        + f"; N >= 2 Monte Carlo, {rounds:,} rounds per player count with perfect play; 95% confidence intervals.",
    ]
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        with _rc_context():
            sections = _sections(data, main, run_rows, provenance)
            run_frame = pd.DataFrame([{"step": n, "seconds": v, "volatile": True} for n, v in run_rows])
            prov_frame = pd.DataFrame([{"item": k, "value": v, "volatile": vol} for k, v, vol in provenance])
            csvs = _write_csvs(tmp / "tables", sections, {"run_times": run_frame, "provenance": prov_frame})
            _render_html(tmp / "report.html", sections, title, subtitle, date)
        with _rc_context(pdf=True):
            _render_pdf(tmp / "report.pdf", sections, title, subtitle, date)
        tables = {p.stem: pd.read_csv(p) for p in csvs}
        tables["main_game"] = main
        files = tuple(sorted(p.relative_to(tmp) for p in tmp.rglob("*") if p.is_file()))
        _replace_dir(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    shutil.rmtree(work, ignore_errors=True)
    return ReportResult(out_dir=out, files=files, tables=tables, size=preset.name,
                        seconds=time.perf_counter() - t_start)


def _replace_dir(new: Path, target: Path) -> None:
    """Move the finished folder ``new`` to ``target``, replacing an older report there."""
    new.chmod(0o755)
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
    os.replace(new, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
