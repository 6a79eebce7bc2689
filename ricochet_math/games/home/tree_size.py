"""How large is the exact two-player tree below a position: an unbiased estimate without solving it.

The compiled solver (:mod:`ricochet_math.games.home.exact`) stores one memo entry per distinct
**position** ``(hand to act or receiving, other hand, pot)``; the hand that acts is always the lower
one, so a position is a pair of card sets and a pot.  Transpositions are merged: the same two hands
and pot reached through other card orders or other splits of the buys are one entry.  This module
estimates that count (``ExactSolver.positions`` after ``values()`` at the root, which stores the root;
``solve_exact`` does not, one fewer) for trees too large to solve, and counts it exactly where they are
small.

**Reachability of one pair of final hands** (the exact part).  Every card a hand ever holds is its
starting cards plus cards it received, so the positions below a root ``(A0, B0, pot0)`` are indexed
by the two sets of extra cards ``(EA, EB)`` and the pot.  For one pair ``(EA, EB)`` a small forward
dynamic programme over the subsets of ``EA`` and ``EB`` (at most 2**8 pairs of subsets at the
five-card limit) follows the solver's own transitions, the lowest hand buys ``k`` (pot + k), receives
one card at a time, stops when lifted, is out when every paid card arrived without a lift, and records
the set of pots (a bit mask) with which each ``(subset A, subset B, cards still to come)`` is
reached.  The pots reached at ``(EA, EB)`` are that pair's positions.  Summing over every pair counts
the solver's memo exactly; the tests check it equal to ``ExactSolver.positions``.

**The estimate** (too many pairs to enumerate from the deal: about 10**10).  The pairs are stratified
by their sizes ``(|EA|, |EB|) = (i, j)``: stratum ``(i, j)`` holds ``C(U, i) C(U - i, j)`` pairs (``U``
unseen cards at the root) and its sum is that count times the mean over a uniform random pair, so
each stratum is either enumerated (small ones) or sampled: a pilot sample sets the allocation
(Neyman: proportional to stratum size times the pilot's standard deviation), and a *fresh* sample
(another seed stream) gives the stratum's mean, so the estimate is unbiased.  The 95% interval is the
normal one from the strata's sample variances.  Strata where both hands are full are zero (the
acting hand always has room) and skipped.

**The tree without merging** (the transpositions' factor).  The same programme counts the paths to
each position (the nodes of the unmemoised tree, one per ``exact.subgame_value`` call), so the same strata give
the tree's node count; Knuth's random-probe estimator (:func:`knuth_tree`: one random path, the
product of the branching factors, averaged over probes) is an independent estimate of that count.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ricochet_math._numba import njit
from ricochet_math.arguments import check_instance, check_seed, check_whole
from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.cards import format_cards, parse_cards
from ricochet_math.games.home.exact import popcount
from ricochet_math.games.home.hands import hand_keys, next_combination
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.random_streams import seed_state, xoshiro_uniform
from ricochet_math.solvers.stats import Estimate

__all__ = ["TreeSize", "KnuthEstimate", "pair_positions", "count_positions", "estimate_positions",
           "knuth_tree", "bytes_per_position", "table_bytes"]

_Z95 = 1.959963984540054
#: pots are kept as bits of a uint64
_POT_BITS = 64
#: the most pairs of extra-card sets one call enumerates: about 4 to 8 microseconds a pair (tree counted),
#: so under a minute or two; two-card v three-card hands (1.9 million pairs) fit, one-card deals
#: (about 7.9e9) do not and are for :func:`estimate_positions`
MAX_ENUMERATED = 10_000_000


def bytes_per_position(rules: HomeRules) -> int:
    """Bytes of one memo slot of :class:`~ricochet_math.games.home.exact.ExactSolver`: two uint64 keys and one
    float64 value per ``r = 0 .. hand limit - 1`` (56 at the five-card limit)."""
    return 16 + 8 * rules.hand_limit


def table_bytes(rules: HomeRules, positions: float) -> int:
    """Bytes of the smallest solver table that holds ``positions``: slots a power of two, at most 3/4 full."""
    slots = 16
    while slots * 3 < positions * 4:
        slots *= 2
    return slots * bytes_per_position(rules)


# ------------------------------------------------------------------ the exact programme for one pair
@njit
def _subset_keys(base, extra, n_extra, buf, masks, ranks, orders, sizes):
    """Card mask, rank key, order key and size of ``base`` plus each subset of ``extra[:n_extra]``."""
    nb = 0
    for c in range(64):
        if (base >> np.uint64(c)) & np.uint64(1):
            buf[nb] = c
            nb += 1
    for s in range(1 << n_extra):
        m = base
        n = nb
        for t in range(n_extra):
            if (s >> t) & 1:
                buf[n] = extra[t]
                n += 1
                m |= np.uint64(1) << np.uint64(extra[t])
        k, o = hand_keys(buf, n)
        masks[s], ranks[s], orders[s], sizes[s] = m, k, o, n


@njit
def _pair(a0, b0, pot0, ea, na_e, eb, nb_e, limit, live, tie_ends, want_paths, pots, paths, work):
    """The positions whose extra cards are exactly ``ea[:na_e]`` and ``eb[:nb_e]``: ``(number of pots reached,
    number of tree nodes there)``.  ``pots``: uint64[>= 2**na_e, >= 2**nb_e, limit + 1] scratch; ``paths``:
    float64[..., 64] scratch (used when ``want_paths``); ``work``: int64[>= 4 * 2**8 + 16] scratch."""
    n_sa, n_sb = 1 << na_e, 1 << nb_e
    buf = work[:16]
    ma = np.empty(n_sa, dtype=np.uint64)
    mb = np.empty(n_sb, dtype=np.uint64)
    ka = np.empty(n_sa, dtype=np.int64)
    kb = np.empty(n_sb, dtype=np.int64)
    oa = np.empty(n_sa, dtype=np.int64)
    ob = np.empty(n_sb, dtype=np.int64)
    za = np.empty(n_sa, dtype=np.int64)
    zb = np.empty(n_sb, dtype=np.int64)
    _subset_keys(a0, ea, na_e, buf, ma, ka, oa, za)
    _subset_keys(b0, eb, nb_e, buf, mb, kb, ob, zb)
    for sa in range(n_sa):
        for sb in range(n_sb):
            for r in range(limit + 1):
                pots[sa, sb, r] = np.uint64(0)
                if want_paths:
                    for p in range(_POT_BITS):
                        paths[sa, sb, r, p] = 0.0
    # the root as ExactSolver.values settles it: the lower hand acts if it has room (a key at r = 0)
    if tie_ends != 0 and ka[0] == kb[0]:
        return 0, 0.0
    n_unseen = popcount(live & ~ma[0] & ~mb[0])
    low_size = za[0] if oa[0] < ob[0] else zb[0]
    if min(limit - low_size, n_unseen) <= 0:
        return 0, 0.0
    pots[0, 0, 0] = np.uint64(1) << np.uint64(pot0)
    if want_paths:
        paths[0, 0, 0, pot0] = 1.0
    for sa in range(n_sa):  # supersets come later in this order: a topological order of the transitions
        for sb in range(n_sb):
            a_low = oa[sa] < ob[sb]
            n_unseen = popcount(live & ~ma[sa] & ~mb[sb])
            n_h = za[sa] if a_low else zb[sb]
            n_o = zb[sb] if a_low else za[sa]
            s0 = pots[sa, sb, 0]
            if s0 != 0:  # the lowest hand chooses: buy k (fold makes no position)
                room = min(limit - n_h, n_unseen)
                for k in range(1, room + 1):
                    pots[sa, sb, k] |= s0 << np.uint64(k)
                    if want_paths:
                        for p in range(_POT_BITS - k):
                            paths[sa, sb, k, p + k] += paths[sa, sb, 0, p]
            for r in range(1, limit + 1):
                s = pots[sa, sb, r]
                if s == 0:
                    continue
                # one more card to the lowest hand: only its own extra cards lead to this pair
                n_e = na_e if a_low else nb_e
                for t in range(n_e):
                    if a_low:
                        if (sa >> t) & 1:
                            continue
                        na2, nb2 = sa | (1 << t), sb
                        o_h, k_h, o_o, k_o = oa[na2], ka[na2], ob[sb], kb[sb]
                    else:
                        if (sb >> t) & 1:
                            continue
                        na2, nb2 = sa, sb | (1 << t)
                        o_h, k_h, o_o, k_o = ob[nb2], kb[nb2], oa[sa], ka[sa]
                    r2 = -1
                    if o_h > o_o:  # lifted: the other hand acts if it has room and the game goes on
                        if tie_ends != 0 and k_h == k_o:
                            continue
                        if min(limit - n_o, n_unseen - 1) > 0:
                            r2 = 0
                    elif r > 1 and n_unseen > 1:
                        r2 = r - 1
                    if r2 < 0:
                        continue
                    pots[na2, nb2, r2] |= s
                    if want_paths:
                        for p in range(_POT_BITS):
                            paths[na2, nb2, r2, p] += paths[sa, sb, r, p]
    full_a, full_b = n_sa - 1, n_sb - 1
    reached = np.uint64(0)
    nodes = 0.0
    for r in range(limit + 1):
        reached |= pots[full_a, full_b, r]
        if want_paths:
            for p in range(_POT_BITS):
                nodes += paths[full_a, full_b, r, p]
    return popcount(reached), nodes


@njit
def _scratch(limit, na_max, nb_max, want_paths):
    pots = np.zeros((1 << na_max, 1 << nb_max, limit + 1), dtype=np.uint64)
    shape_p = (1 << na_max, 1 << nb_max, limit + 1, _POT_BITS) if want_paths else (1, 1, 1, 1)
    paths = np.zeros(shape_p, dtype=np.float64)
    work = np.zeros(64, dtype=np.int64)
    return pots, paths, work


@njit
def _enumerate_stratum(a0, b0, pot0, unseen, n_u, i, j, limit, live, tie_ends, want_paths):
    """Sum over every pair of ``i`` extra cards for A and ``j`` for B (from ``unseen[:n_u]``): positions, nodes."""
    pots, paths, work = _scratch(limit, i, j, want_paths)
    ea = np.empty(max(i, 1), dtype=np.int64)
    eb = np.empty(max(j, 1), dtype=np.int64)
    rest = np.empty(n_u, dtype=np.int64)
    ia = np.arange(max(i, 1))
    total, nodes = 0, 0.0
    while True:
        # A's extra cards: combination ia of unseen; B's: every j-combination of the rest
        taken = np.zeros(n_u, dtype=np.bool_)
        for t in range(i):
            ea[t] = unseen[ia[t]]
            taken[ia[t]] = True
        n_r = 0
        for t in range(n_u):
            if not taken[t]:
                rest[n_r] = unseen[t]
                n_r += 1
        ib = np.arange(max(j, 1))
        while True:
            for t in range(j):
                eb[t] = rest[ib[t]]
            c, q = _pair(a0, b0, pot0, ea, i, eb, j, limit, live, tie_ends, want_paths, pots, paths, work)
            total += c
            nodes += q
            if not next_combination(ib, j, n_r):
                break
        if not next_combination(ia, i, n_u):
            break
    return total, nodes


@njit
def _sample_stratum(a0, b0, pot0, unseen, n_u, i, j, limit, live, tie_ends, want_paths, uniforms, out_c, out_q):
    """``out_c[s], out_q[s]``: positions and tree nodes of the pair drawn from ``uniforms[s]`` (partial
    Fisher-Yates over ``unseen[:n_u]``: the first ``i`` cards to A, the next ``j`` to B; uniform pairs)."""
    pots, paths, work = _scratch(limit, i, j, want_paths)
    ea = np.empty(max(i, 1), dtype=np.int64)
    eb = np.empty(max(j, 1), dtype=np.int64)
    deck = np.empty(n_u, dtype=np.int64)
    for s in range(uniforms.shape[0]):
        for t in range(n_u):
            deck[t] = unseen[t]
        for t in range(i + j):
            pick = t + min(np.int64(uniforms[s, t] * (n_u - t)), n_u - t - 1)
            c = deck[t]
            deck[t] = deck[pick]
            deck[pick] = c
        for t in range(i):
            ea[t] = deck[t]
        for t in range(j):
            eb[t] = deck[i + t]
        c, q = _pair(a0, b0, pot0, ea, i, eb, j, limit, live, tie_ends, want_paths, pots, paths, work)
        out_c[s] = c
        out_q[s] = q


# ------------------------------------------------------------------ Knuth's probes of the unmerged tree
@njit
def _hand_of(m, buf):
    n = 0
    for c in range(64):
        if (m >> np.uint64(c)) & np.uint64(1):
            buf[n] = c
            n += 1
    return n


@njit
def _knuth(a0, b0, pot0, limit, live, tie_ends, probes, state, out):
    """``out[p]``: Knuth's estimate of the unmemoised tree's node count (``exact.subgame_value`` calls) from probe ``p``;
    ``state``: the xoshiro256** state of the random paths."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    buf = np.zeros(16, dtype=np.int64)
    kids_h = np.zeros(64, dtype=np.uint64)
    kids_r = np.zeros(64, dtype=np.int64)
    na = _hand_of(a0, buf)
    ka0, oa0 = hand_keys(buf, na)
    nb = _hand_of(b0, buf)
    kb0, ob0 = hand_keys(buf, nb)
    for p in range(probes):
        out[p] = 0.0
        if tie_ends != 0 and ka0 == kb0:
            continue
        h, o = (a0, b0) if oa0 < ob0 else (b0, a0)
        n_unseen = popcount(live & ~h & ~o)
        if min(limit - popcount(h), n_unseen) <= 0:
            continue
        r = 0
        w = 1.0
        est = 1.0  # the root
        while True:
            n_unseen = popcount(live & ~h & ~o)
            if r == 0:
                room = min(limit - popcount(h), n_unseen)
                w *= room
                u, s0, s1, s2, s3 = xoshiro_uniform(s0, s1, s2, s3)
                r = 1 + np.int64(u * room)
                if r > room:
                    r = room
                est += w
                continue
            # the receiving hand h gets one unseen card: which children are positions
            n_o = _hand_of(o, buf)
            k_o, o_o = hand_keys(buf, n_o)
            n_kids = 0
            unseen = live & ~h & ~o
            for c in range(64):
                bit = np.uint64(1) << np.uint64(c)
                if not (unseen & bit):
                    continue
                h2 = h | bit
                n_h = _hand_of(h2, buf)
                k_h, o_h = hand_keys(buf, n_h)
                if o_h > o_o:
                    if tie_ends != 0 and k_h == k_o:
                        continue
                    if min(limit - n_o, n_unseen - 1) > 0:
                        kids_h[n_kids] = h2
                        kids_r[n_kids] = 0
                        n_kids += 1
                elif r > 1 and n_unseen > 1:
                    kids_h[n_kids] = h2
                    kids_r[n_kids] = r - 1
                    n_kids += 1
            if n_kids == 0:
                break
            w *= n_kids
            est += w
            u, s0, s1, s2, s3 = xoshiro_uniform(s0, s1, s2, s3)
            pick = min(np.int64(u * n_kids), n_kids - 1)
            if kids_r[pick] == 0:  # lifted: the other hand acts
                h, o = o, kids_h[pick]
                r = 0
            else:
                h = kids_h[pick]
                r = kids_r[pick]
        out[p] = est


