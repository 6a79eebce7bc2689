"""Free Ride Poker (issue 27): the tables behind docs/free-ride-poker.md's best-response, position and reading claims.

    PYTHONPATH=. nice python benchmarks/claims_freeride.py [--out reports/claims]

Writes, under ``--out``:

* ``freeride-best-response.csv``: the selection (each of the 12 ``CANDIDATES`` in seat 0 against computer
  players, 10,000 games per cell, seed 2026: the docs' table) and, for the three best of each table size,
  the **confirmation** on fresh seeds (20,000 games per cell, seed 5000 + 10 * seats + rank: seeds that
  took no part in the selection, one per candidate so the cells are independent); ``stage`` says which;
* ``freeride-best-response-gaps.csv``: per table size, the confirmed winner's lead over the confirmed
  runner-up with its 95% interval and the two-sided p-value of no difference;
* ``freeride-hider.csv``: against a field of ``t:x,x,x,88:wary``, ``hider`` and the field's own strategy
  in seat 0, 20,000 games each on fresh seeds (6001-6006), at 2, 4 and 6 seats, with the difference;
* ``freeride-seats.csv``: four computer players, 20,000 games, seed 2026: each seat's win rate and the
  chi-square test that every seat wins a quarter;
* ``freeride-positions.csv``: net chips per round by position after the starter, computer players, for
  each opening reading (card, hand, rotate) and each refill reading (no refill after the fifth card, the
  default, and a refill), at 4 and 6 seats, 400,000 rounds each (seed 7001 + index), with each position's
  z score and p-value of netting zero.  (The refill reading turns out inert: a refill after the fifth card
  is never played, so its rows are replicates of the default's on other seeds; a test checks the digits.)

The docs quote these tables; ``tests/test_doc_claims.py`` checks every quoted figure against them.
"""
from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import pandas as pd
from scipy.stats import norm

from ricochet_math.games.freeride.analysis import CANDIDATES, best_response, simulate_games, simulate_rounds
from ricochet_math.games.freeride.rules import FreeRideRules

Z = 1.959963984540054
SEATS = (2, 3, 4, 5, 6)


def _se(low, high) -> float:
    return (high - low) / (2 * Z)


