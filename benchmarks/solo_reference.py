"""A frozen copy of the exhaustive solo counting kernel as it was before the suit symmetry
(``ricochet_math/solvers/solo_kernel.py`` at commit 37a6f71): every one of the 2,118,760 dealer
hands of a class visited.

The "old" side of the same-run ratio of ``benchmarks/bench_speed.py`` (row ``solokernel``); the
current kernel's counts equal its counts (``tests/solvers/test_solo.py`` compares the kernel with its
own every-hand mode, which is this loop).  Do not edit: it is the baseline.
"""
from __future__ import annotations

from math import comb

import numpy as np

from ricochet_math._numba import njit, pnjit, prange
from ricochet_math.evaluator.evaluation import NUM_VALUES, eval5

__all__ = ["N_DRAWS", "N_DEALER", "N_DEALS", "FOLD", "PLAY", "count_columns", "bonus_lines", "build_levels",
           "deal_counts", "count_classes"]

N_DRAWS = comb(45, 3)             # 14,190 three-card draws after the deal
N_DEALER = comb(50, 5)            # 2,118,760 dealer hands per player hand
N_DEALS = comb(52, 2) * N_DEALER  # 2,809,475,760

# Columns of the per-(class, dealer value) count table.
FOLD, PLAY = 0, 1                 # deals (not draws)

PAIR_SLOTS = 64                   # the 48 values of a two-card level, padded (to whole vector lanes)
NO_VALUE = np.int16(-1)           # the padding: reaches no value


def count_columns(n_lines):
    """Column offsets of the count table: auto-win, win and lose blocks of (n_lines + 1) draw counts
    each, and the end (:data:`FOLD` and :data:`PLAY` come first)."""
    k = n_lines + 1
    return 2, 2 + k, 2 + 2 * k, 2 + 3 * k


