"""The exhaustive counting kernel of the solo game (one player against the dealer).

For one starting hand it visits all C(50,5) = 2,118,760 dealer hands and, for
each, counts the player's 14,190 three-card draws by outcome and bonus line
without visiting them, by inclusion-exclusion over the dealer's cards:

    #{T subset of deck\\D} = sum over S subset of D, |S| <= 3, of (-1)^|S| #{T contains S}

with the terms read from tables built once per starting hand
(:func:`build_levels`): a cumulative count by value over all C(50,3) draws
(|S| = 0), sorted value lists for the draws holding one given card (|S| = 1)
or two (|S| = 2), and ten direct evaluations (|S| = 3).  Bonus-line counts use
the same expansion.  Perfect play decides with ``3 W + B > 14190`` (``W``
winning draws, ``B`` the bonus summed over the draws; :mod:`ricochet_math.solvers.solo`).

Everything is an integer count of (deal, draw) combinations.
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
@njit(inline="always")
def _count_ge(arr, start, n, x):
    """How many of the ``n`` sorted values ``arr[start:start+n]`` are >= x (binary search)."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) >> 1
        if arr[start + mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return n - lo


@njit
def build_levels(p0, p1, line_of_value, n_lines):
    """Inclusion-exclusion tables for one player hand (see the module docstring).

    Returns deck50 (int64[50]), pair index (int64[50,50]), ge0 (int64[7463]:
    draws reaching each value), sorted1 (int16[50*1176]), sorted2
    (int16[1225*48]), line0 (int64[L+1]), line1 (int64[50, L+1]), line2
    (int64[1225, L+1]).  Positions refer to deck50.
    """
    deck = np.empty(50, dtype=np.int64)
    k = 0
    for c in range(52):
        if c != p0 and c != p1:
            deck[k] = c
            k += 1
    pidx = np.full((50, 50), -1, dtype=np.int64)
    k = 0
    for i in range(50):
        for j in range(i + 1, 50):
            pidx[i, j] = k
            pidx[j, i] = k
            k += 1
    L1 = n_lines + 1
    hist0 = np.zeros(NUM_VALUES + 1, dtype=np.int64)
    line0 = np.zeros(L1, dtype=np.int64)
    line1 = np.zeros((50, L1), dtype=np.int64)
    line2 = np.zeros((1225, L1), dtype=np.int64)
    vals1 = np.empty(50 * 1176, dtype=np.int16)
    fill1 = np.zeros(50, dtype=np.int64)
    vals2 = np.empty(1225 * 48, dtype=np.int16)
    fill2 = np.zeros(1225, dtype=np.int64)
    for i in range(50):
        for j in range(i + 1, 50):
            pij = pidx[i, j]
            for m in range(j + 1, 50):
                v = eval5(p0, p1, deck[i], deck[j], deck[m])
                ln = line_of_value[v]
                hist0[v] += 1
                line0[ln] += 1
                for a in (i, j, m):
                    vals1[a * 1176 + fill1[a]] = v
                    fill1[a] += 1
                    line1[a, ln] += 1
                for q in (pij, pidx[i, m], pidx[j, m]):
                    vals2[q * 48 + fill2[q]] = v
                    fill2[q] += 1
                    line2[q, ln] += 1
    for a in range(50):
        vals1[a * 1176:(a + 1) * 1176].sort()
    for q in range(1225):
        vals2[q * 48:(q + 1) * 48].sort()
    ge0 = np.zeros(NUM_VALUES + 1, dtype=np.int64)
    acc = 0
    for v in range(NUM_VALUES - 1, -1, -1):
        acc += hist0[v]
        ge0[v] = acc
    return deck, pidx, ge0, vals1, vals2, line0, line1, line2


@njit(inline="always")
def _draws_ge(x, pos, tvals, ge0, vals1, vals2, pidx):
    """Draws from deck50 minus the dealer's five positions ``pos`` whose final value >= x."""
    if x > NUM_VALUES - 1:
        return np.int64(0)
    w = ge0[x]
    for a in range(5):
        w -= _count_ge(vals1, pos[a] * 1176, 1176, x)
    for a in range(5):
        for b in range(a + 1, 5):
            w += _count_ge(vals2, pidx[pos[a], pos[b]] * 48, 48, x)
    for t in range(10):
        if tvals[t] >= x:
            w -= 1
    return w


@njit
def deal_counts(p0, p1, pos, levels, line_of_value, n_lines):
    """For testing: (draws reaching the dealer's value, per-line draw counts, dealer value)."""
    deck, pidx, ge0, vals1, vals2, line0, line1, line2 = levels
    tvals = np.empty(10, dtype=np.int64)
    t = 0
    for a in range(5):
        for b in range(a + 1, 5):
            for c in range(b + 1, 5):
                tvals[t] = eval5(p0, p1, deck[pos[a]], deck[pos[b]], deck[pos[c]])
                t += 1
    cnt = line0.copy()
    for a in range(5):
        cnt -= line1[pos[a]]
    for a in range(5):
        for b in range(a + 1, 5):
            cnt += line2[pidx[pos[a], pos[b]]]
    for t in range(10):
        cnt[line_of_value[tvals[t]]] -= 1
    v = eval5(deck[pos[0]], deck[pos[1]], deck[pos[2]], deck[pos[3]], deck[pos[4]])
    return _draws_ge(v, pos, tvals, ge0, vals1, vals2, pidx), cnt, v


@njit
def _solo_class(p0, p1, line_of_value, line_lo, pays, n_lines, ties_to_player, use_bonus, out):
    """Fill ``out[v, :]`` (int64[7462, 2 + 3(L+1)]) for one player hand.

    Per dealer value v: FOLD and PLAY deal counts when the dealer is in; then
    draw counts by bonus line for the kicked-out treatment (automatic win), and
    for played draws that win / lose when she is in.
    """
    deck, pidx, ge0, vals1, vals2, line0, line1, line2 = build_levels(p0, p1, line_of_value, n_lines)
    L1 = n_lines + 1
    c_auto, c_win, c_lose = 2, 2 + L1, 2 + 2 * L1
    pos = np.empty(5, dtype=np.int64)
    tvals = np.empty(10, dtype=np.int64)
    cnt = np.empty(L1, dtype=np.int64)
    lowest_paying = line_lo[1] if n_lines >= 1 else NUM_VALUES
    for a in range(46):
        pos[0] = a
        for b in range(a + 1, 47):
            pos[1] = b
            for c in range(b + 1, 48):
                pos[2] = c
                for d in range(c + 1, 49):
                    pos[3] = d
                    for e in range(d + 1, 50):
                        pos[4] = e
                        v = eval5(deck[a], deck[b], deck[c], deck[d], deck[e])
                        t = 0
                        for i in range(5):
                            for j in range(i + 1, 5):
                                for m in range(j + 1, 5):
                                    tvals[t] = eval5(p0, p1, deck[pos[i]], deck[pos[j]], deck[pos[m]])
                                    t += 1
                        for ln in range(L1):
                            cnt[ln] = line0[ln]
                        for i in range(5):
                            for ln in range(L1):
                                cnt[ln] -= line1[pos[i], ln]
                        for i in range(5):
                            for j in range(i + 1, 5):
                                q = pidx[pos[i], pos[j]]
                                for ln in range(L1):
                                    cnt[ln] += line2[q, ln]
                        for t in range(10):
                            cnt[line_of_value[tvals[t]]] -= 1
                        # Kicked out: automatic win, three free cards for the bonus.
                        for ln in range(L1):
                            out[v, c_auto + ln] += cnt[ln]
                        # Dealer in: play or fold.
                        x = v if ties_to_player else v + 1
                        w = _draws_ge(x, pos, tvals, ge0, vals1, vals2, pidx)
                        bsum = 0.0
                        if use_bonus:
                            for ln in range(1, L1):
                                bsum += pays[ln] * cnt[ln]
                        if 3.0 * w + bsum > 14190.0:
                            out[v, PLAY] += 1
                            if x <= lowest_paying:
                                # every paying final hand reaches the dealer's
                                paying = 0
                                for ln in range(1, L1):
                                    out[v, c_win + ln] += cnt[ln]
                                    paying += cnt[ln]
                                out[v, c_win] += w - paying
                                out[v, c_lose] += cnt[0] - (w - paying)
                            else:
                                # high threshold: split each line at the dealer's value
                                for ln in range(L1):
                                    lo = line_lo[ln]
                                    hi = line_lo[ln + 1] if ln + 1 < L1 else NUM_VALUES
                                    if hi <= x:
                                        wl = 0
                                    else:
                                        wl = (_draws_ge(max(x, lo), pos, tvals, ge0, vals1, vals2, pidx)
                                              - _draws_ge(hi, pos, tvals, ge0, vals1, vals2, pidx))
                                    out[v, c_win + ln] += wl
                                    out[v, c_lose + ln] += cnt[ln] - wl
                        else:
                            out[v, FOLD] += 1


@pnjit
def count_classes(reps, line_of_value, line_lo, pays, n_lines, ties_to_player, use_bonus, out):
    """:func:`_solo_class` for each starting hand ``reps[k]`` (int64[K, 2]) into ``out[k]``, in parallel."""
    for k in prange(reps.shape[0]):
        _solo_class(reps[k, 0], reps[k, 1], line_of_value, line_lo, pays, n_lines,
                    ties_to_player, use_bonus, out[k])
