"""The CFR family over the flat tree arrays: numba kernels, the twin of :mod:`~ricochet_math.equilibrium.cfr`.

One traversal for player ``p`` is three sweeps over arrays, no recursion: the current strategy from the
regrets (regret matching, entry by entry), a *forward* sweep through the nodes in breadth-first order
(parents first) carrying ``p``'s own reach probability and the counterfactual reach (chance and the other
players), and a *backward* sweep (children first) computing ``p``'s value at every node and adding, at
her nodes, counterfactual reach times (action value - node value) to her regrets and weight times own
reach times her strategy to her average.  Then her regrets are discounted and clipped as the schedule
says (:mod:`~ricochet_math.equilibrium.schedules`).  The kernels allocate nothing per iteration and are
sequential: the digits do not depend on any thread count.
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit

__all__ = ["current_strategy", "discounted", "cfr_iterations", "average_strategy", "expected_values", "chance_value", "mixed_value"]

_CHANCE = -1
_TERMINAL = -2


@njit
def current_strategy(regret, offset, sigma):
    """Regret matching into ``sigma``: each entry in proportion to its positive regret, uniform when none."""
    for i in range(len(offset) - 1):
        lo, hi = offset[i], offset[i + 1]
        total = 0.0
        for e in range(lo, hi):
            if regret[e] > 0.0:
                total += regret[e]
        if total > 0.0:
            for e in range(lo, hi):
                sigma[e] = regret[e] / total if regret[e] > 0.0 else 0.0
        else:
            for e in range(lo, hi):
                sigma[e] = 1.0 / (hi - lo)


@njit(inline="always")
def chance_value(n, first_child, num_children, chance_prob, value):
    """A chance node's value: its outcomes' values weighted by their probabilities, in outcome order."""
    c0 = first_child[n]
    v = 0.0
    for j in range(num_children[n]):
        v += chance_prob[c0 + j] * value[c0 + j]
    return v


@njit(inline="always")
def mixed_value(n, first_child, num_children, e0, sigma, value):
    """A player's node's value under the strategy at entries ``e0...``, in action order."""
    c0 = first_child[n]
    v = 0.0
    for j in range(num_children[n]):
        v += sigma[e0 + j] * value[c0 + j]
    return v


@njit
def _traverse(p, player, infoset, first_child, num_children, chance_prob, utility, offset, post_order,
              sigma, regret, cumulative, weight, reach, value):
    """One traversal for player ``p``: regrets and average updated in place; returns her root value.

    ``reach[n, q]``: player ``q``'s probability of reaching ``n`` (``q = num_players``: chance's), each a
    product along the path; the counterfactual reach is the product of the others' in player order, and
    the backward sweep runs in depth-first post-order: the arithmetic of a recursive CFR (OpenSpiel's),
    operation for operation, so the same iterations give the same digits, not merely close ones (regret
    matching+ clips at 0, and a last-digit difference there can grow over the iterations)."""
    n_nodes = len(player)
    n_reach = reach.shape[1]
    for q in range(n_reach):
        reach[0, q] = 1.0
    for n in range(n_nodes):  # forward, breadth first: parents before children
        who = player[n]
        if who == _TERMINAL:
            continue
        c0 = first_child[n]
        mover = n_reach - 1 if who == _CHANCE else who
        for j in range(num_children[n]):
            c = c0 + j
            for q in range(n_reach):
                reach[c, q] = reach[n, q]
            reach[c, mover] *= chance_prob[c] if who == _CHANCE else sigma[offset[infoset[n]] + j]
    for k in range(n_nodes):  # backward, depth-first post-order: children before parents
        n = post_order[k]
        who = player[n]
        if who == _TERMINAL:
            value[n] = utility[n, p]
            continue
        if who == _CHANCE:
            value[n] = chance_value(n, first_child, num_children, chance_prob, value)
            continue
        c0 = first_child[n]
        e0 = offset[infoset[n]]
        v = mixed_value(n, first_child, num_children, e0, sigma, value)
        value[n] = v
        if who == p:
            before = 1.0
            for q in range(p):
                before = reach[n, q] if q == 0 else before * reach[n, q]
            after = 1.0
            for q in range(p + 1, n_reach):
                after = reach[n, q] if q == p + 1 else after * reach[n, q]
            cf = before * after
            own = reach[n, p]
            for j in range(num_children[n]):
                regret[e0 + j] += cf * (value[c0 + j] - v)
                cumulative[e0 + j] += weight * own * sigma[e0 + j]
    return value[0]


@njit(inline="always")
def discounted(r, positive, negative, clip):
    """A regret after the schedule's discount: times ``positive`` where positive, ``negative`` where
    negative, then clipped at 0 when ``clip`` (regret matching+)."""
    if r > 0.0:
        r *= positive
    elif r < 0.0:
        r *= negative
    if clip and r < 0.0:
        r = 0.0
    return r


@njit
def cfr_iterations(player, infoset, first_child, num_children, chance_prob, utility, offset, post_order,
                   infoset_player, regret, cumulative, positive, negative, weight, clip):
    """``len(weight)`` iterations of the schedule with alternating updates, in place on ``regret`` and
    ``cumulative`` (entry arrays); ``positive[k]``, ``negative[k]``, ``weight[k]``: the factors of the
    ``k``-th iteration of this call."""
    n_nodes = len(player)
    n_players = utility.shape[1]
    sigma = np.empty(len(regret))
    reach = np.empty((n_nodes, n_players + 1))
    value = np.empty(n_nodes)
    for k in range(len(weight)):
        for p in range(n_players):
            current_strategy(regret, offset, sigma)
            _traverse(p, player, infoset, first_child, num_children, chance_prob, utility, offset, post_order,
                      sigma, regret, cumulative, weight[k], reach, value)
            for i in range(len(offset) - 1):
                if infoset_player[i] != p:
                    continue
                for e in range(offset[i], offset[i + 1]):
                    regret[e] = discounted(regret[e], positive[k], negative[k], clip)


@njit
def average_strategy(cumulative, offset):
    """The average strategy (entry array): the cumulative strategy normalised per information set, uniform
    where it is all zero."""
    out = np.empty(len(cumulative))
    for i in range(len(offset) - 1):
        lo, hi = offset[i], offset[i + 1]
        total = 0.0
        for e in range(lo, hi):
            total += cumulative[e]
        for e in range(lo, hi):
            out[e] = cumulative[e] / total if total > 0.0 else 1.0 / (hi - lo)
    return out


@njit
def expected_values(player, infoset, first_child, num_children, chance_prob, utility, offset, sigma):
    """Every player's expected utility when all play the profile ``sigma`` (entry array)."""
    n_nodes, n_players = utility.shape
    value = np.zeros((n_nodes, n_players))
    for n in range(n_nodes - 1, -1, -1):
        who = player[n]
        if who == _TERMINAL:
            for q in range(n_players):
                value[n, q] = utility[n, q]
            continue
        c0 = first_child[n]
        for j in range(num_children[n]):
            w = chance_prob[c0 + j] if who == _CHANCE else sigma[offset[infoset[n]] + j]
            for q in range(n_players):
                value[n, q] += w * value[c0 + j, q]
    return value[0].copy()
