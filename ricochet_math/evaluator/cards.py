"""Cards and decks: the one boundary between card text and kernel integers.

A card inside every kernel is an integer ``rank * 4 + suit`` in ``0..51``:

* rank ``0..12`` stands for ``2 3 4 5 6 7 8 9 T J Q K A``;
* suit ``0..3`` stands for clubs, diamonds, hearts, spades, which is also the
  suit order used to break order-of-play ties (C < D < H < S, rulebook
  "Suits are ranked in alphabetical order").

Text follows ``shared/spec/ricochet-casino.md``: rank ``23456789TJQKA`` (``10``
also accepted), suit ``cdhs`` or ``♣♦♥♠``, case-insensitive.  Hands are cards
separated by spaces (or commas).

Jokers (for the games that use them, :mod:`ricochet_math.evaluator.jokers`) are
the kernel integers ``52`` and ``53`` (:data:`JOKERS`).  Their text is ``Jk``
(also ``JK``, ``X``, ``Joker``, ``🃏``); the two jokers are the same card, so
each joker token takes the next joker not already used.  Only
``parse_cards(..., jokers=True)`` reads them; elsewhere a joker is an error
naming where it is.

>>> parse_cards("As 10h K♦")
array([51, 34, 45], dtype=int8)
>>> format_cards([51, 34, 45])
'As Th Kd'
"""
from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Mapping, Sequence, Set

import numpy as np

from ricochet_math.errors import CardError, quote

__all__ = [
    "RANKS",
    "SUITS",
    "SUIT_SYMBOLS",
    "JOKERS",
    "N_CARDS",
    "CardError",
    "is_joker",
    "card",
    "rank_of",
    "suit_of",
    "parse_card",
    "parse_cards",
    "format_card",
    "format_cards",
    "full_deck",
    "deck_without",
    "random_deals",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
    "Jack", "Queen", "King", "Ace",
)
RANK_PLURALS = (
    "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines",
    "Tens", "Jacks", "Queens", "Kings", "Aces",
)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

_SUIT_LOOKUP = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)}
# Variation selectors sometimes follow the suit symbols in pasted text (♠️).
_SUIT_LOOKUP |= {s + "\ufe0f": i for i, s in enumerate(SUIT_SYMBOLS)}
_RANK_LOOKUP = {r: i for i, r in enumerate(RANKS)} | {"10": 8}

#: Kernel integers of the two jokers, after the 52 ordinary cards.
JOKERS = (52, 53)
#: Cards in a deck with both jokers (Ring Poker's 54).
N_CARDS = 54
JOKER_TEXT, JOKER_SYMBOL = "Jk", "\U0001F0CF"
_JOKER_WORDS = frozenset(["jk", "x", "joker", "jkr", JOKER_SYMBOL])
_SPLIT = re.compile(r"[\s,]+")


def card(rank: int, suit: int) -> int:
    """Kernel integer of a card from rank ``0..12`` and suit ``0..3``."""
    return rank * 4 + suit


def rank_of(c: int) -> int:
    """Rank ``0..12`` (deuce..ace) of kernel card ``c``."""
    return c >> 2


def suit_of(c: int) -> int:
    """Suit ``0..3`` (clubs, diamonds, hearts, spades) of kernel card ``c``."""
    return c & 3


def is_joker(c) -> bool:
    """Whether kernel card ``c`` is one of the two jokers (52, 53)."""
    return int(c) in JOKERS


