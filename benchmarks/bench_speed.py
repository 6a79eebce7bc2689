"""The speed figures of issue 14 in one table, against a stored baseline.

Rows (each the median of ``--repeat`` timed runs after one untimed warm-up run
that compiles or loads the kernels; for the solo row the warm-up is one class):

* exact solo analysis, all 169 classes, from a cold results cache (a fresh
  cache folder holding only the lookup tables), every core: seconds;
* one perfect-play decision for the first seat to act at N = 4 and N = 7
  (random face-up tables, seeded): seconds per decision;
* perfect-play rounds at N = 7 (every core): rounds per second.

Beside each: the machine's one-minute load average at the start of each timed
run (the median, and the range), the baseline figure from
``benchmarks/baseline.json`` and the ratio, written so that > 1 is faster now.
On a shared machine compare figures taken at similar loads.

    python benchmarks/bench_speed.py                  # all rows, median of 3
    python benchmarks/bench_speed.py --rows solo --repeat 5
    python benchmarks/bench_speed.py --write-baseline # store this run's medians as the baseline
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import ricochet_math as rm
from ricochet_math.engine.deal import face_up_table
from ricochet_math.evaluator.cards import random_deals
from ricochet_math.evaluator.tables import cache_dir
from ricochet_math.solvers.advise import advise
from ricochet_math.solvers.montecarlo import simulate
from ricochet_math.solvers.solo import solo_analysis

BASELINE = Path(__file__).with_name("baseline.json")


def solo_row(rules):
    def run():
        old = os.environ.get("RICOCHET_CACHE_DIR")
        tables = sorted(cache_dir().glob("tables-*.npz"))
        with tempfile.TemporaryDirectory() as tmp:
            for t in tables:
                shutil.copy(t, tmp)
            os.environ["RICOCHET_CACHE_DIR"] = tmp
            try:
                solo_analysis(rules)
            finally:
                if old is None:
                    del os.environ["RICOCHET_CACHE_DIR"]
                else:
                    os.environ["RICOCHET_CACHE_DIR"] = old

    def warm():
        # compiles or loads the kernel: one class, cached in the user's cache as usual
        solo_analysis(rules, classes=[0])
    return run, 1, warm


def decision_row(rules, players, tables, seed):
    rng = np.random.default_rng(seed)
    deals = random_deals(rng, tables, 2 * players + 5)
    states = [face_up_table(d[2 * players:], [d[2 * i:2 * i + 2] for i in range(players)]) for d in deals]

    def run():
        for st in states:
            advise(rules, state=st)
    return run, tables, run


def rounds_row(rules, rounds, seed):
    def run():
        simulate(rules, 7, "perfect", rounds, seed, progress=False)
    return run, rounds, run


# name -> (unit, lower is better, builder)
ROWS = {
    "solo": ("exact solo analysis, cold results cache", "s", True,
             lambda a, r: solo_row(r)),
    "decision4": ("perfect-play decision, N = 4, first to act", "s/decision", True,
                  lambda a, r: decision_row(r, 4, a.decisions, a.seed)),
    "decision7": ("perfect-play decision, N = 7, first to act", "s/decision", True,
                  lambda a, r: decision_row(r, 7, a.decisions, a.seed)),
    "rounds7": ("perfect-play rounds, N = 7", "rounds/s", False,
                lambda a, r: rounds_row(r, a.rounds, a.seed)),
}


def measure(fn, count, warm, repeat, per_item):
    """Median of ``repeat`` runs after one warm-up run, and the load average before each run."""
    warm()
    times, loads = [], []
    for _ in range(repeat):
        loads.append(os.getloadavg()[0])
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    value = med / count if per_item else count / med
    return value, loads


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", default=",".join(ROWS), help=f"comma-separated rows of {', '.join(ROWS)}")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per row (the median is reported)")
    p.add_argument("--decisions", type=int, default=20, help="random tables per decision row")
    p.add_argument("--rounds", type=int, default=4_000, help="rounds of the N = 7 perfect-play row")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--baseline", type=Path, default=BASELINE)
    p.add_argument("--write-baseline", action="store_true", help="store this run's figures as the baseline")
    a = p.parse_args(argv)
    rules = rm.load_rules()
    names = [n.strip() for n in a.rows.split(",") if n.strip()]
    unknown = [n for n in names if n not in ROWS]
    if unknown:
        p.error(f"unknown rows {unknown}; choose from {list(ROWS)}")
    base = json.loads(a.baseline.read_text()) if a.baseline.exists() else {}
    results = {}
    print(f"{'row':<46} {'figure':>14} {'unit':<11} {'load (median, range)':<22} {'baseline':>12} {'ratio':>7}")
    for name in names:
        title, unit, per_item, build = ROWS[name]
        fn, count, warm = build(a, rules)
        value, loads = measure(fn, count, warm, a.repeat, per_item)
        load = f"{statistics.median(loads):.2f} ({min(loads):.2f}-{max(loads):.2f})"
        results[name] = {"title": title, "value": value, "unit": unit, "load": statistics.median(loads),
                         "repeat": a.repeat}
        b = base.get(name, {}).get("value")
        ratio = "" if b is None else f"{(b / value if per_item else value / b):.2f}x"
        bs = "" if b is None else f"{b:.4g}"
        print(f"{title:<46} {value:>14.4g} {unit:<11} {load:<22} {bs:>12} {ratio:>7}", flush=True)
    print("ratio: baseline / now for times, now / baseline for rates (> 1 is faster now); "
          f"{os.cpu_count()} cores, NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS', 'all')}")
    if a.write_baseline:
        merged = {**base, **results}
        a.baseline.write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n")
        print(f"wrote {a.baseline}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
