"""Perfect play and the publisher-like strategy readings, as numba decision kernels.

Perfect play (spec, "Money, strategy and the figures"): the acting seat plays
iff EV(play) > EV(fold) = -1, given everything face up and assuming every later
seat does the same.

How the look-ahead is computed
------------------------------
While a five-card hand stands as best, a later seat only reacts to that hand's
value ``s``, how many players share it (``m``) and the pot.  So the continuation
is a backward sweep over hand values, one seat at a time, from the last seat
to the one after the acting seat:

* ``G_k(s, m, P)``: the expected final pot share of one of ``m`` players
  standing at value ``s`` when seat ``k`` is about to act with ``P`` units in
  the pot.  After the last seat, ``G(s, m, P) = P / m``.
* Seat ``k`` with final-value distribution ``p_k`` plays iff
  ``sum_{g>s} p_k(g) G_{k+1}(g, 1, P+1) + p_k(s) G_{k+1}(s, m+1, P+1) + E_k[bonus] - 2 > -1``
  (a suffix sum over ``g`` per pot size), and then
  ``G_k(s, m, P) = p_k(<s) G_{k+1}(s, m, P+1) + p_k(s) G_{k+1}(s, m+1, P+1)``;
  if it folds, ``G_k(s, m, P) = G_{k+1}(s, m, P)``.
* The acting seat's EV(play) is exact over its own 3-card draws from the real
  unseen deck: ``sum_f p(f) [f stands] G(f, m', P+1) + E[bonus] - 2``.

Documented approximations of the look-ahead (their effect on EV and on the
decision is measured against exact nested enumeration in
``benchmarks/bench_perfect_accuracy.py``):

1. a later seat's draw distribution is taken from the deck as it is at the
   decision, ignoring the cards that earlier draws (the acting seat's and the
   seats between) will remove;
2. pot splits in the look-ahead are fractional (the engine pays odd units to
   the last-acting tied player, as the rules say);
3. ties of more than ``MAX_TIED`` players at one value are treated as ``MAX_TIED``.

The other readings (spec, "Strategy readings") are cheaper rules over the
same distributions: *myopic* (the acting seat plays as if no seat were still
to act) and *dealer-only pot odds* (play iff P(reach the dealer) x pot > 1,
the pot taken right after the play or as the final pot when later seats use
the same rule; always play when the dealer is kicked out).  Each comes with
and without the bonus in the decision (the bonus is always paid).
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.rules.layout import Option, layout
from ricochet_math.evaluator.evaluation import NUM_VALUES
from ricochet_math.strategies.draws import (
    count_rows, expected_bonus, final_distribution, row_workspace, rows_union, unseen_cards,
)
from ricochet_math.strategies.readings import FAMILY_BASE, family_decision

__all__ = ["READING_FIELDS", "Reading", "READING_NAMES", "Readings", "readings", "MAX_TIED", "seat_values",
           "model_shares", "perfect_decision", "final_distribution", "DECISION_MARGIN"]

#: The strategy readings (spec, "Strategy readings") as kernel codes; each is used with or
#: without the bonus in the decision (the bonus is always paid).
READING_FIELDS = ("perfect", "myopic", "pot_odds_now", "pot_odds_final")
Reading = layout("Reading", READING_FIELDS, module=__name__)
#: Every reading by name, in the order the advice, the published figures and the report list them.
READING_NAMES = (
    "perfect", "perfect-no-bonus", "myopic", "myopic-no-bonus",
    "pot-odds-now", "pot-odds-now-no-bonus", "pot-odds-final", "pot-odds-final-no-bonus",
)

Readings = namedtuple("Readings", ("mine", "mine_bonus", "others", "others_bonus"))
Readings.__doc__ = """How a look-ahead seat decides: its own reading (a :data:`Reading` code, int) and
whether it counts the bonus (bool), and the same for the reading it assumes every later seat
uses (its own, except for a best response)."""

MAX_TIED = 3
#: A shortcut decides fold or play only when its EV bound is beyond -1 by more than this: far above any
#: rounding of the sums (errors of about 1e-15), so a decision taken early is the one the full look-ahead
#: would take.
DECISION_MARGIN = 1e-9


def readings(name: str) -> Readings:
    """The :class:`Readings` of a reading name (:data:`READING_NAMES`) or of a best response
    ``MINE-vs-OTHERS`` (this seat reads ``MINE``, every later seat ``OTHERS``); KeyError if unknown.

    >>> readings("pot-odds-now-no-bonus")
    Readings(mine=2, mine_bonus=False, others=2, others_bonus=False)
    """
    mine, _, others = name.partition("-vs-")
    m, mb = _reading(mine)
    o, ob = _reading(others) if others else (m, mb)
    return Readings(m, mb, o, ob)


def _reading(name: str) -> tuple[int, bool]:
    if name not in READING_NAMES:
        raise KeyError(f"unknown reading {name!r}")
    base = name.removesuffix("-no-bonus")
    return int(Reading[base.replace("-", "_")]), base == name  # plain int and bool: numba's types


@njit
def _reach_from(h, start):
    """Probability mass of ``h`` at indices >= start (start <= 0: everything)."""
    p = 0.0
    for v in range(max(start, 0), h.shape[0]):
        p += h[v]
    return p


@njit
def _pot_odds_final(use_bonus, hists, bonuses, dealer_start, kicked, n_later, pot0):
    """Final pot when each later seat (in order) plays by the dealer-only pot-odds
    rule (``Reading.pot_odds_final``, counting the bonus if ``use_bonus``), starting
    from ``pot0``; returns the per-seat play flags too (computed backward over pot sizes)."""
    # F[k, dp]: final pot if seat k faces pot pot0 + dp.
    F = np.zeros((n_later + 1, n_later + 1), dtype=np.float64)
    for dp in range(n_later + 1):
        F[n_later, dp] = pot0 + dp
    for k in range(n_later - 1, -1, -1):
        pr = 1.0 if kicked else _reach_from(hists[k], dealer_start)
        for dp in range(k + 1):  # seats before k may have played: pot0 + 0..k
            play_pot = F[k + 1, dp + 1]
            gain = pr * play_pot + (bonuses[k] if use_bonus else 0.0)
            if kicked or gain > 1.0:
                F[k, dp] = play_pot
            else:
                F[k, dp] = F[k + 1, dp]
    return F


@njit
def _continuation(reading, use_bonus, hists, bonuses, below0, n_later, pot1, dealer_start, kicked, active):
    """G[m-1, dp, s] after the acting seat stands: expected final share of one of
    m holders at grid value index s, pot pot1 + dp before the first later seat acts.

    ``hists`` are the later seats' final-value probabilities on the value grid
    (only values some seat can reach at or above the grid's lowest value matter:
    G is needed nowhere else); ``below0[k]``: seat k's probability mass below
    the grid.  ``reading``/``use_bonus``: the reading later seats use (a
    :data:`Reading` code, and whether it counts the bonus); ``dealer_start``: the first grid index that
    reaches the dealer's hand (for the dealer-only pot-odds readings);
    ``active[k]``: False for a later seat proved to fold whatever stands (its
    step is the identity, skipped).  The arrays run over ``s`` innermost so
    the perfect-play step compiles to vector code.
    """
    K = hists.shape[1]
    R = n_later + 1
    G = np.empty((MAX_TIED, R, K), dtype=np.float64)
    for m in range(MAX_TIED):
        for dp in range(R):
            val = (pot1 + dp) / (m + 1)
            for s in range(K):
                G[m, dp, s] = val
    if n_later == 0:
        return G
    Gn = np.empty_like(G)  # entries a step does not write are never read
    A = np.empty(K + 1, dtype=np.float64)  # suffix sums over g > s
    below = np.empty(K, dtype=np.float64)  # mass below s (under the grid included)
    F = np.zeros((1, 1))
    if reading == Reading.pot_odds_final:
        F = _pot_odds_final(use_bonus, hists, bonuses, dealer_start, kicked, n_later, pot1)
    for k in range(n_later - 1, -1, -1):
        if not active[k]:
            continue  # G_k = G_{k+1} for every pot the seat can face
        h = hists[k]
        bk = bonuses[k] if use_bonus else 0.0
        acc = below0[k]
        for s in range(K):
            below[s] = acc
            acc += h[s]
        pr_dealer = 1.0
        if reading >= Reading.pot_odds_now:
            pr_dealer = 1.0 if kicked else _reach_from(h, dealer_start)
        for dp in range(k + 1):  # the later seats before k may have played
            A[K] = 0.0
            g0 = G[0, dp + 1]
            for s in range(K - 1, -1, -1):
                A[s] = A[s + 1] + h[s] * g0[s]
            for m in range(MAX_TIED):
                gm = G[m, dp + 1]
                gt = G[min(m + 1, MAX_TIED - 1), dp + 1]
                stay = G[m, dp]
                out = Gn[m, dp]
                if reading == Reading.perfect:
                    for s in range(K):
                        t = h[s] * gt[s]
                        ev = A[s + 1] + t + bk - 2.0
                        out[s] = below[s] * gm[s] + t if ev > -1.0 else stay[s]
                else:
                    for s in range(K):
                        ps = h[s]
                        if reading == Reading.myopic:
                            pot_after = pot1 + dp + 1
                            ev = (1.0 - below[s] - ps) * pot_after + ps * pot_after / (m + 2) + bk - 2.0
                        elif reading == Reading.pot_odds_now:
                            ev = pr_dealer * (pot1 + dp + 1) + bk - 2.0
                        else:
                            ev = pr_dealer * F[k + 1, dp + 1] + bk - 2.0
                        out[s] = below[s] * gm[s] + ps * gt[s] if ev > -1.0 else stay[s]
        G, Gn = Gn, G  # G_k, valid for dp <= k: all that seat k - 1 reads
    return G


@njit
def _continuation_perfect(use_bonus, index, prob, length, first, K, bonuses, below0, n_later, pot1, active,
                          tie):
    """:func:`_continuation` for later seats that play perfectly, computed only where it is read:
    the same numbers, bit for bit, at every entry the acting seat's EV reads (``G[0, 0, g]`` at
    the grid indices ``g`` of the acting seat's values, and ``G[m, 0, tie]`` for every ``m`` when
    ``tie`` >= 0); other entries are left unset.

    Which entries are read: seat ``k``'s step reads ``G_{k+1}`` at the values it writes (the
    holder keeps the pot or the seat folds), at the values seat ``k`` can reach (the suffix sum
    over ``g > s``), and one tie count up (``m + 1``) only where seat ``k`` can tie (``h_k(s) >
    0``; elsewhere the tie term is ``0 * G = 0`` exactly).  So ``G_k`` is needed with ``m = 0``
    on the acting seat's values and the values of seats ``0..k-1``, and with ``m = 1, 2`` only
    where two (three) hands can meet: a few percent of the grid.  ``level[m, s]`` is the first
    ``k`` at which entry ``(m, s)`` is needed (needed at every later ``k`` too); the suffix sums
    run over seat ``k``'s values only (the others add exactly 0).

    The distributions are :func:`~ricochet_math.strategies.draws.table_rows`' compact rows: row 0
    the acting seat's, row ``1 + k`` later seat ``k``'s (``hists[k]`` of :func:`_continuation`
    where it is not 0), the grid index of entry ``j`` being ``index[row, j]`` for ``j >=
    first[row]`` (the entries below are under the grid and have no index).  The acting seat's values on the grid
    are the entries of ``G[0, 0]`` its EV reads."""
    R = n_later + 1
    never = n_later + 1
    level = np.full((MAX_TIED, K), never, dtype=np.int8)
    # todo[m] for m = 1, 2: the grid indices by the level from which they are needed, appended as their
    # level is found (levels are found in increasing order, each entry once): seat k writes the
    # first n_upto[m, k + 1] of them (each entry is computed on its own: their order does not matter).
    # The tie counts m = 1, 2 are stored only at the values where some tie is needed (a tie of three
    # needs one of two: the m = 2 entries are among the m = 1 ones), at slot[g], in todo[1]'s order.
    # (m = 0: every grid index is needed from some level on; the backward steps walk them by level[0].)
    max_reach = 0
    for k in range(n_later):
        max_reach = max(max_reach, length[k + 1] - first[k + 1])
    # the integer arrays in one allocation: todo (one spare: appends are written before they count), slot,
    # the walk's entries and at (below), the seat's grid values, n_upto (every entry read is written below)
    ints = np.empty(MAX_TIED * (K + 1) + 7 * K + max_reach + 1 + MAX_TIED * (R + 2), dtype=np.int32)
    todo = ints[:MAX_TIED * (K + 1)].reshape((MAX_TIED, K + 1))
    o = MAX_TIED * (K + 1)
    slot = ints[o:o + K]
    walk = ints[o + K:o + 2 * K]
    at = ints[o + 2 * K:o + 3 * K]
    reach_g = ints[o + 3 * K:o + 3 * K + max_reach + 1]
    n_upto = ints[o + 3 * K + max_reach + 1:o + 3 * K + max_reach + 1 + MAX_TIED * (R + 2)].reshape((MAX_TIED, R + 2))
    o += 3 * K + max_reach + 1 + MAX_TIED * (R + 2)
    # a step's m = 0 updates, as lists (grid index, the seat's values below it): where the seat cannot tie
    # (plain) and where it can (tie)
    plain_g = ints[o:o + K]
    plain_c = ints[o + K:o + 2 * K]
    tie_g = ints[o + 2 * K:o + 3 * K]
    tie_c = ints[o + 3 * K:o + 4 * K]
    for j in range(first[0], length[0]):
        level[0, index[0, j]] = 0
    n1 = 0
    n2 = 0
    if tie >= 0:
        level[0, tie] = 0
        level[1, tie] = 0
        level[2, tie] = 0
        slot[tie] = 0
        todo[1, 0] = tie
        todo[2, 0] = tie
        n1 = 1
        n2 = 1
    n_upto[1, 1] = n1
    n_upto[2, 1] = n2
    for k in range(n_later):  # forward: what G_{k+1} must hold, from what G_k must hold
        f = first[k + 1]
        n_reach = length[k + 1] - f
        for j in range(f, length[k + 1]):  # the seat's values on the grid, ascending
            g = index[k + 1, j]
            l0 = level[0, g]
            if l0 > k + 1:
                level[0, g] = k + 1
            elif l0 <= k:  # needed with m = 0 already: a tie here continues at m = 1 (and m = 2)
                l1 = level[1, g]
                if l1 > k + 1:
                    level[1, g] = k + 1
                    slot[g] = n1
                    todo[1, n1] = g
                    n1 += 1
                elif level[2, g] > k + 1:  # l1 <= k: a tie of two is needed already
                    level[2, g] = k + 1
                    todo[2, n2] = g
                    n2 += 1
        n_upto[1, k + 2] = n1
        n_upto[2, k + 2] = n2
    # Storage: G0[dp, g] (m = 0) over the grid, one pot at a time (a step updates its entries pot by
    # pot); G12[m - 1, slot[g], dp] for m = 1, 2.  G after the last seat where it is read.
    # the float arrays in one allocation: G0, G12, and cum, A and h (below)
    n12 = 2 * max(n1, 1) * R
    floats = np.empty(K * R + n12 + (max_reach + 1) * (R + 2), dtype=np.float64)
    G0 = floats[:K * R].reshape((R, K))
    G12 = floats[K * R:K * R + n12].reshape((2, max(n1, 1), R))
    o = K * R + n12
    for dp in range(R):
        G0[dp, :] = (pot1 + dp) / 1
    for sl in range(n1):
        for m in range(1, MAX_TIED):
            for dp in range(R):
                G12[m - 1, sl, dp] = (pot1 + dp) / (m + 1)
    # Each step updates G in place: entry (g, dp) of G_k reads G_{k+1} at (g, dp + 1) and (g, dp) only,
    # so ascending dp reads each old value before it is replaced; the suffix sums are taken before
    # the step's updates, m = 0 reads the tie counts before m = 1 and 2 are updated, and m = 1 reads
    # m = 2 before it is.  Entries a step does not update are never read again.
    # cum[j]: the seat's mass below its j-th grid value (under the grid included), summed in ascending
    # order as over every grid value (the values it cannot reach add exactly 0)
    cum = floats[o:o + max_reach + 1]
    A = floats[o + max_reach + 1:o + (max_reach + 1) * (R + 1)].reshape((R, max_reach + 1))  # A[dp, j]: sum
    # over the seat's values j.. of h * G0[dp + 1, .]
    # An entry where the seat folds at every pot is left as it is (exact, never a different number): every
    # share is at most the largest final pot, so the seat's EV(play) there is at most its mass at and
    # above the value (1 - the mass below) times that pot, plus its bonus, minus 2; when that is below
    # -1 by more than any rounding of the sums (DECISION_MARGIN, against errors of about 1e-15), it folds.  The
    # bound falls as the mass below rises (rounding is monotone), so the entries left as they are are
    # those above one grid index, g_max, found once per seat.
    pot_max = pot1 + n_later
    fold_below = -1.0 - DECISION_MARGIN
    # The m = 0 entries are visited in grid order: step k walks the entries of level <= k + 1 (those of
    # level <= k, which it updates, and seat k's values, which it reads), so a pointer into the seat's
    # values moves by one at each of them (no search); the walk keeps, in place, the entries of level
    # <= k for the next step.  Every grid index is an m = 0 entry of some level.
    for g in range(K):
        walk[g] = g
    n_walk = K
    # at[g]: 2 (the seat's values below g) + (1 if it reaches g), for m = 1, 2; reach_g: the seat's grid
    # values, and K after the last; h: their probabilities, and 0 after the last
    h = floats[o + (max_reach + 1) * (R + 1):]
    for k in range(n_later - 1, -1, -1):
        g_max = -1  # no entry is updated (the seat folds everywhere, or is inactive)
        f = first[k + 1]
        bk = bonuses[k] if use_bonus else 0.0
        reach_g[0] = K
        if active[k]:
            n_reach = length[k + 1] - f
            acc = below0[k]
            for j in range(n_reach):
                cum[j] = acc
                h[j] = prob[k + 1, f + j]
                acc += h[j]
                reach_g[j] = index[k + 1, f + j]
            cum[n_reach] = acc
            reach_g[n_reach] = K
            h[n_reach] = 0.0
            r_fold = n_reach + 1  # the first count of values below at which the seat folds at every pot
            for r in range(n_reach + 1):
                if (1.0 - cum[r]) * pot_max + bk - 2.0 < fold_below:
                    r_fold = r
                    break
            if r_fold > 0:
                g_max = K - 1 if r_fold > n_reach else reach_g[r_fold - 1]
                # the suffix sums, every pot the seat can face (dp <= k: the later seats before k may have played)
                for dp in range(k + 1):
                    A[dp, n_reach] = 0.0
                for j in range(n_reach - 1, -1, -1):
                    g = reach_g[j]
                    hg = h[j]
                    for dp in range(k + 1):
                        A[dp, j] = A[dp, j + 1] + hg * G0[dp + 1, g]
        # m = 0: a tie continues at m = 1 (read only where the seat can tie: t = 0 exactly elsewhere).
        # The walk lists the entries to update, then they are updated pot by pot.
        c = 0  # the seat's values below g
        n_keep = 0
        n_plain = 0
        n_tie = 0
        i = 0
        while i < n_walk:
            g = walk[i]
            if g > g_max:
                break
            hit = 1 if reach_g[c] == g else 0
            if level[0, g] <= k:
                at[g] = 2 * c + hit
                if hit:
                    tie_g[n_tie] = g
                    tie_c[n_tie] = c
                    n_tie += 1
                else:
                    plain_g[n_plain] = g
                    plain_c[n_plain] = c
                    n_plain += 1
                walk[n_keep] = g
                n_keep += 1
            c += hit
            i += 1
        while i < n_walk:  # above g_max: left as they are (the seat folds at every pot)
            g = walk[i]
            walk[n_keep] = g
            n_keep += 1 if level[0, g] <= k else 0
            i += 1
        n_walk = n_keep
        if g_max < 0:
            continue
        for dp in range(k + 1):  # ascending: each reads the next pot before it is replaced
            now = G0[dp]
            nxt = G0[dp + 1]
            a = A[dp]
            for i in range(n_plain):
                g = plain_g[i]
                c = plain_c[i]
                stay = now[g]
                play = cum[c] * nxt[g] + 0.0
                now[g] = play if a[c] + 0.0 + bk - 2.0 > -1.0 else stay
            for i in range(n_tie):
                g = tie_g[i]
                c = tie_c[i]
                stay = now[g]
                t = h[c] * G12[0, slot[g], dp + 1]
                play = cum[c] * nxt[g] + t
                now[g] = play if a[c + 1] + t + bk - 2.0 > -1.0 else stay
        # m = 1, 2: a tie continues at m = 2 (ties beyond MAX_TIED = 3 holders count as 3); their
        # entries are m = 0 entries of the same level or lower, so at[g] is set
        for m in range(1, MAX_TIED):
            for i in range(n_upto[m, k + 1]):
                g = todo[m, i]
                if g > g_max:
                    continue
                x = at[g]
                c = x >> 1
                jn = c + (x & 1)
                hs = h[c] if x & 1 else 0.0
                bl = cum[c]
                sl = slot[g]
                for dp in range(k + 1):
                    stay = G12[m - 1, sl, dp]
                    t = hs * G12[1, sl, dp + 1]  # 0 * share = 0 exactly where the seat cannot tie
                    play = bl * G12[m - 1, sl, dp + 1] + t
                    G12[m - 1, sl, dp] = play if A[dp, jn] + t + bk - 2.0 > -1.0 else stay
    out = np.empty((MAX_TIED, 1, K), dtype=np.float64)  # the entries the acting seat reads, as _continuation's
    for j in range(first[0], length[0]):  # the entries of level 0: my values, and the tie
        g = index[0, j]
        out[0, 0, g] = G0[0, g]
    if tie >= 0:
        out[0, 0, tie] = G0[0, tie]
        for m in range(1, MAX_TIED):
            out[m, 0, tie] = G12[m - 1, slot[tie], 0]
    return out


def seat_values(reading, unseen, hole, order, pos, best_value, dealer_in, n_tied, pot,
                dealer_kicked, bonus_by_value, options):
    """(EV(play), EV(fold), P(win the pot), E[bonus], play?) of the seat ``order[pos]``.

    ``reading``: a reading name (:data:`READING_NAMES`, or ``MINE-vs-OTHERS``) or
    :class:`Readings`.  EVs are expected net results in ante units (the ante
    already in the pot counts as lost on a fold: EV(fold) = -1).  See
    :func:`perfect_decision` for the other arguments.  P(win) is the probability
    the seat ends holding (a share of) the pot if it plays.
    """
    return _values_at(_as_readings(reading), unseen, hole, order, pos, best_value, dealer_in, n_tied, pot,
                      dealer_kicked, bonus_by_value, options, False)[:5]


def model_shares(reading, unseen, hole, order, pos, best_value, dealer_in, n_tied, pot,
                 dealer_kicked, bonus_by_value, options):
    """The look-ahead's expected pot share of the acting seat if it plays and ends its draw at
    each value: ``float64[7462]`` (-1 where that value does not stand).  EV(play) of
    :func:`seat_values` is ``sum_f p(f) max(share[f], 0) + E[bonus] - 2``; the exact references
    in :mod:`ricochet_math.solvers.nested` compare their shares draw by draw with these."""
    return _values_at(_as_readings(reading), unseen, hole, order, pos, best_value, dealer_in, n_tied, pot,
                      dealer_kicked, bonus_by_value, options, True)[5]


def _as_readings(reading) -> Readings:
    if isinstance(reading, str):
        return readings(reading)
    return Readings(int(reading[0]), bool(reading[1]), int(reading[2]), bool(reading[3]))


@njit
def _values_at(rd, unseen, hole, order, pos, best_value, dealer_in, n_tied, pot, dealer_kicked, bonus_by_value,
               options, want_shares):
    """:func:`_seat_values` from the unseen-card mask ``unseen``, with the shares by value when
    ``want_shares`` (else an empty array) as a sixth entry."""
    seats = order[pos:]
    n_seats = seats.shape[0]
    ws = row_workspace(unseen_cards(unseen), n_seats)
    lo = _grid_lo(rd, best_value, options)
    count_rows(hole, seats, 0, n_seats, ws, bonus_by_value, lo)
    values, index, prob, length = rows_union(ws, n_seats, best_value, lo)
    shares = np.full(NUM_VALUES if want_shares else 0, -1.0)
    ev_play, ev_fold, p_win, b_me, play = _seat_values(rd, values, index, prob, length, ws.sums, ws.first, order,
                                                       pos, best_value, dealer_in, n_tied, pot, dealer_kicked,
                                                       bonus_by_value, options, shares)
    return ev_play, ev_fold, p_win, b_me, play, shares


@njit
def _grid_lo(rd, best_value, options):
    """The lowest value of the look-ahead's grid (see :func:`_seat_values`): the value to beat, or
    lower for the dealer-only readings, which also need the values that reach the dealer's hand."""
    lo = max(best_value, 0)
    if rd.others >= Reading.pot_odds_now or rd.mine >= Reading.pot_odds_now:
        dv = options[Option.dealer_value]
        dv_reach = dv if options[Option.dealer_loses_ties] != 0 else dv + 1
        lo = max(min(lo, dv_reach), 0)
    return lo


