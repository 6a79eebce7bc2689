"""Ring Poker (issue 27): the tables behind docs/ring-poker.md's seat-edge and joker-reading claims.

    PYTHONPATH=. nice python benchmarks/claims_ring.py [--games 25000] [--out reports/claims]

Writes, under ``--out`` (every seat ``greedy-fast``, strongest-first arrangement, batch size 1,000):

* ``ring-seat-edge-3p.csv``: three players with the rotation, bug jokers, on seeds 101-104 (fresh: none of
  them took part in the figure the docs quoted before, seed 1), each seed and pooled: every seat's win share
  with its 95% interval, seat 0's edge over the fair third in points, and the Wald test of equal chances;
* ``ring-seat-edge-2p.csv``: two players with the rotation, bug jokers, 100,000 games on each of the seeds
  the docs quote (1, 3, 7, 11), each and pooled, and whether the seeds agree;
* ``ring-joker-readings.csv``: the figures the joker reading moves, bug (default) against dead, side by
  side: seat 0's win share (2 and 3 players), the mean win share of each strategy of ``FAST_STRATEGIES``
  over the pairings (2 players), the slot categories and the share of random 18-card holdings whose best
  hand is a straight flush or better;
* ``ring-pairings.csv`` and ``ring-best-response-confirmed.csv``: the strategy pairings among
  ``STRATEGIES`` (random, greedy, lookahead, denial, greedy-fast) at 2 and 3 players, seed 1, batch size 100
  (the docs' tables: 400 games per seating with two players, 200 with three), and their confirmation:
  against each opponent strategy the selected best response and the runner-up replayed on a fresh seed
  (``PairingTable.confirm``: seed 1 + 1000 + the opponent's index, 1001-1005, which no pairing used), both
  on the same deals, ``--confirm-games2``/``--confirm-games3`` per seating (500: the largest that fits about ten
  minutes on a shared two-core machine); the paired lead with its 95% interval and p-value.

The docs quote these tables; ``tests/test_doc_claims.py`` checks every quoted figure against them.
"""
from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.games.ring.analysis import CATEGORY_LABELS, RingSimulation, pairings, simulate
from ricochet_math.games.ring.arrangement import opponent_model
from ricochet_math.games.ring.rules import RingRules
from ricochet_math.games.ring.strategies import FAST_STRATEGIES, STRATEGIES

Z = 1.959963984540054
SEEDS = (101, 102, 103, 104)
_CAT = 15 ** 5


def pooled(sims: list[RingSimulation]) -> RingSimulation:
    """One simulation from several (the sums add: the games of every seed together)."""
    first = sims[0]
    sums = {k: sum(s.sums[k] for s in sims) for k in first.sums}
    return RingSimulation(first.rules, first.strategies, first.objective, sum(s.games for s in sims),
                          first.seed, first.batch_size, sum(s.run_time for s in sims), sums)


def seat_row(label: str, sim: RingSimulation) -> dict:
    row = {"run": label, "games": sim.games}
    p = sim.rules.players
    for s in range(p):
        w = sim.win_share(s)
        row.update({f"seat{s}_win": w.estimate, f"seat{s}_win_low": w.low, f"seat{s}_win_high": w.high})
    w0 = sim.win_share(0)
    row.update({"edge": 100 * (w0.estimate - 1 / p), "edge_low": 100 * (w0.low - 1 / p),
                "edge_high": 100 * (w0.high - 1 / p)})
    eq = sim.equal_chances()
    row.update({"chi_square": eq.statistic, "df": eq.df, "p_value": eq.p_value})
    return row


def by_seeds(players: int, games: int, seeds) -> pd.DataFrame:
    """Every seat ``greedy-fast``, bug jokers, the rotation: one row per seed and a pooled row, and whether
    the seeds agree (chi-square of seat 0's shares about their weighted mean, ``len(seeds) - 1`` df)."""
    from scipy.stats import chi2

    sims = [simulate(RingRules(players=players), None, games, seed) for seed in seeds]
    rows = [seat_row(f"seed {seed}", sim) for seed, sim in zip(seeds, sims)]
    rows.append(seat_row("pooled", pooled(sims)))
    est = np.array([s.win_share(0).estimate for s in sims])
    se = np.array([s.win_share(0).std_error for s in sims])
    w = 1 / se ** 2
    m = float((w * est).sum() / w.sum())
    frame = pd.DataFrame(rows)
    frame["seeds_agree_chi_square"] = float((w * (est - m) ** 2).sum())
    frame["seeds_agree_p_value"] = chi2.sf(frame["seeds_agree_chi_square"], len(seeds) - 1)
    return frame


def seat_edge(games: int) -> pd.DataFrame:
    """Three players on the fresh seeds :data:`SEEDS`."""
    return by_seeds(3, games, SEEDS)


def two_player_seeds(games: int) -> pd.DataFrame:
    """Two players on the seeds docs/ring-poker.md quotes (1, 3, 7, 11; ``benchmarks/ring_seat_seeds.py``
    reruns the same games batch by batch)."""
    return by_seeds(2, games, (1, 3, 7, 11))


