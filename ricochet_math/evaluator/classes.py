"""The 169 two-card starting-hand classes: the one list every layer uses.

A class is a pair, a suited or an offsuit combination of two ranks; the
1,326 two-card hands fall into 13 pairs (6 hands each), 78 suited classes (4)
and 78 offsuit classes (12).  Order (the solo analysis', its tables' and the
control variates'): high rank down from the ace, then low rank down from the
high rank, suited before offsuit, a pair where the ranks meet: ``AA, AKs, AKo,
..., 32o, 22``.  Displays that want another order (the side bets list pairs
first) sort this list; they do not build their own.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ricochet_math.evaluator.cards import RANKS

__all__ = ["N_CLASSES", "player_classes", "class_index_table", "class_of"]

N_CLASSES = 169


@lru_cache(maxsize=1)
def _classes() -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    reps, weights, labels = [], [], []
    for hi in range(12, -1, -1):
        for lo in range(hi, -1, -1):
            if hi == lo:  # clubs + diamonds
                reps.append((hi * 4, lo * 4 + 1)); weights.append(6); labels.append(RANKS[hi] * 2)
            else:  # suited: both clubs; offsuit: high card clubs, low card diamonds
                reps.append((hi * 4, lo * 4)); weights.append(4); labels.append(RANKS[hi] + RANKS[lo] + "s")
                reps.append((hi * 4, lo * 4 + 1)); weights.append(12); labels.append(RANKS[hi] + RANKS[lo] + "o")
    return np.array(reps, dtype=np.int64), np.array(weights, dtype=np.int64), tuple(labels)


def player_classes() -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The 169 classes: representative kernel cards ``int64[169, 2]``, weights ``int64[169]``
    (hands per class, summing to 1,326) and labels (``AA``, ``AKs``, ``AKo`` ...)."""
    reps, weights, labels = _classes()
    return reps.copy(), weights.copy(), list(labels)  # copies: callers may edit theirs


def class_of(a: int, b: int) -> int:
    """Class index (0..168) of two distinct kernel cards, in either order."""
    hi, lo = max(a, b) >> 2, min(a, b) >> 2
    if hi == lo:
        base = _row_start(hi)
        return base + 2 * (hi - lo)
    return _row_start(hi) + 2 * (hi - lo) - 1 + (0 if (a & 3) == (b & 3) else 1)


def _row_start(hi: int) -> int:
    """Index of the pair ``hi hi``'s row start: the rows above hold 2*(12-h)+1 classes each."""
    return sum(2 * h + 1 for h in range(12, hi, -1))


@lru_cache(maxsize=1)
def class_index_table() -> np.ndarray:
    """``int64[52 * 52]``: the class of cards ``a, b`` at ``a * 52 + b`` (-1 when ``a == b``);
    a lookup for kernels (shared: do not write into it)."""
    out = np.full(52 * 52, -1, dtype=np.int64)
    for a in range(52):
        for b in range(52):
            if a != b:
                out[a * 52 + b] = class_of(a, b)
    return out