@njit
def _seat_values(rd, values, index, prob, length, sums, first, order, pos, best_value, dealer_in, n_tied, pot,
                 dealer_kicked, bonus_by_value, options, shares_out):
    """:func:`seat_values` given the final-value distributions of the acting seat (row 0) and of
    the later seats (rows 1.., in order of play) as the compact rows of
    :func:`~ricochet_math.strategies.draws.table_rows` over the ascending ``values``, the grid
    (:func:`~ricochet_math.strategies.draws.rows_union` from ``lo = _grid_lo(...)`` up, with
    ``best_value``); ``shares_out`` (float64[7462] or empty) receives the share by value.  Every
    sum runs over a row's entries in ascending value order, as over the dense histograms (the
    values a seat cannot reach add exactly 0).  ``sums`` and ``first``: each row's expected bonus,
    mass below the grid and first entry on the grid, as
    :func:`~ricochet_math.strategies.draws.count_rows` sums them with ``lo = _grid_lo(...)``."""
    n = order.shape[0]
    ties_dealer = options[Option.dealer_loses_ties] != 0
    U = values.shape[0]
    b_me = sums[0, 0]
    n_later = n - pos - 1
    # automatic win: dealer kicked out, nobody stands, every other seat folded
    if dealer_kicked and best_value < 0 and n_later == 0 and options[Option.automatic_win] != 0:
        b = b_me if options[Option.bonus_on_automatic_win] != 0 else 0.0
        return pot - 1.0 + b, -1.0, 1.0, b, True
    # the dealer's own hand, for the dealer-only pot-odds readings (she may be beaten already)
    dv = options[Option.dealer_value]
    dv_reach = dv if ties_dealer else dv + 1
    # The value grid: every value some seat can reach from ``lo = _grid_lo(...)`` up, plus the
    # value to beat (the union ``values``).  Whatever stands after my play is >= best_value, so
    # lower values only count as "below" (the dealer-only readings also need the values that
    # reach her hand).
    K = U
    # the later seats' expected bonuses and mass below the grid (count_rows' sums)
    bonuses = sums[0, 1:]  # (empty with no later seat: nothing reads them then)
    below0 = sums[1, 1:]
    # the later seats' distributions on the grid, for the readings other than perfect play
    need_hists = rd.others != Reading.perfect or rd.mine >= Reading.pot_odds_now
    # (a myopic seat's own look-ahead runs over the grid with no later seat: the shape, not the rows)
    hists = np.zeros((max(n_later, 1), K) if need_hists or rd.mine != Reading.perfect else (1, 1),
                     dtype=np.float64)
    if need_hists:
        for k in range(n_later):
            for j in range(first[k + 1], length[k + 1]):
                hists[k, index[k + 1, j]] = prob[k + 1, j]
    dealer_start = K  # (read by the dealer-only readings only: the same condition as the distributions')
    if need_hists:
        for i in range(K):
            if values[i] >= dv_reach:
                dealer_start = i
                break
    # Later seats that fold whatever stands (exact: even the largest final pot cannot
    # pay for their play at the lowest value that can stand) are skipped.
    active = np.ones(max(n_later, 1), dtype=np.bool_)
    if rd.others == Reading.perfect:
        pot_max = pot + 1.0 + n_later
        for k in range(n_later):
            bk = bonuses[k] if rd.others_bonus else 0.0
            if (1.0 - below0[k]) * pot_max + bk - 2.0 <= -1.0:
                active[k] = False
    if rd.others == Reading.perfect:
        # best_value (>= 0) is in the union and is its first value on the grid
        tie = 0 if best_value >= 0 else -1
        G = _continuation_perfect(rd.others_bonus, index, prob, length, first, K, bonuses, below0, n_later,
                                  pot + 1, active, tie)
    else:
        G = _continuation(rd.others, rd.others_bonus, hists, bonuses, below0, n_later, pot + 1, dealer_start,
                          dealer_kicked, active)
    # my stand/tie structure against what stands now
    ev = 0.0
    p_win = 0.0
    for j in range(first[0], length[0]):  # my values on the grid, ascending
        pf = prob[0, j]
        g = index[0, j]
        f = values[g]
        if best_value < 0:
            share = G[0, 0, g]
        elif f > best_value:
            share = G[0, 0, g]
        elif f == best_value:
            if dealer_in:
                share = G[0, 0, g] if ties_dealer else -1.0
            else:
                share = G[min(n_tied, MAX_TIED - 1), 0, g]
        else:
            share = -1.0
        if share >= 0.0:
            ev += pf * share
            p_win += pf * (share > 0.0)
        if shares_out.shape[0] > 0:
            shares_out[f] = share
    ev_play = ev + b_me - 2.0
    # decision by the acting seat's reading
    bonus_term = b_me if rd.mine_bonus else 0.0
    if rd.mine == Reading.perfect:
        decide = ev + bonus_term - 2.0
    elif rd.mine == Reading.myopic:
        G0 = _continuation(rd.others, rd.others_bonus, hists, bonuses, below0, 0, pot + 1, dealer_start,
                           dealer_kicked, active)
        e0 = 0.0
        for j in range(first[0], length[0]):
            pf = prob[0, j]
            g = index[0, j]
            f = values[g]
            if best_value < 0 or f > best_value:
                e0 += pf * G0[0, 0, g]
            elif f == best_value:
                if dealer_in:
                    if ties_dealer:
                        e0 += pf * G0[0, 0, g]
                else:
                    e0 += pf * G0[min(n_tied, MAX_TIED - 1), 0, g]
        decide = e0 + bonus_term - 2.0
    else:
        if dealer_kicked:
            decide = 1e9
        else:
            pr = 0.0
            for j in range(first[0], length[0]):  # (the values below the grid are below dv_reach)
                if values[index[0, j]] >= dv_reach:
                    pr += prob[0, j]
            if rd.mine == Reading.pot_odds_now:
                final_pot = pot + 1.0
            else:
                F = _pot_odds_final(rd.mine_bonus, hists, bonuses, dealer_start, dealer_kicked, n_later, pot + 1)
                final_pot = F[0, 0] if n_later > 0 else pot + 1.0
            decide = pr * final_pot + bonus_term - 2.0
    return ev_play, -1.0, p_win, b_me, decide > -1.0


