"""Ring Poker (issue 16): the cost of the ``greedy`` drafting value and the best-response search.

    PYTHONPATH=. python benchmarks/bench_ring_greedy.py [--games2 1000] [--games3 500] [--workers 2] [--out DIR]

1. time per game of two seats playing ``greedy`` (the expected-arrangement value with sampled future
   pairs) against two seats playing ``greedy-fast`` (the integer heuristic), same deals;
2. the pairings (every strategy at every seat against every other) for 2 and 3 players among
   random / greedy / lookahead / denial / greedy-fast, with best responses, written as CSV to ``--out``.
Figures are Monte Carlo with the seed printed; times depend on the machine and its load.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from ricochet_math.games.ring.analysis import pairings, simulate
from ricochet_math.games.ring.rules import RingRules
from ricochet_math.games.ring.strategies import STRATEGIES


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games2", type=int, default=1000)
    ap.add_argument("--games3", type=int, default=500)
    ap.add_argument("--timing-games", type=int, default=100)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="ring_greedy_out")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    result = {}
    for name in ("greedy-fast", "greedy") if a.timing_games else ():
        simulate(RingRules(), [name, name], 10, seed=0, workers=1)  # compile
        t = time.perf_counter()
        simulate(RingRules(), [name, name], a.timing_games, seed=a.seed, batch_size=a.timing_games, workers=1)
        dt = time.perf_counter() - t
        result[f"ms_per_game_{name}"] = 1e3 * dt / a.timing_games
        print(f"{name} vs {name}: {1e3 * dt / a.timing_games:.2f} ms per 2-player game (one thread)", flush=True)
    if a.timing_games:
        print(simulate(RingRules(), ["greedy", "greedy-fast"], a.timing_games, seed=a.seed,
                       workers=a.workers).describe())
    for players, games in ((2, a.games2), (3, a.games3)):
        t = time.perf_counter()
        table = pairings(RingRules(players=players), STRATEGIES, games=games, seed=a.seed, batch_size=100,
                         workers=a.workers)
        dt = time.perf_counter() - t
        table.to_frame().to_csv(out / f"pairings_{players}p.csv", index=False)
        table.best_responses().to_csv(out / f"best_responses_{players}p.csv", index=False)
        print(table.summary(), f"({dt:.0f} s)", flush=True)
        print(table.best_responses().to_string(), flush=True)
        result[f"pairings_{players}p_seconds"] = dt
        result[f"pairings_{players}p_games"] = games
    (out / "timing.json").write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
