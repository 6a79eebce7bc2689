"""Hand evaluation: numba kernels over the lookup tables, and their readable twins.

Values
------
* **Five to seven cards** -> the dense value ``0..7461`` of the best five-card
  hand (higher is better).  :func:`eval5`, :func:`eval6`, :func:`eval7` are
  scalar ``njit`` functions other kernels call: **unchecked** (a card outside
  0..51 or a repeated card reads outside the tables), so not in ``__all__``;
  :func:`evaluate` is the checked batched entry point for numpy arrays;
  :func:`hand_value` reads card text or cards, checked.
* **Partial hands of one to five cards** -> :func:`partial_key`, one integer
  comparable across sizes, implementing the rulebook's kicker rule ("an Ace-8
  is higher than Ace alone"): category first (straights and flushes exist only
  with five cards), then the ranked cards; a hand whose ranked cards are the
  start of another's is lower.  So a two-card pair of aces is below a five-card
  pair of aces with kickers.
* **Order of play** -> :func:`order_key`: the two-card key with the suit
  tie-break of the casino rules (suit of the higher card; for a pair, the higher
  of the two suits; clubs < diamonds < hearts < spades).  Lowest acts first.

The names of values and the hand patterns (``describe``, ``pattern_value``)
live in :mod:`ricochet_math.evaluator.names`.

Every kernel has a slow readable twin (``reference_*``) built on
:func:`ricochet_math.evaluator.tables.classify`; the tests check them against each other.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from ricochet_math._numba import njit, pnjit, prange
from ricochet_math.errors import CardError
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.evaluator.tables import (
    CATEGORY_NAMES, FLUSH_INIT, FLUSH_TEST, FOUR_OF_A_KIND, HASH_MASK, HASH_SHIFT, HIGH_CARD, KEY_SHIFT,
    NUM_VALUES, PAIR, ROYAL_FLUSH_VALUE, SUIT_LANE, THREE_OF_A_KIND, TWO_PAIR, class_values, classify,
    hand_classes, load_tables,
)

# The checked entry points only.  The scalar kernels (eval5/6/7, eval_cards, partial_key, order_key,
# category_of, draw_counts, draw_histogram) are for numba callers: they trust their arguments
# (cards 0..51, distinct, values 0..7461) and read their tables without bounds checks, so a bad
# card from Python can crash the process.  Kernels import them by name; Python callers use
# evaluate, hand_value, partial_key_of and order_key_of, which check everything and raise CardError.
__all__ = ["CARD_KEY", "CARD_BIT", "RANK_BIT", "FLUSH_TABLE", "OFFSETS5", "VALUES5", "OFFSETS6", "VALUES6", "OFFSETS7", "VALUES7", "CATEGORY_BY_VALUE", "TOP_RANK", "HASH_USHIFT", "HASH_UMASK", "first_repeat", 
    "NUM_VALUES", "ROYAL_FLUSH_VALUE", "CATEGORY_NAMES",
    "evaluate", "all_five_card_values", "value_counts_5", "hand_value",
    "partial_key_of", "order_key_of", "PARTIAL_BASE",
    "FIVE_CARD_KEY", "TWO_CARD_KEY", "ORDER_KEY",
    "reference_value", "reference_partial_key",
]

_T = load_tables()
# Read by the kernels as compile-time constants (numba freezes global arrays).
CARD_KEY = _T.card_keys    # int64[52]: rank key << KEY_SHIFT | suit counter (tables docstring)
CARD_BIT = _T.card_bits    # int64[52]: rank bit in the card's suit lane
RANK_BIT = np.left_shift(1, np.arange(52, dtype=np.int64) >> 2)  # int64[52]: 1 << rank
FLUSH_TABLE = _T.flush
OFFSETS5, VALUES5 = _T.offsets5, _T.values5
OFFSETS6, VALUES6 = _T.offsets6, _T.values6
OFFSETS7, VALUES7 = _T.offsets7, _T.values7
CATEGORY_BY_VALUE = _T.category
_KSHIFT = KEY_SHIFT
_INIT = FLUSH_INIT
_TEST = FLUSH_TEST
_LANE = SUIT_LANE
_RANK_MASK = (1 << 13) - 1
HASH_USHIFT = np.uint64(HASH_SHIFT)
HASH_UMASK = np.uint64(HASH_MASK)
_CARD_RANK_KEY = _T.rank_keys[np.arange(52) >> 2]  # int64[52]: rank key alone


# --------------------------------------------------------------------------- kernels
# Table indices are cast to unsigned (cards to uint8, hash slots to uint64):
# numba then knows an index is not negative and drops its wrap-around fix-up
# on every load (this alone took seven-card evaluation from about 60 to 150 M/s).
#
# eval5/6/7 are compiled with nogil=False, an exception to _numba.njit's
# default: inside other kernels they are inlined and the flag is irrelevant,
# and called from Python, releasing and retaking the GIL would be about a
# third of the cost of a call.
@njit(inline="always")
def _flush_lane(test):
    """Shift of the suit lane whose counter has reached five (``key & FLUSH_TEST`` != 0)."""
    return _LANE * (((test >> 7) & 1) + 2 * ((test >> 11) & 1) + 3 * ((test >> 15) & 1))


@njit(inline="always", nogil=False)
def eval5(c0, c1, c2, c3, c4):
    """Dense value 0..7461 of five distinct kernel cards (scalar, for njit callers)."""
    c0, c1, c2, c3, c4 = np.uint8(c0), np.uint8(c1), np.uint8(c2), np.uint8(c3), np.uint8(c4)
    k = _INIT + CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4]
    if k & _TEST:
        return np.int64(FLUSH_TABLE[RANK_BIT[c0] | RANK_BIT[c1] | RANK_BIT[c2] | RANK_BIT[c3] | RANK_BIT[c4]])
    s = np.uint64(k >> _KSHIFT)
    return np.int64(VALUES5[np.uint64(OFFSETS5[s >> HASH_USHIFT]) + (s & HASH_UMASK)])


@njit(inline="always", nogil=False)
def eval6(c0, c1, c2, c3, c4, c5):
    """Value of the best five of six distinct cards."""
    c0, c1, c2, c3, c4, c5 = np.uint8(c0), np.uint8(c1), np.uint8(c2), np.uint8(c3), np.uint8(c4), np.uint8(c5)
    k = _INIT + CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3] + CARD_KEY[c4] + CARD_KEY[c5]
    t = k & _TEST
    if t:
        m = CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3] | CARD_BIT[c4] | CARD_BIT[c5]
        return np.int64(FLUSH_TABLE[np.uint64((m >> _flush_lane(t)) & _RANK_MASK)])
    s = np.uint64(k >> _KSHIFT)
    return np.int64(VALUES6[np.uint64(OFFSETS6[s >> HASH_USHIFT]) + (s & HASH_UMASK)])


@njit(inline="always", nogil=False)
def eval7(c0, c1, c2, c3, c4, c5, c6):
    """Value of the best five of seven distinct cards."""
    c0, c1, c2, c3 = np.uint8(c0), np.uint8(c1), np.uint8(c2), np.uint8(c3)
    c4, c5, c6 = np.uint8(c4), np.uint8(c5), np.uint8(c6)
    k = (_INIT + CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3]
         + CARD_KEY[c4] + CARD_KEY[c5] + CARD_KEY[c6])
    t = k & _TEST
    if t:  # about 3% of random hands
        m = (CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3]
             | CARD_BIT[c4] | CARD_BIT[c5] | CARD_BIT[c6])
        return np.int64(FLUSH_TABLE[np.uint64((m >> _flush_lane(t)) & _RANK_MASK)])
    s = np.uint64(k >> _KSHIFT)
    return np.int64(VALUES7[np.uint64(OFFSETS7[s >> HASH_USHIFT]) + (s & HASH_UMASK)])


@njit
def eval_cards(cards):
    """Best-five value of a 1-D array of 5, 6 or 7 distinct cards (-1 for other sizes)."""
    n = cards.shape[0]
    if n == 5:
        return eval5(cards[0], cards[1], cards[2], cards[3], cards[4])
    if n == 6:
        return eval6(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5])
    if n == 7:
        return eval7(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6])
    return -1


@pnjit
def _evaluate_kernel(hands, out):
    """hands: uint8 (n, k) with k in 5..7, cards 0..51; out: int16 (n,)."""
    n, k = hands.shape
    if k == 5:
        for i in prange(n):
            out[i] = eval5(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
    elif k == 6:
        for i in prange(n):
            out[i] = eval6(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4], hands[i, 5])
    else:
        for i in prange(n):
            out[i] = eval7(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4], hands[i, 5],
                           hands[i, 6])


@njit
def _evaluate_serial(hands, out):
    """Single-threaded twin of :func:`_evaluate_kernel` (same arguments)."""
    n, k = hands.shape
    if k == 5:
        for i in range(n):
            out[i] = eval5(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4])
    elif k == 6:
        for i in range(n):
            out[i] = eval6(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4], hands[i, 5])
    else:
        for i in range(n):
            out[i] = eval7(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4], hands[i, 5],
                           hands[i, 6])


@njit
def first_repeat(hands):
    """Index of the first row of ``hands`` (integer cards 0..63: the 52 and the jokers) holding a card
    twice, or -1."""
    for i in range(hands.shape[0]):
        seen = np.uint64(0)
        for j in range(hands.shape[1]):
            bit = np.uint64(1) << np.uint64(hands[i, j])
            if seen & bit:
                return i
            seen |= bit
    return -1


# Below this many hands a thread pool costs more than it saves.
_PARALLEL_MIN_HANDS = 50_000


def evaluate(hands, *, parallel: bool = True) -> np.ndarray:
    """Values of a batch of hands: an ``(n, k)`` integer array, ``k`` in 5..7 -> ``int16 (n,)``.

    Cards are kernel integers 0..51, distinct within a row (both checked: a
    :class:`~ricochet_math.errors.CardError` names the first bad row; the
    check costs about a nanosecond a card).  Any integer dtype is accepted
    (``bool`` is not); ``int8``/``uint8`` (what :mod:`ricochet_math.evaluator.cards`
    produces) is read in place, others are converted once.  ``parallel`` uses
    all cores for large batches.
    """
    hands = np.asarray(hands)
    if hands.ndim == 1:
        hands = hands[None, :]
    if hands.ndim != 2 or hands.shape[1] not in (5, 6, 7):
        raise CardError(f"evaluate needs an (n, 5..7) array of cards, got shape {hands.shape}")
    if hands.dtype.kind not in "iu":
        raise CardError(f"evaluate needs integer cards, got dtype {hands.dtype}")
    if hands.dtype.itemsize == 1:
        cards = np.ascontiguousarray(hands).view(np.uint8)  # negative int8 reads as >= 128
        if cards.size and cards.max() > 51:
            raise CardError("card numbers must be in 0..51")
    else:
        if hands.size and (hands.min() < 0 or hands.max() > 51):
            raise CardError("card numbers must be in 0..51")
        cards = np.ascontiguousarray(hands, dtype=np.uint8)
    bad = first_repeat(cards)
    if bad >= 0:
        raise CardError(f"row {bad} of the hands repeats a card: {' '.join(map(str, cards[bad]))}")
    out = np.empty(cards.shape[0], dtype=np.int16)
    if parallel and cards.shape[0] >= _PARALLEL_MIN_HANDS:
        _evaluate_kernel(cards, out)
    else:
        _evaluate_serial(cards, out)
    return out


@njit
def _all_five_kernel(out):
    """Values of all C(52,5) hands in lexicographic order of (c0<c1<c2<c3<c4).

    Incremental: the rank-key sum, the rank bits and the "one suit so far" flag
    of the first four cards are carried down the loops, so the inner loop is one
    add and one lookup (or one flush lookup).  Here the suit test on the card
    numbers beats the packed suit counters of :func:`eval5`."""
    i = 0
    for a in range(48):
        ka, ba = _CARD_RANK_KEY[a], RANK_BIT[a]
        for b in range(a + 1, 49):
            kb, bb = ka + _CARD_RANK_KEY[b], ba | RANK_BIT[b]
            sb = ((a ^ b) & 3) == 0
            for c in range(b + 1, 50):
                kc, bc = kb + _CARD_RANK_KEY[c], bb | RANK_BIT[c]
                sc = sb and ((a ^ c) & 3) == 0
                for d in range(c + 1, 51):
                    kd, bd = kc + _CARD_RANK_KEY[d], bc | RANK_BIT[d]
                    sd = sc and ((a ^ d) & 3) == 0
                    for e in range(d + 1, 52):
                        s = np.uint64(kd + _CARD_RANK_KEY[e])
                        if sd and ((a ^ e) & 3) == 0:
                            out[i] = FLUSH_TABLE[bd | RANK_BIT[e]]
                        else:
                            out[i] = VALUES5[np.uint64(OFFSETS5[s >> HASH_USHIFT]) + (s & HASH_UMASK)]
                        i += 1
    return i


def all_five_card_values() -> np.ndarray:
    """``int16[2_598_960]``: the value of every five-card hand, lexicographic card order."""
    out = np.empty(2_598_960, dtype=np.int16)
    _all_five_kernel(out)
    return out


def value_counts_5() -> np.ndarray:
    """``int64[7462]``: how many of the 2,598,960 five-card hands have each value."""
    return np.bincount(all_five_card_values(), minlength=NUM_VALUES).astype(np.int64)


#: the most (value, count) entries :func:`draw_counts` writes: 286 three-rank draws (a flush entry
#: beside each when the hole cards are suited), 156 with a pair, 13 trips
MAX_DRAW_ENTRIES = 2 * 286 + 156 + 13
_RANK_KEY = _T.rank_keys  # int64[13]: the rank part of a card's key (card_keys >> KEY_SHIFT)


@njit(inline="always")
def _rank_value(s):
    """Dense value of a five-card hand that is not a flush, from the sum ``s`` of its rank keys."""
    s = np.uint64(s)
    return np.int64(VALUES5[np.uint64(OFFSETS5[s >> HASH_USHIFT]) + (s & HASH_UMASK)])


@njit
def draw_counts(c0, c1, cards, vals, counts):
    """The final values of hole cards ``c0, c1`` plus each three-card draw from ``cards``
    (int64[n], distinct, none of them a hole card) as distinct (value, number of draws) entries:
    written to ``vals``/``counts`` (int64/float64, at least :data:`MAX_DRAW_ENTRIES` long) in no
    particular order; returns (number of entries, number of draws ``C(n, 3)``).

    Counted by the ranks drawn instead of draw by draw: a hand that is not a flush has the value
    of its five ranks, so each of the 455 multisets of three ranks is evaluated once and counted
    by the ways to draw it (``a1 a2 a3``, ``C(a, 2) a'`` or ``C(a, 3)`` from the ``a`` unseen cards
    of each rank); with suited hole cards the draws of three more cards of their suit
    (``s1 s2 s3``, 0 or 1 each) are flushes, taken out of their ranks' count and entered at the
    flush value.  The integer counts are those of the draw-by-draw enumeration
    (:func:`draw_histogram_enumerated`), about 25 times faster at 43 unseen cards."""
    avail = np.zeros(13, dtype=np.int64)
    suited = np.zeros(13, dtype=np.int64)
    flush_suit = (c0 & 3) if (c0 & 3) == (c1 & 3) else -1
    n = cards.shape[0]
    for i in range(n):
        c = cards[i]
        avail[c >> 2] += 1
        if (c & 3) == flush_suit:
            suited[c >> 2] = 1
    ranks = np.empty(13, dtype=np.int64)
    nr = 0
    for r in range(13):
        if avail[r] > 0:
            ranks[nr] = r
            nr += 1
    k0 = _RANK_KEY[c0 >> 2] + _RANK_KEY[c1 >> 2]
    b0 = RANK_BIT[c0] | RANK_BIT[c1]
    e = 0
    for i in range(nr):
        r1 = ranks[i]
        a1 = avail[r1]
        k1 = k0 + _RANK_KEY[r1]
        if a1 >= 3:  # trips
            vals[e] = _rank_value(k1 + 2 * _RANK_KEY[r1])
            counts[e] = a1 * (a1 - 1) * (a1 - 2) // 6
            e += 1
        for j in range(i + 1, nr):
            r2 = ranks[j]
            a2 = avail[r2]
            k2 = k1 + _RANK_KEY[r2]
            if a1 >= 2:  # a pair of r1 and an r2
                vals[e] = _rank_value(k2 + _RANK_KEY[r1])
                counts[e] = (a1 * (a1 - 1) // 2) * a2
                e += 1
            if a2 >= 2:  # an r1 and a pair of r2
                vals[e] = _rank_value(k2 + _RANK_KEY[r2])
                counts[e] = a1 * (a2 * (a2 - 1) // 2)
                e += 1
            for m in range(j + 1, nr):
                r3 = ranks[m]
                ways = a1 * a2 * avail[r3]
                fl = suited[r1] * suited[r2] * suited[r3] if flush_suit >= 0 else 0
                if ways > fl:
                    vals[e] = _rank_value(k2 + _RANK_KEY[r3])
                    counts[e] = ways - fl
                    e += 1
                if fl > 0:
                    vals[e] = np.int64(FLUSH_TABLE[b0 | (1 << r1) | (1 << r2) | (1 << r3)])
                    counts[e] = fl
                    e += 1
    return e, n * (n - 1) * (n - 2) // 6


def _multiset_tables():
    """The 455 multisets of three ranks (``r1 <= r2 <= r3``, in this order) and, for each of the 91
    pairs of hole ranks, the multisets in ascending order of the final value they give and the
    three-rank multisets in ascending order of the flush they make with two suited hole cards."""
    ranks = np.array([(a, b, c) for a in range(13) for b in range(a, 13) for c in range(b, 13)], dtype=np.int64)
    distinct = np.flatnonzero((ranks[:, 0] < ranks[:, 1]) & (ranks[:, 1] < ranks[:, 2]))
    pair_id = np.full((13, 13), -1, dtype=np.int64)
    pairs = [(a, b) for a in range(13) for b in range(a, 13)]
    for i, (a, b) in enumerate(pairs):
        pair_id[a, b] = pair_id[b, a] = i
    keys = _RANK_KEY[ranks].sum(axis=1)
    order = np.empty((len(pairs), len(ranks)), dtype=np.int16)
    value = np.empty((len(pairs), len(ranks)), dtype=np.int16)
    flush_order = np.empty((len(pairs), len(distinct)), dtype=np.int16)
    flush_value = np.empty((len(pairs), len(distinct)), dtype=np.int16)
    for i, (a, b) in enumerate(pairs):
        hand = np.concatenate([ranks, np.full((len(ranks), 2), (a, b))], axis=1)
        # five of a rank cannot be dealt (the draw then has no ways): value -1, first in the order
        possible = np.array([np.bincount(h, minlength=13).max() <= 4 for h in hand])
        u = (keys + _RANK_KEY[a] + _RANK_KEY[b]).astype(np.uint64)
        v = np.where(possible, VALUES5[(OFFSETS5[u >> HASH_USHIFT].astype(np.uint64) + (u & HASH_UMASK)).astype(np.int64)], -1)
        o = np.argsort(v, kind="stable")
        order[i], value[i] = o, v[o]
        fv = FLUSH_TABLE[(1 << a) | (1 << b) | (1 << ranks[distinct]).sum(axis=1)]
        fo = np.argsort(fv, kind="stable")
        flush_order[i], flush_value[i] = distinct[fo], fv[fo]
    return ranks, pair_id, order, value, flush_order, flush_value


#: ``int64[455, 3]``: the multisets of three ranks a draw can hold; ``int64[13, 13]``: the index of a
#: pair of hole ranks; per pair of hole ranks, the multisets by ascending final value
#: (``int16[91, 455]``, and the values), and the three-rank multisets by ascending flush value with
#: suited hole cards (``int16[91, 286]``, and the values; pairs of equal ranks are never suited, and
#: a multiset holding a hole rank never makes a flush: its suited card is the hole card)
(MULTISET_RANKS, HOLE_PAIR, MULTISETS_BY_VALUE, MULTISET_VALUES, FLUSHES_BY_VALUE,
 FLUSH_VALUES) = _multiset_tables()


@njit
def draw_histogram(c0, c1, cards, out):
    """Add to ``out[v]`` the number of three-card draws from ``cards`` (int64[n], distinct, none of
    them a hole card) that give hole cards ``c0, c1`` the final value ``v``; return the number of
    draws.  From :func:`draw_counts` (the solvers call this for every seat's final-hand
    distribution); the integer counts are those of :func:`draw_histogram_enumerated`."""
    vals = np.empty(MAX_DRAW_ENTRIES, dtype=np.int64)
    counts = np.empty(MAX_DRAW_ENTRIES, dtype=np.float64)
    e, total = draw_counts(c0, c1, cards, vals, counts)
    for i in range(e):
        out[vals[i]] += counts[i]
    return total


@njit
def draw_histogram_enumerated(c0, c1, cards, out):
    """:func:`draw_histogram` draw by draw (the reference it is tested against): add 1 to
    ``out[v]`` for the value of hole cards ``c0, c1`` plus each three-card draw from ``cards``.

    The same lookups as :func:`eval5`, with the hole cards' and the outer loops' key
    sums carried down the loops."""
    k0 = _INIT + CARD_KEY[c0] + CARD_KEY[c1]
    b0 = RANK_BIT[c0] | RANK_BIT[c1]
    n = cards.shape[0]
    cnt = 0
    for i in range(n):
        ci = cards[i]
        ki = k0 + CARD_KEY[ci]
        bi = b0 | RANK_BIT[ci]
        for j in range(i + 1, n):
            cj = cards[j]
            kj = ki + CARD_KEY[cj]
            bj = bi | RANK_BIT[cj]
            for m in range(j + 1, n):
                cm = cards[m]
                k = kj + CARD_KEY[cm]
                if k & _TEST:
                    v = FLUSH_TABLE[bj | RANK_BIT[cm]]
                else:
                    s = np.uint64(k >> _KSHIFT)
                    v = VALUES5[np.uint64(OFFSETS5[s >> HASH_USHIFT]) + (s & HASH_UMASK)]
                out[v] += 1.0
                cnt += 1
    return cnt


@njit(inline="always")
def category_of(value):
    """Category code 0..8 (high card .. straight flush) of a dense value."""
    return CATEGORY_BY_VALUE[value]


# ------------------------------------------------------------------ partial hands
PARTIAL_BASE = 15  # slot digit: 0 = no card, rank + 1 otherwise


def _partial_keys_of_values() -> np.ndarray:
    """``int64[7462]``: :func:`partial_key` of each five-card value (category, then ranked cards)."""
    keys = np.empty(NUM_VALUES, dtype=np.int64)
    for hc in hand_classes():
        digits = [r + 1 for r in hc.ranked] + [0] * (5 - len(hc.ranked))  # straights: the top card only
        key = hc.category
        for d in digits:
            key = key * PARTIAL_BASE + d
        keys[hc.value] = key
    return keys


#: ``int64[7462]``: :func:`partial_key` of a five-card hand by its dense value; it rises strictly
#: with the value (the fast Quickdraw count relies on that), and compares with two-card keys.
FIVE_CARD_KEY = _partial_keys_of_values()
TOP_RANK = np.zeros(1 << 13, dtype=np.int64)  # 13-bit rank mask -> its highest rank
for _r in range(13):
    TOP_RANK[1 << _r:2 << _r] = _r
del _r


@njit(inline="always")
def _append_ranks(key, nd, mask):
    """Append the ranks of ``mask`` (highest first) to ``key`` as base-15 digits."""
    while mask:
        r = TOP_RANK[np.uint64(mask)]
        key = key * PARTIAL_BASE + r + 1
        mask ^= np.int64(1) << r
        nd += 1
    return key, nd


@njit(inline="always")
def levels_key(s1, s2, s3, s4):
    """:func:`partial_key` of a hand of at most four of a rank from its rank masks by multiplicity
    (bit r of ``s_k``: rank r at least k times); no straights or flushes.  Shared with the joker
    kernels (:mod:`ricochet_math.evaluator.jokers`)."""
    quads, trips, pairs, singles = s4, s3 & ~s4, s2 & ~s3, s1 & ~s2
    if quads:
        cat = FOUR_OF_A_KIND
    elif trips:
        cat = THREE_OF_A_KIND
    elif pairs:
        cat = TWO_PAIR if pairs & (pairs - 1) else PAIR
    else:
        cat = HIGH_CARD
    key, nd = _append_ranks(np.int64(cat), 0, quads)
    key, nd = _append_ranks(key, nd, trips)
    key, nd = _append_ranks(key, nd, pairs)
    key, nd = _append_ranks(key, nd, singles)
    for _ in range(nd, 5):
        key *= PARTIAL_BASE
    return key


@njit(inline="always")
def partial_key(cards, n):
    """Comparable key of the first ``n`` (1..5) cards of ``cards`` (kicker rule).

    key = category * 15**5 + ranked cards as base-15 digits (rank+1, 0 = absent),
    most significant first: category, then the groups by size and rank, so a
    prefix hand ("Ace") is lower than its extensions ("Ace-8").  Five cards read
    the key of their :func:`eval5` value (straights keep only the top card);
    fewer cards count ranks in bit-sliced masks, without allocating.
    """
    if n == 5:
        return np.int64(FIVE_CARD_KEY[eval5(cards[0], cards[1], cards[2], cards[3], cards[4])])
    # bit r of s_k: rank r appears at least k times
    s1 = s2 = s3 = s4 = np.int64(0)
    for i in range(n):
        b = RANK_BIT[np.uint8(cards[i])]
        s4 |= s3 & b
        s3 |= s2 & b
        s2 |= s1 & b
        s1 |= b
    return levels_key(s1, s2, s3, s4)


@njit
def order_key(c0, c1):
    """Order-of-play key of a two-card hand: lower acts first.

    key = partial_key * 4 + tie suit, where the tie suit is the suit of the
    higher card, or for a pair the higher of the two suits (casino rules,
    "ties are broken by the suit of the higher card").
    """
    r0, r1 = np.int64(c0) >> 2, np.int64(c1) >> 2
    s0, s1 = np.int64(c0) & 3, np.int64(c1) & 3
    if r0 == r1:
        k = (PAIR * PARTIAL_BASE + r0 + 1) * PARTIAL_BASE ** 4
        tie = max(s0, s1)
    else:
        hi, lo = max(r0, r1), min(r0, r1)
        k = ((HIGH_CARD * PARTIAL_BASE + hi + 1) * PARTIAL_BASE + lo + 1) * PARTIAL_BASE ** 3
        tie = s0 if r0 > r1 else s1
    return k * 4 + tie


def _two_card_tables() -> tuple[np.ndarray, np.ndarray]:
    two = np.full(52 * 52, -1, dtype=np.int64)
    order = np.full(52 * 52, -1, dtype=np.int64)
    pair = np.empty(2, dtype=np.int64)
    for a in range(52):
        for b in range(52):
            if a != b:
                pair[0], pair[1] = a, b
                two[a * 52 + b] = partial_key(pair, 2)
                order[a * 52 + b] = order_key(a, b)
    return two, order


# A round needs up to seven two-card keys: tabulated once for the kernels and the readable engine.
#: ``int64[52*52]``: :func:`partial_key` of the two cards ``(a, b)`` at ``a*52+b`` (-1 on the diagonal).
#: ``int64[52*52]``: :func:`order_key` of ``(a, b)`` at ``a*52+b``.
TWO_CARD_KEY, ORDER_KEY = _two_card_tables()


# ------------------------------------------------------------------ readable twins
def reference_value(cards) -> int:
    """Slow readable twin of :func:`eval_cards`: best five by brute force over subsets."""
    cards = [int(c) for c in cards]
    if not 5 <= len(cards) <= 7:
        raise CardError(f"a hand value needs 5 to 7 cards, got {len(cards)}")
    index = class_values()
    best = -1
    for five in combinations(cards, 5):
        flush = len({c & 3 for c in five}) == 1
        cat, ranked, _ = classify(tuple(c >> 2 for c in five), flush)
        best = max(best, index[(cat, ranked, flush)])
    return best


def reference_partial_key(cards) -> tuple:
    """Readable twin of :func:`partial_key`: ``(category, ranked cards...)`` as a tuple.

    Tuples compare the way the rulebook does: a tuple that is a prefix of
    another is smaller ("Ace" < "Ace-8").
    """
    cards = [int(c) for c in cards]
    if len(cards) == 5:
        flush = len({c & 3 for c in cards}) == 1
        cat, ranked, _ = classify(tuple(c >> 2 for c in cards), flush)
        return (cat,) + ranked
    counts: dict[int, int] = {}
    for c in cards:
        counts[c >> 2] = counts.get(c >> 2, 0) + 1
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    shape = [n for n, _ in groups]
    if shape[0] == 4:
        cat = FOUR_OF_A_KIND
    elif shape[0] == 3:
        cat = THREE_OF_A_KIND
    elif shape.count(2) == 2:
        cat = TWO_PAIR
    elif shape[0] == 2:
        cat = PAIR
    else:
        cat = HIGH_CARD
    return (cat,) + tuple(r for _, r in groups)


def partial_key_of(text_or_cards) -> int:
    """:func:`partial_key` of card text or a sequence of 1..5 kernel cards."""
    cards = _as_cards(text_or_cards, (1, 2, 3, 4, 5))
    return int(partial_key(cards.astype(np.int64), len(cards)))


def order_key_of(text_or_cards) -> int:
    """:func:`order_key` of a two-card hand given as text or kernel cards."""
    cards = _as_cards(text_or_cards, (2,))
    return int(order_key(int(cards[0]), int(cards[1])))


_DECK_SET = frozenset(range(52))
_INT_TYPE = frozenset([int])


def hand_value(text_or_cards) -> int:
    """Dense value of a 5-, 6- or 7-card hand given as text (``"As Ks Qs Js Ts"``) or cards.

    A list or tuple of distinct Python ints 0..51 goes straight to the scalar
    kernel (about a microsecond); anything else is parsed and checked by
    :func:`~ricochet_math.evaluator.cards.parse_cards` (a :class:`CardError` for a card outside 0..51,
    a repeated card, a wrong count or a ``bool``).  The unchecked scalar kernels
    :func:`eval5` / :func:`eval6` / :func:`eval7` are for numba code.
    """
    if type(text_or_cards) in (list, tuple):
        n = len(text_or_cards)
        if 5 <= n <= 7:
            distinct = set(text_or_cards)
            if len(distinct) == n and distinct <= _DECK_SET and set(map(type, text_or_cards)) == _INT_TYPE:
                if n == 7:
                    return eval7(*text_or_cards)
                return eval5(*text_or_cards) if n == 5 else eval6(*text_or_cards)
    cards = _as_cards(text_or_cards, (5, 6, 7))
    return int(eval_cards(cards.astype(np.int64)))


def _as_cards(text_or_cards, counts) -> np.ndarray:
    return parse_cards(text_or_cards, count=counts)