@njit
def _reading_decision(reading, use_bonus, unseen, hole, order, pos, best_value, dealer_in, n_tied, pot,
                      dealer_kicked, bonus_by_value, options):
    """The myopic and dealer-only pot-odds readings without the full look-ahead
    (the same rules as in :func:`seat_values`, computed from the distributions
    they need only)."""
    cards = unseen_cards(unseen)
    seat = order[pos]
    n_later = order.shape[0] - pos - 1
    if dealer_kicked and best_value < 0 and n_later == 0 and options[Option.automatic_win] != 0:
        return True
    ties_dealer = options[Option.dealer_loses_ties] != 0
    h = final_distribution(hole[seat, 0], hole[seat, 1], cards)
    b = expected_bonus(h, bonus_by_value) if use_bonus else 0.0
    if reading == Reading.myopic:
        # as if no seat were still to act: win the pot after my play (or share a tie)
        ev = 0.0
        for f in range(NUM_VALUES):
            pf = h[f]
            if pf == 0.0:
                continue
            if best_value < 0 or f > best_value:
                ev += pf * (pot + 1.0)
            elif f == best_value:
                if dealer_in:
                    if ties_dealer:
                        ev += pf * (pot + 1.0)
                else:
                    ev += pf * (pot + 1.0) / (n_tied + 1)
        return ev + b - 2.0 > -1.0
    if dealer_kicked:
        return True
    dv = options[Option.dealer_value]
    reach = dv if ties_dealer else dv + 1
    pr = 0.0
    for v in range(max(reach, 0), NUM_VALUES):
        pr += h[v]
    if reading == Reading.pot_odds_now:
        return pr * (pot + 1.0) + b - 2.0 > -1.0
    # pot odds on the final pot: later seats use the same rule on their own odds, backward over pot sizes
    if n_later == 0:
        return pr * (pot + 1.0) + b - 2.0 > -1.0
    reach_later = np.empty(n_later, dtype=np.float64)
    bonus_later = np.empty(n_later, dtype=np.float64)
    for k in range(n_later):
        s2 = order[pos + 1 + k]
        h2 = final_distribution(hole[s2, 0], hole[s2, 1], cards)
        p2 = 0.0
        for v in range(max(reach, 0), NUM_VALUES):
            p2 += h2[v]
        reach_later[k] = p2
        bonus_later[k] = expected_bonus(h2, bonus_by_value) if use_bonus else 0.0
    # F[k][dp]: final pot when later seat k faces pot (pot + 1) + dp
    F = np.zeros((n_later + 1, n_later + 1), dtype=np.float64)
    for dp in range(n_later + 1):
        F[n_later, dp] = pot + 1.0 + dp
    for k in range(n_later - 1, -1, -1):
        for dp in range(k + 1):
            play_pot = F[k + 1, dp + 1]
            if reach_later[k] * play_pot + bonus_later[k] - 2.0 > -1.0:
                F[k, dp] = play_pot
            else:
                F[k, dp] = F[k + 1, dp]
    return pr * F[0, 0] + b - 2.0 > -1.0


