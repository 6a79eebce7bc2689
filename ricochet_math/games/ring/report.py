"""The short Ring Poker report: seat and order effects, strategy pairings, arrangement statistics,
with every report's provenance rows (:func:`~ricochet_math.reports.provenance.rules_provenance_rows`: rules,
seed, size, version, run time, git state).

One folder: ``report.html`` (self-contained) and ``tables/*.csv`` at full precision, written through
:mod:`ricochet_math.reports.render` from one list of :class:`~ricochet_math.reports.document.Section`,
and the toolkit's marker file: an existing folder is replaced only if the toolkit wrote it.
"""
from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.games.ring.analysis import DEFAULT_STRATEGY, pairings, simulate
from ricochet_math.games.ring.arrangement import arrange, opponent_model
from ricochet_math.games.ring.rules import RingRules
from ricochet_math.games.ring.strategies import ISSUE_STRATEGIES
from ricochet_math.reports.build import ReportResult
from ricochet_math.reports.document import Section, Volatile, num, pct
from ricochet_math.reports.folder import write_report_folder
from ricochet_math.storage import prepare_output_folder

__all__ = ["REPORT_KIND", "build_report", "ring_report"]

#: the marker kind of a Ring Poker report folder
REPORT_KIND = "ring-report"


def _ci(frame, name, digits=2, percent=True):
    f = 100.0 if percent else 1.0
    return [f"{f * e:.{digits}f} ± {f * (h - lo) / 2:.{digits}f}"
            for e, lo, h in zip(frame[name], frame[f"{name}_low"], frame[f"{name}_high"])]


