"""How large is the exact two-player tree of the home game: positions below a position, estimated and counted.

    PYTHONPATH=. python benchmarks/bench_home_tree.py                        # validation + deals (2 to 5 min)
    PYTHONPATH=. python benchmarks/bench_home_tree.py --all-deals            # + every one-card deal (+1 to 4 min)
    PYTHONPATH=. python benchmarks/bench_home_tree.py --no-solve --samples 200000   # estimates only (seconds)

Three parts, one table (printed; ``--csv`` writes it, default ``reports/claims/home-tree-size.csv``):

* **validation**: positions of the ladder of ``bench_home_exact.py`` and two more, solved by the exact solver
  (``ExactSolver.values``: its memo count and seconds, one thread), counted exactly by enumerating every pair
  of extra-card sets (room <= 5) and estimated by sampling (nearly every stratum sampled: ``exact_below``
  1,000) with a 95% interval; the unmemoised tree's nodes by the strata and by Knuth's probes.
* **deals**: two-player deals from the start (pot 2), one starting card (the default rules) and two; the
  estimate with its interval, the memo's bytes (56 a position, and the power-of-two table at 3/4 fill that
  would hold it) and the hours at the solver's rate measured in the same run (its largest solve).
* ``--all-deals``: every one of the 1,326 unordered one-card deals (the seats do not matter: ordered deals
  ``(x, y)`` and ``(y, x)`` are one tree), ``--deal-samples`` pairs each: their sum (an upper bound on one
  shared table, whose deals' trees overlap a little), the smallest and the largest; per deal in
  ``home-tree-size-by-deal.csv`` beside the main CSV.

Seeded (``--seed``): the same digits for the same arguments.  Timings depend on the machine's load.
"""
from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.evaluator.cards import format_cards, parse_cards
from ricochet_math.games.home.exact import ExactSolver, card_mask
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.tree_size import count_positions, estimate_positions, knuth_tree, table_bytes
from ricochet_math.storage import exact_seed_columns

#: (first, second, pot, cards of room, solve it, count it exactly)
VALIDATION = [("Kd 5h 8d 8s", "2h 2d 9c 7s", 15, 2, True, True), ("Kd 7c 2h 3c", "Ks 7h 2s", 7, 3, True, True),
              ("2c 3d 4h", "Qs 9h 7d", 8, 4, True, True), ("2c 3d", "Qs 9h 7d", 6, 5, True, True),
              ("Kd 7c", "Ks 7h 2s", 5, 5, True, True), ("2c 3c 4c", "Kc", 4, 6, True, False)]
#: one starting card each (the lower card acts first); ordered as in docs/home-game.md
DEALS_1 = [("7s", "Kd"), ("2c", "Ac"), ("Ks", "Kh"), ("8d", "9c"), ("2c", "3c"), ("2c", "2d"), ("Ac", "As"),
           ("Kc", "Ac"), ("Qh", "As")]
#: two starting cards each (the rulebook's advice for seven-card limits; here at the five-card limit)
DEALS_2 = [("2c 2d", "3c 3d"), ("7s 8d", "Ah Kc"), ("2c 3d", "Kh Qs"), ("4c 5d", "9s 3h")]
REPO = Path(__file__).resolve().parents[1]


def _solve(rules, a, b, pot, positions):
    """The exact solver's memo count and seconds (its table sized from ``positions``, the estimate's upper end,
    so that it is solved once; doubled and redone if it fills)."""
    slots = 1 << 10
    while slots * 3 < positions * 4:
        slots *= 2
    solver = ExactSolver(rules, capacity=slots, max_capacity=1 << 28)
    t0 = time.perf_counter()
    value = float(solver.values([card_mask(parse_cards(a))], [card_mask(parse_cards(b))], [pot])[0])
    return solver.positions, time.perf_counter() - t0, value