@njit
def _early_decision(ws, n_seats, best_value, dealer_in, n_tied, pot, ties_dealer, use_bonus, others_perfect,
                    others_bonus):
    """1 (play) or -1 (fold) where bounds of the acting seat's EV(play) decide it before any look-ahead,
    else 0.  EV(play) counts the bonus term as its reading does (:func:`_seat_values`), in ante units;
    read from :func:`~ricochet_math.strategies.draws.count_rows`' rows alone (row 0 the acting seat's,
    rows 1.. the later seats' in order of play).

    Lower bound: one of ``m + 1`` holders at value ``s`` keeps at least ``P / (m + 1)`` whenever every
    later seat ends below ``s`` or folds (a seat that plays and ends below only adds to the pot; any
    other outcome counts 0), so the look-ahead's share at ``s`` is at least ``(pot + 1) / (m + 1)
    prod_k f_k(s)`` with ``f_k(s) = P_k(final < s)`` (by induction over the backward steps of
    :func:`_continuation`: ``G_k >= f_k(s) G_{k+1}`` whether seat ``k`` plays or folds), and ``f_k(s)
    = 1`` where a perfect later seat folds for sure facing ``s`` (its EV(play) is at most its mass at
    and above ``s`` times the largest pot, plus its bonus, minus 2).  Each later seat that plays for
    sure facing ``s`` (below) has added its unit to the pot when every seat ends below ``s``: the pot
    in the bound is ``pot + 1`` plus their number.

    Upper bound: the share is at most the largest pot over ``m + 1``, times ``P_k(final <= s)`` for each
    later seat ``k`` that plays for sure facing ``s`` (whatever the pot and the ties; counted only when
    the later seats play perfectly), and the largest pot leaves out the seats that fold for sure
    facing ``s`` (where I end holding ``s``, every later seat faced ``s``).  A seat plays for sure when,
    by the lower bound applied to it, its EV(play) is at least ``(pot + 2)`` times its mass above ``s``
    times ``prod_{j > k} f_j(s)`` (``f_j`` only rises with the value), plus its bonus, minus 2, above -1.

    Either bound decides when it is beyond -1 by DECISION_MARGIN, far above any rounding of these sums or of
    the look-ahead's (about 1e-15), so the decision is the one the full look-ahead makes, never
    another (tests/strategies/test_perfect_kernel.py checks both bounds against it).  Summed from my highest
    value down, where the shares are largest, and stopped once neither can decide: what is left
    adds at most the largest pot times ``prod_k f_k(s)`` times my mass still to come to the lower
    bound (the product only falls as ``s`` falls), and the upper bound only grows."""
    row_values, prob, length = ws.row_values, ws.prob, ws.length
    n_later = n_seats - 1
    size = max(n_later, 1)
    ptr = np.empty(size, dtype=np.int64)  # each later seat's lowest value >= s
    above = np.zeros(size, dtype=np.float64)  # its mass at and above s
    at_s = np.empty(size, dtype=np.float64)  # its mass at s
    fac = np.empty(size, dtype=np.float64)  # f_k(s)
    bonus = np.empty(size, dtype=np.float64)  # its bonus as its reading counts it
    for k in range(n_later):
        ptr[k] = length[k + 1]
        bonus[k] = ws.sums[0, k + 1] if others_bonus else 0.0
    pot1 = pot + 1.0
    pot_max = pot1 + n_later
    b_me = ws.sums[0, 0] if use_bonus else 0.0
    play_above = 1.0 + DECISION_MARGIN - b_me  # the shares' sum that makes EV(play) > -1 + margin
    fold_below = 1.0 - DECISION_MARGIN - b_me  # ... that makes it <= -1 - margin
    lower = 0.0
    upper = 0.0
    left = 1.0 + DECISION_MARGIN  # my mass not yet summed, rounded up
    can_play = True  # each bound is summed only while it can still decide
    can_fold = True
    for j in range(length[0] - 1, -1, -1):  # my values, descending
        f = row_values[0, j]
        if best_value < 0 or f > best_value:
            holders = 1
        elif f == best_value and (not dealer_in or ties_dealer):
            holders = 1 if dealer_in else min(n_tied, MAX_TIED - 1) + 1
        else:
            break  # this value and every lower one does not stand: both sums are complete
        prod = 1.0
        n_fold = 0  # later seats that fold for sure facing s
        for k in range(n_later):
            r = k + 1
            i = ptr[k]
            acc = above[k]
            while i > 0 and row_values[r, i - 1] >= f:
                i -= 1
                acc += prob[r, i]
            ptr[k] = i
            above[k] = acc
            folds = others_perfect and acc * pot_max + bonus[k] - 2.0 < -1.0 - DECISION_MARGIN
            n_fold += folds
            fac[k] = 1.0 if folds else max(1.0 - acc, 0.0)
            prod *= fac[k]
            at_s[k] = prob[r, i] if i < length[r] and row_values[r, i] == f else 0.0
        cap = 1.0  # the upper bound's factors, from the last seat back
        n_sure = 0  # later seats that play for sure facing s
        if others_perfect:
            after = 1.0  # prod_{j > k} f_j(s)
            for k in range(n_later - 1, -1, -1):
                if (pot1 + 1.0) * (above[k] - at_s[k]) * after + bonus[k] - 2.0 > -1.0 + DECISION_MARGIN:
                    cap *= min(1.0 - above[k] + at_s[k], 1.0)  # seat k plays for sure: it must not beat s
                    n_sure += 1
                after *= fac[k]
        p = prob[0, j]
        left -= p
        if can_fold:  # the pot I can end with: the seats that fold for sure add nothing to it
            upper += p * ((pot_max - n_fold) / holders) * cap
            can_fold = upper <= fold_below  # (the sum only grows)
        if can_play:  # ... the seats that play for sure add theirs when every seat ends below s
            lower += p * ((pot1 + n_sure) / holders) * prod
            if lower > play_above:
                return 1
            # what is left adds at most (pot + 1 + every later seat) prod times my mass still to come
            can_play = lower + pot_max * prod * left > play_above
        if not can_play and not can_fold:
            return 0
    return -1 if can_fold else 0


