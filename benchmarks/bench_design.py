"""The time of a full rule-set design (issue 29): 7 player counts, kickout and bonus varied, perfect play,
confirmation on fresh seeds at a 95% half-width of 0.05 points.

    python benchmarks/bench_design.py                          # the full design (the last row of design-timing.csv)
    python benchmarks/bench_design.py --players 2 3 --confirm 0.2 --others ""   # a smoke run
    python benchmarks/bench_design.py --write benchmarks/design-timing.csv

Prints the design's progress lines (time per player count of each surface, the re-solves, the confirmation),
the iterations of the cut search, then one table: the phase, its seconds, the re-solves it took and whether it
converged, and the load average (1 minute) at its start and end, with the machine.  ``--write`` appends the row
to the CSV.  The target (issue 34) is 10 minutes on this 2-core machine, quiet; the load average says whether the
machine was shared while it ran (a figure taken under a load above the core count is not a fair measure of the
code).  ``--design-out FILE.toml`` also writes the designed rule set, its record and ``FILE.csv`` (the confirmed
table), as ``ricochet design --write FILE.toml --csv FILE.csv`` with the same arguments does.
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
from ricochet_math.design.rule_set import DEFAULT_OTHERS, DEFAULT_RESOLVES, design_rule_set
from ricochet_math.storage import atomic_write_text, exact_seed_columns


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="publisher")
    ap.add_argument("--players", type=int, nargs="+", default=list(range(1, 8)))
    ap.add_argument("--band", type=float, nargs=2, default=(95.97, 96.91), help="percent")
    ap.add_argument("--reading", default="perfect")
    ap.add_argument("--vary", default="kickout,bonus")
    ap.add_argument("--objective", default="band", choices=("band", "target", "flat"))
    ap.add_argument("--target", type=float, default=None, help="percent, with --objective target")
    ap.add_argument("--max-resolves", type=int, default=DEFAULT_RESOLVES)
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
    if d.iterations is not None and len(d.iterations):
        print("the iterations (linear shortcut, cut model, re-solved):")
        print(d.iterations.drop(columns=["half_width"]).to_string(index=False))
    rows = [{"phase": "full design", "seconds": round(total, 1), "load_average_1min_end": os.getloadavg()[0],
             "load_average_1min_start": load0, "players": " ".join(map(str, args.players)), "vary": args.vary,
             "reading": args.reading, "objective": args.objective, "confirm_pp": args.confirm, "resolves": d.resolves,
             "converged": d.converged, "grid_patterns": len(args.grid.split()),
             "cells_evaluated": d.evaluated, "machine": f"{platform.machine()} {os.cpu_count()} cpus",
             "version": __version__, "measured_at": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}]
    frame = pd.DataFrame(rows)
    print(frame.to_string(index=False))
    print("\n".join(d.log))
    if args.design_out:
        path = d.write_toml(args.design_out)
        csv_path = path.with_suffix(".csv")
        atomic_write_text(csv_path, exact_seed_columns(d.table).to_csv(index=False), "design table")
        print(f"wrote {path} and {csv_path}")
    if args.write:
        if os.path.exists(args.write):  # the file keeps every measurement: the row is appended
            frame = pd.concat([pd.read_csv(args.write), frame], ignore_index=True)
        frame.to_csv(args.write, index=False)
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
