"""Certification-style reports: one folder with an HTML and a PDF version of the same report, its tables as
CSV and as one Excel workbook.

:func:`build_report` computes every figure a test lab or a casino reads for
one rule set and writes ``reports/<rule set>/``::

    report.html      self-contained (inline CSS, plots as inline SVG): opens with no network
    report.pdf       the same HTML laid out on A4 pages by WeasyPrint (bookmarks, page numbers, a linked
                     contents page); only with the ``pdf`` extra, else left out with one note
    report.xlsx      every table, one sheet each, numbers as numbers (:mod:`.workbook`)
    tables/*.csv     every table, full precision

One estimator throughout (issue 11): every RTP, house edge and element of
risk of a Monte Carlo row is the control-variate estimate where the run kept
the controls, in the text, the CSV tables, the workbook and the PDF alike; the
plain sample mean is shown beside it as a check.

The sections, in the order a lab reads them (issue 6):

The first page holds, before the contents, the document control: document id, revision, rule set and its
SHA-256, toolkit version and commit, size and seed, run time, date, and empty sign-off fields for the
reviewer; then the headline: RTP per player count with its interval against the publisher's band, the
band verdict, fold and hit frequency and the certified precision (:mod:`.front_page`, every report's).

1. the game and the full rule set in force, with the rule-set file's SHA-256;
2. method: exact or Monte Carlo (rounds, seed, confidence level, variance
   reduction), the perfect-play definition, run time;
3. main game by player count: RTP both ways (95% CI where simulated), house
   edge per ante, element of risk, fold / win / kickout / hit frequency,
   standard deviation, average bet; the plain estimate beside the controlled one;
4. return tables: N = 1 exact (combinations, probability, "1 in N", net,
   contribution); N >= 2 per-outcome frequencies and the return decomposition
   from the simulation, with the control-variate adjustment as its own row;
   4b. the perfect-play strategy for one player: in words, as a 13 x 13 chart
   and as a table (:mod:`.strategy_text`);
5. every bet at a glance (RTP, house edge, hit frequency, standard deviation);
   bonus and side bets (exact): paytables with true odds and payout odds,
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
9. provenance: package version, git commit and the files with uncommitted
   changes, Python / numpy / numba versions, machine, date; run times.

Then the appendix (A): the RTP of each alternative bonus and Cover table (N = 1 exact).
The PAR-sheet items (issue 28, :mod:`.par_sheet` and :mod:`.par_sections`): 3b, RTP and hit frequency
by acting position; 5c, a player who makes every bet (combined RTP, each bet's share of the hold); 5d,
maximum win per seat and liability per table with the hands, and the cycle of every exact part.

Where things live
-----------------
Read in this order: :mod:`.sizes` (how much is computed), :mod:`.compute`
(every computation, run as resumable :mod:`.jobs`), :mod:`.figures` (the
derived tables), :mod:`.sections` (the text around them, built on
:mod:`.document`), :mod:`.strategy_text`, :mod:`.plots`, :mod:`.render` (HTML,
CSV, and the PDF from the HTML), :mod:`.workbook` and :mod:`.provenance`.  This module checks the arguments and writes the folder.

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
table of the PDF and the workbook's creation date.  Matplotlib's SVG hash
salt is fixed, the PDF has no creation date and a fixed identifier, the
workbook's zip entries a fixed date; ``reproducible=True`` leaves the date
and run times out (the date comes from ``SOURCE_DATE_EPOCH`` when set), so
that the PDF and the workbook too are byte-identical between builds.

Nothing half-written, and resuming
----------------------------------
The report is written into a temporary folder beside ``out_dir`` and moved
into place only when complete.  Work in progress lives in
``<out_dir's parent>/.<name>.work/``: every Monte Carlo run checkpoints its
finished chunks there (``simulate(checkpoint=...)``) and every finished job
keeps its result there as data (never a pickle), so a stopped report started
again with the same arguments resumes; the folder is removed when the report
is complete.

Whose folder it is
------------------
A finished report folder carries a marker file (``.ricochet-output.json``:
rule set, seed, size, and every file the report wrote with its SHA-256).
``out_dir`` may be new, empty, or a report folder the toolkit wrote (the
marker); anything else is refused with one line before any work starts, and
nothing in it is touched.  A rebuild replaces exactly the files the marker
records and keeps every file the user added; a recorded file edited since is
refused, named, before any work (:func:`ricochet_math.storage.replace_folder`).

>>> from ricochet_math.reports.build import build_report
>>> result = build_report(players=[1, 2], size="tiny", out_dir="/tmp/ricochet-doc-report",
...                       progress=False)                      # doctest: +SKIP
>>> sorted(p.name for p in result.files)[:2]                   # doctest: +SKIP
['report.html', 'report.pdf']
"""
from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ricochet_math.engine.deal import parse_players
from ricochet_math.errors import RuleError
from ricochet_math.reports.design_rationale import with_rationale
from ricochet_math.reports.document import isnan
from ricochet_math.reports.sizes import SIZES, ReportSize
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.executors import executor_for_run
from ricochet_math.storage import prepare_output_folder

__all__ = ["ReportSize", "SIZES", "ReportResult", "build_report", "parse_players"]

REPORT_KIND = "report"


