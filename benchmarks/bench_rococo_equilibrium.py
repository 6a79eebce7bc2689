"""Speed, memory and convergence of heads-up Rococo's equilibrium (issue 33, "Speed and scale").

    python benchmarks/bench_rococo_equilibrium.py [--abstraction default] [--iterations 1000] [--every 100]
                                                  [--carry-limit 10] [--out benchmarks/rococo-equilibrium.csv]

One run solves :func:`ricochet_math.games.rococo.solve_equilibrium` at ``--abstraction`` (CFR+, ``--iterations``
a level, every level of the carried-pot recursion) and prints the tree, the build time, CFR+ iterations
per second (all levels' iterations over the solve time, the exploitability measurements excluded), the
exploitability of the pot strategy, the peak resident memory of the process, and the load average.
``--out`` appends one row per measured point of every level's exploitability curve (``level``,
``iteration``, ``nash_conv``) with the run's figures.  The target (issue 33): the default abstraction at an
exploitability of at most 0.001 antes per pot within 30 minutes on the 2-core machine.  Close other work
first: the rates fall with the share of the cores this process gets.
"""
from __future__ import annotations

import argparse
import csv
import os
import platform
import resource
import time
from dataclasses import replace
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--abstraction", default="default")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--carry-limit", type=int, default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()

    from ricochet_math.games.rococo.betting_game import draw_model
    from ricochet_math.games.rococo.equilibrium import solve_equilibrium
    from ricochet_math.games.rococo.rules import RococoRules

    rules = RococoRules() if args.carry_limit is None else replace(RococoRules(), carry_limit=args.carry_limit)
    draw_model()  # the draw solver's table: loaded (or solved) before the clock starts
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    res = solve_equilibrium(args.abstraction, args.iterations, rules=rules, every=args.every, policies=())
    wall = time.perf_counter() - start
    levels = len(res.values)
    rate = levels * args.iterations / res.seconds["solve"]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    load_after = os.getloadavg()[0]
    print(res.summary())
    print(f"build {res.seconds['build']:.1f} s, solve {res.seconds['solve']:.1f} s ({rate:,.1f} CFR+ iterations/s "
          f"over {levels} levels), measurements {res.seconds['measure']:.1f} s, wall {wall:.1f} s; peak memory "
          f"{peak:,.0f} MiB; load average {load_before:.2f} -> {load_after:.2f}")
    if args.out is not None:
        new = not args.out.exists()
        with args.out.open("a", newline="") as fh:
            w = csv.writer(fh)
            if new:
                w.writerow(["abstraction", "iterations", "level", "iteration", "nash_conv", "pot_nash_conv",
                            "iterations_per_second", "solve_seconds", "peak_mib", "load_before", "load_after",
                            "machine"])
            for row in res.curves.itertuples():
                w.writerow([res.abstraction.name, args.iterations, row.level, row.iteration, f"{row.nash_conv:.17g}",
                            f"{res.nash_conv:.17g}", f"{rate:.2f}", f"{res.seconds['solve']:.2f}", f"{peak:.0f}",
                            f"{load_before:.2f}", f"{load_after:.2f}", platform.node()])


if __name__ == "__main__":
    main()
