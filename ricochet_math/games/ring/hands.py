"""Hand values of Ring Poker: five cards from a 54-card deck (cards 52 and 53 are the jokers).

Every five-card hand of the game is valued here and nowhere else, as one ``int64``
**key** in the evaluator's partial-key space (higher is stronger, equal keys tie):
a hand without jokers reads ``FIVE_CARD_KEY[eval5(...)]``; a hand with jokers is
valued under the game's joker rule (:class:`~ricochet_math.games.ring.rules.Joker`).

Only :func:`hand_key` knows how jokers are valued, so the solver, the engine and the
kernels all agree by construction.
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.errors import CardError, quote
from ricochet_math.evaluator.cards import JOKERS, N_CARDS, format_cards, parse_cards
from ricochet_math.evaluator.evaluation import FIVE_CARD_KEY, eval5
from ricochet_math.evaluator.jokers import joker_key

__all__ = ["JOKER_CARDS", "N_CARDS", "cards_text", "hand_key", "hand_key_of", "parse_ring_cards"]

#: the two jokers' card numbers (after the 52 cards ``rank*4 + suit``)
JOKER_CARDS = JOKERS
_FIVE_KEY = FIVE_CARD_KEY


@njit(inline="always")
def hand_key(c0, c1, c2, c3, c4, rule):
    """Key of five distinct cards of 0..53 under joker rule ``rule`` (the game's one hand value).

    Without jokers: ``FIVE_CARD_KEY[eval5(...)]`` (the fast path, three hands in four have no
    joker); with jokers: :func:`ricochet_math.evaluator.jokers.joker_key` (bug, wild or dead,
    tested there against every substitution), which equals the fast path on plain hands.
    """
    if c0 < 52 and c1 < 52 and c2 < 52 and c3 < 52 and c4 < 52:
        return np.int64(_FIVE_KEY[eval5(c0, c1, c2, c3, c4)])
    return _joker_hand_key(c0, c1, c2, c3, c4, rule)


@njit
def _joker_hand_key(c0, c1, c2, c3, c4, rule):
    five = np.empty(5, dtype=np.int64)
    five[0], five[1], five[2], five[3], five[4] = c0, c1, c2, c3, c4
    return joker_key(five, 5, rule)


def hand_key_of(cards, rule: int) -> int:
    """:func:`hand_key` of five cards given as numbers or text (checked)."""
    cs = parse_ring_cards(cards, count=5)
    return int(hand_key(*(int(c) for c in cs), int(rule)))


def cards_text(cards) -> str:
    """``As Kd Jk``: card text with the jokers as ``Jk``."""
    return format_cards((int(c) for c in cards), jokers=True)


def parse_ring_cards(text, *, count: int | None = None, where: str = "") -> np.ndarray:
    """Cards of the 54-card deck (text such as ``As Kd Jk``, or numbers 0..53), checked, as ``int64``."""
    if not isinstance(text, str):
        try:
            text = [int(c) for c in np.asarray(text).ravel()]
        except (TypeError, ValueError, OverflowError):
            raise CardError(f"{where or 'cards'}: give card text such as 'As Kd Jk' or numbers 0..53, "
                            f"got {quote(text)}") from None
    cards = parse_cards(text, count=count, where=where, jokers=True).astype(np.int64)
    if cards.size == 0 and count:
        raise CardError(f"no cards{' in ' + where if where else ''}")
    return cards
