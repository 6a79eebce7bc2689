"""Comparing the hands of the home game: one integer key per hand, lower acts.

The rulebook ("Breaking Ties"): a hand with a kicker beats the same hand without
one (ace-eight beats an ace alone), and suits break ties between identical hands
until the end, where identical winning hands split the pot.  So a hand has two
keys:

* the **rank key**: :func:`~ricochet_math.evaluator.evaluation.partial_key` for 1..5
  cards (the evaluator's kicker rule), and for 6 or 7 cards the partial key of the
  best five (``FIVE_CARD_KEY[eval6/eval7]``; the hand limit variations say the best
  five count).  Equal rank keys are identical hands: they split at the end.
* the **order key** ``rank key * 8 + tie code``, used for everything before the end
  (who is lowest, whether a hand has been lifted).  The tie code is ``2 + the highest
  suit`` (clubs 0 .. spades 3) among the hand's cards of its *top rank* (the rank of the
  first ranked card of the key: the high card, the pair's rank, the trips' rank, a
  straight's top card).  [reading] It is the casino page's "suit of the higher card"
  (for a pair, its higher suit) extended to any hand.  Two hands with one rank key hold
  disjoint cards of that top rank, so their highest suits differ: the order is complete.

**Jokers** (home-game variation; cards 52 and 53, bugs): a hand holding one has the
rank key :func:`~ricochet_math.evaluator.jokers.joker_key` under the bug rule (an ace,
or completing a straight or flush; in the same key space).  When no real card holds the
top rank (the joker stands for it) the tie code is the joker's own, 0 for card 52 and 1
for card 53: [reading] a joker ranks below every suit in a tie, and the two jokers are
told apart by their numbers, so the order stays complete.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.cards import RANK_NAMES, RANK_PLURALS, format_cards
from ricochet_math.evaluator.evaluation import FIVE_CARD_KEY, PARTIAL_BASE, eval6, eval7, partial_key, \
    reference_partial_key
from ricochet_math.evaluator.jokers import JokerRule, describe_joker_hand, joker_key, reference_joker_key
from ricochet_math.evaluator.subsets import next_subset as next_combination  # the one subset stepper (re-exported)
from ricochet_math.evaluator.tables import CATEGORY_NAMES

__all__ = ["next_combination", "rank_key", "order_key_of_hand", "hand_keys", "top_rank", "reference_rank_key", "reference_order_key",
           "describe_hand", "show"]

_TOP_DIGIT = PARTIAL_BASE ** 4  # the place of the first ranked card in a partial key
_BUG = int(JokerRule.BUG)


@njit(inline="always")
def rank_key(cards, n):
    """Rank key of the first ``n`` (1..7) cards of ``cards`` (int64 array, distinct cards 0..53; 52, 53 jokers)."""
    for i in range(n):
        if cards[i] >= 52:
            return joker_key(cards, n, _BUG)
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
    """Order key ``key * 8 + tie code`` of a hand whose rank key is ``key`` (module docstring)."""
    r = top_rank(key)
    tie = np.int64(-1)
    for i in range(n):
        c = np.int64(cards[i])
        if c < 52 and c >> 2 == r and (c & 3) + 2 > tie:
            tie = (c & 3) + 2
    if tie < 0:
        for i in range(n):
            c = np.int64(cards[i])
            if c >= 52 and c - 52 > tie:
                tie = c - 52
    return key * 8 + tie


@njit
def hand_keys(cards, n):
    """``(rank key, order key)`` of the first ``n`` cards (a kernel helper, also called by the readable engine)."""
    k = rank_key(cards, n)
    return k, order_key_of_hand(cards, n, k)


# ------------------------------------------------------------------ readable twins
def _as_int(t: tuple) -> int:
    """A ``(category, ranked...)`` tuple as the integer partial key (base-15 digits, rank + 1, 0 = none)."""
    key = t[0]
    for i in range(5):
        key = key * PARTIAL_BASE + (t[1 + i] + 1 if 1 + i < len(t) else 0)
    return key


def reference_rank_key(cards) -> int:
    """Readable twin of :func:`rank_key`: the readable partial key; 6-7 cards: the best five by brute force;
    with a joker: every substitution the bug allows (:func:`~ricochet_math.evaluator.jokers.reference_joker_key`)."""
    cards = [int(c) for c in cards]
    if any(c >= 52 for c in cards):
        return int(reference_joker_key(cards, "bug"))
    if len(cards) <= 5:
        return _as_int(reference_partial_key(cards))
    return max(_as_int(reference_partial_key(five)) for five in combinations(cards, 5))


def reference_order_key(cards) -> tuple[int, int]:
    """Readable twin of :func:`order_key_of_hand`: ``(rank key, tie code)``."""
    key = reference_rank_key(cards)
    top = (key // _TOP_DIGIT) % PARTIAL_BASE - 1
    real = [(c & 3) + 2 for c in cards if c < 52 and c >> 2 == top]
    return key, max(real) if real else max(c - 52 for c in cards if c >= 52)


def _key_tuple(key: int) -> tuple:
    digits = []
    for _ in range(5):
        digits.append(key % PARTIAL_BASE)
        key //= PARTIAL_BASE
    return (key,) + tuple(d - 1 for d in reversed(digits) if d)


def describe_hand(cards) -> str:
    """A short name for a hand of 1..7 cards: ``King``, ``Ace-eight``, ``Pair of twos``, ``Flush``...
    (with a joker, the evaluator's name and what the joker stands for)."""
    cards = [int(c) for c in cards]
    if any(c >= 52 for c in cards):
        return describe_joker_hand(cards, "bug")
    key = _key_tuple(reference_rank_key(cards))
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
    return format_cards(cards, symbols=True, jokers=True)
