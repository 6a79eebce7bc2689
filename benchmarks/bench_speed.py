"""The speed figures of issue 14 in one table, against a stored baseline.

Rows (each the median of ``--repeat`` timed runs after one untimed warm-up run
that compiles or loads the kernels; for the solo row the warm-up is one class):

* exact solo analysis, all 169 classes, from a cold results cache (a fresh
  cache folder holding only the lookup tables), every core: seconds;
* ``solokernel``: the solo counting kernel on one thread, CPU seconds projected to all 169
  classes from one class of each kind (13 pairs x AA, 78 suited x AKs, 78 offsuit x AKo:
  the work per class depends on the kind only), with the frozen kernel from before the suit
  symmetry (:mod:`solo_reference`) timed in the same run beside it;
* one perfect-play decision for the first seat to act at N = 4 and N = 7
  (random face-up tables, seeded) through :func:`~ricochet_math.solvers.advise.advise`
  (wall seconds per decision, Python included: the figure an analyst waits for);
* the same decisions at kernel level (``kernel4``, ``kernel7``): a numba loop over the
  packed tables (:mod:`kernel_timing`), CPU seconds of this thread per decision, with
  the frozen pre-issue-14 kernel (:mod:`perfect_reference`) timed in the same run
  beside it, so the old/new ratio holds under any load; each timed run alternates the
  two for at least ``--kernel-seconds`` (one pass over the tables takes a few hundredths
  of a second, and the load average moves every five seconds) and keeps the medians;
* perfect-play rounds at N = 7 (every core, control variates on): rounds per second;
* ``rtp7``: the projected wall time of an N = 7 perfect-play RTP to +/- 0.02
  percentage points (95%): a pilot run (``--pilot`` rounds, its own seed) gives the
  controlled estimate's standard error and the rounds per second; the rounds the target
  needs (no margin) divided by that rate.  The variance ratio of the controls and the
  rounds per second are printed beside it.

Beside each: the machine's one-minute load average at the start of each timed
run (and at its end for the kernel rows; the median, and the range), the baseline figure from
``benchmarks/baseline.json`` and the ratio, written so that > 1 is faster now,
and for the kernel rows the old kernel's figure from the same run and that ratio.
On a shared machine compare figures taken at similar loads.

    python benchmarks/bench_speed.py                  # all rows, median of 3
    python benchmarks/bench_speed.py --rows kernel4,kernel7 --repeat 5
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
from ricochet_math.solvers.stats import rounds_for_half_width

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kernel_timing  # noqa: E402
import perfect_states  # noqa: E402

BASELINE = Path(__file__).with_name("baseline.json")


def solo_row(rules):
    def cold(classes=None):
        old = os.environ.get("RICOCHET_CACHE_DIR")
        tables = sorted(cache_dir().glob("tables-*.npz"))
        with tempfile.TemporaryDirectory() as tmp:
            for t in tables:
                shutil.copy(t, tmp)
            os.environ["RICOCHET_CACHE_DIR"] = tmp
            try:
                solo_analysis(rules, classes=classes)
            finally:
                if old is None:
                    del os.environ["RICOCHET_CACHE_DIR"]
                else:
                    os.environ["RICOCHET_CACHE_DIR"] = old

    def warm():
        # compiles or loads the kernel: one class, in a fresh results cache too (a class found in
        # the user's results cache would return without loading the kernel, and the first timed
        # run would pay for it)
        cold(classes=[0])
    return cold, 1, warm


def solo_kernel_row(rules):
    """Projected one-thread CPU seconds of all 169 classes: (new, old) per run (see the docstring)."""
    import solo_reference

    from ricochet_math.evaluator.classes import player_classes
    from ricochet_math.evaluator.evaluation import NUM_VALUES
    from ricochet_math.solvers import solo_kernel
    reps, _, labels = player_classes()
    lov, pays, names = solo_kernel.bonus_lines(rules.bonus)
    n_lines = len(names) - 1
    line_lo = np.zeros(n_lines + 1, dtype=np.int64)
    for ln in range(1, n_lines + 1):
        line_lo[ln] = int(np.flatnonzero(lov == ln).min())
    out = np.empty((NUM_VALUES, solo_kernel.count_columns(n_lines)[-1]), dtype=np.int64)
    ties = bool(rules.options.dealer_loses_ties)
    kinds = ((labels.index("AA"), 13), (labels.index("AKs"), 78), (labels.index("AKo"), 78))

    def projected(kernel):
        total = 0.0
        for k, count in kinds:
            t0 = time.thread_time()
            kernel(reps[k, 0], reps[k, 1], lov, line_lo, pays, n_lines, ties, True, out)
            total += count * (time.thread_time() - t0)
        return total

    def run():
        return projected(solo_kernel._solo_class), projected(solo_reference._solo_class)
    return run


def decision_row(rules, players, tables, seed):
    rng = np.random.default_rng(seed)
    deals = random_deals(rng, tables, 2 * players + 5)
    states = [face_up_table(d[2 * players:], [d[2 * i:2 * i + 2] for i in range(players)]) for d in deals]

    def run():
        for st in states:
            advise(rules, state=st)
    return run, tables, run


def kernel_row(players, tables, seed, seconds=5.0):
    """Kernel-level decisions: (new s/decision, old s/decision) per run, CPU time, each the median of
    passes alternating the two kernels for at least ``seconds`` of wall time (see the docstring)."""
    import perfect_reference

    from ricochet_math.strategies import perfect
    packed = kernel_timing.pack(perfect_states.first_to_act(seed, tables, players))
    new = kernel_timing.decision_loop(perfect.perfect_decision)
    old = kernel_timing.decision_loop(perfect_reference.perfect_decision)
    rd = perfect.readings("perfect")

    def run():
        news, olds = [], []
        t0 = time.perf_counter()
        while not news or time.perf_counter() - t0 < seconds:
            news.append(kernel_timing.time_per_decision(new, rd, packed, repeat=1))
            olds.append(kernel_timing.time_per_decision(old, rd, packed, repeat=1))
        return statistics.median(news), statistics.median(olds)
    return run


def rounds_row(rules, rounds, seed):
    def run():
        simulate(rules, 7, "perfect", rounds, seed, progress=False)
    return run, rounds, run


def rtp7_row(rules, pilot, seed, target_pp=0.02):
    """Projected seconds to +/- target_pp at N = 7 (perfect play), with the pilot's variance ratio and rate."""
    simulate(rules, 7, "perfect", 16, seed, progress=False)  # compiles or loads the kernels

    def run():
        t0 = time.perf_counter()
        r = simulate(rules, 7, "perfect", pilot, seed + 1_000_003, progress=False)
        wall = time.perf_counter() - t0
        m = r.summary()
        se = m["rtp_initial_cv"].std_error
        need = rounds_for_half_width(se, pilot, target_pp / 100.0, margin=1.0)
        rate = pilot / wall
        return need / rate, {"rounds_needed": need, "rounds_per_s": rate, "variance_ratio": m["variance_ratio"],
                             "pilot_half_width_pp": 100 * m["rtp_initial_cv"].half_width}
    return run


