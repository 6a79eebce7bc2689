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

from collections import namedtuple

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from ricochet_math._numba import njit
from ricochet_math.evaluator.evaluation import (
    FLUSH_VALUES, FLUSHES_BY_VALUE, HOLE_PAIR, MAX_DRAW_ENTRIES, MULTISET_RANKS, MULTISET_VALUES, MULTISETS_BY_VALUE,
    NUM_VALUES, draw_counts, draw_histogram,
)

__all__ = ["unseen_cards", "final_distribution", "expected_bonus", "table_draws",
           "table_rows", "RowWorkspace", "row_workspace", "count_rows", "rows_union", "sorted_counts"]

#: The 16 slots of :func:`row_workspace`, declared once and read by name (``ws.sums``, ``ws.first``, ...):
#: ``total`` draws C(n, 3); per multiset of three ranks ``ways``, ``suited`` (a 4-bit suit mask),
#: ``p_ways`` and ``absent`` (those with no way to be drawn); per seat ``row_values``/``prob`` (its row),
#: ``length``, ``sums`` (expected bonus, mass below the grid) and ``first`` (first entry on the grid);
#: scratch ``plain_values``, ``plain_probs``, ``flush_values``, ``seat_bits``, ``p_count``; the union's
#: bitmap ``union``.  A namedtuple: numba reads it as the tuple it was, slot by slot (the arithmetic is unchanged).
RowWorkspace = namedtuple("RowWorkspace", ("total", "ways", "suited", "p_ways", "row_values", "prob", "length",
                                           "plain_values", "plain_probs", "flush_values", "union", "absent",
                                           "seat_bits", "p_count", "sums", "first"))

_WORDS = (NUM_VALUES + 31) // 32  # a set of values as a bitmap of 32-bit words (in int64)
_WORDS64 = (NUM_VALUES + 63) // 64  # ... of 64-bit words (int64; trailing_zeros finds the lowest set bit)


def _multiset_parts():
    """Each rank multiset (:data:`~ricochet_math.evaluator.evaluation.MULTISET_RANKS`) as three
    (rank, how many) parts, ``4 rank + how many``, so that its ways are ``C(a, e1) C(a', e2) C(a'', e3)``
    without a branch (a part of 0 cards counts 1), and whether its three ranks are distinct (it can
    make a flush)."""
    parts = np.zeros((MULTISET_RANKS.shape[0], 6), dtype=np.int64)
    for m, (r1, r2, r3) in enumerate(MULTISET_RANKS):
        if r1 == r3:
            parts[m] = (r1, 3, r1, 0, r1, 0)
        elif r1 == r2:
            parts[m] = (r1, 2, r3, 1, r3, 0)
        elif r2 == r3:
            parts[m] = (r1, 1, r2, 2, r2, 0)
        else:
            parts[m] = (r1, 1, r2, 1, r3, 1)
    distinct = ((MULTISET_RANKS[:, 0] < MULTISET_RANKS[:, 1])
                & (MULTISET_RANKS[:, 1] < MULTISET_RANKS[:, 2])).astype(np.int64)
    # (rank, how many) as one index 4 rank + how many, into a table's C(a, e) by rank
    return parts[:, 0::2] * 4 + parts[:, 1::2], distinct


_PARTS, _DISTINCT = _multiset_parts()


def _pair_bits():
    """Per pair of hole ranks: the bitmap (64-bit words) of the values its multisets give, and the
    value of each multiset (-1 where it cannot be dealt)."""
    value_of = np.full(MULTISETS_BY_VALUE.shape, -1, dtype=np.int64)
    bits = np.zeros((MULTISETS_BY_VALUE.shape[0], _WORDS64), dtype=np.uint64)
    for p in range(MULTISETS_BY_VALUE.shape[0]):
        value_of[p, MULTISETS_BY_VALUE[p]] = MULTISET_VALUES[p]
        v = MULTISET_VALUES[p][MULTISET_VALUES[p] >= 0].astype(np.int64)
        np.bitwise_or.at(bits[p], v >> 6, np.left_shift(np.uint64(1), (v & 63).astype(np.uint64)))
    return bits.view(np.int64), value_of


