"""Names of hand values and hand patterns: the words analysts and rule files use for hands.

* :func:`describe` names a dense value (``Pair of Kings, Q-3-2``, ``Straight, five high``);
  :func:`value_from_name` reads such a name back.
* :func:`category_name` and :func:`bonus_category` give a value's category, with the royal
  flush split out as category 9 (:data:`BONUS_CATEGORY_NAMES`), as bonus tables count it.
* :func:`pattern_value` reads a threshold pattern (kickout thresholds, paytable lines; spec,
  "Kickout thresholds"): the weakest five-card hand matching ``KKQ`` (KKQ32), ``TTxx`` (TT223)
  or a category word (``flush``); :func:`pattern_of` writes a value as a pattern.

Everything here reads the hand classes of :mod:`ricochet_math.evaluator.tables` (no kernel),
so the rules layer checks patterns without compiling the evaluation kernels.
"""
from __future__ import annotations

import numbers
import re
from functools import lru_cache

import numpy as np

from ricochet_math.errors import CardError, PatternError, quote
from ricochet_math.evaluator.cards import RANK_NAMES, RANK_PLURALS, RANKS
from ricochet_math.evaluator.tables import (
    CATEGORY_NAMES, FLUSH_CAT, FOUR_OF_A_KIND, FULL_HOUSE, HIGH_CARD, NUM_VALUES, PAIR, ROYAL_FLUSH_VALUE,
    STRAIGHT, STRAIGHT_FLUSH, THREE_OF_A_KIND, TWO_PAIR, class_values, classify, hand_classes,
)

__all__ = [
    "BONUS_CATEGORY_NAMES", "check_hand_value", "category_name", "bonus_category", "describe", "value_from_name",
    "pattern_value", "pattern_of",
]

#: Category names with the royal flush as its own category 9, where bonus tables need it.
BONUS_CATEGORY_NAMES = CATEGORY_NAMES + ("Royal flush",)


def check_hand_value(value, where: str = "") -> int:
    """``value`` as an ``int`` if it is a dense hand value ``0..7461``: a Python or numpy integer, not a
    ``bool``, a float (``3.0``, NaN), an array, card text or a string of digits.  The one check of every
    public function of the evaluator that takes a hand value (:func:`describe`, :func:`category_name`,
    :func:`bonus_category`, :func:`pattern_of`), as :func:`~ricochet_math.evaluator.cards.parse_cards` is
    of those that take cards; a :class:`~ricochet_math.errors.CardError` otherwise, as
    :func:`~ricochet_math.evaluator.evaluation.evaluate` raises."""
    at = f" in {where}" if where else ""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        hint = " (cards? rm.hand_value reads card text)" if isinstance(value, str) else ""
        raise CardError(f"a hand value must be a whole number 0..{NUM_VALUES - 1}{at}, got "
                        f"{type(value).__name__} {quote(value)}{hint}")
    if not 0 <= value < NUM_VALUES:
        raise CardError(f"hand value {quote(int(value))} is outside 0..{NUM_VALUES - 1}{at}")
    return int(value)



def category_name(value) -> str:
    """Category name of a value; the top straight flush is called ``Royal flush``."""
    v = check_hand_value(value)
    return "Royal flush" if v == ROYAL_FLUSH_VALUE else CATEGORY_NAMES[hand_classes()[v].category]


def bonus_category(value) -> int:
    """Category code with royal flush split out as 9 (for bonus and paytable lines)."""
    v = check_hand_value(value)
    return 9 if v == ROYAL_FLUSH_VALUE else int(hand_classes()[v].category)


_RANK_WORDS = tuple(n.lower() for n in RANK_NAMES)


