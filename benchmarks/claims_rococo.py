"""Rococo Poker (issue 27): the best-response selection behind docs/rococo-poker.md, confirmed on fresh seeds.

    PYTHONPATH=. nice python benchmarks/claims_rococo.py [--out reports/claims]

Writes ``rococo-best-response.csv``: for each opponent policy (``standard``, ``loose``, heads-up), the
selection (the 40 threshold policies of ``best_response``, 40,000 pots each on the common seed 2026: the
docs' search) and, for its three best, the **confirmation**: each played again for 100,000 pots on its own
fresh seed (8000 + 10 * opponent index + rank; none took part in the selection), with its rank on the fresh
seeds and its lead over the next (difference of independent means, 95% interval, two-sided p-value).
Also ``rococo-blind-value.csv``: the value of the blind option (seat 0 ``standard`` always declaring a blind
of 1 against never; 100,000 pots each, seed 2026) heads-up against ``standard`` and ``loose`` and with four
``standard`` players, with its 95% interval (``--only blind``).
The docs quote the confirmation; ``tests/test_doc_claims.py`` checks the figures against this table.
"""
from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import pandas as pd
from scipy.stats import norm

from ricochet_math.games.rococo.analysis import best_response, blind_value, simulate
from ricochet_math.games.rococo.betting import BettingPolicy, policy

Z = 1.959963984540054


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--select-pots", type=int, default=40_000)
    ap.add_argument("--confirm-pots", type=int, default=100_000)
    ap.add_argument("--blind-pots", type=int, default=100_000)
    ap.add_argument("--out", default="reports/claims")
    ap.add_argument("--only", choices=("best", "blind"), default=None)
    a = ap.parse_args()
    t = time.perf_counter()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.only in (None, "blind"):
        rows = []
        for others, players in (("standard", 2), ("loose", 2), ("standard", 4)):
            v = blind_value("standard", others, players, a.blind_pots, 2026)
            rows.append({"others": others, "players": players, **v.to_frame().iloc[0].to_dict(),
                         "pots": a.blind_pots, "seed": 2026})
        pd.DataFrame(rows).to_csv(out / "rococo-blind-value.csv", index=False)
        print(f"blind value: {time.perf_counter() - t:.0f} s", flush=True)
        if a.only == "blind":
            return
    frames = []
    for i, others in enumerate(("standard", "loose")):
        sel = best_response(others, pots=a.select_pots, seed=2026).to_frame()
        sel.insert(0, "stage", "selection")
        sel.insert(1, "against", others)
        sel["rank"] = range(1, len(sel) + 1)
        sel["seed"] = 2026
        sel["pots"] = a.select_pots
        rows = []
        for _, r in sel.head(3).iterrows():
            o = None if r.open == "None" else r.open
            cand = BettingPolicy(f"open {r.open} call {r.call} blind {r.blind_rate:g}", open=o, call=r.call,
                                 blind_rate=r.blind_rate)
            seed = 8000 + 10 * i + int(r["rank"])
            e = simulate([cand, policy(others)], a.confirm_pots, seed).net[0]
            rows.append({"stage": "confirmation", "against": others, "open": r.open, "call": r.call,
                         "blind_rate": r.blind_rate, "net_per_pot": e.estimate, "net_per_pot_low": e.low,
                         "net_per_pot_high": e.high, "rank": int(r["rank"]), "seed": seed, "pots": a.confirm_pots})
        conf = pd.DataFrame(rows).sort_values("net_per_pot", ascending=False).reset_index(drop=True)
        conf["confirmed_rank"] = range(1, len(conf) + 1)
        se = (conf.net_per_pot_high - conf.net_per_pot_low) / (2 * Z)
        lead = conf.net_per_pot - conf.net_per_pot.shift(-1)
        lead_se = (se ** 2 + se.shift(-1) ** 2) ** 0.5
        conf["lead"] = lead
        conf["lead_low"] = lead - Z * lead_se
        conf["lead_high"] = lead + Z * lead_se
        conf["lead_p_value"] = [2 * norm.sf(abs(d) / s) if not math.isnan(d) else float("nan")
                                for d, s in zip(lead, lead_se)]
        frames += [sel, conf]
        print(f"{others}: {time.perf_counter() - t:.0f} s", flush=True)
    table = pd.concat(frames, ignore_index=True)
    table["confirmed_rank"] = table["confirmed_rank"].astype("Int64")
    table.to_csv(out / "rococo-best-response.csv", index=False)


if __name__ == "__main__":
    main()