def build_report(out_dir, *, games: int = 20_000, seed: int = 1, rules: RingRules | None = None,
                 pair_games: int | None = None, strategies: Sequence[str] = ISSUE_STRATEGIES, timing_holdings: int = 200,
                 reproducible: bool = False) -> ReportResult:
    """Write the report into ``out_dir`` and return what was written (the casino report's
    :class:`~ricochet_math.reports.build.ReportResult`: ``html`` is the report's path).

    ``games``: games per seat-and-order run; ``pair_games``: games per seating of the strategy pairings
    (default a fortieth of ``games``, at least 100: ``greedy`` costs about a hundred times ``greedy-fast``)
    among ``strategies``; ``timing_holdings``: random holdings the solver is timed on; ``rules``: the joker
    rule is read from it (players and rotation are varied by the report).
    """
    # deferred like build_report's: jinja2, matplotlib and scipy (render, provenance) would double the
    # start-up of every ``ricochet`` command (docs/architecture.md)
    from ricochet_math.reports import provenance

    games = check_whole(games, "games", low=10, high=10**8)
    timing_holdings = check_whole(timing_holdings, "timing_holdings", high=10**6)
    seed = check_seed(seed, allow_none=False)
    base = rules or RingRules()
    out = prepare_output_folder(out_dir, REPORT_KIND)  # refused before any work
    start = time.perf_counter()
    timer = (lambda: 0.0) if reproducible else time.perf_counter
    timings = []
    sections = []

    # ---- 1. seat and order
    s1 = Section("1", "Seat and order")
    s1.p(f"Every seat plays the {DEFAULT_STRATEGY} drafting strategy (the fast heuristic: the seat runs are "
         "large) and arranges its hands strongest first. Seat 1 "
         "chooses first in round 1; with the rule's rotation the first player moves one seat left each "
         "round, so with two players seat 1 chooses first in five rounds of nine and seat 2 in four. The "
         "variant without rotation keeps seat 1 first in every round. Win share: a win counts 1, a win "
         "shared by k players 1/k. The test of equal chances is a Wald test that every seat's expected win "
         "share is 1/players.")
    seat_frames = []
    tests = []
    for players in (2, 3):
        for rotate in (True, False):
            r = RingRules(players=players, joker=base.joker, rotate=rotate)
            t0 = timer()
            sim = simulate(r, None, games, seed)
            timings.append((f"seats, {players} players, rotate={rotate}", timer() - t0))
            f = sim.to_frame()
            f.insert(0, "rotate", rotate)
            f.insert(0, "players", players)
            seat_frames.append(f)
            eq = sim.equal_chances()
            tests.append({"players": players, "rotate": rotate, "chi_square": eq.statistic, "df": eq.df,
                          "p_value": eq.p_value})
            if players == 2 and rotate:
                cat_frame = sim.category_frame()
    seats = pd.concat(seat_frames, ignore_index=True)
    s1.table("Win share and points by seat (95% intervals)",
             ["players", "rotation", "seat", "starts", "win %", "points"],
             [[str(p), "yes" if ro else "no", str(s), str(st), w, pt] for (p, ro, s, st), w, pt in
              zip(seats[["players", "rotate", "seat", "starts"]].itertuples(index=False), _ci(seats, "win"),
                  _ci(seats, "points", 3, False))], csv="seats", data=seats)
    tests = pd.DataFrame(tests)
    s1.table("Test of equal chances by seat", ["players", "rotation", "chi-square", "df", "p-value"],
             [[str(t.players), "yes" if t.rotate else "no", f"{t.chi_square:.3f}", str(t.df), f"{t.p_value:.4f}"]
              for t in tests.itertuples()], csv="equal_chances", data=tests)
    sections.append(s1)

    # ---- 2. strategies
    s2 = Section("2", "Drafting strategies: pairings and best responses")
    pair_games = max(100, games // 40) if pair_games is None else check_whole(pair_games, "pair_games")
    s2.p("greedy takes the pair with the largest expected value of the best arrangement of the cards held, the "
         "pair and the pairs still to come (four completions drawn from the unseen cards, each arranged strongest "
         "first and scored against 2,000 random opponents); greedy-fast, lookahead and denial use the fast "
         "integer potential (docs/ring-poker.md).")
    s2.p(f"Each strategy at each seat against every other strategy at the other seats, {pair_games:,} games "
         "per seating on the same deals (common random numbers); the focal strategy's win share is the mean "
         "over its seats. A best response is the focal strategy with the largest win share against an "
         "opponent strategy; equal chances would be 1/players.")
    for players in (2, 3):
        t0 = timer()
        table = pairings(RingRules(players=players, joker=base.joker), strategies, games=pair_games, seed=seed)
        timings.append((f"pairings, {players} players", timer() - t0))
        pf = table.to_frame()
        br = table.best_responses()
        s2.table(f"{players} players: focal strategy against the others", ["strategy", "against", "win %", "points"],
                 [[a, b, w, f"{p:.3f}"] for a, b, w, p in zip(pf.strategy, pf.against, _ci(pf, "win"), pf.points)],
                 csv=f"pairings_{players}p", data=pf)
        s2.table(f"{players} players: best responses", ["against", "best response", "win %"],
                 [[a, b, w] for a, b, w in zip(br.against, br["best response"], _ci(br, "win"))],
                 csv=f"best_responses_{players}p", data=br)
    sections.append(s2)

    # ---- 3. arrangements
    s3 = Section("3", "Arrangement statistics")
    s3.p(f"Hand categories of the three slots (two players, {DEFAULT_STRATEGY} drafting, strongest-first "
         "arrangement), "
         "as fractions of hands. The arrangement solver is exact for its objective; its time per "
         "arrangement is measured below on random 18-card holdings (one thread, on a shared machine).")
    s3.table("Slot categories", ["category", "strongest", "middle", "weakest"],
             [[c, pct(a, 2), pct(b, 2), pct(d, 2)] for c, a, b, d in
              zip(cat_frame.category, cat_frame.strongest, cat_frame.middle, cat_frame.weakest)],
             csv="slot_categories", data=cat_frame)
    rng = np.random.default_rng(seed)
    model = opponent_model(base, samples=500, seed=seed)
    speed = []
    for objective in ("strongest", "points"):
        arrs = [arrange(rng.choice(54, 18, replace=False), rules=base, objective=objective, opponent=model)
                for _ in range(timing_holdings)]
        secs = [a.seconds for a in arrs]
        row = {"objective": objective, "holdings": timing_holdings, "mean_ms": 1e3 * float(np.mean(secs)),
               "max_ms": 1e3 * float(np.max(secs)), "mean_se": float("nan"), "beyond_2se": float("nan")}
        if objective == "points":
            z = [a.advantage_z for a in arrs]
            row["mean_se"] = float(np.mean([a.std_error for a in arrs]))
            row["beyond_2se"] = float(np.mean(np.array(z) > 2))
        speed.append(row)
    speed = pd.DataFrame(speed)
    s3.p(f"Objective points plays against {model.slot_keys.shape[0]} sampled opponents (seed {seed}): its value "
         "is an estimate, with a standard error; the runner-up is the best arrangement not dominated slot by "
         "slot by the chosen one (only such an arrangement could be better against the true distribution), and "
         "'advantage beyond 2 s.e.' is the share of holdings whose chosen arrangement beats the runner-up by more "
         "than two paired standard errors on the same opponents.")
    s3.table("Time per arrangement (varies between machines and loads)",
             ["objective", "holdings", "mean ms", "max ms", "mean s.e. of the value", "advantage beyond 2 s.e."],
             [[r.objective, str(r.holdings), Volatile(num(r.mean_ms, 3)), Volatile(num(r.max_ms, 3)),
               "" if r.objective == "strongest" else num(r.mean_se, 4),
               "" if r.objective == "strongest" else pct(r.beyond_2se, 1)]
              for r in speed.itertuples()])
    sections.append(s3)

    # ---- 4. provenance
    s4 = Section("4", "Provenance")
    date = provenance.build_date(reproducible)
    prov = [(k, Volatile(v) if volatile else v) for k, v, volatile in provenance.rules_provenance_rows(
        base, {"games": games, "seed": seed, "pair_games": pair_games,
               "varied": "players 2 and 3, rotation on and off as stated"}, date)]
    for name, sec in timings:
        prov.append((f"run time: {name}", Volatile("not recorded" if reproducible else f"{sec:.1f} s")))
    prov.append(("run time: whole report",
                 Volatile("not recorded" if reproducible else f"{time.perf_counter() - start:.1f} s")))
    s4.table("Provenance", ["item", "value"], [[a, b] for a, b in prov])
    sections.append(s4)

    title = f"Ring Poker: seat, order and strategy report (jokers {base.joker.name.lower()})"
    subtitle = [f"{games:,} games per seat run, seed {seed}; Monte Carlo with 95% confidence intervals."]
    written = write_report_folder(out, sections, {}, title, subtitle, date, REPORT_KIND,
                                  {"joker": base.joker.name.lower(), "seed": seed, "games": games})
    return ReportResult(out_dir=out, files=written.files, tables=written.tables, size=f"{games:,} games",
                        seconds=time.perf_counter() - start, notes=written.notes)


#: the name before the game contract (issue 26)
ring_report = build_report
