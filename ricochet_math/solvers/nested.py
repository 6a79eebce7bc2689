"""Exact nested enumeration: the references the perfect-play look-ahead is measured against.

The look-ahead of :mod:`ricochet_math.strategies.perfect` draws every later seat's cards
from the deck as it is at the decision and splits tied pots fractionally.
Here nothing is approximated: the last seat to act decides with the exact deck
left after every earlier draw, and pots split by the rules (odd units to the
tied players who acted last, or fractionally under that option).

The last seat's draws are counted by inclusion-exclusion instead of being
enumerated again for every earlier draw: its ``C(n, 3)`` draws from the deck
at the decision are sorted by value once, also per card and per pair of cards
they contain; the draws left after removing a set ``R`` of at most six cards
are ``sum over T subset of R, |T| <= 3, of (-1)^|T| x (draws containing T)``,
so "how many of its draws beat ``s``, tie ``s``, and what bonus they pay"
costs at most 42 binary searches.

* :func:`exact_one_later`: the acting seat with one seat after it (N = 2 first
  seat, N = 3 second seat), every draw; the same figures as its readable twin
  :func:`brute_one_later` (every later draw enumerated again), 60-200 times faster.
* :func:`exact_two_later_shares`: the acting seat with two seats after it
  (N = 3 first seat); for chosen draws of the acting seat, the middle seat's
  exact decision over all its draws, each answered by the last seat's exact
  reply.  About 10 ms per acting-seat draw, so the benchmark samples the draws
  (the difference from the look-ahead's share, draw by draw, has a small
  variance).
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.evaluation import eval5
from ricochet_math.rules.layout import Option
from ricochet_math.strategies.draws import unseen_cards

__all__ = ["exact_one_later", "brute_one_later", "exact_two_later_shares", "standing_draws"]


@njit
def _int_share(pot, holders, my_rank_from_last):
    """Integer pot share (odd units to the players who acted last, spec step 7).

    ``my_rank_from_last`` = 0 if I acted last among the ``holders``, 1 if one
    holder acted after me, ...
    """
    base = pot // holders
    odd = pot - base * holders
    return base + (1 if my_rank_from_last < odd else 0)


@njit
def _share(pot, holders, my_rank_from_last, fractional):
    if fractional:
        return pot / holders
    return float(_int_share(pot, holders, my_rank_from_last))


@njit
def _prepare_last(l0, l1, cards, bonus):
    """Sorted values of the last seat's draws: all, containing card index x, containing x < y."""
    n = cards.shape[0]
    s0 = np.empty(n * (n - 1) * (n - 2) // 6, dtype=np.int64)
    s1 = np.empty((n, (n - 1) * (n - 2) // 2), dtype=np.int64)
    s2 = np.empty((n, n, max(n - 2, 1)), dtype=np.int64)
    c1 = np.zeros(n, dtype=np.int64)
    c2 = np.zeros((n, n), dtype=np.int64)
    b1 = np.zeros(n)
    b2 = np.zeros((n, n))
    b0 = 0.0
    t = 0
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                v = eval5(l0, l1, cards[i], cards[j], cards[k])
                b = bonus[v]
                s0[t] = v
                t += 1
                b0 += b
                s1[i, c1[i]] = v
                c1[i] += 1
                s1[j, c1[j]] = v
                c1[j] += 1
                s1[k, c1[k]] = v
                c1[k] += 1
                b1[i] += b
                b1[j] += b
                b1[k] += b
                s2[i, j, c2[i, j]] = v
                c2[i, j] += 1
                s2[i, k, c2[i, k]] = v
                c2[i, k] += 1
                s2[j, k, c2[j, k]] = v
                c2[j, k] += 1
                b2[i, j] += b
                b2[i, k] += b
                b2[j, k] += b
    s0.sort()
    for i in range(n):
        s1[i].sort()
        for j in range(i + 1, n):
            s2[i, j].sort()
    return s0, s1, s2, b0, b1, b2


@njit
def _above_equal(arr, s):
    lo = np.searchsorted(arr, s, side="left")
    hi = np.searchsorted(arr, s, side="right")
    return arr.shape[0] - hi, hi - lo


@njit
def _last_counts(prep, l0, l1, cards, bonus, removed, r, s):
    """(draws, draws above s, draws equal to s, bonus sum) of the last seat from the deck without
    the card indices ``removed[:r]`` (inclusion-exclusion, see the module docstring)."""
    s0, s1, s2, b0, b1, b2 = prep
    n = cards.shape[0]
    m = n - r
    total = m * (m - 1) * (m - 2) // 6
    gt, eq = _above_equal(s0, s)
    bsum = b0
    for a in range(r):
        x = removed[a]
        g, e = _above_equal(s1[x], s)
        gt -= g
        eq -= e
        bsum -= b1[x]
    for a in range(r):
        for b in range(a + 1, r):
            x, y = min(removed[a], removed[b]), max(removed[a], removed[b])
            g, e = _above_equal(s2[x, y], s)
            gt += g
            eq += e
            bsum += b2[x, y]
    for a in range(r):
        for b in range(a + 1, r):
            for c in range(b + 1, r):
                v = eval5(l0, l1, cards[removed[a]], cards[removed[b]], cards[removed[c]])
                gt -= 1 if v > s else 0
                eq -= 1 if v == s else 0
                bsum -= bonus[v]
    return total, gt, eq, bsum


@njit
def _holder_share(prep, l0, l1, cards, bonus, removed, r, s, m, pot_before, rank, frac):
    """A holder's expected share when ``m`` players stand at ``s`` (the holder ``rank`` places from
    the last to act among them) and the last seat, facing ``pot_before`` units, replies exactly."""
    total, gt, eq, bsum = _last_counts(prep, l0, l1, cards, bonus, removed, r, s)
    pot_f = pot_before + 1
    ev_last = (bsum + gt * pot_f + eq * _share(pot_f, m + 1, 0, frac)) / total - 2.0
    if ev_last > -1.0:
        lt = total - gt - eq
        return (eq * _share(pot_f, m + 1, rank + 1, frac) + lt * _share(pot_f, m, rank, frac)) / total
    return _share(pot_before, m, rank, frac)


@njit
def _stands(f, best_value, dealer_in, n_tied, ties_dealer):
    """(stands, holders including me) for a final value ``f`` against what stands now."""
    if best_value < 0 or f > best_value:
        return True, 1
    if f == best_value:
        if dealer_in:
            return ties_dealer, 1
        return True, n_tied + 1
    return False, 0


@njit
def exact_one_later(unseen, hole, order, pos, best_value, dealer_in, n_tied, pot, bonus_by_value, options):
    """EV(play) and P(win) of seat ``order[pos]`` with exactly one seat after it, both exact
    (the last seat replies with the deck left after this seat's draw).  Ante units."""
    cards = unseen_cards(unseen)
    n = cards.shape[0]
    me = order[pos]
    last = order[pos + 1]
    ties_dealer = options[Option.dealer_loses_ties] != 0
    frac = options[Option.split_fractional] != 0
    prep = _prepare_last(hole[last, 0], hole[last, 1], cards, bonus_by_value)
    removed = np.empty(3, dtype=np.int64)
    total = 0.0
    wins = 0.0
    cnt = 0
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                cnt += 1
                f = eval5(hole[me, 0], hole[me, 1], cards[i], cards[j], cards[k])
                total += bonus_by_value[f]
                stands, m = _stands(f, best_value, dealer_in, n_tied, ties_dealer)
                if stands:
                    removed[0], removed[1], removed[2] = i, j, k
                    share = _holder_share(prep, hole[last, 0], hole[last, 1], cards, bonus_by_value, removed, 3,
                                          f, m, pot + 1, 0, frac)
                    total += share
                    if share > 0.0:
                        wins += 1.0
    return total / cnt - 2.0, wins / cnt


@njit
def standing_draws(unseen, hole, order, pos, best_value, dealer_in, n_tied, options):
    """The acting seat's draws that would stand: ``int64[k, 3]`` card indices into the unseen
    cards, and the number of all its draws."""
    cards = unseen_cards(unseen)
    n = cards.shape[0]
    me = order[pos]
    ties_dealer = options[Option.dealer_loses_ties] != 0
    out = np.empty((n * (n - 1) * (n - 2) // 6, 3), dtype=np.int64)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            for l in range(j + 1, n):
                f = eval5(hole[me, 0], hole[me, 1], cards[i], cards[j], cards[l])
                if _stands(f, best_value, dealer_in, n_tied, ties_dealer)[0]:
                    out[k, 0], out[k, 1], out[k, 2] = i, j, l
                    k += 1
    return out[:k].copy(), n * (n - 1) * (n - 2) // 6


@njit
def exact_two_later_shares(unseen, hole, order, pos, best_value, dealer_in, n_tied, pot, bonus_by_value, options,
                           draws):
    """For each given draw of seat ``order[pos]`` (rows of ``draws``: card indices into the unseen
    cards, draws that stand), its final value and its exact expected pot share when the two seats
    after it play perfectly: the middle seat decides over all its draws from the deck left, each
    answered by the last seat's exact reply (rules' pot splits).  Ante units."""
    cards = unseen_cards(unseen)
    n = cards.shape[0]
    me = order[pos]
    mid = order[pos + 1]
    last = order[pos + 2]
    ties_dealer = options[Option.dealer_loses_ties] != 0
    frac = options[Option.split_fractional] != 0
    l0, l1 = hole[last, 0], hole[last, 1]
    prep = _prepare_last(l0, l1, cards, bonus_by_value)
    values = np.empty(draws.shape[0], dtype=np.int64)
    shares = np.empty(draws.shape[0])
    removed = np.empty(6, dtype=np.int64)
    used = np.zeros(n, dtype=np.bool_)
    for d in range(draws.shape[0]):
        i, j, k = draws[d, 0], draws[d, 1], draws[d, 2]
        f = eval5(hole[me, 0], hole[me, 1], cards[i], cards[j], cards[k])
        m_me = _stands(f, best_value, dealer_in, n_tied, ties_dealer)[1]
        values[d] = f
        used[i] = used[j] = used[k] = True
        removed[0], removed[1], removed[2] = i, j, k
        # the middle seat's exact options: every draw from the deck left, the last seat's exact reply
        mid_sum = 0.0
        my_if_mid_plays = 0.0
        cnt = 0
        for p in range(n):
            if used[p]:
                continue
            for q in range(p + 1, n):
                if used[q]:
                    continue
                for t in range(q + 1, n):
                    if used[t]:
                        continue
                    cnt += 1
                    g = eval5(hole[mid, 0], hole[mid, 1], cards[p], cards[q], cards[t])
                    removed[3], removed[4], removed[5] = p, q, t
                    mid_sum += bonus_by_value[g]
                    if g > f:  # the middle seat alone holds; I am out
                        mid_sum += _holder_share(prep, l0, l1, cards, bonus_by_value, removed, 6, g, 1, pot + 2, 0,
                                                 frac)
                    elif g == f:  # it joins me (and any earlier ties): it acted last among us
                        m = m_me + 1
                        mid_sum += _holder_share(prep, l0, l1, cards, bonus_by_value, removed, 6, f, m, pot + 2, 0,
                                                 frac)
                        my_if_mid_plays += _holder_share(prep, l0, l1, cards, bonus_by_value, removed, 6, f, m,
                                                         pot + 2, 1, frac)
                    else:  # beaten: I still hold with my ties
                        my_if_mid_plays += _holder_share(prep, l0, l1, cards, bonus_by_value, removed, 6, f, m_me,
                                                         pot + 2, 0, frac)
        if mid_sum / cnt - 2.0 > -1.0:
            shares[d] = my_if_mid_plays / cnt
        else:
            shares[d] = _holder_share(prep, l0, l1, cards, bonus_by_value, removed, 3, f, m_me, pot + 1, 0, frac)
        used[i] = used[j] = used[k] = False
    return values, shares


@njit
def brute_one_later(unseen, hole, order, pos, best_value, dealer_in, n_tied, pot,
                       bonus_by_value, options):
    """EV(play) of seat ``order[pos]`` by exact nested enumeration, when exactly one
    seat is still to act after it (``pos == N - 2``) and that seat plays perfectly
    with exact knowledge of the deck left after this seat's draw.

    The readable twin of :func:`exact_one_later`: the last seat's draws enumerated
    again for every draw of this seat (no inclusion-exclusion; the rules' own
    odd-unit split).  Returns (EV(play), P(win)).
    """
    cards = unseen_cards(unseen)
    n = cards.shape[0]
    me = order[pos]
    last = order[pos + 1]
    ties_dealer = options[Option.dealer_loses_ties] != 0
    frac = options[Option.split_fractional] != 0
    use = np.ones(n, dtype=np.bool_)
    total = 0.0
    wins = 0.0
    cnt = 0
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                cnt += 1
                f = eval5(hole[me, 0], hole[me, 1], cards[i], cards[j], cards[k])
                payoff = bonus_by_value[f]
                stands, m = _stands(f, best_value, dealer_in, n_tied, ties_dealer)
                if stands:
                    use[i] = False
                    use[j] = False
                    use[k] = False
                    # the last seat's exact options over the deck left
                    n_last = 0
                    ev_last = 0.0
                    my_if_play = 0.0
                    for a in range(n):
                        if not use[a]:
                            continue
                        for b in range(a + 1, n):
                            if not use[b]:
                                continue
                            for c in range(b + 1, n):
                                if not use[c]:
                                    continue
                                g = eval5(hole[last, 0], hole[last, 1], cards[a], cards[b], cards[c])
                                n_last += 1
                                ev_last += bonus_by_value[g]
                                if g > f:
                                    ev_last += pot + 2
                                elif g == f:
                                    ev_last += _share(pot + 2, m + 1, 0, frac)
                                    my_if_play += _share(pot + 2, m + 1, 1, frac)
                                else:
                                    my_if_play += _share(pot + 2, m, 0, frac)
                    use[i] = True
                    use[j] = True
                    use[k] = True
                    if ev_last / n_last - 2.0 > -1.0:
                        share = my_if_play / n_last
                    else:
                        share = _share(pot + 1, m, 0, frac)
                    payoff += share
                    if share > 0.0:
                        wins += 1.0
                total += payoff
    return total / cnt - 2.0, wins / cnt