# ------------------------------------------------------------------ results
@dataclass(frozen=True)
class TreeSize:
    """The number of distinct positions (memo entries of the exact solver) below a root, and of the
    unmemoised tree's nodes: exact (``sampled_pairs == 0``) or estimated with a 95% interval."""

    rules: HomeRules
    first: tuple[int, ...]
    second: tuple[int, ...]
    pot: int
    positions: Estimate
    tree_nodes: Estimate
    exact: bool
    pairs: int            # pairs of extra-card sets (i, j) below the root, all strata
    enumerated_pairs: int
    sampled_pairs: int
    seed: int | None
    seconds: float
    strata: pd.DataFrame

    @property
    def merge_ratio(self) -> float:
        """Tree nodes per distinct position: what the memo's merging of transpositions saves."""
        return self.tree_nodes.estimate / self.positions.estimate if self.positions.estimate else math.nan

    def memory_bytes(self, positions: float | None = None) -> float:
        """Bytes of the memo at 56 B a position (limit 5) for ``positions`` (default: the estimate)."""
        return (self.positions.estimate if positions is None else positions) * bytes_per_position(self.rules)

    def to_frame(self) -> pd.DataFrame:
        p, t = self.positions, self.tree_nodes
        return pd.DataFrame([{"first": format_cards(self.first), "second": format_cards(self.second),
                              "pot": self.pot, "exact": self.exact, "positions": p.estimate,
                              "positions_low": p.low, "positions_high": p.high, "positions_se": p.std_error,
                              "tree_nodes": t.estimate, "tree_nodes_se": t.std_error,
                              "merge_ratio": self.merge_ratio, "memo_gb": self.memory_bytes() / 1e9,
                              "pairs": self.pairs, "enumerated_pairs": self.enumerated_pairs,
                              "sampled_pairs": self.sampled_pairs, "seed": self.seed, "seconds": self.seconds}])

    def summary(self) -> str:
        p = self.positions
        how = "exact" if self.exact else f"95% interval {p.low:,.0f} to {p.high:,.0f}, seed {self.seed}"
        return (f"{format_cards(self.first)} v {format_cards(self.second)} (pot {self.pot}): "
                f"{p.estimate:,.0f} positions ({how}); {self.memory_bytes() / 1e9:.2f} GB at "
                f"{bytes_per_position(self.rules)} B a position; unmemoised tree {self.tree_nodes.estimate:.3g} "
                f"nodes (x{self.merge_ratio:.3g}); {self.sampled_pairs:,} pairs sampled, "
                f"{self.enumerated_pairs:,} enumerated, {self.seconds:.1f} s")