def describe(value) -> str:
    """Readable name of a hand value, e.g. ``Pair of Kings, Q-3-2``, ``Straight, five high``."""
    hc = hand_classes()[check_hand_value(value)]
    r = hc.ranked
    kick = "-".join(RANKS[x] for x in r[1:])
    c = hc.category
    if c == STRAIGHT_FLUSH:
        return "Royal flush" if hc.value == ROYAL_FLUSH_VALUE else f"Straight flush, {_RANK_WORDS[r[0]]} high"
    if c == STRAIGHT:
        return f"Straight, {_RANK_WORDS[r[0]]} high"
    if c == FLUSH_CAT:
        return "Flush, " + "-".join(RANKS[x] for x in r)
    if c == HIGH_CARD:
        return "High card, " + "-".join(RANKS[x] for x in r)
    if c == PAIR:
        return f"Pair of {RANK_PLURALS[r[0]]}, {kick}"
    if c == TWO_PAIR:
        return f"Two pair, {RANK_PLURALS[r[0]]} and {RANK_PLURALS[r[1]]}, {RANKS[r[2]]}"
    if c == THREE_OF_A_KIND:
        return f"Three {RANK_PLURALS[r[0]]}, {kick}"
    if c == FULL_HOUSE:
        return f"Full house, {RANK_PLURALS[r[0]]} full of {RANK_PLURALS[r[1]]}"
    return f"Four {RANK_PLURALS[r[0]]}, {RANKS[r[1]]}"


@lru_cache(maxsize=1)
def _names() -> dict[str, int]:
    return {describe(v).lower(): v for v in range(NUM_VALUES)}


def value_from_name(name: str) -> int:
    """Inverse of :func:`describe` (case-insensitive)."""
    if not isinstance(name, str):
        raise PatternError(f"a hand name is text such as 'Pair of Kings, Q-3-2', got {type(name).__name__}")
    try:
        return _names()[" ".join(name.lower().split())]
    except KeyError:
        raise PatternError(f"unknown hand name {quote(name)}") from None


_WORD_PATTERNS = {
    "high card": (HIGH_CARD, None),
    "pair": (PAIR, None),
    "one pair": (PAIR, None),
    "two pair": (TWO_PAIR, None),
    "two pairs": (TWO_PAIR, None),
    "three of a kind": (THREE_OF_A_KIND, None),
    "trips": (THREE_OF_A_KIND, None),
    "straight": (STRAIGHT, None),
    "flush": (FLUSH_CAT, None),
    "full house": (FULL_HOUSE, None),
    "four of a kind": (FOUR_OF_A_KIND, None),
    "quads": (FOUR_OF_A_KIND, None),
    "straight flush": (STRAIGHT_FLUSH, None),
    "royal flush": (STRAIGHT_FLUSH, ROYAL_FLUSH_VALUE),
    "royal": (STRAIGHT_FLUSH, ROYAL_FLUSH_VALUE),
}
_PATTERN_RE = re.compile(r"^[2-9TJQKAX]{1,5}$")
_SHAPE_CATEGORY = {
    (4,): FOUR_OF_A_KIND, (4, 1): FOUR_OF_A_KIND,
    (3, 2): FULL_HOUSE,
    (3,): THREE_OF_A_KIND, (3, 1): THREE_OF_A_KIND, (3, 1, 1): THREE_OF_A_KIND,
    (2, 2): TWO_PAIR, (2, 2, 1): TWO_PAIR,
    (2,): PAIR, (2, 1): PAIR, (2, 1, 1): PAIR, (2, 1, 1, 1): PAIR,
}


def _pattern_groups(p: str) -> list[tuple[int, str]]:
    """Runs of equal characters: ``TTxx`` -> [(2, 'T'), (2, 'X')]."""
    groups: list[tuple[int, str]] = []
    for ch in p:
        if groups and groups[-1][1] == ch:
            groups[-1] = (groups[-1][0] + 1, ch)
        else:
            groups.append((1, ch))
    return groups


