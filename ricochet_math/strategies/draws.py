"""A seat's three-card draw from the cards nobody has seen: the distributions every policy and control reads.

A table's unseen cards are a ``uint8[52]`` mask (1 = the card may still be
drawn); :func:`unseen_cards` lists them, in card order, for the draw
enumerations (all ``C(n, 3)`` draws, counted by the ranks drawn:
:func:`ricochet_math.evaluator.evaluation.draw_counts`).

:func:`table_draws` gives several seats' final-value distributions at once,
sparse: over the ascending union of the values any of them can reach (a few
hundred to two thousand of the 7,462), which is all the look-ahead reads.
Every probability is ``count / C(n, 3)`` and every sum over values runs in
ascending value order, as over the dense histograms of :func:`final_distribution`,
so the figures are the same to the last bit (the values outside the union add 0).
:func:`table_rows` gives the same numbers as one compact row per seat (its own
values only, ascending), for the perfect-play look-ahead, which reads each seat's
few hundred values instead of scanning the union once per seat.
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.evaluation import MAX_DRAW_ENTRIES, NUM_VALUES, draw_counts, draw_histogram

__all__ = ["unseen_cards", "final_distribution", "expected_bonus", "table_draws", "table_draws_from",
           "table_rows", "table_rows_from", "sorted_counts"]

_WORDS = (NUM_VALUES + 31) // 32  # a set of values as a bitmap of 32-bit words (in int64)
# de Bruijn sequence: the index of a word's lowest set bit from one multiply and one lookup
_DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
                      31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], dtype=np.int64)


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


@njit
def table_draws(hole, seats, cards, extra_value):
    """The final-value distributions of ``seats`` (int64[S], rows of ``hole``) drawing three of
    ``cards``, sparse: ``(values, probs)`` with ``values`` int64[U] the ascending union of the
    values any of them reaches (and ``extra_value`` when >= 0) and ``probs[k, i]`` float64[S, U]
    the probability that seat ``seats[k]`` ends at ``values[i]`` (0 where it cannot).

    ``probs[k, i]`` is ``final_distribution(...)[values[i]]`` bit for bit (the same count over
    the same number of draws), and a sum over ``i`` ascending equals the dense sum over all
    values ascending (the values left out are those of probability 0)."""
    n_seats = seats.shape[0]
    vals = np.empty((n_seats, MAX_DRAW_ENTRIES), dtype=np.int64)
    counts = np.empty((n_seats, MAX_DRAW_ENTRIES), dtype=np.float64)
    entries = np.empty(n_seats, dtype=np.int64)
    totals = np.empty(n_seats, dtype=np.int64)
    return table_draws_from(hole, seats, cards, extra_value, vals, counts, entries, totals, 0)


@njit
def table_draws_from(hole, seats, cards, extra_value, vals, counts, entries, totals, first):
    """:func:`table_draws` with the draws of the first ``first`` seats already counted by
    :func:`~ricochet_math.evaluator.evaluation.draw_counts` into ``vals[k]``, ``counts[k]`` (its
    entries), ``entries[k]`` and ``totals[k]`` (its return values); the other seats' rows are
    filled here.  The same numbers as :func:`table_draws`, for a caller that has read one seat's
    draws before deciding whether it needs the others'."""
    n_seats = seats.shape[0]
    words = np.zeros(_WORDS, dtype=np.int64)
    for k in range(n_seats):
        if k >= first:
            s = seats[k]
            e, total = draw_counts(hole[s, 0], hole[s, 1], cards, vals[k], counts[k])
            entries[k] = e
            totals[k] = total
        e = entries[k]
        for i in range(e):
            v = vals[k, i]
            words[v >> 5] |= 1 << (v & 31)
    if extra_value >= 0:
        words[extra_value >> 5] |= 1 << (extra_value & 31)
    u = 0
    values = np.empty(n_seats * MAX_DRAW_ENTRIES + 1, dtype=np.int64)
    for w in range(_WORDS):
        x = words[w]
        while x != 0:
            low = x & -x
            values[u] = 32 * w + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
            u += 1
            x ^= low
    where = np.empty(NUM_VALUES, dtype=np.int32)  # value -> index in values (read only at those values)
    for i in range(u):
        where[values[i]] = i
    probs = np.zeros((n_seats, u), dtype=np.float64)
    for k in range(n_seats):
        total = totals[k]
        for i in range(entries[k]):
            c = counts[k, i]
            probs[k, where[vals[k, i]]] = c / total if total > 0 else c
    return values[:u].copy(), probs


