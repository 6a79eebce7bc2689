"""evaluator.subsets.next_subset steps through the r-subsets in itertools.combinations' order."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from ricochet_math._numba import njit
from ricochet_math.evaluator.subsets import next_subset


@njit
def _all_subsets(r, n):
    out = []
    idx = np.arange(max(r, 1), dtype=np.int64)
    while True:
        out.append(idx[:r].copy())
        if not next_subset(idx, r, n):
            break
    return out


@pytest.mark.parametrize("r, n", [(0, 5), (1, 4), (2, 5), (3, 7), (5, 5), (4, 9)])
def test_next_subset_lists_every_combination_once_in_order(r, n):
    got = [tuple(int(x) for x in s) for s in _all_subsets(r, n)]
    assert got == list(combinations(range(n), r))
