"""The simple policies: fold or play from the seat's two cards and a glance at the table.

One ladder, written twice: :func:`play` is the readable rule (the reference
engine's :meth:`~ricochet_math.strategies.registry.Strategy.decide` calls it),
:func:`simple_decide` its numba twin for the batch kernel; the tests check
both agree on random table states for every code.  Both take the same
scalars: the :data:`~ricochet_math.strategies.policy.Code`, the seat's ``key``
slot (the two-card key ``beats:XY`` must beat), its two cards (kernel
integers), the value to beat (-1: nothing), whether the dealer is kicked out
and her kicker-rule key.  The rules themselves are listed in
:mod:`ricochet_math.strategies.registry`.
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.evaluation import PARTIAL_BASE, TWO_CARD_KEY, category_of, partial_key
from ricochet_math.evaluator.tables import THREE_OF_A_KIND
from ricochet_math.strategies.policy import Code

__all__ = ["top_cards_key", "TIMID_KEY", "play", "simple_decide"]

_PK_UNIT1 = PARTIAL_BASE ** 4  # the place value of the first ranked card's digit
_PK_UNIT2 = PARTIAL_BASE ** 3  # ... and of the second's

#: ``timid`` plays a pair or anything at least A-Q (the key of ace, queen)
TIMID_KEY = int(partial_key(np.array([12 * 4, 10 * 4 + 1], dtype=np.int64), 2))


@njit(inline="always")
def top_cards_key(key5, key2):
    """``key5`` (a five-card key) cut to as many ranked cards as the two-card hand ``key2`` holds.

    A two-card pair is one rank group, two unpaired cards are two (its second
    digit is then non-zero); the rest of the five-card hand's ranked cards are
    dropped, so two-card A-K ties A-K-Q-9-7 (spec, "Side bets", Quickdraw
    ``top-cards``; also the ``dealer-only`` comparison).
    """
    unit = _PK_UNIT1 if (key2 // _PK_UNIT2) % PARTIAL_BASE == 0 else _PK_UNIT2
    return (key5 // unit) * unit


def play(code: int, key: int, c0: int, c1: int, best_value: int, dealer_kicked: bool, dealer_key: int) -> bool:
    """True to play, False to fold: the readable rule of every simple ``code``."""
    pair = (c0 >> 2) == (c1 >> 2)
    mine = int(TWO_CARD_KEY[c0 * 52 + c1])
    if code == Code.always:
        return True
    if code == Code.never:
        return False
    if code == Code.pair:
        return pair
    if code == Code.beats:
        return mine > key
    if code == Code.timid:
        return pair or mine >= TIMID_KEY
    if code == Code.chaser:  # folds only an unpaired hand against three of a kind or better
        return pair or not (best_value >= 0 and int(category_of(best_value)) >= THREE_OF_A_KIND)
    if code == Code.dealer_only:
        return dealer_kicked or mine >= int(top_cards_key(dealer_key, mine))
    if code == Code.bonus_hunter:
        return pair or (c0 & 3) == (c1 & 3) or _can_share_straight(c0 >> 2, c1 >> 2)
    raise ValueError(f"{code} is not a simple policy code")


def _can_share_straight(r0: int, r1: int) -> bool:
    """Two ranks 0..12 (deuce..ace) that fit in one five-card straight (ace high or low)."""
    if r0 == r1:
        return False
    low0 = -1 if r0 == 12 else r0  # the ace as a one
    low1 = -1 if r1 == 12 else r1
    return abs(r0 - r1) <= 4 or abs(low0 - low1) <= 4


@njit(inline="always")
def _straight_connected(r0, r1):
    """Kernel twin of :func:`_can_share_straight`."""
    if r0 == r1:
        return False
    if abs(r0 - r1) <= 4:
        return True
    low0 = -1 if r0 == 12 else r0
    low1 = -1 if r1 == 12 else r1
    return abs(low0 - low1) <= 4


@njit(inline="always")
def simple_decide(code, key, c0, c1, best_value, dealer_kicked, dealer_key):
    """Kernel twin of :func:`play` (scalars only, so the engine's inner loop stays free of
    array traffic); False for a code that is not a simple policy."""
    pair = (c0 >> 2) == (c1 >> 2)
    mine = TWO_CARD_KEY[c0 * 52 + c1]
    if code == Code.always:
        return True
    if code == Code.never:
        return False
    if code == Code.pair:
        return pair
    if code == Code.beats:
        return mine > key
    if code == Code.timid:
        return pair or mine >= TIMID_KEY
    if code == Code.chaser:
        hopeless = best_value >= 0 and category_of(best_value) >= THREE_OF_A_KIND
        return pair or not hopeless
    if code == Code.dealer_only:
        if dealer_kicked:
            return True
        return mine >= top_cards_key(dealer_key, mine)
    if code == Code.bonus_hunter:
        return pair or (c0 & 3) == (c1 & 3) or _straight_connected(c0 >> 2, c1 >> 2)
    return False
