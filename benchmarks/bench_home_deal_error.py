"""The optimal strategy's error from the deal, where the whole two-player tree is solved (two starting cards).

    PYTHONPATH=. python benchmarks/bench_home_deal_error.py                    # 2c2d v 3c3d (about 5 min)
    PYTHONPATH=. python benchmarks/bench_home_deal_error.py --deals "2c 2d/3c 3d" "7s 8d/Ah Kc" --games 4000 \
        --kernel-games 500000                                                 # the CSV's first two rows
    PYTHONPATH=. python benchmarks/bench_home_deal_error.py --deals "Kh Qs/Ac 2d" "Kc Qd/Kh Js" --games 4000 \
        --kernel-games 500000 --append                                        # and the next two

For each deal (two starting cards each, five-card limit, two players, pot 2): the exact solve (positions,
seconds), and from :func:`ricochet_math.games.home.deal_error.deal_error` the first to act's exact EV, the
EV when both play the ``optimal`` abstraction (exact once 4 cards of room are left, the pot-odds rule
before: as played, each pot-odds decision over ``--draws`` generator states, and with exact chances), the
best responses to it, and its pot-odds decisions' agreement and regret.  Two Monte Carlo checks from the same
deal, seeded (``--seed``), the rest of the deck shuffled per game: ``--games`` games of the readable engine
with ``optimal`` at both seats (its exact decisions read the table solved above, put in the place of this
thread's shared table, ``exact.exact_solver``), and
``--kernel-games`` games of the kernel with ``pot-odds`` at both seats.  One row per deal in
``reports/claims/home-deal-error.csv`` (``--csv``).
"""
from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.games.home.deal_error import deal_error
from ricochet_math.games.home.engine import play_deck
from ricochet_math.games.home import exact as _exact
from ricochet_math.games.home.exact import ExactSolver, exact_solver
from ricochet_math.games.home.kernel import play_batch
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.strategies import parse_strategies
from ricochet_math.games.home.tree_size import estimate_positions

REPO = Path(__file__).resolve().parents[1]


def _decks(rules, a, b, games, seed):
    """Decks with ``a`` to seat 1 and ``b`` to seat 2 (dealt alternately), the rest shuffled per game."""
    ca, cb = parse_cards(a), parse_cards(b)
    head = [c for pair in zip(ca, cb) for c in pair]
    rest = np.array([c for c in range(rules.deck_size) if c not in head], dtype=np.int64)
    rng = np.random.Generator(np.random.PCG64(seed))
    tails = rng.permuted(np.tile(rest, (games, 1)), axis=1)
    seeds = rng.integers(0, 2**64, size=games, dtype=np.uint64)
    return np.hstack([np.tile(np.array(head, dtype=np.int64), (games, 1)), tails]), seeds


def _first_net(nets, first_seat):
    x = nets[:, first_seat]
    return float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", nargs="+", default=["2c 2d/3c 3d"], help="deals as 'seat 1 cards/seat 2 cards'")
    p.add_argument("--draws", type=int, default=256)
    p.add_argument("--games", type=int, default=20_000, help="readable-engine games of optimal v optimal")
    p.add_argument("--kernel-games", type=int, default=1_000_000, help="kernel games of pot-odds v pot-odds")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--csv", type=Path, default=REPO / "reports/claims/home-deal-error.csv")
    p.add_argument("--append", action="store_true", help="add the rows to the CSV's (other deals' rows kept)")
    args = p.parse_args(argv)
    rules = HomeRules(players=2, start_cards=2)
    print(f"load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    rows = []
    for text in args.deals:
        a, b = (t.strip() for t in text.split("/"))
        est = estimate_positions(rules, a, b, 2, samples=200_000, seed=args.seed, tree=False)
        slots = 1 << 20
        while slots * 3 < est.positions.high * 4:
            slots *= 2
        solver = ExactSolver(rules, capacity=slots, max_capacity=2 * slots)
        shared = args.games > 0
        if shared:
            # the readable games' optimal strategy reads this thread's shared table (exact.exact_solver, at most
            # SHARED_CAPACITY slots): put the table solved here in its place, so that its decisions are lookups
            exact_solver(rules)
            _exact._LOCAL.solvers[(rules, 0)] = solver
        t0 = time.perf_counter()
        err = deal_error(rules, a, b, exact_room=4, draws=args.draws, seed=args.seed, solver=solver,
                         progress=lambda s: print(s, flush=True))
        row = {**err.to_frame().iloc[0].to_dict(), "estimate": est.positions.estimate,
               "estimate_low": est.positions.low, "estimate_high": est.positions.high,
               "solve_and_score_seconds": time.perf_counter() - t0}
        print(err.summary(), flush=True)
        print(err.decisions.to_string(), flush=True)
        first_seat = 0 if err.first == tuple(parse_cards(a)) else 1
        if args.kernel_games:
            decks, seeds = _decks(rules, a, b, args.kernel_games, args.seed)
            rec = play_batch(rules, parse_strategies("pot-odds", 2), decks, seeds)
            row["pot_odds_mc"], row["pot_odds_mc_se"] = _first_net(rec.net, first_seat)
            row["kernel_games"] = args.kernel_games
        if shared:
            decks, seeds = _decks(rules, a, b, args.games, args.seed + 1)
            strategies = parse_strategies("optimal", 2)
            t1 = time.perf_counter()
            nets = np.array([play_deck(rules, strategies, decks[g], int(seeds[g])).seats[first_seat].net
                             for g in range(args.games)])
            row["optimal_mc"], row["optimal_mc_se"] = float(nets.mean()), float(nets.std(ddof=1) / math.sqrt(len(nets)))
            row["games"], row["games_seconds"] = args.games, time.perf_counter() - t1
            row["optimal_mc_inside"] = abs(row["optimal_mc"] - err.both) <= 1.96 * row["optimal_mc_se"] + 1e-12
        row["load_end"] = os.getloadavg()[0]
        print({k: v for k, v in row.items()}, flush=True)
        rows.append(row)
    args.csv.parent.mkdir(parents=True, exist_ok=True)
    out = pd.DataFrame(rows)
    if args.append and args.csv.exists():
        old = pd.read_csv(args.csv)
        out = pd.concat([old[~(old["first"] + "/" + old["second"]).isin(out["first"] + "/" + out["second"])], out])
    out.to_csv(args.csv, index=False)


if __name__ == "__main__":
    main()
