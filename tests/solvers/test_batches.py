"""The game-neutral batch driver (solvers/batches.py): in-order sums, the same for any number of workers."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.errors import RicochetError
from ricochet_math.solvers.batches import run_batches


def _play(seed, length):
    rng = np.random.default_rng(seed)
    x = rng.random(length)
    return {"n": np.array([length]), "sum": np.array([x.sum()]), "sum_sq": np.array([(x * x).sum()]),
            "hist": np.bincount(rng.integers(0, 6, length), minlength=6)}


def test_same_sums_for_any_workers_and_counts_every_game():
    runs = [run_batches(_play, 10_007, seed=11, batch_size=1_000, workers=w) for w in (1, 2, 3)]
    for r in runs[1:]:
        for k in runs[0].sums:
            assert runs[0].sums[k].tobytes() == r.sums[k].tobytes(), k
    assert runs[0].sums["n"][0] == 10_007 and runs[0].sums["hist"].sum() == 10_007
    # uniform mean 1/2: within 4 standard errors (sd 1/sqrt(12))
    assert abs(runs[0].sums["sum"][0] / 10_007 - 0.5) < 4 * (1 / 12) ** 0.5 / 10_007 ** 0.5
    assert runs[0].seed == 11 and runs[0].batch_size == 1_000 and runs[0].games == 10_007


def test_seed_and_batch_size_decide_the_games():
    a = run_batches(_play, 5_000, seed=3, batch_size=500)
    b = run_batches(_play, 5_000, seed=4, batch_size=500)
    assert a.sums["sum"][0] != b.sums["sum"][0]


@pytest.mark.parametrize("kw", [{"games": 0}, {"games": 1.5}, {"batch_size": 0}, {"seed": -1}, {"workers": 0}])
def test_bad_arguments_are_refused(kw):
    args = {"games": 10, "seed": 1} | kw
    with pytest.raises(RicochetError):
        run_batches(_play, **args)
