"""A seat's three-card draw from the cards nobody has seen: the distributions every policy and control reads.

A table's unseen cards are a ``uint8[52]`` mask (1 = the card may still be
drawn); :func:`unseen_cards` lists them, in card order, for the draw
enumerations (all ``C(n, 3)`` draws, :func:`ricochet_math.evaluator.evaluation.draw_histogram`).
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.evaluation import NUM_VALUES, draw_histogram

__all__ = ["unseen_cards", "final_distribution", "expected_bonus"]


@njit
def unseen_cards(mask):
    """The cards flagged 1 in ``mask`` (``uint8[52]``), ascending: ``int64[k]``."""
    n = 0
    for c in range(52):
        if mask[c]:
            n += 1
    out = np.empty(n, dtype=np.int64)
    n = 0
    for c in range(52):
        if mask[c]:
            out[n] = c
            n += 1
    return out


@njit
def final_distribution(c0, c1, cards):
    """Histogram (float64[7462], sums to 1) of the final value of hole cards
    ``c0, c1`` plus three cards drawn from ``cards`` (all C(n,3) draws)."""
    h = np.zeros(NUM_VALUES, dtype=np.float64)
    cnt = draw_histogram(c0, c1, cards, h)
    if cnt > 0:
        h /= cnt
    return h


@njit
def expected_bonus(h, bonus_by_value):
    """The bonus (ante units) expected from a final-value distribution ``h``."""
    b = 0.0
    for v in range(NUM_VALUES):
        if h[v] > 0.0:
            b += h[v] * bonus_by_value[v]
    return b
