"""Speed of the fast engine: random rounds per second, one core and all cores.

    python benchmarks/bench_engine.py [--repeat 5] [--rounds 2000000] [--players 1,4,7]
                                      [--strategies always] [--solver-rounds 2000]

For each player count and strategy (default: always-play, N = 1, 4, 7) it
times, after a warm-up run that also compiles or loads the kernel:

* **one core**: one call of :func:`ricochet_math.engine.kernel.run_chunk` on
  ``--rounds`` rounds (in-kernel dealing, the whole round, the running sums
  a Monte Carlo run keeps) in this thread;
* **all cores**: :func:`ricochet_math.solvers.montecarlo.simulate` on ``cores x --rounds``
  rounds with one worker thread per core (chunks of 65,536 rounds; the
  kernels release the GIL).

and prints the MEDIAN rounds per (wall-clock) second over ``--repeat`` runs,
the best run beside it, the per-core rate of the all-cores row, and rounds
per CPU-second of this process (median): on a busy machine the wall-clock
rates fall with the share of the cores this process gets, the CPU-second
rate much less.  ``--solver-rounds``
adds a row for the ``perfect`` strategy (milliseconds per round; 0 skips it).

Target (issue 3): at least 1,000,000 rounds per second per core at N = 7 for
a simple strategy.  On a shared machine, close other work first: a concurrent
test run halves the figures.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numba
import numpy as np

from ricochet_math.engine.kernel import prepare, run_chunk
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.montecarlo import default_workers, simulate

TARGET_N7 = 1_000_000


def _time(fn, repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds (all threads of this process) of ``repeat`` runs after a warm-up."""
    fn()  # warm-up: compile or load the kernel, touch the tables
    wall, cpu = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return wall, cpu


def bench(rules, n: int, strategy: str, rounds: int, repeat: int, cores: int) -> list[dict]:
    setup = prepare(rules, n, strategy)
    rows = []
    seeds = iter(range(10_000))
    one, one_cpu = _time(lambda: run_chunk(setup, np.random.SeedSequence(next(seeds)), rounds), repeat)
    rows.append({"players": n, "strategy": strategy, "cores": 1, "rounds": rounds,
                 "median": rounds / statistics.median(one), "best": rounds / min(one),
                 "per_cpu_s": rounds / statistics.median(one_cpu)})
    if cores > 1:
        total = rounds * cores
        many, many_cpu = _time(lambda: simulate(rules, n, strategy, total, seed=next(seeds), workers=cores,
                                                progress=False), repeat)
        rows.append({"players": n, "strategy": strategy, "cores": cores, "rounds": total,
                     "median": total / statistics.median(many), "best": total / min(many),
                     "per_cpu_s": total / statistics.median(many_cpu)})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per row (default 5; the median is reported)")
    ap.add_argument("--rounds", type=int, default=2_000_000, help="rounds per core per run (default 2,000,000)")
    ap.add_argument("--players", default="1,4,7", help="player counts (default 1,4,7)")
    ap.add_argument("--strategies", default="always", help="comma-separated strategies (default always)")
    ap.add_argument("--solver-rounds", type=int, default=2_000,
                    help="rounds for a 'perfect' row at each player count (default 2,000; 0 = skip)")
    args = ap.parse_args(argv)
    rules = load_rules()
    cores = default_workers()
    print(f"ricochet_math fast engine: {platform.processor() or platform.machine()}, {cores} core(s), "
          f"numba {numba.__version__}, NUMBA_NUM_THREADS={os.environ.get('NUMBA_NUM_THREADS', '-')}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"median of {args.repeat} runs after a warm-up; rounds per second; load average {load:.2f} "
          f"(other processes compete for the cores above {cores})\n")
    header = (f"{'N':>2}  {'strategy':<10} {'cores':>5} {'rounds':>11} {'median/s':>13} {'best/s':>13} "
              f"{'per core/s':>13} {'per CPU-s':>13}")
    print(header)
    print("-" * len(header))
    results = []
    for n in (int(x) for x in args.players.split(",")):
        plan = [(s.strip(), args.rounds) for s in args.strategies.split(",")]
        if args.solver_rounds:
            plan.append(("perfect", args.solver_rounds))
        for strategy, rounds in plan:
            rows = bench(rules, n, strategy, rounds, args.repeat if strategy != "perfect" else 1, cores)
            for r in rows:
                results.append(r)
                print(f"{r['players']:>2}  {r['strategy']:<10} {r['cores']:>5} {r['rounds']:>11,} "
                      f"{r['median']:>13,.0f} {r['best']:>13,.0f} {r['median'] / r['cores']:>13,.0f} "
                      f"{r['per_cpu_s']:>13,.0f}")
    n7 = [r for r in results if r["players"] == 7 and r["cores"] == 1 and r["strategy"] == "always"]
    if n7:
        got = n7[0]["median"]
        verdict = "met" if got >= TARGET_N7 else "NOT met"
        print(f"\ntarget: >= {TARGET_N7:,} rounds/s per core at N = 7 (always-play): {got:,.0f} -> {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