@dataclass(frozen=True)
class KnuthEstimate:
    """Knuth's random-probe estimate of the unmemoised tree's node count below a root."""

    nodes: Estimate
    probes: int
    seed: int
    seconds: float

    def to_frame(self) -> pd.DataFrame:
        n = self.nodes
        return pd.DataFrame([{"nodes": n.estimate, "low": n.low, "high": n.high, "se": n.std_error,
                              "probes": self.probes, "seed": self.seed, "seconds": self.seconds}])

    def summary(self) -> str:
        return f"Knuth: {self.nodes:.4g} tree nodes ({self.probes:,} probes, seed {self.seed}, {self.seconds:.1f} s)"


# ------------------------------------------------------------------ the Python side
def _root(rules: HomeRules, first, second, pot: int, dead=()):
    check_instance(rules, HomeRules, "rules")
    a, b = (tuple(int(c) for c in parse_cards(x, where=w, jokers=rules.jokers))
            for x, w in ((first, "the first hand"), (second, "the second hand")))
    none = dead is None or (isinstance(dead, str) and not dead.strip()) or (hasattr(dead, "__len__") and not len(dead))
    d = () if none else tuple(int(c) for c in parse_cards(dead, where="the dead cards", jokers=rules.jokers))
    cards = a + b + d
    if len(set(cards)) != len(cards) or any(not 0 <= c < rules.deck_size for c in cards):
        raise RicochetError(f"tree size: the hands and dead cards must be distinct cards of the deck, got "
                            f"{format_cards(a)} v {format_cards(b)} dead {format_cards(d)}")
    if not a or not b or len(a) > rules.hand_limit or len(b) > rules.hand_limit:
        raise RicochetError(f"tree size: each hand holds 1 to {rules.hand_limit} cards")
    check_whole(pot, "pot", low=0)
    growth = sum(m * (m + 1) // 2 for m in (rules.hand_limit - len(a), rules.hand_limit - len(b)))
    if pot + growth >= _POT_BITS:
        raise RicochetError(f"tree size: pot {pot} can grow past {_POT_BITS - 1} chips")
    ma = sum(1 << c for c in a)
    mb = sum(1 << c for c in b)
    live = ((1 << rules.deck_size) - 1) & ~sum(1 << c for c in d)
    unseen = np.array([c for c in range(rules.deck_size) if (live >> c) & 1 and not (ma | mb) >> c & 1],
                      dtype=np.int64)
    return a, b, np.uint64(ma), np.uint64(mb), np.uint64(live), unseen


def _strata(rules: HomeRules, a, b, n_u: int):
    """``(i, j, pairs)`` for every stratum that can hold a position (the lower hand always has room)."""
    out = []
    for i in range(rules.hand_limit - len(a) + 1):
        for j in range(rules.hand_limit - len(b) + 1):
            if len(a) + i >= rules.hand_limit and len(b) + j >= rules.hand_limit:
                continue
            if i + j > n_u:
                continue
            out.append((i, j, math.comb(n_u, i) * math.comb(n_u - i, j)))
    return out


def pair_positions(rules: HomeRules, first, second, pot: int, extra_first, extra_second,
                   *, dead=()) -> tuple[int, float]:
    """Positions (distinct pots) and unmemoised tree nodes whose hands are ``first + extra_first`` and
    ``second + extra_second`` exactly, in the tree below the root ``(first, second, pot)``."""
    a, b, ma, mb, live, unseen = _root(rules, first, second, pot, dead)
    xa, xb = (tuple(int(c) for c in (parse_cards(x) if isinstance(x, str) else x))
              for x in (extra_first, extra_second))
    if not set(xa) | set(xb) <= set(unseen.tolist()) or len(set(xa) | set(xb)) != len(xa) + len(xb):
        raise RicochetError("tree size: the extra cards must be distinct unseen cards")
    i, j = len(xa), len(xb)
    if len(a) + i > rules.hand_limit or len(b) + j > rules.hand_limit:
        raise RicochetError(f"tree size: a hand holds at most {rules.hand_limit} cards")
    ea = np.array(xa or (0,), dtype=np.int64)
    eb = np.array(xb or (0,), dtype=np.int64)
    pots, paths, work = _scratch(rules.hand_limit, i, j, True)
    c, q = _pair(ma, mb, pot, ea, i, eb, j, rules.hand_limit, live, int(rules.tie_ends), True, pots, paths, work)
    return int(c), float(q)


def count_positions(rules: HomeRules, first, second, pot: int, *, dead=(), tree: bool = True) -> TreeSize:
    """Every pair of extra-card sets enumerated: the exact number of positions (and tree nodes) below the
    root, equal to ``ExactSolver.positions`` after ``values()`` at that root (small trees only: at most
    :data:`MAX_ENUMERATED` pairs, counted before any work; larger ones are refused, see
    :func:`estimate_positions`)."""
    return estimate_positions(rules, first, second, pot, dead=dead, samples=0, exact_below=None, tree=tree)


def estimate_positions(rules: HomeRules, first, second, pot: int = 2, *, dead=(), samples: int = 200_000,
                       seed: int = 2026, exact_below: int | None = 100_000, pilot: int = 2_000,
                       floor: int = 500, tree: bool = True) -> TreeSize:
    """The number of positions below the root ``(first, second, pot)`` (hands as card text or cards;
    ``dead``: cards out of play), stratified by the extra cards' sizes: strata of at most ``exact_below``
    pairs are enumerated (``None``: all of them, the exact count), the others sampled, ``pilot`` pairs a
    stratum for the allocation and ``samples`` pairs in all for the estimate (seeded: the same digits for
    the same arguments; every sampled stratum gets at least ``floor`` of them, so that a stratum the pilot saw
    as empty still has an honest variance).  ``tree``: count the unmemoised tree's nodes too (slower).
    The enumerated strata hold at most :data:`MAX_ENUMERATED` pairs in all (checked before any work)."""
    check_whole(samples, "samples", low=0, high=10**8)
    check_whole(pilot, "pilot", low=2, high=10**7)
    check_whole(floor, "floor", low=1, high=10**7)
    if exact_below is not None:
        check_whole(exact_below, "exact_below", low=0, high=10**9)
    seed = check_seed(seed, allow_none=False)
    a, b, ma, mb, live, unseen = _root(rules, first, second, pot, dead)
    n_u = len(unseen)
    limit, tie = rules.hand_limit, int(rules.tie_ends)
    t0 = time.perf_counter()
    strata = _strata(rules, a, b, n_u)
    rows = []
    small = [(i, j, n) for i, j, n in strata if exact_below is None or n <= exact_below]
    large = [(i, j, n) for i, j, n in strata if not (exact_below is None or n <= exact_below)]
    enumerated = sum(n for _, _, n in small)
    if enumerated > MAX_ENUMERATED:
        # a count of pairs is the run's length: refuse a run of hours before it starts
        hands = f"{format_cards(a)} v {format_cards(b)}"
        if exact_below is None:
            raise RicochetError(f"first, second: {hands} leave {enumerated:,} pairs of extra cards, more than the "
                                f"{MAX_ENUMERATED:,} count_positions enumerates; use estimate_positions")
        raise RicochetError(f"exact_below: {exact_below:,} enumerates {enumerated:,} pairs of extra cards for "
                            f"{hands}, more than {MAX_ENUMERATED:,}; give a smaller exact_below")
    for i, j, n in small:
        c, q = _enumerate_stratum(ma, mb, pot, unseen, n_u, i, j, limit, live, tie, tree)
        rows.append({"i": i, "j": j, "pairs": n, "sampled": 0, "positions": float(c), "positions_var": 0.0,
                     "tree_nodes": float(q), "tree_nodes_var": 0.0})
    if large:
        check_whole(floor, "floor", low=2)
        if samples < floor * len(large):
            raise RicochetError(f"tree size: {len(large)} strata must be sampled, at least {floor} pairs each: "
                                f"give samples >= {floor * len(large):,}")
        pilot_ss, main_ss = np.random.SeedSequence(seed).spawn(2)
        spread = []
        for (i, j, n), ss in zip(large, pilot_ss.spawn(len(large))):
            c, _ = _draw(ma, mb, pot, unseen, i, j, limit, live, tie, False, pilot, ss)
            spread.append(n * max(float(np.std(c)), 1e-9))
        # Neyman allocation from the pilot (at least ``floor`` a stratum); the estimate uses only the fresh draws
        share = np.array(spread) / sum(spread)
        alloc = np.maximum(floor, np.floor(share * (samples - floor * len(large)))).astype(int)
        for (i, j, n), m, ss in zip(large, alloc, main_ss.spawn(len(large))):
            c, q = _draw(ma, mb, pot, unseen, i, j, limit, live, tie, tree, int(m), ss)
            rows.append({"i": i, "j": j, "pairs": n, "sampled": int(m), "positions": n * c.mean(),
                         "positions_var": n * n * c.var(ddof=1) / m, "tree_nodes": n * q.mean(),
                         "tree_nodes_var": n * n * q.var(ddof=1) / m})
    df = pd.DataFrame(rows).sort_values(["i", "j"]).reset_index(drop=True)
    sampled = int(df.sampled.sum())

    def est(col):
        x, v = float(df[col].sum()), float(df[col + "_var"].sum())
        se = math.sqrt(v)
        return Estimate(x, se, x - _Z95 * se, x + _Z95 * se)

    return TreeSize(rules, a, b, pot, est("positions"), est("tree_nodes") if tree else Estimate(*[math.nan] * 4),
                    sampled == 0, int(df.pairs.sum()), int(df.pairs[df.sampled == 0].sum()), sampled,
                    None if sampled == 0 else seed, time.perf_counter() - t0, df)


def _draw(ma, mb, pot, unseen, i, j, limit, live, tie, tree, m, ss):
    u = np.random.Generator(np.random.PCG64(ss)).random((m, max(i + j, 1)))
    c = np.empty(m, dtype=np.float64)
    q = np.empty(m, dtype=np.float64)
    _sample_stratum(ma, mb, pot, unseen, len(unseen), i, j, limit, live, tie, tree, u, c, q)
    return c, q


def knuth_tree(rules: HomeRules, first, second, pot: int = 2, *, dead=(), probes: int = 100_000,
               seed: int = 2026) -> KnuthEstimate:
    """Knuth's estimator of the unmemoised tree's node count below the root (one ``exact.subgame_value`` call a node):
    each probe walks one uniformly random path and sums the products of the branching factors; the mean
    over ``probes`` is unbiased (95% interval from the probes' variance)."""
    check_whole(probes, "probes", low=2, high=10**8)
    seed = check_seed(seed, allow_none=False)
    a, b, ma, mb, live, _ = _root(rules, first, second, pot, dead)
    out = np.empty(probes)
    t0 = time.perf_counter()
    _knuth(ma, mb, pot, rules.hand_limit, live, int(rules.tie_ends), probes,
           seed_state(np.random.SeedSequence(seed)), out)
    x, se = float(out.mean()), float(out.std(ddof=1) / math.sqrt(probes))
    return KnuthEstimate(Estimate(x, se, x - _Z95 * se, x + _Z95 * se), probes, seed, time.perf_counter() - t0)
