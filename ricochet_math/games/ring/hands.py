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
from ricochet_math.errors import CardError
from ricochet_math.evaluator.cards import format_card, parse_card
from ricochet_math.evaluator.evaluation import FIVE_CARD_KEY, eval5, partial_key

__all__ = ["JOKER_CARDS", "N_CARDS", "hand_key", "hand_key_of", "card_text", "cards_text", "parse_ring_cards"]

#: the two jokers' card numbers (after the 52 cards ``rank*4 + suit``)
JOKER_CARDS = (52, 53)
#: cards in the Ring Poker deck
N_CARDS = 54
_FIVE_KEY = FIVE_CARD_KEY


@njit(inline="always")
def hand_key(c0, c1, c2, c3, c4, rule):
    """Key of five distinct cards of 0..53 under joker rule ``rule`` (the game's one hand value).

    Without jokers: the five-card partial key.  DEAD (2): a joker counts for nothing, the hand is
    valued as its other cards under the kicker rule (``partial_key`` of three or four cards).
    """
    if c0 < 52 and c1 < 52 and c2 < 52 and c3 < 52 and c4 < 52:
        return np.int64(_FIVE_KEY[eval5(c0, c1, c2, c3, c4)])
    return _joker_hand_key(c0, c1, c2, c3, c4, rule)


@njit
def _joker_hand_key(c0, c1, c2, c3, c4, rule):
    real = np.empty(5, dtype=np.int64)
    n = 0
    for c in (c0, c1, c2, c3, c4):
        if c < 52:
            real[n] = c
            n += 1
    return partial_key(real, n)


def hand_key_of(cards, rule: int) -> int:
    """:func:`hand_key` of five cards given as numbers or text (checked)."""
    cs = parse_ring_cards(cards, count=5) if isinstance(cards, str) else np.asarray(cards, dtype=np.int64)
    if cs.shape != (5,) or cs.min() < 0 or cs.max() >= N_CARDS or np.unique(cs).size != 5:
        raise CardError(f"a hand is five distinct cards of 0..53, got {list(map(int, cs))}")
    return int(hand_key(*(int(c) for c in cs), int(rule)))


def card_text(c: int) -> str:
    """``As``; the jokers read ``Jk`` (card 52) and ``JK`` (card 53)."""
    c = int(c)
    if c == 52:
        return "Jk"
    if c == 53:
        return "JK"
    return format_card(c)


def cards_text(cards) -> str:
    return " ".join(card_text(c) for c in cards)


def parse_ring_cards(text, *, count: int | None = None, where: str = "") -> np.ndarray:
    """Cards of the 54-card deck from text (``As Kd Jk``; ``Jk``/``JK`` or ``X`` are the jokers), ``int64``."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else [str(t) for t in text]
    out, jokers = [], 0
    at = f" in {where}" if where else ""
    for t in tokens:
        if t.upper() in ("JK", "X", "JOKER"):
            if jokers == 2:
                raise CardError(f"more than two jokers{at}: {text!r}")
            out.append(52 + jokers)
            jokers += 1
        else:
            out.append(parse_card(t, where=where))
    if len(set(out)) != len(out):
        raise CardError(f"a card appears twice{at}: {text!r}")
    if count is not None and len(out) != count:
        raise CardError(f"expected {count} cards{at}, got {len(out)}: {text!r}")
    return np.asarray(out, dtype=np.int64)
