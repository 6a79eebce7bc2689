"""Speed, memory and convergence of heads-up Rococo's equilibrium (issue 33, "Speed and scale").

    python benchmarks/bench_rococo_equilibrium.py [--abstraction default] [--iterations 1000] [--every 100]
                                                  [--carry-limit 10] [--out benchmarks/rococo-equilibrium.csv]
                                                  [--solver tree|ranges] [--schedule cfr+|dcfr] [--raise-sizes all]
    python benchmarks/bench_rococo_equilibrium.py --compare [--abstraction default] [--iterations 200]
    python benchmarks/bench_rococo_equilibrium.py --compare --abstraction tiny --blind 1,3,10 --blind-raises 3

One run solves :func:`ricochet_math.games.rococo.solve_equilibrium` at ``--abstraction`` (CFR+, ``--iterations``
a level, every level of the carried-pot recursion) and prints the tree, the build time, CFR+ iterations
per second (all levels' iterations over the solve time, the exploitability measurements excluded), the
exploitability of the pot strategy, the peak resident memory of the process, and the load average.
``--out`` appends one row per measured point of every level's exploitability curve (``level``,
``iteration``, ``nash_conv``) with the run's figures.  The target (issue 33): the default abstraction at an
exploitability of at most 0.001 antes per pot within 30 minutes on the 2-core machine.  Close other work
first: the rates fall with the share of the cores this process gets.

``--solver ranges`` solves range against range (:mod:`ricochet_math.games.rococo.range_cfr`), with
``--raise-sizes all`` every raise size 1..10 in its tree.  ``--compare`` runs the last level of the pot
(``--iterations`` CFR+ iterations, no measurement) by both solvers in the same run at the abstraction's
own raise sizes and prints each one's iterations per second and their ratio, median of three runs each;
with ``--blind`` the same for a fresh state of the blind game at the last level (the layer's CFR+ over the laid-out
blind tree against :mod:`ricochet_math.games.rococo.range_blind`).
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
    parser.add_argument("--solver", choices=("tree", "ranges"), default="tree")
    parser.add_argument("--schedule", choices=("cfr+", "dcfr"), default="cfr+")
    parser.add_argument("--raise-sizes", choices=("all",), default=None)
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--blind", default=None, help="with --compare: blind sizes, e.g. 1,3,10")
    parser.add_argument("--blind-raises", default="1,3,10", help="with --compare --blind: blind-round raise sizes")
    args = parser.parse_args()
    if args.compare:
        compare_blind(args) if args.blind else compare(args)
        return

    from ricochet_math.games.rococo.betting_game import draw_model
    from ricochet_math.games.rococo.equilibrium import solve_equilibrium
    from ricochet_math.games.rococo.rules import RococoRules

    rules = RococoRules() if args.carry_limit is None else replace(RococoRules(), carry_limit=args.carry_limit)
    draw_model()  # the draw solver's table: loaded (or solved) before the clock starts
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    from ricochet_math.games.rococo.betting_game import abstraction

    spec = abstraction(args.abstraction)
    if args.raise_sizes == "all":
        spec = replace(spec, name=f"{spec.name}(raises=all)", raise_sizes=None)
    res = solve_equilibrium(spec, args.iterations, rules=rules, every=args.every, policies=(), solver=args.solver,
                            schedule=args.schedule)
    wall = time.perf_counter() - start
    levels = len(res.values)
    rate = levels * args.iterations / res.seconds["solve"]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    load_after = os.getloadavg()[0]
    print(res.summary())
    print(f"build {res.seconds['build']:.1f} s, solve {res.seconds['solve']:.1f} s ({rate:,.1f} {args.schedule} "
          f"iterations/s, solver {args.solver}, "
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


def _median_rates(iterations: int, *runs) -> list[float]:
    """Iterations per second of each ``run(iterations)``, the runs taking turns, median of three each."""
    import statistics

    rates = [[] for _ in runs]
    for _ in range(3):
        for run, out in zip(runs, rates):
            start = time.perf_counter()
            run(iterations)
            out.append(iterations / (time.perf_counter() - start))
    return [statistics.median(r) for r in rates]


def compare(args) -> None:
    """The last level by both solvers, the same iterations: iterations per second and the ratio."""
    from ricochet_math.equilibrium.schedules import cfr_plus
    from ricochet_math.equilibrium.solving import solve
    from ricochet_math.games.rococo.betting_game import RococoBettingGame, build_betting_tree
    from ricochet_math.games.rococo.range_cfr import level_cfr, public_tree, range_level

    game = RococoBettingGame(spec=args.abstraction)
    bt = build_betting_tree(game)
    pt, rl = public_tree(game), range_level(game)
    level = game.rules.carry_limit
    tree = bt.level_tree(level, None)
    solve(tree, "cfr+", 1)  # compiled before the clock starts
    level_cfr(pt, rl, level, None, cfr_plus(), 1)
    load_before = os.getloadavg()[0]
    tree_rate, range_rate = _median_rates(args.iterations, lambda n: solve(tree, "cfr+", n),
                                          lambda n: level_cfr(pt, rl, level, None, cfr_plus(), n))
    print(f"{game.name}, level {level}, {args.iterations:,} CFR+ iterations, median of 3: tree {tree_rate:,.1f} "
          f"iterations/s ({bt.tree.num_nodes:,} nodes), ranges {range_rate:,.1f} iterations/s "
          f"({pt.num_nodes:,} histories x 16 pairs): ratio {range_rate / tree_rate:.1f}; load average "
          f"{load_before:.2f} -> {os.getloadavg()[0]:.2f}; threads {os.environ.get('NUMBA_NUM_THREADS', 'all')}")


def compare_blind(args) -> None:
    """A fresh state of the blind game at the last level by both solvers, the same iterations."""
    from ricochet_math.equilibrium.schedules import cfr_plus
    from ricochet_math.equilibrium.solving import solve
    from ricochet_math.games.rococo.betting_game import abstraction, build_betting_tree
    from ricochet_math.games.rococo.blind_game import RococoBlindGame
    from ricochet_math.games.rococo.range_blind import blind_ranges, state_cfr

    sizes = lambda text: tuple(int(x) for x in text.split(","))  # noqa: E731
    spec = abstraction(args.abstraction).with_blind(sizes(args.blind), sizes(args.blind_raises))
    game = RococoBlindGame(spec=spec)
    start = time.perf_counter()
    bt = build_betting_tree(game)
    built = time.perf_counter() - start
    br = blind_ranges(game)
    tree = bt.state_tree(0.0, game.rules.carry_limit, None)
    solve(tree, "cfr+", 1)  # compiled before the clock starts
    state_cfr(br, 0.0, None, cfr_plus(), 1)
    load_before = os.getloadavg()[0]
    tree_rate, range_rate = _median_rates(args.iterations, lambda n: solve(tree, "cfr+", n),
                                          lambda n: state_cfr(br, 0.0, None, cfr_plus(), n))
    print(f"{game.name}, a fresh state at level {game.rules.carry_limit}, {args.iterations:,} CFR+ iterations, median "
          f"of 3: tree {tree_rate:,.2f} iterations/s ({bt.tree.num_nodes:,} nodes, built in {built:.0f} s), ranges "
          f"{range_rate:,.1f} iterations/s ({len(br.lines)} lines x {br.tree.num_nodes:,} histories x 16 pairs): "
          f"ratio {range_rate / tree_rate:.1f}; load average {load_before:.2f} -> {os.getloadavg()[0]:.2f}; threads "
          f"{os.environ.get('NUMBA_NUM_THREADS', 'all')}")


if __name__ == "__main__":
    main()
