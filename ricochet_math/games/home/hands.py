"""Comparing the hands of the home game: one integer key per hand, lower acts.

The rulebook ("Breaking Ties"): a hand with a kicker beats the same hand without
one (ace-eight beats an ace alone), and suits break ties between identical hands
until the end, where identical winning hands split the pot.  So a hand has two
keys:

* the **rank key**: :func:`~ricochet_math.evaluator.evaluation.partial_key` for 1..5
  cards (the evaluator's kicker rule), and for 6 or 7 cards the partial key of the
  best five (``FIVE_CARD_KEY[eval6/eval7]``; the hand limit variations say the best
  five count).  Equal rank keys are identical hands: they split at the end.
* the **order key** ``rank key * 4 + tie suit``, used for everything before the end
  (who is lowest, whether a hand has been lifted).  The tie suit is the highest suit
  among the hand's cards of its *top rank* (the rank of the first ranked card of the
  key: the high card, the pair's rank, the trips' rank, a straight's top card).
  [reading] It is the casino page's "suit of the higher card" (for a pair, its higher
  suit) extended to any hand.  Two hands with one rank key hold disjoint cards of that
  top rank, so their highest suits differ: the order is always complete.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.cards import RANK_NAMES, RANK_PLURALS, format_cards
from ricochet_math.evaluator.evaluation import FIVE_CARD_KEY, PARTIAL_BASE, eval6, eval7, partial_key, \
    reference_partial_key
from ricochet_math.evaluator.tables import CATEGORY_NAMES

__all__ = ["rank_key", "order_key_of_hand", "hand_keys", "top_rank", "reference_rank_key", "reference_order_key",
           "describe_hand", "show"]

_TOP_DIGIT = PARTIAL_BASE ** 4  # the place of the first ranked card in a partial key


@njit(inline="always")
def rank_key(cards, n):
    """Rank key of the first ``n`` (1..7) cards of ``cards`` (int64 array, distinct cards 0..51)."""
    if n <= 5:
        return partial_key(cards, n)
    if n == 6:
        return np.int64(FIVE_CARD_KEY[eval6(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5])])
    return np.int64(FIVE_CARD_KEY[eval7(cards[0], cards[1], cards[2], cards[3], cards[4], cards[5], cards[6])])


@njit(inline="always")
def top_rank(key):
    """The rank (0 = two .. 12 = ace) of the first ranked card of a rank key."""
    return (key // _TOP_DIGIT) % PARTIAL_BASE - 1


@njit(inline="always")
def order_key_of_hand(cards, n, key):
    """Order key ``key * 4 + tie suit`` of a hand whose rank key is ``key`` (module docstring)."""
    r = top_rank(key)
    suit = np.int64(-1)
    for i in range(n):
        c = np.int64(cards[i])
        if c >> 2 == r and (c & 3) > suit:
            suit = c & 3
    return key * 4 + suit


@njit
def hand_keys(cards, n):
    """``(rank key, order key)`` of the first ``n`` cards (a kernel helper, also called by the readable engine)."""
    k = rank_key(cards, n)
    return k, order_key_of_hand(cards, n, k)


# ------------------------------------------------------------------ readable twins
def reference_rank_key(cards) -> tuple:
    """Readable twin of :func:`rank_key`: ``(category, ranked cards...)``; 6-7 cards: the best five by brute force."""
    cards = [int(c) for c in cards]
    if len(cards) <= 5:
        return reference_partial_key(cards)
    return max(reference_partial_key(five) for five in combinations(cards, 5))


def reference_order_key(cards) -> tuple:
    """Readable twin of :func:`order_key_of_hand`: ``(rank key tuple, tie suit)``."""
    key = reference_rank_key(cards)
    top = key[1]
    return key, max(c & 3 for c in cards if c >> 2 == top)


def describe_hand(cards) -> str:
    """A short name for a hand of 1..7 cards: ``King``, ``Ace-eight``, ``Pair of twos``, ``Flush``..."""
    key = reference_rank_key(cards)
    cat, ranks = key[0], key[1:]
    if cat == 0:
        return "-".join([RANK_NAMES[ranks[0]]] + [RANK_NAMES[r].lower() for r in ranks[1:]])
    if cat == 1:
        return f"Pair of {RANK_PLURALS[ranks[0]].lower()}"
    if cat == 2:
        return f"Two pair, {RANK_PLURALS[ranks[0]].lower()} and {RANK_PLURALS[ranks[1]].lower()}"
    if cat == 3:
        return f"Three {RANK_PLURALS[ranks[0]].lower()}"
    if cat == 7:
        return f"Four {RANK_PLURALS[ranks[0]].lower()}"
    if cat == 6:
        return f"Full house, {RANK_PLURALS[ranks[0]].lower()} over {RANK_PLURALS[ranks[1]].lower()}"
    return f"{CATEGORY_NAMES[cat]}, {RANK_NAMES[ranks[0]].lower()} high"


def show(cards) -> str:
    """Cards with suit symbols (the hand history's form)."""
    return format_cards(cards, symbols=True)