def bonus_lines(paytable) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Bonus paytable as arrays: ``line_of_value`` int64[7462] (0 = no bonus,
    1..L = paying lines from the lowest), ``pays`` float64[L+1] (ante units),
    and the line names (``"none"`` first)."""
    lines = sorted(((ln.value(), float(ln.pays), ln.key) for ln in paytable), key=lambda t: t[0])
    lo = np.array([t[0] for t in lines], dtype=np.int64)
    line_of_value = np.searchsorted(lo, np.arange(NUM_VALUES), side="right").astype(np.int64)
    pays = np.array([0.0] + [t[1] for t in lines])
    return line_of_value, pays, ["none"] + [t[2] for t in lines]


# --------------------------------------------------------------------------- kernels
@njit
def build_levels(p0, p1, line_of_value, n_lines):
    """Inclusion-exclusion tables for one player hand (see the module docstring).

    Positions i < j < m refer to ``deck`` (int64[50], the cards left).  Returns
    deck; ``value3`` int16[50,50,50]: the final value with the draw (i, j, m);
    ``ge0`` int32[7463]: draws reaching each value (index 7462: none);
    ``ge1`` int16[50,7463]: the same for the draws holding card i; ``pair``
    int16[50,50,64]: the 48 values of the draws holding i and j (i < j), sorted,
    padded with -1; ``line0`` int64[L+1], ``line1`` int64[50, L+1], ``line2``
    int64[50, 50, L+1]: draws by bonus line, all / holding i / holding i and j.
    """
    deck = np.empty(50, dtype=np.int64)
    k = 0
    for c in range(52):
        if c != p0 and c != p1:
            deck[k] = c
            k += 1
    L1 = n_lines + 1
    value3 = np.zeros((50, 50, 50), dtype=np.int16)
    hist0 = np.zeros(NUM_VALUES + 1, dtype=np.int32)
    hist1 = np.zeros((50, NUM_VALUES + 1), dtype=np.int16)
    line0 = np.zeros(L1, dtype=np.int64)
    line1 = np.zeros((50, L1), dtype=np.int64)
    line2 = np.zeros((50, 50, L1), dtype=np.int64)
    pair = np.full((50, 50, PAIR_SLOTS), NO_VALUE, dtype=np.int16)
    fill = np.zeros((50, 50), dtype=np.int64)
    for i in range(50):
        for j in range(i + 1, 50):
            for m in range(j + 1, 50):
                v = eval5(p0, p1, deck[i], deck[j], deck[m])
                ln = line_of_value[v]
                value3[i, j, m] = v
                hist0[v] += 1
                line0[ln] += 1
                for a in (i, j, m):
                    hist1[a, v] += 1
                    line1[a, ln] += 1
                for s, t in ((i, j), (i, m), (j, m)):
                    pair[s, t, fill[s, t]] = v
                    fill[s, t] += 1
                    line2[s, t, ln] += 1
    for i in range(50):
        for j in range(i + 1, 50):
            pair[i, j, :48].sort()
    ge0 = np.zeros(NUM_VALUES + 1, dtype=np.int32)
    ge1 = np.zeros((50, NUM_VALUES + 1), dtype=np.int16)
    for v in range(NUM_VALUES - 1, -1, -1):
        ge0[v] = ge0[v + 1] + hist0[v]
        for a in range(50):
            ge1[a, v] = ge1[a, v + 1] + hist1[a, v]
    return deck, value3, ge0, ge1, pair, line0, line1, line2


@njit(inline="always")
def _pair_ge(pair, s, t, x):
    """How many of the draws holding positions s < t reach value x (0 <= x <= 7462).

    A count over all 64 slots, in 16-bit lanes: with the value and the count held as int16, LLVM
    compares 32 values per AVX-512 instruction (as int64 it was four times the work; with 48 slots
    instead of 64 it did not vectorise and was eight times slower)."""
    x16 = np.int16(x)
    n = np.int16(0)
    for m in range(PAIR_SLOTS):
        n = np.int16(n + (pair[s, t, m] >= x16))
    return np.int64(n)


@njit(inline="always")
def _wins(x, a, b, c, d, e, gab, ge1, pair, value3):
    """Draws from the cards left without positions a < b < c < d < e whose final value >= x;
    ``gab[x]`` holds the terms without c, d, e (all draws, minus those holding a or b, plus those
    holding both)."""
    w = np.int64(gab[x]) - ge1[c, x] - ge1[d, x] - ge1[e, x]
    w += (_pair_ge(pair, a, c, x) + _pair_ge(pair, b, c, x) + _pair_ge(pair, a, d, x)
          + _pair_ge(pair, b, d, x) + _pair_ge(pair, c, d, x) + _pair_ge(pair, a, e, x)
          + _pair_ge(pair, b, e, x) + _pair_ge(pair, c, e, x) + _pair_ge(pair, d, e, x))
    w -= ((value3[a, b, c] >= x) + (value3[a, b, d] >= x) + (value3[a, c, d] >= x) + (value3[b, c, d] >= x)
          + (value3[a, b, e] >= x) + (value3[a, c, e] >= x) + (value3[b, c, e] >= x)
          + (value3[a, d, e] >= x) + (value3[b, d, e] >= x) + (value3[c, d, e] >= x))
    return w


@njit(inline="always")
def _fill_gab(gab, a, b, ge0, ge1, pair):
    """``gab[x]`` = draws reaching x, minus those holding position a or b, plus those holding both."""
    k = 47
    for x in range(NUM_VALUES, -1, -1):
        while k >= 0 and pair[a, b, k] >= x:
            k -= 1
        gab[x] = ge0[x] - ge1[a, x] - ge1[b, x] + (47 - k)


@njit
def deal_counts(p0, p1, pos, levels, line_of_value, n_lines):
    """For testing: (draws reaching the dealer's value, per-line draw counts, dealer value) of the
    dealer hand at the sorted positions ``pos``."""
    deck, value3, ge0, ge1, pair, line0, line1, line2 = levels
    a, b, c, d, e = pos[0], pos[1], pos[2], pos[3], pos[4]
    cnt = line0.copy()
    for i in range(5):
        cnt -= line1[pos[i]]
        for j in range(i + 1, 5):
            cnt += line2[pos[i], pos[j]]
            for m in range(j + 1, 5):
                cnt[line_of_value[value3[pos[i], pos[j], pos[m]]]] -= 1
    v = eval5(deck[a], deck[b], deck[c], deck[d], deck[e])
    gab = np.empty(NUM_VALUES + 1, dtype=np.int32)
    _fill_gab(gab, a, b, ge0, ge1, pair)
    return _wins(v, a, b, c, d, e, gab, ge1, pair, value3), cnt, v


@njit
def _solo_class(p0, p1, line_of_value, line_lo, pays, n_lines, ties_to_player, use_bonus, out):
    """Fill ``out[v, :]`` (int64[7462, 2 + 3(L+1)]) for one player hand.

    Per dealer value v: FOLD and PLAY deal counts when the dealer is in; then
    draw counts by bonus line for the kicked-out treatment (automatic win), and
    for played draws that win / lose when she is in.
    """
    deck, value3, ge0, ge1, pair, line0, line1, line2 = build_levels(p0, p1, line_of_value, n_lines)
    out[:] = 0
    L1 = n_lines + 1
    c_auto, c_win, c_lose = 2, 2 + L1, 2 + 2 * L1
    lowest_paying = line_lo[1] if n_lines >= 1 else NUM_VALUES
    shift = 0 if ties_to_player else 1   # x: the lowest final value that beats the dealer's
    # Per dealer value, summed over her hands: draws by line (all hands; folded hands) and the
    # winning draws of played hands.  Below the lowest paying line every paying draw wins, so the
    # win / lose split follows from these at the end.
    by_line = np.zeros((NUM_VALUES, L1), dtype=np.int64)
    folded = np.zeros((NUM_VALUES, L1), dtype=np.int64)
    won = np.zeros(NUM_VALUES, dtype=np.int64)
    gab = np.empty(NUM_VALUES + 1, dtype=np.int32)
    cnt_c = np.empty(L1, dtype=np.int64)
    cnt_d = np.empty(L1, dtype=np.int64)
    inner = np.empty((50, L1), dtype=np.int64)   # line terms holding e and none of d, by e
    cnt = np.empty(L1, dtype=np.int64)
    for a in range(46):
        for b in range(a + 1, 47):
            _fill_gab(gab, a, b, ge0, ge1, pair)
            for c in range(b + 1, 48):
                for ln in range(L1):
                    cnt_c[ln] = (line0[ln] - line1[a, ln] - line1[b, ln] - line1[c, ln]
                                 + line2[a, b, ln] + line2[a, c, ln] + line2[b, c, ln])
                cnt_c[line_of_value[value3[a, b, c]]] -= 1
                for e in range(c + 2, 50):
                    for ln in range(L1):
                        inner[e, ln] = line2[a, e, ln] + line2[b, e, ln] + line2[c, e, ln] - line1[e, ln]
                    inner[e, line_of_value[value3[a, b, e]]] -= 1
                    inner[e, line_of_value[value3[a, c, e]]] -= 1
                    inner[e, line_of_value[value3[b, c, e]]] -= 1
                for d in range(c + 1, 49):
                    for ln in range(L1):
                        cnt_d[ln] = cnt_c[ln] - line1[d, ln] + line2[a, d, ln] + line2[b, d, ln] + line2[c, d, ln]
                    cnt_d[line_of_value[value3[a, b, d]]] -= 1
                    cnt_d[line_of_value[value3[a, c, d]]] -= 1
                    cnt_d[line_of_value[value3[b, c, d]]] -= 1
                    for e in range(d + 1, 50):
                        v = eval5(deck[a], deck[b], deck[c], deck[d], deck[e])
                        for ln in range(L1):
                            cnt[ln] = cnt_d[ln] + inner[e, ln] + line2[d, e, ln]
                        cnt[line_of_value[value3[a, d, e]]] -= 1
                        cnt[line_of_value[value3[b, d, e]]] -= 1
                        cnt[line_of_value[value3[c, d, e]]] -= 1
                        for ln in range(L1):
                            by_line[v, ln] += cnt[ln]
                        x = v + shift
                        w = _wins(x, a, b, c, d, e, gab, ge1, pair, value3)
                        bsum = 0.0
                        if use_bonus:
                            for ln in range(1, L1):
                                bsum += pays[ln] * cnt[ln]
                        if 3.0 * w + bsum > 14190.0:
                            out[v, PLAY] += 1
                            if x <= lowest_paying:
                                won[v] += w
                            else:
                                # high dealer value: split each line at the dealer's value
                                for ln in range(L1):
                                    lo = line_lo[ln]
                                    hi = line_lo[ln + 1] if ln + 1 < L1 else NUM_VALUES
                                    if hi <= x:
                                        wl = 0
                                    else:
                                        wl = (_wins(max(x, lo), a, b, c, d, e, gab, ge1, pair, value3)
                                              - _wins(hi, a, b, c, d, e, gab, ge1, pair, value3))
                                    out[v, c_win + ln] += wl
                                    out[v, c_lose + ln] += cnt[ln] - wl
                        else:
                            out[v, FOLD] += 1
                            for ln in range(L1):
                                folded[v, ln] += cnt[ln]
    for v in range(NUM_VALUES):
        for ln in range(L1):
            out[v, c_auto + ln] = by_line[v, ln]
        if v + shift <= lowest_paying:
            # played draws by line; every paying one wins, the rest win w - paying in all
            paying = 0
            for ln in range(1, L1):
                played = by_line[v, ln] - folded[v, ln]
                out[v, c_win + ln] = played
                paying += played
            out[v, c_win] = won[v] - paying
            out[v, c_lose] = by_line[v, 0] - folded[v, 0] - (won[v] - paying)


@pnjit
def count_classes(reps, line_of_value, line_lo, pays, n_lines, ties_to_player, use_bonus, out):
    """:func:`_solo_class` for each starting hand ``reps[k]`` (int64[K, 2]) into ``out[k]``, in parallel."""
    for k in prange(reps.shape[0]):
        _solo_class(reps[k, 0], reps[k, 1], line_of_value, line_lo, pays, n_lines,
                    ties_to_player, use_bonus, out[k])
