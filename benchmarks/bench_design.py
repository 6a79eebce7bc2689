"""The time of a full rule-set design (issue 29): 7 player counts, kickout and bonus varied, perfect play,
confirmation on fresh seeds at a 95% half-width of 0.05 points.

    python benchmarks/bench_design.py                          # the full design (185 s quiet on 2 cores; 31 min at load 12)
    python benchmarks/bench_design.py --players 2 3 --confirm 0.2 --others ""   # a smoke run
    python benchmarks/bench_design.py --write benchmarks/design-timing.csv

Prints the design's progress lines (time per player count of each surface, the re-solves, the confirmation),
then one table: the phase, its seconds, and the load average (1 minute) at its end, with the machine.  The
issue's target is 30 minutes on this 2-core machine; the load average says whether the machine was shared
while it ran (a figure taken under a load above the core count is not a fair measure of the code).
"""
from __future__ import annotations

import argparse
import os
import platform
import time
from datetime import datetime, timezone

import pandas as pd

from ricochet_math import __version__
from ricochet_math.design.kickout import DEFAULT_GRID
from ricochet_math.design.rule_set import DEFAULT_OTHERS, design_rule_set


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="publisher")
    ap.add_argument("--players", type=int, nargs="+", default=list(range(1, 8)))
    ap.add_argument("--band", type=float, nargs=2, default=(95.97, 96.91), help="percent")
    ap.add_argument("--reading", default="perfect")
    ap.add_argument("--vary", default="kickout,bonus")
    ap.add_argument("--objective", default="band", choices=("band", "target", "flat"))
    ap.add_argument("--target", type=float, default=None, help="percent, with --objective target")
    ap.add_argument("--max-resolves", type=int, default=3)
    ap.add_argument("--lines", default=None, help="bonus lines that may change (default all)")
    ap.add_argument("--grid", default=" ".join(DEFAULT_GRID))
    ap.add_argument("--search", type=float, default=0.1, help="search half-width, points")
    ap.add_argument("--confirm", type=float, default=0.05, help="confirmation half-width, points")
    ap.add_argument("--others", default=",".join(DEFAULT_OTHERS))
    ap.add_argument("--other-precision", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--write", default=None, help="CSV file for the timing table")
    ap.add_argument("--design-out", default=None, metavar="FILE.toml",
                    help="also write the designed rule set and its record (as ricochet design --write does)")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    print(f"ricochet_math {__version__}, {platform.machine()} {os.cpu_count()} CPUs, load average {load0:.2f} "
          f"at the start; players {args.players}, vary {args.vary}, reading {args.reading}")
    t0 = time.perf_counter()
    d = design_rule_set(args.rules, (args.band[0] / 100, args.band[1] / 100), reading=args.reading,
                        vary=args.vary, objective=args.objective,
                        target=args.target / 100 if args.target is not None else None,
                        max_resolves=args.max_resolves, players=args.players, grid=args.grid, lines=args.lines, seed=args.seed,
                        search_precision=args.search, confirm_precision=args.confirm,
                        others=[o for o in args.others.split(",") if o], other_precision=args.other_precision,
                        progress=True)
    total = time.perf_counter() - t0
    print()
    print(d.summary())
    print(d.table.drop(columns=["seed", "method"]).to_string(index=False))
    if len(d.shortcut):
        print("the linear shortcut against the re-solved figure:")
        print(d.shortcut.to_string(index=False))
    rows = [{"phase": "full design", "seconds": round(total, 1), "load_average_1min_end": os.getloadavg()[0],
             "load_average_1min_start": load0, "players": " ".join(map(str, args.players)), "vary": args.vary,
             "reading": args.reading, "objective": args.objective, "confirm_pp": args.confirm, "resolves": d.resolves,
             "cells_evaluated": d.evaluated, "machine": f"{platform.machine()} {os.cpu_count()} cpus",
             "version": __version__, "measured_at": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}]
    frame = pd.DataFrame(rows)
    print(frame.to_string(index=False))
    print("\n".join(d.log))
    if args.design_out:
        print(f"wrote {d.write_toml(args.design_out)}")
    if args.write:
        frame.to_csv(args.write, index=False)
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
