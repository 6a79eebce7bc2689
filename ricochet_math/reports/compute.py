"""Everything a report computes, as raw results (:class:`ReportData`); the figures and text come later.

* N = 1: exact, :func:`ricochet_math.solvers.solo.solo_analysis` (perfect play,
  and perfect play ignoring the bonus), run here directly (cached on disk by
  the solver).
* Side bets, the exact kickout rate per player count and the N = 1 kickout
  curve: exact counts.
* Every Monte Carlo run is a :class:`~ricochet_math.reports.jobs.Job` with the
  report's one ``seed`` (common random numbers: every strategy is dealt the
  same cards), kept in the work folder when finished.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ricochet_math.design.kickout import DEFAULT_GRID
from ricochet_math.design.cover import cover
from ricochet_math.design.quickdraw import quickdraw_both
from ricochet_math.design.sidebets import sidebets_summary
from ricochet_math.engine.kernel import play_decks
from ricochet_math.engine.deal import cards_needed
from ricochet_math.evaluator.cards import random_deals
from ricochet_math.evaluator.evaluation import value_counts_5
from ricochet_math.evaluator.names import pattern_value
from ricochet_math.reports.jobs import Job, job_key, run_jobs
from ricochet_math.reports.par_sheet import alternative_paytables
from ricochet_math.reports.published import PublishedFigures, published_figures
from ricochet_math.reports.sizes import PUBLISHER_LIKE, ReportSize
from ricochet_math.solvers.montecarlo import simulate, simulate_to_precision
from ricochet_math.solvers.solo import solo_analysis

__all__ = ["ReportData", "compute"]

N_DEALER_HANDS = 2_598_960
# rough rounds per second by player count, for the progress bar's weights
_SPEED = {1: 3000.0, 2: 900.0, 3: 600.0, 4: 400.0, 5: 300.0, 6: 250.0, 7: 200.0}


@dataclass
class ReportData:
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
    alternatives: Any = None  # the appendix's paytables (par_sheet.alternative_paytables), or None


def compute(rules, size: ReportSize, players: tuple[int, ...], rounds: int, seed: int, work: Path,
            progress: bool, timer: Callable[[], float], executor=None, alternatives=()) -> ReportData:
    """Run every computation of a report; Monte Carlo jobs resume from ``work`` (see :mod:`.jobs`).

    ``rounds``: Monte Carlo rounds per player count for perfect play and each
    solver reading; ``timer``: the clock of the run-time table (a constant
    one for reproducible builds); ``executor``: where the Monte Carlo chunks run
    (None: local threads; see :func:`~ricochet_math.solvers.montecarlo.simulate`).  The
    kernel warm-up always runs here.  ``alternatives``: (label, rule set) pairs whose bonus and Cover
    tables the appendix prices (N = 1 exact; cached on disk by the solver like the main analysis).
    """
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
    grid = sorted({*DEFAULT_GRID, rules.kickout[1]}, key=lambda p: int(pattern_value(p)))
    curve = solo.threshold_curve(grid)
    timings.append(("side bets, kickout rates and N = 1 kickout curve (exact)", timer() - t0))
    t0 = timer()
    alt = alternative_paytables(rules, alternatives, size.solo_classes, progress)
    timings.append(("alternative paytables (N = 1 exact)", timer() - t0))

    jobs, keys, dist_n = _plan(rules, size, players, rounds, seed, work, progress, solo, solo_nb, executor)

    # Warm the kernels in this thread first (compiling them once, not from every thread at once).
    t0 = timer()
    simulate(rules, max(players), "perfect", 8, seed, progress=False, workers=1)
    simulate(rules, max(players), "always", 8, seed, progress=False, workers=1)
    timings.append(("kernel warm-up", timer() - t0))

    results, secs = run_jobs(jobs, work, progress, timer)
    for job in sorted(jobs, key=lambda j: j.label):
        timings.append((f"Monte Carlo: {job.label}", secs[job.key]))

    many = [n for n in players if n >= 2]
    perfect = {n: results[keys[("perfect", n)]] for n in players if ("perfect", n) in keys}
    weak = {(p, n): results[keys[("weak", p, n)]] for n in players for p in size.weak_profiles}
    response = {n: results[keys[("response", n)]] for n in many}
    parts = [results[keys[("published", r)]] for r in size.readings] + [results[keys[("published", "weak")]]]
    published = PublishedFigures(
        table=pd.concat([p.table for p in parts], ignore_index=True),
        by_players=pd.concat([p.by_players for p in parts if len(p.by_players)], ignore_index=True),
        rules_name=rules.name, rounds=int(rounds), seed=int(seed),
        seconds=float(sum(p.seconds for p in parts)),
    )
    distribution = (dist_n, results[keys[("distribution",)]]) if dist_n is not None else (None, None)
    return ReportData(rules=rules, size=size, players=players, rounds=rounds, seed=seed, solo=solo,
                      solo_no_bonus=solo_nb, quickdraw=qd, cover=cv, sidebets=sbs, curve=curve, perfect=perfect,
                      weak=weak, response=response, published=published, distribution=distribution,
                      timings=timings, exact_kickout=exact_kick, alternatives=alt)


def _plan(rules, size: ReportSize, players, rounds: int, seed: int, work: Path, progress: bool, solo, solo_nb,
          executor=None) -> tuple[list[Job], dict[tuple, str], int | None]:
    """The Monte Carlo jobs, their keys by what they compute, and the player count of the net distribution.

    Runs are shared, not repeated: the published figures' perfect-play reading and weak-player rows
    read the report's own perfect-play and weak-player runs (the same rules, players, strategy,
    rounds and seed, so the same sums) when this build made them; a job read back from the work
    folder leaves its run to be made again there.  With a size's ``precision`` (and the size's own
    ``rounds``) each perfect-play and solver-reading run is sized by a pilot to that 95%
    half-width (:func:`~ricochet_math.solvers.montecarlo.simulate_to_precision`) instead of playing
    ``rounds`` rounds."""
    many = [n for n in players if n >= 2]
    weak_rounds = size.weak_rounds(rounds)
    sized = size.sized(rounds)
    base = {"rules": rules.sha256, "seed": seed}
    jobs: list[Job] = []
    keys: dict[tuple, str] = {}
    made: dict[tuple, Any] = {}  # runs finished by this build, for the jobs that reuse them

    def sim_job(what: tuple, label, n, strategy, n_rounds, cost_rate, precision=None):
        params = {**base, "players": n, "strategy": strategy, "rounds": n_rounds}
        if precision is not None:
            params["precision"] = precision
        key = job_key(label, params)
        ckpt = work / f"sim-{key}.npz"

        def run():
            if precision is None:
                out = simulate(rules, n, strategy, n_rounds, seed, progress=progress, checkpoint=ckpt,
                               executor=executor)
            else:
                out = simulate_to_precision(rules, n, strategy, precision, seed, progress=progress,
                                            checkpoint=ckpt, executor=executor, guarantee=True)
            made[what] = out
            return out

        keys[what] = key
        jobs.append(Job(key, label, n_rounds / cost_rate, run))

    for n in many:
        sim_job(("perfect", n), f"perfect N={n}", n, "perfect", rounds, _SPEED[n],
                size.precision if sized else None)
    if 1 in players:
        sim_job(("perfect", 1), "perfect N=1 simulation", 1, "perfect", size.solo_rounds, _SPEED[1])
    for n in players:
        for profile in size.weak_profiles:
            sim_job(("weak", profile, n), f"{profile} N={n}", n, profile, weak_rounds, 300_000.0)
    for n in many:
        seats = [f"perfect-vs-{PUBLISHER_LIKE}"] + [PUBLISHER_LIKE] * (n - 1)
        sim_job(("response", n), f"best response N={n}", n, seats, size.response_rounds, _SPEED[n] * 0.7)

    weak_players = 4 if 4 in players else max(players)
    for reading in size.readings:
        params = {**base, "players": many, "rounds": rounds}
        if sized:
            params["precision"] = size.reading_precision
        key = job_key(f"published {reading}", params)

        def run(reading=reading):
            runs = {}
            for n in many:
                if reading == "perfect" and ("perfect", n) in made:
                    runs[(reading, n)] = made[("perfect", n)]
                elif sized:  # perfect play read back from the work folder: its run again, the same digits
                    target = size.precision if reading == "perfect" else size.reading_precision
                    runs[(reading, n)] = simulate_to_precision(rules, n, reading, target, seed, progress=progress,
                                                               executor=executor, guarantee=reading == "perfect")
            return published_figures(rules, rounds=rounds, seed=seed, readings=(reading,), players=many,
                                     weak_profiles=(), progress=progress, solo=solo, solo_no_bonus=solo_nb,
                                     executor=executor, runs=runs)

        keys[("published", reading)] = key
        jobs.append(Job(key, f"published {reading}", sum(rounds / _SPEED[n] for n in many) * 1.5, run))
    key = job_key("published weak", {**base, "players": weak_players, "rounds": rounds,
                                     "profiles": list(size.weak_profiles)})

    def run_weak():
        runs = {(p, weak_players): made[("weak", p, weak_players)] for p in size.weak_profiles
                if ("weak", p, weak_players) in made}
        return published_figures(rules, rounds=rounds, seed=seed, readings=(), players=many,
                                 weak_profiles=size.weak_profiles, weak_players=weak_players, progress=False,
                                 solo=solo, solo_no_bonus=solo_nb, executor=executor, runs=runs)

    keys[("published", "weak")] = key
    jobs.append(Job(key, "published weak profiles", 1.0, run_weak))

    dist_n = 4 if 4 in many else (max(many) if many else None)
    if dist_n is not None:
        key = job_key("net distribution", {**base, "players": dist_n, "rounds": size.distribution_rounds})

        def run_dist():
            rng = np.random.default_rng(np.random.SeedSequence(seed))
            decks = random_deals(rng, size.distribution_rounds, cards_needed(dist_n)).astype(np.int64)
            rec = play_decks(rules, decks, "perfect", players=dist_n)
            return np.asarray(rec.net, dtype=np.float64)

        keys[("distribution",)] = key
        jobs.append(Job(key, f"net distribution N={dist_n}", size.distribution_rounds / _SPEED[dist_n], run_dist))
    return jobs, keys, dist_n
