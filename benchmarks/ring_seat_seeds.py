"""Ring Poker (issue 16): the two-player seat edge over several seeds, batch by batch.

    PYTHONPATH=. python benchmarks/ring_seat_seeds.py [--games 100000] [--seeds 1 3 7 11] [--joker bug]

Plays ``simulate(RingRules(players=2), None, games, seed)``'s games (every seat ``greedy-fast``, batch size
1,000, batch i seeded by ``SeedSequence(seed, spawn_key=(i,))``) and prints, per seed, seat 0's win share and
standard error, the dispersion of the batch means (chi-square on batches - 1 df: a seeding or correlation bug
would inflate it) and, over the seeds, the pooled share and a chi-square test that the seeds agree.
docs/ring-poker.md ("Why two estimates of the two-player seat edge disagreed") quotes a run of it.
"""
from __future__ import annotations

import argparse

import numpy as np
from scipy.stats import chi2

from ricochet_math.games.ring.analysis import deal_batch
from ricochet_math.games.ring.kernel import play_batch
from ricochet_math.games.ring.rules import Joker
from ricochet_math.games.ring.strategies import GREEDY_FAST
from ricochet_math.solvers.executors import chunk_seed

BATCH = 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 3, 7, 11])
    ap.add_argument("--joker", default="bug", choices=("bug", "wild", "dead"))
    a = ap.parse_args()
    joker = int(Joker[a.joker.upper()])
    codes = np.array([GREEDY_FAST, GREEDY_FAST], dtype=np.int64)
    none = np.zeros((3, 2), dtype=np.int64)
    means, ses = [], []
    for seed in a.seeds:
        entropy = int(np.random.SeedSequence(seed).entropy)
        sums, squares, batch_means = 0.0, 0.0, []
        for i in range(a.games // BATCH):
            decks, draws = deal_batch(chunk_seed(entropy, i), BATCH)
            moves = np.empty((BATCH, 18), np.int64)
            keys = np.empty((BATCH, 2, 3), np.int64)
            points = np.empty((BATCH, 2), np.int64)
            shares = np.empty((BATCH, 2))
            play_batch(decks, draws, codes, joker, True, 0, none, none, moves, keys, points, shares)
            sums += shares[:, 0].sum()
            squares += (shares[:, 0] ** 2).sum()
            batch_means.append(shares[:, 0].mean())
        n = BATCH * len(batch_means)
        m = sums / n
        var = squares / n - m * m
        disp = float(((np.array(batch_means) - m) ** 2).sum() / (var / BATCH))
        df = len(batch_means) - 1
        print(f"seed {seed}: {n:,} games, seat 0 wins {100 * m:.3f} ± {196 * np.sqrt(var / n):.3f} % (95%); "
              f"batch dispersion chi-square {disp:.1f} on {df} df, p = {chi2.sf(disp, df):.3f}", flush=True)
        means.append(m)
        ses.append(np.sqrt(var / n))
    w = 1 / np.array(ses) ** 2
    mu = float((w * np.array(means)).sum() / w.sum())
    stat = float((((np.array(means) - mu) / np.array(ses)) ** 2).sum())
    print(f"pooled: {100 * mu:.3f} ± {196 / np.sqrt(w.sum()):.3f} %; seeds agree: chi-square {stat:.2f} on "
          f"{len(means) - 1} df, p = {chi2.sf(stat, len(means) - 1):.3f}")


if __name__ == "__main__":
    main()