def _row(kind, rules, a, b, pot, est, knuth=None, solved=None, counted=None):
    p = est.positions
    row = {"kind": kind, "start_cards": rules.start_cards, "first": a, "second": b, "pot": pot,
           "room": 2 * rules.hand_limit - len(parse_cards(a)) - len(parse_cards(b)),
           "solver_positions": solved[0] if solved else np.nan, "solver_seconds": solved[1] if solved else np.nan,
           "counted": counted.positions.estimate if counted else np.nan,
           "estimate": p.estimate, "low": p.low, "high": p.high, "se": p.std_error,
           "tree_nodes": est.tree_nodes.estimate,
           "knuth_nodes": knuth.nodes.estimate if knuth else np.nan,
           "knuth_low": knuth.nodes.low if knuth else np.nan, "knuth_high": knuth.nodes.high if knuth else np.nan,
           "merge_ratio": est.merge_ratio, "memo_gb": p.estimate * 56 / 1e9,
           "table_gb": table_bytes(rules, p.estimate) / 1e9, "sampled_pairs": est.sampled_pairs,
           "seed": est.seed, "estimate_seconds": est.seconds}
    if solved:
        row["inside"] = bool(p.low <= solved[0] <= p.high)
    return row


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=500_000, help="sampled pairs per deal")
    p.add_argument("--validation-samples", type=int, default=100_000)
    p.add_argument("--probes", type=int, default=200_000, help="Knuth probes per position")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--no-solve", action="store_true", help="skip the exact solver (no rate, no check)")
    p.add_argument("--all-deals", action="store_true", help="every one-card deal (--deal-samples each)")
    p.add_argument("--deal-samples", type=int, default=1_000, help="sampled pairs per deal with --all-deals")
    p.add_argument("--deal-pilot", type=int, default=60, help="pilot pairs per stratum with --all-deals")
    p.add_argument("--csv", type=Path, default=REPO / "reports/claims/home-tree-size.csv")
    args = p.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    rules1, rules2 = HomeRules(players=2), HomeRules(players=2, start_cards=2)
    rows, rate = [], None
    for a, b, pot, room, solve, count in VALIDATION:
        counted = count_positions(rules1, a, b, pot) if count else None
        est = estimate_positions(rules1, a, b, pot, samples=args.validation_samples, seed=args.seed,
                                 exact_below=1_000, floor=200)
        solved = None if args.no_solve or not solve else _solve(rules1, a, b, pot, est.positions.high)
        k = knuth_tree(rules1, a, b, pot, probes=args.probes, seed=args.seed)
        rows.append(_row("validation", rules1, a, b, pot, est, k, solved, counted))
        if solved and solved[0] > 1e6:
            rate = solved[0] / solved[1]  # the largest solve's positions a second (the last one)
        print(rows[-1], flush=True)
    for rules, deals in ((rules1, DEALS_1), (rules2, DEALS_2)):
        for a, b in deals:
            est = estimate_positions(rules, a, b, 2, samples=args.samples, seed=args.seed)
            k = knuth_tree(rules, a, b, 2, probes=args.probes, seed=args.seed) if (a, b) == ("7s", "Kd") else None
            rows.append(_row(f"deal, {rules.start_cards} card(s)", rules, a, b, 2, est, k))
            print(rows[-1], flush=True)
    if args.all_deals:
        by_deal = []
        t0 = time.perf_counter()
        pairs = [(x, y) for x in range(52) for y in range(x + 1, 52)]
        # one seed per deal (spawned from --seed): with one seed for all, deals alike in shape draw the same
        # pairs and their errors are correlated, and the sum's interval would be too narrow
        seeds = [int.from_bytes(ss.generate_state(2, np.uint64).tobytes(), "little")
                 for ss in np.random.SeedSequence(args.seed).spawn(len(pairs))]
        for (x, y), deal_seed in zip(pairs, seeds):
            est = estimate_positions(rules1, (x,), (y,), 2, samples=args.deal_samples, seed=deal_seed,
                                     exact_below=2_000, pilot=args.deal_pilot, floor=20, tree=False)
            by_deal.append({"first": format_cards((x,)), "second": format_cards((y,)),
                            "estimate": est.positions.estimate, "se": est.positions.std_error})
        deals = pd.DataFrame(by_deal)
        deals.to_csv(args.csv.with_name("home-tree-size-by-deal.csv"), index=False)
        total, se = float(deals.estimate.sum()), math.sqrt(float((deals.se ** 2).sum()))
        lo, hi = deals.loc[deals.estimate.idxmin()], deals.loc[deals.estimate.idxmax()]
        for label, x, s in (("all 1,326 one-card deals: sum", total, se),
                            (f"smallest deal {lo['first']} v {lo['second']}", lo.estimate, lo.se),
                            (f"largest deal {hi['first']} v {hi['second']}", hi.estimate, hi.se),
                            ("mean deal", total / len(deals), se / len(deals))):
            rows.append({"kind": label, "start_cards": 1, "pot": 2, "room": 8, "estimate": x,
                         "low": x - 1.96 * s, "high": x + 1.96 * s, "se": s, "memo_gb": x * 56 / 1e9,
                         "table_gb": table_bytes(rules1, x) / 1e9, "sampled_pairs": args.deal_samples,
                         "seed": args.seed, "estimate_seconds": time.perf_counter() - t0})
            print(rows[-1], flush=True)
    df = pd.DataFrame(rows)
    df["solver_rate"] = rate if rate else np.nan
    df["hours_at_rate"] = df.estimate / rate / 3600 if rate else np.nan
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    exact_seed_columns(df).to_csv(args.csv, index=False)  # the seed a whole number, not 2026.0
    show = df[["kind", "first", "second", "pot", "room", "solver_positions", "estimate", "low", "high",
               "memo_gb", "hours_at_rate"]]
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.float_format", "{:,.4g}".format):
        print(show.to_string(index=False))
    print(f"solver rate {rate:,.0f} positions/s (the room-6 solve); load average {os.getloadavg()[0]:.1f} "
          f"at the end" if rate else "no solver rate (--no-solve)")


if __name__ == "__main__":
    main()
