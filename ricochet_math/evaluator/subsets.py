"""Stepping through the r-subsets of n items in lexicographic order, inside numba kernels.

A kernel that enumerates every way to complete a hand (every draw of a video-poker hold, every finish of a
Free Ride plan, every completion of an opponent's cards) keeps ``idx[:r]``, increasing indices below ``n``,
starts at ``0, 1, ..., r - 1`` and calls :func:`next_subset` after each subset: the order is
``itertools.combinations(range(n), r)``'s (tested against it).
"""
from __future__ import annotations

from ricochet_math._numba import njit

__all__ = ["next_subset"]


@njit(inline="always")
def next_subset(idx, r, n):
    """Advance ``idx[:r]`` to the next r-subset of ``range(n)`` in lexicographic order; False (``idx``
    unchanged) after the last one.  ``r = 0`` has one subset, the empty one."""
    i = r - 1
    while i >= 0 and idx[i] == n - r + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, r):
        idx[j] = idx[j - 1] + 1
    return True