@njit
def _union(vals, entries, n_seats, extra_value):
    """The ascending union of the first ``entries[k]`` values of ``vals[k]`` for every seat
    (and ``extra_value`` when >= 0), from a bitmap of the 7,462 values."""
    words = np.zeros(_WORDS, dtype=np.int64)
    for k in range(n_seats):
        for i in range(entries[k]):
            v = vals[k, i]
            words[v >> 5] |= 1 << (v & 31)
    if extra_value >= 0:
        words[extra_value >> 5] |= 1 << (extra_value & 31)
    u = 0
    values = np.empty(n_seats * MAX_DRAW_ENTRIES + 1, dtype=np.int64)
    for w in range(_WORDS):
        x = words[w]
        while x != 0:
            low = x & -x
            values[u] = 32 * w + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
            u += 1
            x ^= low
    return values[:u]


@njit
def table_rows(hole, seats, cards, extra_value):
    """:func:`table_draws` as compact rows: ``(values, index, prob, length)`` with ``values`` the
    same ascending union (int64[U]) and, for seat ``k``, ``index[k, :length[k]]`` (int64) the
    indices into ``values`` of the values it reaches, ascending, and ``prob[k, :length[k]]``
    their probabilities: ``probs[k, index[k, j]] == prob[k, j]`` bit for bit, and the other
    entries of ``probs[k]`` are 0."""
    n_seats = seats.shape[0]
    vals = np.empty((n_seats, MAX_DRAW_ENTRIES), dtype=np.int64)
    counts = np.empty((n_seats, MAX_DRAW_ENTRIES), dtype=np.float64)
    entries = np.empty(n_seats, dtype=np.int64)
    totals = np.empty(n_seats, dtype=np.int64)
    return table_rows_from(hole, seats, cards, extra_value, vals, counts, entries, totals, 0)


@njit
def table_rows_from(hole, seats, cards, extra_value, vals, counts, entries, totals, first):
    """:func:`table_rows` with the first ``first`` seats' draws already counted (as for
    :func:`table_draws_from`).  Each row is put in value order by a bitmap over the union's
    indices (a few dozen words a seat) instead of a dense seats x values matrix."""
    n_seats = seats.shape[0]
    for k in range(first, n_seats):
        s = seats[k]
        e, total = draw_counts(hole[s, 0], hole[s, 1], cards, vals[k], counts[k])
        entries[k] = e
        totals[k] = total
    values = _union(vals, entries, n_seats, extra_value)
    u = values.shape[0]
    where = np.empty(NUM_VALUES, dtype=np.int64)  # value -> index in values (read only at those values)
    for i in range(u):
        where[values[i]] = i
    n_words = (u + 31) >> 5
    bits = np.empty(n_words, dtype=np.int64)
    pbuf = np.empty(u, dtype=np.float64)  # index -> the seat's probability (read only at its indices)
    index = np.empty((n_seats, MAX_DRAW_ENTRIES), dtype=np.int64)
    prob = np.empty((n_seats, MAX_DRAW_ENTRIES), dtype=np.float64)
    length = np.empty(n_seats, dtype=np.int64)
    for k in range(n_seats):
        total = totals[k]
        bits[:] = 0
        for i in range(entries[k]):
            j = where[vals[k, i]]
            bits[j >> 5] |= 1 << (j & 31)
            c = counts[k, i]
            pbuf[j] = c / total if total > 0 else c
        n = 0
        for w in range(n_words):
            x = bits[w]
            while x != 0:
                low = x & -x
                j = 32 * w + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
                index[k, n] = j
                prob[k, n] = pbuf[j]
                n += 1
                x ^= low
        length[k] = n
    return values, index, prob, length


@njit
def sorted_counts(c0, c1, cards):
    """One seat's draws as ``(values, counts, draws)``: the values hole cards ``c0, c1`` reach with
    three of ``cards``, ascending (int64), how many draws reach each (float64, whole numbers) and
    ``C(n, 3)``: the nonzero entries of :func:`~ricochet_math.evaluator.evaluation.draw_histogram`
    in value order, so sums over them equal the dense sums to the last bit."""
    vals = np.empty(MAX_DRAW_ENTRIES, dtype=np.int64)
    counts = np.empty(MAX_DRAW_ENTRIES, dtype=np.float64)
    e, total = draw_counts(c0, c1, cards, vals, counts)
    words = np.zeros(_WORDS, dtype=np.int64)
    where = np.empty(NUM_VALUES, dtype=np.float64)  # value -> its count (read only at those values)
    for i in range(e):
        v = vals[i]
        words[v >> 5] |= 1 << (v & 31)
        where[v] = counts[i]
    values = np.empty(e, dtype=np.int64)
    out = np.empty(e, dtype=np.float64)
    u = 0
    for w in range(_WORDS):
        x = words[w]
        while x != 0:
            low = x & -x
            v = 32 * w + _DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]
            values[u] = v
            out[u] = where[v]
            u += 1
            x ^= low
    return values, out, total
