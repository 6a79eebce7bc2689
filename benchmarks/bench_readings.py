"""Time each publisher-like reading needs to reach the search's precision on this machine (issue 13).

For every reading and Monte Carlo cell (N = 2..7 on the default kickout page, N = 4 on the other) the
reading search's store (:mod:`ricochet_math.reports.reading_search`) holds the rounds played, the
kernel time they took (one thread) and the figures' standard errors.  From them:

* ``rounds_per_s``: kernel rounds per second, one thread;
* ``rounds_needed``: rounds for a 95% half-width of 0.05 points on RTP (both conventions, every N),
  0.03 on the fold frequency (N = 7) and the win frequency (N = 3), with the frequency control
  variates (and, beside it, ``rounds_needed_plain`` without them: the frequencies' plain variance);
* ``seconds_needed``: ``rounds_needed / rounds_per_s``, one thread.

    python benchmarks/bench_readings.py                      # every reading in the store
    python benchmarks/bench_readings.py --fresh 4 --readings pub-now-dealer pub-final-dealer
    python benchmarks/bench_readings.py --write reports      # reports/readings-time-to-precision.csv

``sharing`` (printed, and ``readings-cell-sharing.csv`` with ``--write``): per reading, the seconds its
stored cells took (shared: seven cells serve its four rows, two pages x two RTP conventions) against the
seconds the four rows would take with a simulation each (a page's six cells per row): the saving of the
exact sharing, measured on the store's own kernel times.

``--fresh K`` first adds K chunks (K x 256 rounds) to each cell, so the timing is of this run.
Timings taken while other work shares the machine are slower: the CSV records the load average.
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import time
from pathlib import Path

import pandas as pd

from ricochet_math import __version__
from ricochet_math.reports import reading_search as rs
from ricochet_math.solvers.stats import z_value


def measure(readings, seed: int, store, fresh: int = 0) -> pd.DataFrame:
    z = z_value(0.95)
    rows = []
    for reading in readings:
        for rules, n in rs._cells_for():
            cell = rs.load_cell(store, rules, reading, n, seed)
            if fresh:
                cell = rs.extend_cell(store, rules, reading, n, seed, cell.chunks + fresh)
            if cell.chunks < 4:
                continue
            f = rs.cell_figures(cell)
            need = {"rtp": max(f["rtp_initial_se"], f["rtp_wagered_se"]) * z / rs.TARGET_HALF_WIDTH["rtp"]}
            plain = dict(need)
            if n == 7:
                need["fold"] = f["fold_se"] * z / rs.TARGET_HALF_WIDTH["fold"]
                plain["fold"] = f["fold_plain_se"] * z / rs.TARGET_HALF_WIDTH["fold"]
            if n == 3:
                need["win"] = f["win_se"] * z / rs.TARGET_HALF_WIDTH["win"]
                plain["win"] = f["win_plain_se"] * z / rs.TARGET_HALF_WIDTH["win"]
            r_need = math.ceil(cell.rounds * max(v * v for v in need.values()))
            r_plain = math.ceil(cell.rounds * max(v * v for v in plain.values()))
            speed = cell.rounds / cell.seconds if cell.seconds > 0 else math.nan
            rows.append({"reading": reading, "rules": rules, "players": n, "rounds": cell.rounds,
                         "kernel_s": round(cell.seconds, 2), "rounds_per_s": round(speed, 1),
                         "binding": max(need, key=need.get), "rounds_needed": r_need,
                         "seconds_needed": round(r_need / speed, 1),
                         "rounds_needed_plain": r_plain, "seconds_needed_plain": round(r_plain / speed, 1),
                         "fold_variance_ratio": round(f["fold_ratio"], 2), "win_variance_ratio": round(f["win_ratio"], 2),
                         "rtp_variance_ratio": round(f["rtp_initial_ratio"], 2)})
    return pd.DataFrame(rows)


def sharing(t: pd.DataFrame) -> pd.DataFrame:
    """Per reading: kernel seconds of its cells as stored (shared) and as four separate rows would need them,
    each cell at the same rounds (both from the measured seconds per round)."""
    rows = []
    for reading, g in t.groupby("reading", sort=False):
        sec = {(r.rules, r.players): r.kernel_s for r in g.itertuples()}
        if len(sec) < 7:
            continue
        default = sum(v for (rules, _), v in sec.items() if rules == "publisher")
        tens = default - sec[("publisher", 4)] + sec[("publisher-4p-tens", 4)]
        shared = default + sec[("publisher-4p-tens", 4)]
        separate = 2 * default + 2 * tens  # each page's row, each RTP convention, its own six cells
        rows.append({"reading": reading, "cells_shared": 7, "cells_separate": 24, "kernel_s_shared": round(shared, 1),
                     "kernel_s_separate": round(separate, 1), "saving": round(separate / shared, 2)})
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--readings", nargs="+", default=None, help="default: every family reading with a stored cell")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--store", default=None, help="the search's store (default: the toolkit's cache folder)")
    ap.add_argument("--fresh", type=int, default=0, help="chunks to add to each cell and time now")
    ap.add_argument("--write", default=None, metavar="DIR")
    args = ap.parse_args(argv)
    store = Path(args.store) if args.store else rs.default_store()
    readings = args.readings or [r for r in rs.FAMILY_NAMES if (store / "publisher" / r).exists()]
    t = measure(readings, args.seed, store, args.fresh)
    if t.empty:
        print("no stored cells: run `ricochet published --search` first")
        return 1
    per = t.groupby("reading", sort=False).agg(seconds_needed=("seconds_needed", "sum"),
                                               seconds_needed_plain=("seconds_needed_plain", "sum"),
                                               rounds_needed=("rounds_needed", "sum")).reset_index()
    per["hours_one_thread"] = (per["seconds_needed"] / 3600).round(2)
    pd.set_option("display.width", 200)
    print(t.to_string(index=False))
    print(per.sort_values("seconds_needed").to_string(index=False))
    share = sharing(t)
    if not share.empty:
        print(share.to_string(index=False))
    if args.write:
        out = Path(args.write)
        out.mkdir(parents=True, exist_ok=True)
        t["load_average_1min"] = os.getloadavg()[0]
        t["machine"] = f"{platform.machine()} {os.cpu_count()} cpus, {platform.python_version()}, v{__version__}"
        t["measured_at"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        t.to_csv(out / "readings-time-to-precision.csv", index=False)
        print(f"wrote {out / 'readings-time-to-precision.csv'}")
        if not share.empty:
            share.to_csv(out / "readings-cell-sharing.csv", index=False)
            print(f"wrote {out / 'readings-cell-sharing.csv'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
