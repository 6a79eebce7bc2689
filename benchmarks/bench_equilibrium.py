"""Speed and convergence of the equilibrium layer on Leduc hold'em, against OpenSpiel's CFR+ (C++ and Python).

    python benchmarks/bench_equilibrium.py [--repeat 5] [--iterations 1000] [--python-iterations 1000]
                                           [--out benchmarks/equilibrium-leduc.csv]
                                           [--curves benchmarks/equilibrium-curves.csv]

One run prints, for CFR+ on Leduc (one thread each):

* **ours**: ``--iterations`` iterations of :func:`ricochet_math.equilibrium.cfr_kernel.cfr_iterations` from
  zero regrets, timed ``--repeat`` times after a warm-up that loads the kernel; the median iterations per
  second (and the best);
* **OpenSpiel C++** (``pyspiel.CFRPlusSolver``): one solver run for ``--iterations`` iterations in ten
  timed segments, the median rate of the segments (every iteration sweeps the whole tree: the rate does
  not depend on the iteration);
* **OpenSpiel Python** (``open_spiel.python.algorithms.cfr.CFRPlusSolver``): the same for
  ``--python-iterations`` (2.4 iterations/s measured quiet: 1,000 take about 7 minutes; 0 skips it);

with the ratio of our rate to each, and the exploitability each reaches after its iterations: NashConv
(ours, chips) and OpenSpiel's ``exploitability`` (NashConv / 2), with our figure minus OpenSpiel's for the
same iterations (the issue asks for 1e-9).  Targets (issue 33): ratio to the C++ CFR+ >= 1, to the Python
one >= 20, the same exploitability after the same iterations.

``--curves`` writes the convergence table: the exploitability of CFR+ and DCFR after 10, 20, 50, ..., 1,000
iterations on Kuhn and Leduc.  A peer that is not installed is skipped.  Close other work first: the
wall-clock rates fall with the share of the cores this process gets; the load average is printed and
written beside the figures.
"""
from __future__ import annotations

import argparse
import csv
import os
import platform
import statistics
import time
from pathlib import Path

import numpy as np

from ricochet_math.equilibrium import KuhnPoker, LeducPoker, build_tree, cfr_plus, solve
from ricochet_math.equilibrium.cfr_kernel import cfr_iterations

MARKS = (10, 20, 50, 100, 200, 500, 1000)


def _load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def ours(iterations: int, repeat: int) -> dict:
    tree = build_tree(LeducPoker())
    schedule = cfr_plus()
    factors = schedule.factors(0, iterations)

    def run():
        regret, cumulative = np.zeros(tree.num_entries), np.zeros(tree.num_entries)
        cfr_iterations(*tree.kernel_arrays(), tree.post_order, tree.infoset_player, regret, cumulative, *factors,
                       schedule.clip)

    run()  # warm-up: load or compile the kernel
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    result = solve(tree, "cfr+", iterations)
    return {"implementation": "ricochet_math CFR+ (numba)", "iterations": iterations,
            "median_per_s": iterations / statistics.median(times), "best_per_s": iterations / min(times),
            "nash_conv": result.exploitability}


def openspiel(kind: str, iterations: int) -> dict | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("leduc_poker")
    if kind == "cpp":
        solver, name = pyspiel.CFRPlusSolver(game), "OpenSpiel C++ CFRPlusSolver"
        measure = lambda: pyspiel.nash_conv(game, solver.average_policy())  # noqa: E731
    else:
        from open_spiel.python.algorithms import cfr, exploitability

        solver, name = cfr.CFRPlusSolver(game), "OpenSpiel Python CFRPlusSolver"
        measure = lambda: exploitability.nash_conv(game, solver.average_policy())  # noqa: E731
    segments = [iterations // 10 + (1 if i < iterations % 10 else 0) for i in range(10)]
    rates = []
    for count in segments:
        if count == 0:
            continue
        start = time.perf_counter()
        for _ in range(count):
            solver.evaluate_and_update_policy()
        rates.append(count / (time.perf_counter() - start))
    return {"implementation": name, "iterations": iterations, "median_per_s": statistics.median(rates),
            "best_per_s": max(rates), "nash_conv": measure()}


def curves() -> list[dict]:
    rows = []
    for game in (KuhnPoker(), LeducPoker()):
        tree = build_tree(game)
        for solver in ("cfr+", "dcfr"):
            result = solve(tree, solver, MARKS[-1], every=10)
            by_t = dict(zip(result.curve_iterations.tolist(), result.curve_nash_conv.tolist()))
            rows += [{"game": game.name, "solver": solver, "iteration": t, "nash_conv": by_t[t],
                      "openspiel_exploitability": by_t[t] / 2} for t in MARKS]
    return rows


def _write(path: Path, rows: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="timed runs of ours (default 5; the median is reported)")
    ap.add_argument("--iterations", type=int, default=1000, help="iterations of ours and of the C++ CFR+ (default 1,000)")
    ap.add_argument("--python-iterations", type=int, default=1000,
                    help="iterations of OpenSpiel's Python CFR+ (default 1,000: about 7 minutes; 0 skips it)")
    ap.add_argument("--out", type=Path, default=Path(__file__).with_name("equilibrium-leduc.csv"))
    ap.add_argument("--curves", type=Path, default=Path(__file__).with_name("equilibrium-curves.csv"))
    args = ap.parse_args()
    load_start = _load()
    rows = [ours(args.iterations, args.repeat)]
    for kind, n in (("cpp", args.iterations), ("python", args.python_iterations)):
        row = openspiel(kind, n) if n > 0 else None
        if row is not None:
            rows.append(row)
    load_end = _load()
    mine = rows[0]
    print(f"CFR+ on Leduc hold'em, one thread each; {platform.processor() or platform.machine()}; load average "
          f"{load_start:.2f} at the start, {load_end:.2f} at the end")
    print(f"{'implementation':<32} {'iterations':>10} {'median it/s':>12} {'best it/s':>10} {'ours/this':>9} "
          f"{'NashConv':>12} {'OpenSpiel expl.':>15} {'ours - this':>12}")
    for r in rows:
        r["ratio_ours"] = mine["median_per_s"] / r["median_per_s"]
        r["openspiel_exploitability"] = r["nash_conv"] / 2
        same = solve(LeducPoker(), "cfr+", r["iterations"]).exploitability if r is not mine else r["nash_conv"]
        r["ours_minus_this"] = same - r["nash_conv"]
        r["load_start"], r["load_end"] = load_start, load_end
        print(f"{r['implementation']:<32} {r['iterations']:>10,} {r['median_per_s']:>12,.1f} {r['best_per_s']:>10,.1f} "
              f"{r['ratio_ours']:>9,.1f} {r['nash_conv']:>12.6e} {r['openspiel_exploitability']:>15.6e} "
              f"{r['ours_minus_this']:>12.1e}")
    _write(args.out, rows)
    table = curves()
    _write(args.curves, table)
    print("\nexploitability (NashConv, chips) after T iterations")
    print(f"{'game':<6} {'solver':<5} " + " ".join(f"{t:>10,}" for t in MARKS))
    for game in ("kuhn", "leduc"):
        for solver in ("cfr+", "dcfr"):
            cells = [r["nash_conv"] for r in table if r["game"] == game and r["solver"] == solver]
            print(f"{game:<6} {solver:<5} " + " ".join(f"{c:>10.3e}" for c in cells))
    print(f"\nwrote {args.out} and {args.curves}")


if __name__ == "__main__":
    main()
