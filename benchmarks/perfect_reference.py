"""A frozen copy of the perfect-play look-ahead as it was before issue 14 (commit b133a16):
``strategies/perfect.py`` and ``strategies/draws.py`` with dense 7,462-value histograms per seat.

The reference the faster kernel is checked against, bit for bit
(``benchmarks/check_perfect_identical.py``, ``tests/strategies/test_perfect_kernel.py``), and the "old"
side of the same-run ratios in ``benchmarks/bench_speed.py``.  Do not edit: it is the baseline.
"""
from __future__ import annotations

from collections import namedtuple

import numpy as np

from numba import njit as _numba_njit

from ricochet_math.evaluator.evaluation import NUM_VALUES, draw_histogram
from ricochet_math.rules.layout import Option, layout

__all__ = ["seat_values", "perfect_decision", "model_shares", "final_distribution"]


def njit(*args, **kwargs):
    """The project's defaults (``cache=True``, ``nogil``), outside the package's cache stamp."""
    kwargs.setdefault("cache", True)
    kwargs.setdefault("nogil", True)
    return _numba_njit(*args, **kwargs)

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
    cards = unseen_cards(unseen)
    seat = order[pos]
    h_me = final_distribution(hole[seat, 0], hole[seat, 1], cards)
    shares = np.full(NUM_VALUES if want_shares else 0, -1.0)
    ev_play, ev_fold, p_win, b_me, play = _seat_values(rd, cards, h_me, hole, order, pos, best_value, dealer_in,
                                                       n_tied, pot, dealer_kicked, bonus_by_value, options, shares)
    return ev_play, ev_fold, p_win, b_me, play, shares


@njit
def _seat_values(rd, cards, h_me, hole, order, pos, best_value, dealer_in, n_tied, pot,
                 dealer_kicked, bonus_by_value, options, shares_out):
    """:func:`seat_values` given the unseen ``cards`` and the acting seat's final-value
    distribution ``h_me``; ``shares_out`` (float64[7462] or empty) receives the share by value."""
    n = order.shape[0]
    ties_dealer = options[Option.dealer_loses_ties] != 0
    b_me = expected_bonus(h_me, bonus_by_value)
    n_later = n - pos - 1
    # automatic win: dealer kicked out, nobody stands, every other seat folded
    if dealer_kicked and best_value < 0 and n_later == 0 and options[Option.automatic_win] != 0:
        b = b_me if options[Option.bonus_on_automatic_win] != 0 else 0.0
        return pot - 1.0 + b, -1.0, 1.0, b, True
    # the dealer's own hand, for the dealer-only pot-odds readings (she may be beaten already)
    dv = options[Option.dealer_value]
    dv_reach = dv if ties_dealer else dv + 1
    # The value grid: every value some seat can reach from ``lo`` up, plus the value to
    # beat.  Whatever stands after my play is >= best_value, so lower values only count
    # as "below" (the dealer-only readings also need the values that reach her hand).
    lo = max(best_value, 0)
    if rd.others >= Reading.pot_odds_now or rd.mine >= Reading.pot_odds_now:
        lo = max(min(lo, dv_reach), 0)
    full = np.empty((max(n_later, 1), NUM_VALUES), dtype=np.float64)
    bonuses = np.zeros(max(n_later, 1), dtype=np.float64)
    below0 = np.zeros(max(n_later, 1), dtype=np.float64)
    for k in range(n_later):
        s2 = order[pos + 1 + k]
        full[k] = final_distribution(hole[s2, 0], hole[s2, 1], cards)
        bonuses[k] = expected_bonus(full[k], bonus_by_value)
        acc = 0.0
        for v in range(lo):
            acc += full[k, v]
        below0[k] = acc
    index = np.full(NUM_VALUES, -1, dtype=np.int64)
    K = 0
    for v in range(lo, NUM_VALUES):
        hit = v == best_value or h_me[v] > 0.0
        if not hit:
            for k in range(n_later):
                if full[k, v] > 0.0:
                    hit = True
                    break
        if hit:
            index[v] = K
            K += 1
    grid = np.empty(K, dtype=np.int64)
    for v in range(lo, NUM_VALUES):
        if index[v] >= 0:
            grid[index[v]] = v
    hists = np.zeros((max(n_later, 1), K), dtype=np.float64)
    for k in range(n_later):
        for i in range(K):
            hists[k, i] = full[k, grid[i]]
    dealer_start = K
    for i in range(K):
        if grid[i] >= dv_reach:
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
    G = _continuation(rd.others, rd.others_bonus, hists, bonuses, below0, n_later, pot + 1, dealer_start,
                      dealer_kicked, active)
    # my stand/tie structure against what stands now
    ev = 0.0
    p_win = 0.0
    for f in range(lo, NUM_VALUES):
        pf = h_me[f]
        if pf == 0.0:
            continue
        g = index[f]
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
        for f in range(lo, NUM_VALUES):
            pf = h_me[f]
            if pf == 0.0:
                continue
            g = index[f]
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
            for v in range(max(dv_reach, 0), NUM_VALUES):
                pr += h_me[v]
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
    if rd.mine != Reading.perfect:
        return _reading_decision(rd.mine, rd.mine_bonus, unseen, hole, order, pos, best_value, dealer_in, n_tied,
                                 pot, dealer_kicked, bonus_by_value, options)
    # Exact shortcut, never a different decision: a share can never exceed the
    # largest final pot, so if even that cannot pay for the play, fold now.
    seat = order[pos]
    n_later = order.shape[0] - pos - 1
    auto = dealer_kicked and best_value < 0 and n_later == 0 and options[Option.automatic_win] != 0
    cards = unseen_cards(unseen)
    h = final_distribution(hole[seat, 0], hole[seat, 1], cards)
    if not auto and best_value >= 0:
        ties = dealer_in and options[Option.dealer_loses_ties] == 0
        reach = 0.0
        for v in range(best_value + (1 if ties else 0), NUM_VALUES):
            reach += h[v]
        b = expected_bonus(h, bonus_by_value) if rd.mine_bonus else 0.0
        if reach * (pot + 1 + n_later) + b - 2.0 <= -1.0:
            return False
    return _seat_values(rd, cards, h, hole, order, pos, best_value, dealer_in, n_tied, pot,
                        dealer_kicked, bonus_by_value, options, np.empty(0))[4]