def parse_card(text: str, *, where: str = "", jokers: bool = False) -> int:
    """Parse one card such as ``As``, ``td``, ``10h`` or ``K♦`` (or a kernel integer ``0..51``) into ``0..51``.

    ``True``/``False`` are not cards (Python would read them as 1 and 0).  With
    ``jokers=True`` a joker (``Jk``, ``X``, ``Joker``, ``🃏`` or 52/53) is read too:
    joker text gives 52 (:func:`parse_cards` numbers a second one 53).
    """
    if isinstance(text, (bool, np.bool_)):
        raise CardError(f"{quote(text)} is not a card{_at(where)}: give card text such as 'As' or a number 0..51")
    if isinstance(text, (int, np.integer)):
        if 0 <= int(text) < 52 or (jokers and int(text) in JOKERS):
            return int(text)
        if int(text) in JOKERS:
            raise CardError(f"card number {int(text)} is a joker, outside 0..51{_at(where)}: "
                            "this game is played without jokers")
        raise CardError(f"card number {int(text)} is outside 0..{53 if jokers else 51}{_at(where)}")
    token = str(text).strip()
    if token.lower() in _JOKER_WORDS:
        if jokers:
            return JOKERS[0]
        raise CardError(f"joker {quote(text)}{_at(where)}: this game is played without jokers")
    if len(token) < 2:
        raise CardError(f"malformed card {quote(text)}{_at(where)}: expected rank then suit, e.g. 'As' or '10h'")
    rank_text, suit_text = token[:-1], token[-1]
    if suit_text == "\ufe0f" and len(token) >= 3:
        rank_text, suit_text = token[:-2], token[-2:]
    rank = _RANK_LOOKUP.get(rank_text.upper())
    if rank is None:
        raise CardError(f"unknown rank {quote(rank_text)} in card {quote(text)}{_at(where)}: ranks are 2-9, T (or 10), J, Q, K, A")
    suit = _SUIT_LOOKUP.get(suit_text.lower())
    if suit is None:
        raise CardError(f"unknown suit {quote(suit_text)} in card {quote(text)}{_at(where)}: suits are c d h s (or ♣ ♦ ♥ ♠)")
    return card(rank, suit)


def parse_cards(
    text: str | Iterable[str | int],
    *,
    count: int | Sequence[int] | None = None,
    where: str = "",
    dead: Iterable[int] | dict[int, str] = (),
    jokers: bool = False,
) -> np.ndarray:
    """Parse a hand into an ``int8`` array of kernel cards.

    ``text`` is a space- or comma-separated string or an iterable of tokens.
    ``count`` (an int or allowed counts) checks the number of cards; ``dead``
    lists cards already in use elsewhere (e.g. other seats), or maps each to
    where it is, so a card that appears twice anywhere on the table is
    reported with both places.  ``jokers=True`` reads jokers too: each joker
    token takes the lowest joker (52, then 53) not already in the hand or
    among ``dead``, since the two jokers are the same card.
    """
    if isinstance(text, str):
        tokens = [t for t in _SPLIT.split(text.strip()) if t]
    elif isinstance(text, (bytes, bytearray, Mapping, Set)) or not isinstance(text, Iterable) or \
            (isinstance(text, np.ndarray) and text.ndim != 1):  # a dict or a set has no card order
        raise CardError(f"cards must be text such as 'As Kd' or a list of cards{_at(where)}, "
                        f"got a {type(text).__name__}" + (f" of shape {text.shape}" if isinstance(text, np.ndarray) else ""))
    else:
        tokens = list(text)
    cards = [parse_card(t, where=where, jokers=jokers) for t in tokens]
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            want = " or ".join(str(a) for a in allowed)
            raise CardError(f"expected {want} cards{_at(where)}, got {len(cards)}: {quote(' '.join(map(str, tokens))) if tokens else '(none)'}")
    # ``dead`` may say where each card already is ({card: "seat 1's hand"}),
    # so a card used twice on the table is reported with both places.
    elsewhere = {int(d): w for d, w in dead.items()} if isinstance(dead, dict) else {int(d): "" for d in dead}
    seen: set[int] = set()
    if jokers:
        cards = _number_jokers(tokens, cards, elsewhere, where)
    for tok, c in zip(tokens, cards):
        if c in seen:
            raise CardError(f"duplicate card {format_card(c, jokers=True)} ({quote(tok)}){_at(where)}")
        if c in elsewhere:
            also = f" (already in {elsewhere[c]})" if elsewhere[c] else ""
            raise CardError(f"duplicate card {format_card(c, jokers=True)} ({quote(tok)}){_at(where)}{also}")
        seen.add(c)
    return np.asarray(cards, dtype=np.int8)