@njit
def perfect_decision(rd, unseen, hole, order, pos, best_value, dealer_in, n_tied, pot,
                     dealer_kicked, bonus_by_value, options):
    """Return True to play, False to fold, for the seat ``order[pos]``.

    rd: :class:`Readings`; unseen: uint8[52], 1 = card unseen (may still be drawn);
    hole: int64[N, 2]; order: int64[N] seats in acting order; pos: index into
    ``order`` of the acting seat; best_value: value the acting seat must reach
    (-1: nothing to beat); dealer_in: the dealer holds best_value (not kicked
    out, not beaten); n_tied: players standing at best_value; pot: units in the
    pot now; dealer_kicked; bonus_by_value: float64[7462] bonus in ante units;
    options: int64[len(Option)] (:data:`~ricochet_math.rules.layout.Option`; the
    dealer's own hand value in its slot, which the dealer-only readings need
    once she is beaten).
    """
    if rd.mine >= FAMILY_BASE:  # the publisher-like family (ricochet_math.strategies.readings)
        return family_decision(rd.mine, rd.mine_bonus, unseen, hole, order, pos, best_value, dealer_in, n_tied,
                               pot, dealer_kicked, bonus_by_value, options)
    if rd.mine != Reading.perfect:
        return _reading_decision(rd.mine, rd.mine_bonus, unseen, hole, order, pos, best_value, dealer_in, n_tied,
                                 pot, dealer_kicked, bonus_by_value, options)
    # Exact shortcut, never a different decision: a share can never exceed the
    # largest final pot, so if even that cannot pay for the play, fold now.
    n_later = order.shape[0] - pos - 1
    auto = dealer_kicked and best_value < 0 and n_later == 0 and options[Option.automatic_win] != 0
    cards = unseen_cards(unseen)
    seats = order[pos:]
    n_seats = seats.shape[0]
    ws = row_workspace(cards, n_seats)
    lo = _grid_lo(rd, best_value, options)
    first = 0
    if not auto and best_value >= 0:  # the acting seat's own distribution only
        # its row is made once: the full table below reuses it
        count_rows(hole, seats, 0, 1, ws, bonus_by_value, lo)
        first = 1
        row_values, prob, length = ws.row_values, ws.prob, ws.length
        ties = dealer_in and options[Option.dealer_loses_ties] == 0
        reach = 0.0
        for j in range(length[0]):
            if row_values[0, j] >= best_value + (1 if ties else 0):
                reach += prob[0, j]
        b = ws.sums[0, 0] if rd.mine_bonus else 0.0
        if reach * (pot + 1 + n_later) + b - 2.0 <= -1.0:
            return False
    count_rows(hole, seats, first, n_seats, ws, bonus_by_value, lo)
    if not auto:
        early = _early_decision(ws, n_seats, best_value, dealer_in, n_tied, pot, options[Option.dealer_loses_ties] != 0,
                                rd.mine_bonus, rd.others == Reading.perfect, rd.others_bonus)
        if early != 0:
            return early > 0  # exact shortcut, never a different decision (see _early_decision)
    values, index, prob, length = rows_union(ws, n_seats, best_value, lo)
    return _seat_values(rd, values, index, prob, length, ws.sums, ws.first, order, pos, best_value, dealer_in, n_tied, pot,
                        dealer_kicked, bonus_by_value, options, np.empty(0))[4]
