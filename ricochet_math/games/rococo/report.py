"""A short Rococo Poker report: HTML and CSV tables, with every report's provenance rows.

The same document machinery as the casino report (:mod:`ricochet_math.reports.document` sections,
:mod:`ricochet_math.reports.render` HTML and CSV) and the same provenance rules
(:mod:`ricochet_math.reports.provenance`): the package, git commit, library versions, machine, the rules
in force and the arguments; the build date is the only row that varies between builds (marked
volatile, taken from ``SOURCE_DATE_EPOCH`` when set, left out of reproducible builds); run times are
volatile too and written to their own CSV.  The output folder is written whole and atomically and only
a folder the toolkit wrote (or an empty one) is ever replaced.
"""
from __future__ import annotations

import time
from pathlib import Path

import pandas as pd

from ricochet_math.arguments import check_seed
from ricochet_math.errors import RicochetError
from ricochet_math.reports import provenance
from ricochet_math.reports.build import ReportResult
from ricochet_math.reports.columns import Column, document_table
from ricochet_math.reports.document import Section, Volatile
from ricochet_math.reports.sections import volatile_tables
from ricochet_math.reports.folder import write_report_folder
from ricochet_math.storage import prepare_output_folder
from ricochet_math.games.rococo.analysis import best_response, blind_value, removal_check, simulate
from ricochet_math.games.rococo.rules import RococoRules
from ricochet_math.games.rococo.solver import solve_draws
from ricochet_math.games.rococo.strategy import strategy_table

__all__ = ["build_report", "build_rococo_report", "REPORT_SIZES"]

REPORT_KIND = "rococo-report"
#: size name -> (pots per simulation, pots per best-response candidate, removal hands, deals per hand, opponents)
REPORT_SIZES = {
    "tiny": (2_000, 1_000, 2, 2_000, (1,)),
    "small": (50_000, 20_000, 10, 10_000, (1, 2, 3, 4, 5)),
    "full": (400_000, 100_000, 40, 50_000, (1, 2, 3, 4, 5)),
}


def _frame_table(s: Section, title: str, frame: pd.DataFrame, csv: str, note: str = "",
                 declared: dict | None = None) -> None:
    """A report table of ``frame``, read through the one column schema (headers in words, percent, counts)."""
    s.blocks.append(document_table(title, frame, csv, note=note, declared=declared))