def _number_jokers(tokens, cards: list[int], elsewhere: dict[int, str], where: str) -> list[int]:
    """Give each joker token (text, read as 52) the lowest joker not yet used here or elsewhere."""
    explicit = {c for t, c in zip(tokens, cards) if c in JOKERS and isinstance(t, (int, np.integer))}
    used = explicit | {c for c in elsewhere if c in JOKERS}
    out = []
    for tok, c in zip(tokens, cards):
        if c in JOKERS and not isinstance(tok, (int, np.integer)):
            free = [j for j in JOKERS if j not in used]
            if not free:
                also = "".join(f" (one already in {elsewhere[j]})" for j in JOKERS if elsewhere.get(j))
                raise CardError(f"a third joker {quote(tok)}{_at(where)}: the deck has only two{also}")
            c = free[0]
            used.add(c)
        out.append(c)
    return out


def format_card(c: int, *, symbols: bool = False, jokers: bool = False) -> str:
    """Text of kernel card ``c``: ``As`` (or ``A♠`` with ``symbols=True``); with ``jokers=True`` a
    joker (52, 53) is ``Jk`` (``🃏``)."""
    if isinstance(c, (bool, np.bool_)) or not isinstance(c, numbers.Integral):  # int() would take True, 3.7, "5"
        raise CardError(f"a card number must be a whole number 0..51, got {type(c).__name__} {quote(c)}")
    c = int(c)
    if jokers and c in JOKERS:
        return JOKER_SYMBOL if symbols else JOKER_TEXT
    if not 0 <= c < 52:
        raise CardError(f"card number {c} is outside 0..51")
    suit = SUIT_SYMBOLS[c & 3] if symbols else SUITS[c & 3]
    return RANKS[c >> 2] + suit


def format_cards(cards: Iterable[int], *, symbols: bool = False, jokers: bool = False) -> str:
    """Space-separated text of several kernel cards; with ``jokers=True`` the jokers (52, 53) read ``Jk``
    (``🃏``), otherwise a card outside 0..51 is refused (a game without jokers never shows one)."""
    if isinstance(cards, (str, bytes, bytearray, Mapping, Set)) or not isinstance(cards, Iterable) or \
            (isinstance(cards, np.ndarray) and cards.ndim != 1):
        raise CardError(f"format_cards needs a sequence of card numbers, got {type(cards).__name__} {quote(cards)}")
    return " ".join(format_card(c, symbols=symbols, jokers=jokers) for c in cards)


def full_deck() -> np.ndarray:
    """All 52 cards as ``int8``, in kernel order (2c 2d 2h 2s 3c ... As)."""
    return np.arange(52, dtype=np.int8)


def deck_without(dead: Iterable[int]) -> np.ndarray:
    """The deck minus ``dead`` cards, in kernel order (``int8``)."""
    mask = np.ones(52, dtype=bool)
    dead = np.asarray(list(dead), dtype=np.int64)
    if dead.size:
        if dead.min() < 0 or dead.max() > 51:
            raise CardError("dead cards must be in 0..51")
        if np.unique(dead).size != dead.size:
            raise CardError("duplicate card among the dead cards")
        mask[dead] = False
    return np.flatnonzero(mask).astype(np.int8)


def random_deals(rng: np.random.Generator, n: int, k: int, dead: Iterable[int] = ()) -> np.ndarray:
    """``n`` independent deals of ``k`` distinct cards each, avoiding ``dead``.

    Returns an ``(n, k)`` ``int8`` array; each row is a uniformly random
    ``k``-subset in random order.  Raises :class:`CardError` if the deck holds
    fewer than ``k`` cards.
    """
    deck = deck_without(dead)
    if k > deck.size:
        raise CardError(f"cannot deal {k} cards from a deck of {deck.size}")
    if n < 0:
        raise CardError(f"number of deals must be >= 0, got {n}")
    keys = rng.random((n, deck.size))
    idx = np.argpartition(keys, k - 1, axis=1)[:, :k] if k < deck.size else np.argsort(keys, axis=1)
    return deck[idx].astype(np.int8)


def _at(where: str) -> str:
    return f" in {where}" if where else ""