# name -> (title, unit, lower is better, builder, kind); kind: "timed" (fn, count, warm), "pair" (new, old per
# run) or "value" (a figure and notes per run)
ROWS = {
    "solo": ("exact solo analysis, cold results cache", "s", True, lambda a, r: solo_row(r), "timed"),
    "solokernel": ("solo kernel, one thread, 169 classes projected (CPU)", "s", True,
                   lambda a, r: solo_kernel_row(r), "pair"),
    "decision4": ("perfect-play decision, N = 4, first to act (advise)", "s/decision", True,
                  lambda a, r: decision_row(r, 4, a.decisions, a.seed), "timed"),
    "decision7": ("perfect-play decision, N = 7, first to act (advise)", "s/decision", True,
                  lambda a, r: decision_row(r, 7, a.decisions, a.seed), "timed"),
    "kernel4": ("decision kernel, N = 4, first to act (CPU)", "s/decision", True,
                lambda a, r: kernel_row(4, a.tables, a.seed, a.kernel_seconds), "pair"),
    "kernel7": ("decision kernel, N = 7, first to act (CPU)", "s/decision", True,
                lambda a, r: kernel_row(7, a.tables, a.seed, a.kernel_seconds), "pair"),
    "rounds7": ("perfect-play rounds, N = 7", "rounds/s", False, lambda a, r: rounds_row(r, a.rounds, a.seed),
                "timed"),
    "rtp7": ("N = 7 perfect-play RTP to +/- 0.02 pp (projected)", "s", True,
             lambda a, r: rtp7_row(r, a.pilot, a.seed), "value"),
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


def measure_pair(fn, repeat):
    """Medians of the new and the old figure over ``repeat`` runs (after a warm-up), and the loads
    (at the start and the end of each run: a run is short beside other rows')."""
    fn()
    pairs, loads = [], []
    for _ in range(repeat):
        loads.append(os.getloadavg()[0])
        pairs.append(fn())
        loads.append(os.getloadavg()[0])
    return statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs), loads