def best_responses(select_games: int, confirm_games: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    sel = best_response(CANDIDATES, SEATS, games=select_games, seed=2026).to_frame()
    sel.insert(0, "stage", "selection")
    sel["seed"] = 2026
    sel["games"] = select_games
    sel["rank"] = sel.groupby("seats")["win"].rank(ascending=False, method="first").astype(int)
    rows, gaps = [], []
    rules = FreeRideRules().with_options(min_seats=1)
    for n in SEATS:
        top = sel[(sel.seats == n) & (sel["rank"] <= 3)].sort_values("rank")
        confirmed = []
        for _, r in top.iterrows():
            seed = 5000 + 10 * n + int(r["rank"])
            g = simulate_games([r.strategy] + ["computer"] * (n - 1), rules, games=confirm_games, seed=seed)
            w, ch = g.win(0), g.chips(0)
            confirmed.append({"stage": "confirmation", "seats": n, "strategy": r.strategy, "win": w.estimate,
                              "win_low": w.low, "win_high": w.high, "chips": ch.estimate, "chips_low": ch.low,
                              "chips_high": ch.high, "rounds": g.length.estimate, "fair": 1.0 / n, "seed": seed,
                              "games": confirm_games, "rank": int(r["rank"])})
        conf = pd.DataFrame(confirmed).sort_values("win", ascending=False)
        conf["confirmed_rank"] = range(1, len(conf) + 1)
        rows.append(conf)
        a, b = conf.iloc[0], conf.iloc[1]
        d = a.win - b.win
        se = math.hypot(_se(a.win_low, a.win_high), _se(b.win_low, b.win_high))
        gaps.append({"seats": n, "selected": top.iloc[0].strategy, "confirmed_best": a.strategy,
                     "runner_up": b.strategy, "lead": d, "lead_low": d - Z * se, "lead_high": d + Z * se,
                     "p_value": 2 * norm.sf(abs(d) / se), "selection_confirmed": a.strategy == top.iloc[0].strategy})
    table = pd.concat([sel] + rows, ignore_index=True)
    table["confirmed_rank"] = table["confirmed_rank"].astype("Int64")
    return table, pd.DataFrame(gaps)


def hider(games: int) -> pd.DataFrame:
    field = "t:x,x,x,88:wary"
    rules = FreeRideRules().with_options(min_seats=1)
    rows = []
    k = 0
    for n in (2, 4, 6):
        res = {}
        for who in ("hider", field):
            k += 1
            g = simulate_games([who] + [field] * (n - 1), rules, games=games, seed=6000 + k)
            res[who] = g.win(0)
        h, f = res["hider"], res[field]
        d = h.estimate - f.estimate
        se = math.hypot(h.std_error, f.std_error)
        rows.append({"seats": n, "field": field, "hider": h.estimate, "hider_low": h.low, "hider_high": h.high,
                     "field_strategy": f.estimate, "field_strategy_low": f.low, "field_strategy_high": f.high,
                     "difference": d, "difference_low": d - Z * se, "difference_high": d + Z * se,
                     "p_value": 2 * norm.sf(abs(d) / se), "games": games})
    return pd.DataFrame(rows)


def positions(rounds: int) -> pd.DataFrame:
    rows = []
    k = 0
    for seats in (4, 6):
        for opening in ("card", "hand", "rotate"):
            for refill in (False, True):
                k += 1
                rules = FreeRideRules(opening=opening, refill_after_last=refill)
                r = simulate_rounds(["computer"] * seats, rules, rounds=rounds, seed=7000 + k)
                for p in range(seats):
                    e = r.net_by_position(p)
                    rows.append({"seats": seats, "opening": opening, "refill_after_last": refill, "position": p,
                                 "last": p == seats - 1, "net": e.estimate, "net_low": e.low, "net_high": e.high,
                                 "rounds": rounds, "seed": 7000 + k})
    return with_tests(pd.DataFrame(rows))


def with_tests(frame: pd.DataFrame) -> pd.DataFrame:
    """Each position's z score and two-sided p-value of netting zero (the hypothesis named before the run is
    the last position's; the positions' nets sum to zero in a round, so they are not tested jointly here)."""
    frame = frame.copy()
    se = (frame.net_high - frame.net_low) / (2 * Z)
    frame["z"] = frame.net / se
    frame["p_value"] = 2 * norm.sf(frame.z.abs())
    return frame
    return pd.DataFrame(rows)


def seats_equal(games: int) -> pd.DataFrame:
    """Four computer players, seed 2026 (the docs' run): each seat's game win rate, and Pearson's chi-square
    test that every seat wins a quarter (a shared win counts 1/k to each of the k winners)."""
    from scipy.stats import chi2

    g = simulate_games(["computer"] * 4, FreeRideRules(), games=games, seed=2026)
    wins = [float(g.sums["win"][s]) for s in range(4)]
    expected = games / 4
    stat = sum((w - expected) ** 2 / expected for w in wins)
    rows = []
    for s in range(4):
        w = g.win(s)
        rows.append({"seat": s, "win": w.estimate, "win_low": w.low, "win_high": w.high, "games": games,
                     "seed": 2026, "chi_square": stat, "df": 3, "p_value": float(chi2.sf(stat, 3))})
    return pd.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--select-games", type=int, default=10_000)
    ap.add_argument("--confirm-games", type=int, default=20_000)
    ap.add_argument("--hider-games", type=int, default=20_000)
    ap.add_argument("--rounds", type=int, default=400_000)
    ap.add_argument("--out", default="reports/claims")
    ap.add_argument("--seat-games", type=int, default=20_000)
    ap.add_argument("--only", choices=("best", "hider", "positions", "seats"), default=None)
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    t = time.perf_counter()
    if a.only in (None, "seats"):
        seats_equal(a.seat_games).to_csv(out / "freeride-seats.csv", index=False)
        print(f"seats: {time.perf_counter() - t:.0f} s", flush=True)
    if a.only in (None, "positions"):
        positions(a.rounds).to_csv(out / "freeride-positions.csv", index=False)
        print(f"positions: {time.perf_counter() - t:.0f} s", flush=True)
    if a.only in (None, "hider"):
        hider(a.hider_games).to_csv(out / "freeride-hider.csv", index=False)
        print(f"hider: {time.perf_counter() - t:.0f} s", flush=True)
    if a.only in (None, "best"):
        table, gaps = best_responses(a.select_games, a.confirm_games)
        table.to_csv(out / "freeride-best-response.csv", index=False)
        gaps.to_csv(out / "freeride-best-response-gaps.csv", index=False)
        print(f"best responses: {time.perf_counter() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