def build_report(out_dir, *, size: str = "small", seed: int = 2026, rules: RococoRules | None = None,
                 reproducible: bool = False) -> ReportResult:
    """Compute and write the short report (``report.html``, ``tables/*.csv``) into ``out_dir``; returns the
    casino report's :class:`~ricochet_math.reports.build.ReportResult`."""
    if size not in REPORT_SIZES:
        raise RicochetError(f"unknown Rococo report size {size!r}; choose one of {', '.join(REPORT_SIZES)}")
    seed = check_seed(seed, allow_none=False)
    rules = rules or RococoRules()
    out = prepare_output_folder(out_dir, REPORT_KIND)  # refused before any work
    pots, br_pots, n_hands, deals, opponents = REPORT_SIZES[size]
    timer = (lambda: 0.0) if reproducible else time.perf_counter
    times = []
    start = time.perf_counter()

    def timed(name, fn):
        t = timer()
        value = fn()
        times.append((name, "not recorded" if reproducible else f"{timer() - t:.1f}"))
        return value

    sols = timed("draw fixed points", lambda: [solve_draws(n) for n in opponents])
    table = timed("strategy table", lambda: strategy_table(opponents))
    removal = timed("card-removal check", lambda: removal_check(n_hands, deals, 1, seed))
    sim = timed("policy simulation", lambda: simulate(rules.with_players(2), ["standard", "loose"], pots, seed))
    blind = timed("blind value", lambda: blind_value("standard", "standard", 2, pots, seed))
    grid = {"opens": ("KK", None), "calls": ("JJ",), "blind_rates": (0.0,)} if size == "tiny" else {}
    response = timed("best response", lambda: best_response("standard", 2, br_pots, seed, **grid))

    doc = []
    s = Section("1", "Rules in force")
    s.p("Rococo Poker as the publisher describes it (shared/seeds/003_266d472255d5a8cb.txt), with our readings "
        "where it is silent (docs/rules.md, section 'Rococo Poker').")
    opts = pd.DataFrame(rules.option_rows(), columns=["option", "value", "meaning"])
    _frame_table(s, "Options", opts, "rules")
    doc.append(s)

    s = Section("2", "The exchange against opponents who also draw optimally")
    s.p("The best keep of every hand maximises the expected share of the pot at the showdown (ties split) "
        "against N opponents whose final hands follow the distribution of optimal drawing; that distribution "
        "is the fixed point of strategy -> final-hand distribution -> best exchange, computed by counting over "
        "all 2,598,960 hands (134,459 suit-pattern classes). The opponents' hands are taken as independent of "
        "the player's own cards (section 4 measures the effect).")
    it = pd.concat([x.iterations.assign(opponents=x.opponents) for x in sols], ignore_index=True)
    it = it[["opponents", "step", "hands_changed", "q_change", "mean_share"]]
    _frame_table(s, "Fixed-point steps (hands whose keep changed; total-variation change of the distribution)",
                 it, "fixed_point")
    doc.append(s)

    s = Section("3", "Strategy table and the naive rule")
    _frame_table(s, "Optimal against naive ('keep the made hand') drawing, both against optimal opponents",
                 table.versus_naive(), "versus_naive")
    shape = table.by_shape()
    _frame_table(s, "Share of all hands by dealt category and best keep", shape, "strategy_by_shape",
                 declared={c: Column(c, f"share, {c} opponents".replace("N=", ""), "fraction", "percent", 3)
                           for c in shape.columns[2:]})
    doc.append(s)

    s = Section("4", "Card removal")
    s.p("The solver's pot share of the best keep (opponents independent of the player's cards) against a "
        "simulation dealing the opponent from the 47 other cards, drawing by the same table; random hands, "
        "one opponent.")
    _frame_table(s, "Independence model against real deals", removal, "card_removal")
    doc.append(s)

    s = Section("5", "Betting policies")
    _frame_table(s, f"standard against loose, heads-up, {pots:,} pots (net per pot in antes, 95% interval)",
                 sim.to_frame(), "simulation")
    _frame_table(s, "The value of the blind option (seat 1 always blinds 1 against never)", blind.to_frame(),
                 "blind_value", declared={c: Column(c, t, "antes", "number", 4) for c, t in (
                     ("with_blind", "net per pot, always blinds"), ("without", "net per pot, never blinds"),
                     ("value", "value of the blind option"))})
    _frame_table(s, "Best response to standard (threshold grid, best first)", response.to_frame().head(10),
                 "best_response")
    doc.append(s)

    date = provenance.build_date(reproducible)
    prov = provenance.rules_provenance_rows(rules, {"size": size, "players": rules.players, "pots": pots,
                                                    "seed": seed}, date)
    s = Section("6", "Provenance")
    s.table("Provenance", ["item", "value"], [[k, Volatile(v) if vol else v] for k, v, vol in prov], csv=None,
            align=["l", "l"])
    s.table("Run times (seconds)", ["step", "seconds"], [[n, Volatile(v)] for n, v in times], csv=None)
    doc.append(s)

    title = "Rococo Poker: the exchange and the betting"
    subtitle = [f"size {size}, seed {seed}; exact draw analysis, Monte Carlo betting with 95% intervals."]
    written = write_report_folder(out, doc, volatile_tables(times, prov), title, subtitle, date, REPORT_KIND,
                                  {"seed": seed, "size": size})
    return ReportResult(out_dir=out, files=written.files, tables=written.tables, size=size,
                        seconds=time.perf_counter() - start, notes=written.notes)


#: the name before the game contract (issue 26)
build_rococo_report = build_report