def measure_value(fn, repeat):
    """Median figure over ``repeat`` runs, the notes of the median run, and the loads."""
    out, loads = [], []
    for _ in range(repeat):
        loads.append(os.getloadavg()[0])
        out.append(fn())
    out.sort(key=lambda x: x[0])
    value, notes = out[len(out) // 2]
    return value, notes, loads


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", default=",".join(ROWS), help=f"comma-separated rows of {', '.join(ROWS)}")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per row (the median is reported)")
    p.add_argument("--decisions", type=int, default=20, help="random tables per advise decision row")
    p.add_argument("--tables", type=int, default=200, help="random tables per kernel row")
    p.add_argument("--kernel-seconds", type=float, default=5.0,
                   help="least wall seconds of each timed kernel run (the median of its passes is kept)")
    p.add_argument("--rounds", type=int, default=4_000, help="rounds of the N = 7 perfect-play row")
    p.add_argument("--pilot", type=int, default=8_000, help="pilot rounds of the rtp7 projection")
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
    print(f"{'row':<52} {'figure':>11} {'unit':<11} {'load (median, range)':<21} {'baseline':>10} {'x base':>7} "
          f"{'old, same run':>13} {'x old':>6}")
    for name in names:
        title, unit, per_item, build, kind = ROWS[name]
        old_value, notes = None, {}
        if kind == "timed":
            fn, count, warm = build(a, rules)
            value, loads = measure(fn, count, warm, a.repeat, per_item)
        elif kind == "pair":
            value, old_value, loads = measure_pair(build(a, rules), a.repeat)
        else:
            value, notes, loads = measure_value(build(a, rules), a.repeat)
        load = f"{statistics.median(loads):.2f} ({min(loads):.2f}-{max(loads):.2f})"
        results[name] = {"title": title, "value": value, "unit": unit, "load": statistics.median(loads),
                         "repeat": a.repeat, **notes}
        if old_value is not None:
            results[name]["old_kernel_same_run"] = old_value
        b = base.get(name, {}).get("value")
        ratio = "" if b is None else f"{(b / value if per_item else value / b):.2f}x"
        bs = "" if b is None else f"{b:.4g}"
        olds = "" if old_value is None else f"{old_value:.4g}"
        oratio = "" if old_value is None else f"{old_value / value:.2f}x"
        print(f"{title:<52} {value:>11.4g} {unit:<11} {load:<21} {bs:>10} {ratio:>7} {olds:>13} {oratio:>6}",
              flush=True)
        if notes:
            print("    " + ", ".join(f"{k} {v:,.4g}" for k, v in notes.items()), flush=True)
    print("ratios: baseline / now (or old / now) for times, now / baseline for rates (> 1 is faster now); "
          f"{os.cpu_count()} cores, NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS', 'all')}")
    if a.write_baseline:
        merged = {**base, **results}
        a.baseline.write_text(json.dumps(merged, indent=1, sort_keys=True) + "\n")
        print(f"wrote {a.baseline}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