@dataclass(frozen=True)
class ReportResult:
    """What :func:`build_report` wrote: the folder, its files (relative paths), the tables by name."""

    out_dir: Path
    files: tuple[Path, ...]
    tables: Mapping[str, Any] = field(repr=False)
    size: str
    seconds: float
    notes: tuple[str, ...] = ()     # what was left out and why (the PDF without the ``pdf`` extra)
    kept: tuple[str, ...] = ()      # files in the folder that the toolkit did not write, kept by the rebuild

    @property
    def html(self) -> Path:
        return self.out_dir / "report.html"

    @property
    def pdf(self) -> Path:
        return self.out_dir / "report.pdf"

    @property
    def workbook(self) -> Path:
        return self.out_dir / "report.xlsx"

    def main_game(self):
        """The main-game table (one row per player count) as a ``pandas.DataFrame``."""
        return self.tables["main_game"].copy()

    def summary(self) -> str:
        written = [self.html.name] + [p.name for p in (self.pdf, self.workbook)
                                      if p.relative_to(self.out_dir) in self.files] + ["tables/*.csv"]
        text = (f"report written to {self.out_dir} ({len(self.files)} files, size {self.size}, "
                f"{self.seconds:.0f} s): {', '.join(written)}")
        if self.kept:
            shown = ", ".join(self.kept[:3]) + (f" and {len(self.kept) - 3} more" if len(self.kept) > 3 else "")
            text += f"\nkept {len(self.kept)} file{'s' * (len(self.kept) != 1)} of yours in it: {shown}"
        return text


def build_report(rules=None, players: Iterable[int] | str = range(1, 8), *, rounds: int | None = None,
                 seed: int = 2026, out_dir: str | os.PathLike | None = None, size: str = "small",
                 progress: bool = True, reproducible: bool = False, executor=None,
                 alternatives: Iterable = ()) -> ReportResult:
    """Compute and write the report for a rule set (see the module docstring).

    ``rules``: a :class:`~ricochet_math.rules.ruleset.RuleSet`, a file or a shipped
    name (default ``publisher``).  ``players``: the player counts (default
    1..7; ``"2-4"`` style text accepted).  ``rounds``: Monte Carlo rounds per
    player count for perfect play and each solver reading (default: the
    size's).  ``seed``: the one seed of every Monte Carlo run.  ``out_dir``:
    the folder to write (default ``reports/<rule set name>``; its report
    files are replaced when the new report is complete, and files you added there are kept).  ``size``: ``"tiny"``,
    ``"small"`` or ``"full"`` (:data:`SIZES`).  ``progress``: progress bars
    on stderr.  ``reproducible``: leave the date and run times out, so that
    every file is byte-identical between builds.  ``executor``: where the Monte
    Carlo chunks run (None: local threads; a Dask client or scheduler address:
    see :func:`~ricochet_math.solvers.montecarlo.simulate`); no figure depends on it.  ``alternatives``:
    rule sets (files, shipped names or RuleSets) whose bonus and Cover tables the appendix prices beside
    the shipped rule sets' (N = 1 exact).

    Raises :class:`~ricochet_math.errors.RuleError` (one line) for a bad
    rule set, player count, size, rounds or seed.
    """
    # The computing and writing modules load here, not at the top: they bring pandas, matplotlib's Figure
    # and PDF backend, jinja2 and tqdm, and `import ricochet_math` (so every `ricochet` command) imports
    # this module; at the top they more than doubled it (measured: `import ricochet_math` 2.1 s -> 4.6 s).
    from ricochet_math.reports import compute, figures, jobs, provenance, render, sections
    from ricochet_math.reports.folder import write_report_folder
    from ricochet_math.reports.par_sections import alternative_sources

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
    alternative = alternative_sources(rules, tuple(alternatives))  # a bad file: one line, before any work
    out = Path(out_dir) if out_dir is not None else Path("reports") / rules.name
    # refused before any work: a folder the toolkit did not write is never replaced, a link never followed
    out = prepare_output_folder(out, REPORT_KIND)
    work = jobs.work_folder(out)

    timer = (lambda: 0.0) if reproducible else time.perf_counter
    with executor_for_run(executor) as runner:
        data = compute.compute(rules, preset, players, rounds, seed, work, progress, timer, runner, alternative)

    date = provenance.build_date(reproducible)
    main = figures.main_rows(data)
    run_rows = [(name, "not recorded" if reproducible else ("resumed" if isnan(sec) else f"{sec:.1f}"))
                for name, sec in data.timings]
    prov_rows = provenance.provenance_rows(rules, preset, players, rounds, seed, date)
    title = f"Ricochet Poker: mathematics report for rule set '{rules.name}'"
    subtitle = [
        f"Rule set {rules.name} (SHA-256 {rules.sha256[:16]}...), player counts "
        f"{', '.join(map(str, players))}, size {preset.name}, seed {seed}.",
        "N = 1 exact" + ("" if data.solo.complete else " (sampled classes: test size)")
        + ("; N >= 2 Monte Carlo with perfect play, each player count's rounds sized for a 95% half-width of "
           f"{preset.precision:g} points on the RTP" if preset.sized(rounds) else
           f"; N >= 2 Monte Carlo, {rounds:,} rounds per player count with perfect play")
        + "; 95% confidence intervals.",
    ]
    with render.rc_context():  # the plots are drawn while the sections are built
        doc = sections.build_sections(data, main, run_rows, prov_rows,
                                      None if reproducible else time.perf_counter() - t_start)
    doc = with_rationale(doc, rules)  # "Design rationale" when the rule set came from `ricochet design`
    written = write_report_folder(out, doc, sections.volatile_tables(run_rows, prov_rows), title, subtitle, date,
                                  REPORT_KIND, {"rules": rules.name, "rules_sha256": rules.sha256, "seed": seed,
                                                "size": preset.name})
    tables = dict(written.tables)
    tables["main_game"] = main
    files, notes = written.files, written.notes
    jobs.remove_work_folder(work)
    return ReportResult(out_dir=out, files=files, tables=tables, size=preset.name,
                        seconds=time.perf_counter() - t_start, notes=notes, kept=written.kept)