def joker_readings(games: int, pair_games: int) -> pd.DataFrame:
    rows = []
    for joker in ("bug", "dead"):
        for players, seed in ((2, 201), (3, 202)):
            sim = simulate(RingRules(players=players, joker=joker), None, games, seed)
            w = sim.win_share(0)
            eq = sim.equal_chances()
            rows.append({"joker": joker, "figure": f"seat 0 win share, {players} players", "value": w.estimate,
                         "value_low": w.low, "value_high": w.high, "p_value": eq.p_value, "games": games,
                         "seed": seed})
            if players == 2:
                cats = sim.category_frame().set_index("category")
                for slot in ("strongest", "middle", "weakest"):
                    for cat in CATEGORY_LABELS:
                        v = float(cats[slot].get(cat, 0.0))
                        n = 2 * games
                        h = Z * math.sqrt(max(v * (1 - v), 0.0) / n)
                        rows.append({"joker": joker, "figure": f"{slot} hand: {cat.lower()}", "value": v,
                                     "value_low": max(v - h, 0.0), "value_high": min(v + h, 1.0),
                                     "p_value": float("nan"), "games": games, "seed": seed})
        table = pairings(RingRules(players=2, joker=joker), FAST_STRATEGIES, games=pair_games, seed=203)
        pf = table.to_frame()
        pf = pf[pf.strategy != pf.against]
        means = pf.groupby("strategy", sort=False)["win"].mean()
        ranks = means.rank(ascending=False, method="min").astype(int)
        for strategy, v in means.items():
            # each focal share is a mean over its seats and opponents; half-width from the pairings' intervals
            part = pf[pf.strategy == strategy]
            se = math.sqrt(float((((part.win_high - part.win_low) / (2 * Z)) ** 2).sum())) / len(part)
            rows.append({"joker": joker, "figure": f"{strategy}: mean win share against the others (rank "
                                                   f"{ranks[strategy]})",
                         "value": float(v), "value_low": float(v) - Z * se, "value_high": float(v) + Z * se,
                         "p_value": float("nan"), "games": pair_games, "seed": 203})
        model = opponent_model(RingRules(players=2, joker=joker), samples=4000, seed=204)
        sf = float(np.mean(model.slot_keys[:, 0] // _CAT >= 8))
        h = Z * math.sqrt(sf * (1 - sf) / 4000)
        rows.append({"joker": joker, "figure": "random 18-card holdings with a straight flush or better",
                     "value": sf, "value_low": sf - h, "value_high": sf + h, "p_value": float("nan"),
                     "games": 4000, "seed": 204})
    return pd.DataFrame(rows)


def best_responses(pair_games: dict[int, int], confirm_games: dict[int, int], workers: int | None
                   ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The pairings (the selection, seed 1) and their confirmation on fresh seeds, per number of players."""
    selection, confirmation = [], []
    for players in (2, 3):
        t = time.perf_counter()
        table = pairings(RingRules(players=players), STRATEGIES, games=pair_games[players], seed=1, batch_size=100,
                         workers=workers)
        pf = table.to_frame()
        pf.insert(0, "players", players)
        pf["games"], pf["seed"] = table.games, table.seed
        selection.append(pf)
        print(f"pairings, {players} players: {time.perf_counter() - t:.0f} s", flush=True)
        t = time.perf_counter()
        cf = table.confirm(confirm_games[players], batch_size=100, workers=workers).to_frame()
        cf.insert(0, "players", players)
        cf["selection_games"], cf["selection_seed"] = table.games, table.seed
        confirmation.append(cf)
        print(f"confirmation, {players} players: {time.perf_counter() - t:.0f} s", flush=True)
    return pd.concat(selection, ignore_index=True), pd.concat(confirmation, ignore_index=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=25_000)
    ap.add_argument("--reading-games", type=int, default=20_000)
    ap.add_argument("--pair-games", type=int, default=500)
    ap.add_argument("--out", default="reports/claims")
    ap.add_argument("--two-player-games", type=int, default=100_000)
    ap.add_argument("--pair-games2", type=int, default=400, help="games per pairing seating, two players")
    ap.add_argument("--pair-games3", type=int, default=200, help="games per pairing seating, three players")
    ap.add_argument("--confirm-games2", type=int, default=500, help="games per confirmation seating, two players")
    ap.add_argument("--confirm-games3", type=int, default=500, help="games per confirmation seating, three players")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", choices=("seats", "seats2", "readings", "best"), default=None)
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    if a.only in (None, "seats"):
        seat_edge(a.games).to_csv(out / "ring-seat-edge-3p.csv", index=False)
        print(f"seat edge: {time.perf_counter() - t:.0f} s", flush=True)
    if a.only in (None, "seats2"):
        two_player_seeds(a.two_player_games).to_csv(out / "ring-seat-edge-2p.csv", index=False)
        print(f"two-player seats: {time.perf_counter() - t:.0f} s", flush=True)
    if a.only in (None, "readings"):
        joker_readings(a.reading_games, a.pair_games).to_csv(out / "ring-joker-readings.csv", index=False)
        print(f"readings: {time.perf_counter() - t:.0f} s", flush=True)
    if a.only in (None, "best"):
        sel, conf = best_responses({2: a.pair_games2, 3: a.pair_games3}, {2: a.confirm_games2, 3: a.confirm_games3},
                                   a.workers)
        sel.to_csv(out / "ring-pairings.csv", index=False)
        conf.to_csv(out / "ring-best-response-confirmed.csv", index=False)
        print(f"total: {time.perf_counter() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
