"""Card removal: the pot share of one hand's keep simulated on real deals (the solver's independence
model assumes the opponents' final hands do not depend on the player's five cards; here they are dealt
from the 47 other cards and draw, by the optimal table, from the same deck)."""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.evaluation import eval5
from ricochet_math.games.rococo.draw import BINOM, KEEP_MASKS
from ricochet_math.random_streams import seed_state, shuffle_array

__all__ = ["simulate_share", "simulate_share_difference"]


@njit
def _share_kernel(cards, keep, table, opponents, deals, state):
    """(sum, sum of squares) of the pot share of ``keep`` over ``deals`` seeded deals."""
    return _shares(cards, keep, keep, table, opponents, deals, state)


@njit
def _shares(cards, keep, other, table, opponents, deals, state):
    """(sum, sum of squares) over ``deals`` seeded deals of share(keep) - share(other) when ``other`` differs
    from ``keep``, else of share(keep): the two keeps see the same deals (common random numbers).
    ``state``: the xoshiro256** state (:func:`~ricochet_math.random_streams.seed_state`); each deal is a
    full shuffle of the 47 other cards."""
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    rest = np.empty(47, dtype=np.int64)
    n = 0
    for c in range(52):
        ok = True
        for j in range(5):
            if cards[j] == c:
                ok = False
        if ok:
            rest[n] = c
            n += 1
    hand = np.empty(5, dtype=np.int64)
    new = np.empty(5, dtype=np.int64)
    total = 0.0
    total_sq = 0.0
    for _ in range(deals):
        s0, s1, s2, s3 = shuffle_array(rest, 47, s0, s1, s2, s3)
        top = 5 * opponents
        best = -1
        ties = 0
        for o in range(opponents):
            for j in range(5):
                hand[j] = rest[5 * o + j]
            hand.sort()
            h = BINOM[hand[0], 1] + BINOM[hand[1], 2] + BINOM[hand[2], 3] + BINOM[hand[3], 4] + BINOM[hand[4], 5]
            k = KEEP_MASKS[table[h]]
            q = 0
            for j in range(5):
                if k >> j & 1:
                    new[q] = hand[j]
                    q += 1
            for j in range(q, 5):
                new[j] = rest[top]
                top += 1
            v = eval5(new[0], new[1], new[2], new[3], new[4])
            if v > best:
                best = v
                ties = 1
            elif v == best:
                ties += 1
        # the player's replacements come next from the deck (the same cards for either keep)
        x = _one_share(cards, keep, rest, top, best, ties, hand)
        if other != keep:
            x -= _one_share(cards, other, rest, top, best, ties, hand)
        total += x
        total_sq += x * x
    return total, total_sq


@njit
def _one_share(cards, keep, rest, top, best, ties, hand):
    m = 0
    for j in range(5):
        if keep >> j & 1:
            hand[m] = cards[j]
            m += 1
    for j in range(m, 5):
        hand[j] = rest[top]
        top += 1
    mine = eval5(hand[0], hand[1], hand[2], hand[3], hand[4])
    if mine > best:
        return 1.0
    if mine == best:
        return 1.0 / (ties + 1)
    return 0.0


def simulate_share(cards, keep: int, table: np.ndarray, opponents: int, deals: int, seed: int) -> tuple[float, float]:
    """(mean pot share, its standard error) of keeping ``keep`` (position mask over sorted ``cards``)
    over ``deals`` random deals of the other cards."""
    cards = np.sort(np.asarray(cards, dtype=np.int64))
    total, total_sq = _share_kernel(cards, int(keep), table, int(opponents), int(deals),
                                  seed_state(np.random.SeedSequence(int(seed))))
    mean = total / deals
    var = max(total_sq / deals - mean * mean, 0.0)
    return mean, float(np.sqrt(var / deals))


def simulate_share_difference(cards, keep: int, other: int, table: np.ndarray, opponents: int, deals: int,
                              seed: int) -> tuple[float, float]:
    """(mean of share(keep) - share(other), its standard error) on the same ``deals`` seeded deals."""
    cards = np.sort(np.asarray(cards, dtype=np.int64))
    total, total_sq = _shares(cards, int(keep), int(other), table, int(opponents), int(deals),
                             seed_state(np.random.SeedSequence(int(seed))))
    mean = total / deals
    var = max(total_sq / deals - mean * mean, 0.0)
    return mean, float(np.sqrt(var / deals))