def pattern_value(pattern: str) -> int:
    """The weakest five-card hand value matching a hand pattern (spec, "Kickout thresholds").

    Rank patterns fill ``x`` and missing cards with the lowest cards that keep
    the category: ``KKQ`` -> KKQ32, ``AAQ`` -> AAQ32, ``TTxx`` -> TT223,
    ``222`` -> 22234 (any three of a kind), ``QQQ`` -> QQQ32, ``A2345`` -> the
    five-high straight (any straight), ``99`` -> 99432.  Category words
    (``flush``, ``full house``, ``straight flush``, ``royal flush``...) mean the
    weakest hand of that category, and any :func:`describe` name is accepted.

    >>> describe(pattern_value("TTxx"))
    'Two pair, Tens and Twos, 3'
    """
    if not isinstance(pattern, str):  # checked before the memo: a list is unhashable, 5 is not a pattern
        raise PatternError(f"a hand pattern is text such as 'KKQ' or 'flush', got {type(pattern).__name__} "
                           f"{quote(pattern)}")
    if not pattern.strip():
        raise PatternError(f"empty hand pattern {quote(pattern)}")
    return _pattern_value(pattern)


@lru_cache(maxsize=512)
def _pattern_value(pattern: str) -> int:
    text = " ".join(pattern.strip().lower().split())
    classes = hand_classes()
    if text in _WORD_PATTERNS:
        cat, exact = _WORD_PATTERNS[text]
        if exact is not None:
            return exact
        return next(hc.value for hc in classes if hc.category == cat)
    if text in _names():
        return _names()[text]
    p = text.upper().replace("10", "T").replace(" ", "").replace("-", "")
    if not _PATTERN_RE.match(p):
        raise PatternError(
            f"bad hand pattern {quote(pattern)}: use ranks 2-9 T J Q K A and x (e.g. KKQ, TTxx, 222, A2345) "
            "or a category word (flush, full house, ...)"
        )
    groups = _pattern_groups(p)
    counts = [c for c, _ in groups]
    if any(c > 4 for c in counts):
        raise PatternError(f"bad hand pattern {quote(pattern)}: more than four cards of one rank")
    fixed = [ch for _, ch in groups if ch != "X"]
    if len(fixed) != len(set(fixed)):
        raise PatternError(f"bad hand pattern {quote(pattern)}: a rank appears in two groups")
    want = [(c, -1 if ch == "X" else RANKS.index(ch)) for c, ch in groups]
    shape = tuple(sorted(counts, reverse=True))
    if tuple(counts) != shape:
        raise PatternError(f"bad hand pattern {quote(pattern)}: write the larger group first (e.g. KKKxx, TTxx)")
    if len(p) == 5 and shape == (1, 1, 1, 1, 1) and "X" not in p:
        ranks = tuple(sorted((RANKS.index(ch) for ch in p), reverse=True))
        cat, ranked, _ = classify(ranks, False)
        if cat == STRAIGHT:  # any straight of that height: the pattern itself
            return class_values()[(STRAIGHT, ranked, False)]
        return class_values()[(HIGH_CARD, ranked, False)]
    category = _SHAPE_CATEGORY.get(shape, HIGH_CARD if shape[0] == 1 else None)
    if category is None:
        raise PatternError(f"bad hand pattern {quote(pattern)}: no five-card hand has that shape")
    for hc in classes:
        if hc.category != category or hc.flush:
            continue
        if len(hc.groups) < len(want):
            continue
        if all(
            hg[0] == wc and (wr < 0 or hg[1] == wr)
            for hg, (wc, wr) in zip(hc.groups, want)
        ):
            return hc.value
    raise PatternError(f"bad hand pattern {quote(pattern)}: no five-card hand matches it")


def pattern_of(value) -> str:
    """A full rank pattern for a value (``KKQ32``, ``TT223``, ``A2345``); flushes read ``flush AKJ92``.

    ``pattern_value(pattern_of(v)) == v`` for every non-flush value; for
    flushes and straight flushes the :func:`describe` name is the round-trip form.
    """
    hc = hand_classes()[check_hand_value(value)]
    if hc.flush:
        return describe(value)
    if hc.category == STRAIGHT:
        top = hc.ranked[0]
        ranks = [3, 2, 1, 0, 12] if top == 3 else [top - i for i in range(5)]
        if top == 3:
            return "A2345"
        return "".join(RANKS[r] for r in ranks)
    return "".join(RANKS[r] * c for c, r in hc.groups)