#: a seat's values without a suit: its pair's bitmap less the values of the multisets the table cannot deal
_PAIR_BITS, _VALUE_OF = _pair_bits()
#: C(a, e) for the a <= 4 cards of a rank, e <= 3
_CHOOSE = np.array([[1, a, a * (a - 1) // 2, a * (a - 1) * (a - 2) // 6] for a in range(5)], dtype=np.int64)
_MAX_WAYS = 64  # the most ways to draw one multiset of ranks: 4 x 4 x 4
_UNION_LANES = 4  # the union's bitmap in four copies, OR-ed at the end: consecutive entries update
#                   different copies, so one update need not wait for the last (the rows ascend)
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
    words = np.zeros(_WORDS, dtype=np.int64)
    for k in range(n_seats):
        s = seats[k]
        e, total = draw_counts(hole[s, 0], hole[s, 1], cards, vals[k], counts[k])
        entries[k] = e
        totals[k] = total
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
def table_rows(hole, seats, cards, extra_value):
    """:func:`table_draws` as compact rows: ``(values, index, prob, length)`` with ``values`` the
    same ascending union (int64[U]) and, for seat ``k``, ``index[k, :length[k]]`` (int32) the
    indices into ``values`` of the values it reaches, ascending, and ``prob[k, :length[k]]``
    their probabilities: ``probs[k, index[k, j]] == prob[k, j]`` bit for bit, and the other
    entries of ``probs[k]`` are 0."""
    n_seats = seats.shape[0]
    ws = row_workspace(cards, n_seats)
    count_rows(hole, seats, 0, n_seats, ws, np.zeros(NUM_VALUES), 0)
    return rows_union(ws, n_seats, extra_value)


@njit
def row_workspace(cards, n_seats):
    """What :func:`count_rows` and :func:`rows_union` share for ``n_seats`` seats drawing three of
    ``cards``: the number of draws ``C(n, 3)``, the ways to draw each multiset of three ranks
    (:data:`~ricochet_math.evaluator.evaluation.MULTISET_RANKS`: ``a1 a2 a3``, ``C(a, 2) a'`` or
    ``C(a, 3)`` from the ``a`` cards of each rank in ``cards``, as
    :func:`~ricochet_math.evaluator.evaluation.draw_counts` counts them), for three distinct
    ranks the suits of which all three cards are in ``cards`` (a 4-bit mask), the rows, scratch
    space and the union's bitmap."""
    n_multisets = MULTISET_RANKS.shape[0]
    n_flushes = FLUSHES_BY_VALUE.shape[1]
    # two allocations, cut into the arrays (the first ones zeroed)
    n_zero = 26 + 2 * n_seats + _UNION_LANES * _WORDS64
    ints = np.empty(n_zero + 52 + 4 * n_multisets + n_flushes + 2 + _WORDS64 + n_seats * MAX_DRAW_ENTRIES,
                    dtype=np.int64)
    ints[:n_zero] = 0
    avail = ints[0:13]
    suits = ints[13:26]
    length = ints[26:26 + n_seats]
    first = ints[26 + n_seats:26 + 2 * n_seats]  # each row's first entry at or above lo
    union = ints[26 + 2 * n_seats:n_zero].reshape((_UNION_LANES, _WORDS64))
    choose = ints[n_zero:n_zero + 52]  # C(a, e) of this table, by 4 rank + e
    o = n_zero + 52
    ways = ints[o:o + n_multisets]
    suited = ints[o + n_multisets:o + 2 * n_multisets]
    plain_values = ints[o + 2 * n_multisets:o + 3 * n_multisets + 1]  # a suited seat's two runs, merged
    o += 3 * n_multisets + 1
    flush_values = ints[o:o + n_flushes + 1]
    o += n_flushes + 1
    absent = ints[o:o + n_multisets]  # the multisets with no way to be drawn
    seat_bits = ints[o + n_multisets:o + n_multisets + _WORDS64]
    row_values = ints[o + n_multisets + _WORDS64:].reshape((n_seats, MAX_DRAW_ENTRIES))
    floats = np.empty(_MAX_WAYS + 1 + 2 * n_multisets + 2 * n_seats + n_seats * MAX_DRAW_ENTRIES, dtype=np.float64)
    p_count = floats[0:_MAX_WAYS + 1]
    p_ways = floats[_MAX_WAYS + 1:_MAX_WAYS + 1 + n_multisets]
    plain_probs = floats[_MAX_WAYS + 1 + n_multisets:_MAX_WAYS + 1 + 2 * n_multisets]
    o = _MAX_WAYS + 1 + 2 * n_multisets
    sums = floats[o:o + 2 * n_seats].reshape((2, n_seats))  # each row's expected bonus and mass below lo
    sums[:] = 0.0
    prob = floats[o + 2 * n_seats:].reshape((n_seats, MAX_DRAW_ENTRIES))
    n = cards.shape[0]
    for i in range(n):
        c = cards[i]
        avail[c >> 2] += 1
        suits[c >> 2] |= 1 << (c & 3)
    for i in range(52):
        choose[i] = _CHOOSE[avail[i >> 2], i & 3]
    for m in range(n_multisets):  # branch-free
        i1 = _PARTS[m, 0]
        i2 = _PARTS[m, 1]
        i3 = _PARTS[m, 2]
        ways[m] = choose[i1] * choose[i2] * choose[i3]
        suited[m] = (suits[i1 >> 2] & suits[i2 >> 2] & suits[i3 >> 2]) * _DISTINCT[m]
    total = n * (n - 1) * (n - 2) // 6
    # a multiset is drawn in at most 4 x 4 x 4 ways: count / C(n, 3) for each count, divided once per
    # table (the same division as per entry: the same bits)
    if total > 0:
        for w in range(_MAX_WAYS + 1):
            p_count[w] = w / total
        for m in range(n_multisets):
            p_ways[m] = p_count[ways[m]]
    n_absent = 0
    for m in range(n_multisets):
        absent[n_absent] = m
        n_absent += 1 if ways[m] == 0 else 0
    return RowWorkspace(total, ways, suited, p_ways, row_values, prob, length, plain_values, plain_probs,
                        flush_values, union, absent[:n_absent], seat_bits, p_count, sums, first)


@njit
def count_rows(hole, seats, start, stop, ws, bonus_by_value, lo):
    """Seats ``start..stop-1`` of ``seats``: each seat's final values ascending in
    ``row_values[k, :length[k]]`` and their probabilities ``count / C(n, 3)`` in ``prob[k]``
    (``ws`` from :func:`row_workspace`), and its values added to the union's bitmap; and, summed
    as the row is written, its expected bonus (``bonus_by_value``, float64[7462]) in
    ``sums[0, k]``, its mass below value ``lo`` in ``sums[1, k]`` and its number of entries below
    ``lo`` in ``first[k]``: each a sum over the row's entries in ascending value order, as over
    the dense histogram (a term ``h * 0`` adds exactly 0 and is left out; no sum is ever -0).

    The counts are those of :func:`~ricochet_math.evaluator.evaluation.draw_counts` (a multiset's
    ways; with suited hole cards less the one draw of three more cards of their suit, which is
    entered at its flush value with count 1), and they come out in value order without sorting:
    the multisets are read in the order of the values they give to the seat's hole ranks
    (:data:`~ricochet_math.evaluator.evaluation.MULTISETS_BY_VALUE`, the multisets the seat cannot
    draw skipped), and a suited seat's flushes, in their own value order, are merged in."""
    (total, ways, suited, p_ways, row_values, prob, length, plain_values, plain_probs, flush_values, union,
     absent, seat_bits, p_count, sums, first) = ws
    if total == 0:
        return  # no three cards to draw: every row is empty
    n_multisets = ways.shape[0]
    for k in range(start, stop):
        c0 = hole[seats[k], 0]
        c1 = hole[seats[k], 1]
        p = HOLE_PAIR[c0 >> 2, c1 >> 2]
        rv = row_values[k]
        pr = prob[k]
        n = 0
        if (c0 & 3) != (c1 & 3):
            b = 0.0
            for t in range(n_multisets):  # branch-free: write every entry, keep those that can be drawn
                m = MULTISETS_BY_VALUE[p, t]
                v = MULTISET_VALUES[p, t]
                q = p_ways[m]
                rv[n] = v
                pr[n] = q
                keep = ways[m] > 0
                n += 1 if keep else 0
                bv = bonus_by_value[v]
                if keep and bv != 0.0:
                    b += q * bv
            # its values into the union: the pair's bitmap less the multisets the table cannot deal
            for w in range(_WORDS64):
                seat_bits[w] = _PAIR_BITS[p, w]
            for i in range(absent.shape[0]):
                v = _VALUE_OF[p, absent[i]]
                if v >= 0:
                    seat_bits[v >> 6] &= ~(np.int64(1) << (v & 63))
            for w in range(_WORDS64):
                union[0, w] |= seat_bits[w]
        else:
            st = c0 & 3
            n_plain = 0
            for t in range(n_multisets):
                m = MULTISETS_BY_VALUE[p, t]
                fl = (suited[m] >> st) & 1
                w = ways[m] - fl  # the suited draw of three ranks is a flush
                plain_values[n_plain] = MULTISET_VALUES[p, t]
                plain_probs[n_plain] = p_count[max(w, 0)]
                n_plain += 1 if w > 0 else 0
            n_flush = 0
            for t in range(FLUSHES_BY_VALUE.shape[1]):
                flush_values[n_flush] = FLUSH_VALUES[p, t]
                n_flush += (suited[FLUSHES_BY_VALUE[p, t]] >> st) & 1
            # the two ascending runs merged (no value is in both), branch-free; each run ends in a value
            # above every other
            plain_values[n_plain] = NUM_VALUES
            flush_values[n_flush] = NUM_VALUES
            p_flush = p_count[1]
            i = 0
            j = 0
            for n in range(n_plain + n_flush):
                a = plain_values[i]
                b = flush_values[j]
                pa = plain_probs[i]
                take = a < b
                rv[n] = a if take else b
                pr[n] = pa if take else p_flush
                i += 1 if take else 0
                j += 0 if take else 1
            n = n_plain + n_flush
            b = 0.0
            for j in range(n):
                v = rv[j]
                union[j & (_UNION_LANES - 1), v >> 6] |= np.int64(1) << (v & 63)
                bv = bonus_by_value[v]
                if bv != 0.0:
                    b += pr[j] * bv
        length[k] = n
        sums[0, k] = b
        lk = 0.0
        j = 0
        while j < n and rv[j] < lo:
            lk += pr[j]
            j += 1
        sums[1, k] = lk
        first[k] = j


@njit
def rows_union(ws, n_seats, extra_value, lo=0):
    """``(values, index, prob, length)`` of :func:`table_rows` from the rows :func:`count_rows`
    wrote: the union of their values from ``lo`` up (and ``extra_value`` when >= ``lo``),
    ascending, and each row's values from ``lo`` up as indices into it (``index[k, j]`` for ``j >=
    first[k]``, the row's first entry at or above the ``lo`` that :func:`count_rows` was given,
    which must be this one; the entries below are not set)."""
    (total, ways, suited, p_ways, row_values, prob, length, plain_values, plain_probs, flush_values, union,
     absent, seat_bits, p_count, sums, first) = ws
    if extra_value >= 0:
        union[0, extra_value >> 6] |= np.int64(1) << (extra_value & 63)
    for lane in range(1, _UNION_LANES):
        for w in range(_WORDS64):
            union[0, w] |= union[lane, w]
    if lo > 0:  # the values below lo left out
        for w in range(lo >> 6):
            union[0, w] = 0
        union[0, lo >> 6] &= -(np.int64(1) << (lo & 63))
    n_entries = 1
    for k in range(n_seats):
        n_entries += length[k]
    values = np.empty(min(n_entries, NUM_VALUES), dtype=np.int64)  # the union's size at most
    where = np.empty(NUM_VALUES, dtype=np.int32)  # value -> index in values (read only at those values)
    u = 0
    for w in range(_WORDS64):
        x = union[0, w]
        while x != 0:
            v = (w << 6) + trailing_zeros(x)
            values[u] = v
            where[v] = u
            u += 1
            x &= x - 1
    index = np.empty((n_seats, MAX_DRAW_ENTRIES), dtype=np.int32)
    for k in range(n_seats):
        for j in range(first[k] if lo > 0 else 0, length[k]):
            index[k, j] = where[row_values[k, j]]
    return values[:u], index, prob, length


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
