"""Perfect-play RTP for N = 2..7 to a target precision, with the run time it takes (issue 4).

For each player count: a pilot run (its own seed) measures the standard
deviation of the controlled estimator (:mod:`ricochet_math.solvers.variance`); the
main run then plays the fixed number of rounds that gives a 95% half-width of
``--target`` (default 0.05 percentage points) with a 10% margin.  The pilot
only sizes the main run; the figures come from the main run alone, so the
stopping rule does not bias them.  Main runs keep a checkpoint per player
count: stop with Ctrl-C and rerun the same command to resume.

    python benchmarks/bench_perfect_rtp.py                      # N = 2..7, 0.05 pp
    python benchmarks/bench_perfect_rtp.py --players 2 3 --target 0.1 --write reports

Prints one row per N: rounds, wall time, rounds/s, RTP per initial bet with and
without the controls (95% half-widths in pp), the variance ratio, fold, win and
kickout rates; ``--write DIR`` also writes ``DIR/perfect-play-rtp.csv`` and
``DIR/perfect-play-by-position.csv`` (win and fold frequency by order of play).
"""
from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import pandas as pd

from ricochet_math import __version__
from ricochet_math.solvers.montecarlo import default_workers, simulate
from ricochet_math.solvers.stats import rounds_for_half_width



def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=list(range(2, 8)))
    ap.add_argument("--rules", default="publisher")
    ap.add_argument("--target", type=float, default=0.05, help="95%% half-width of the RTP, percentage points")
    ap.add_argument("--pilot", type=int, default=8_000, help="pilot rounds per player count")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--checkpoints", default=".bench-checkpoints", help="folder for resumable main runs")
    ap.add_argument("--write", default=None, help="folder for the CSV tables")
    args = ap.parse_args(argv)
    workers = args.workers or default_workers()
    target = args.target / 100.0
    print(f"ricochet_math {__version__}, rules {args.rules}, seed {args.seed}, {workers} worker(s), "
          f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs; target 95% half-width "
          f"{args.target} pp")
    rows, positions = [], []
    for n in args.players:
        t0 = time.perf_counter()
        pilot = simulate(args.rules, n, "perfect", args.pilot, args.seed + 1_000_000, workers=workers,
                         progress=False)
        pilot_s = time.perf_counter() - t0
        se = pilot.summary()["rtp_initial_cv"].std_error
        rounds = rounds_for_half_width(se, args.pilot, target)  # 10% margin, never below the pilot
        ck = Path(args.checkpoints) / f"perfect-{args.rules}-N{n}-seed{args.seed}-{rounds}.npz"
        t0 = time.perf_counter()
        res = simulate(args.rules, n, "perfect", rounds, args.seed, workers=workers, checkpoint=ck)
        wall = time.perf_counter() - t0
        m = res.summary()
        cv, plain = m["rtp_initial_cv"], m["rtp_initial"]
        row = {
            "players": n, "rounds": rounds, "wall_s": round(wall, 1), "pilot_s": round(pilot_s, 1),
            "rounds_per_s": round(rounds / wall, 1),
            "rtp_initial_cv": cv.estimate, "cv_half_width_pp": 100 * cv.half_width,
            "rtp_initial_plain": plain.estimate, "plain_half_width_pp": 100 * plain.half_width,
            "variance_ratio": m["variance_ratio"], "rtp_wagered_cv": m["rtp_wagered_cv"].estimate,
            "rtp_wagered_cv_half_width_pp": 100 * m["rtp_wagered_cv"].half_width,
            "fold_frequency": m["fold_frequency"].estimate, "win_frequency": m["win_frequency"].estimate,
            "kickout_rate": m["kickout_rate"].estimate, "met_target": cv.half_width <= target,
            "seed": args.seed, "rules": args.rules, "version": __version__,
        }
        rows.append(row)
        pos = res.seat_frame(by="position")
        pos.insert(0, "players", n)
        positions.append(pos)
        print(f"N={n}: {rounds:,} rounds in {wall:.0f} s ({rounds / wall:.0f}/s; pilot {pilot_s:.0f} s) "
              f"RTP {100 * cv.estimate:.3f}% +/- {100 * cv.half_width:.3f} pp controlled "
              f"(plain {100 * plain.estimate:.3f} +/- {100 * plain.half_width:.3f}; variance ratio "
              f"{m['variance_ratio']:.1f}); fold {100 * row['fold_frequency']:.2f}% "
              f"win {100 * row['win_frequency']:.2f}% kickout {100 * row['kickout_rate']:.2f}%", flush=True)
    table = pd.DataFrame(rows)
    print(table.to_string(index=False, float_format=lambda x: f"{x:.5f}"))
    if args.write:
        out = Path(args.write)
        out.mkdir(parents=True, exist_ok=True)
        table.to_csv(out / "perfect-play-rtp.csv", index=False)
        pd.concat(positions, ignore_index=True).to_csv(out / "perfect-play-by-position.csv", index=False)
        print(f"wrote {out / 'perfect-play-rtp.csv'} and {out / 'perfect-play-by-position.csv'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
