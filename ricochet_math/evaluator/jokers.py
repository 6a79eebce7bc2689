"""Hands with jokers: one numba kernel for the bug, wild and dead readings, and its readable twin.

The publisher's games with jokers are the home game of Ricochet Poker ("If you
play with Jokers, use them as bugs, which can only be Aces, or to complete a
straight or flush", ``shared/seeds/000``) and Ring Poker (54 cards with two
jokers, their power unstated, ``shared/seeds/002``).  Jokers are the kernel
integers 52 and 53 (:data:`JOKERS`); a hand holds at most two.

The three readings (:class:`JokerRule`)
---------------------------------------
* **BUG** (the rulebook's): a joker counts as an ace, or as any card that
  completes a straight, a flush or a straight flush.  So 7-7-7-joker is three
  sevens with an ace, never four sevens, and K-K-7-7-joker is two pair with an
  ace.  In a flush it is the best card of the suit not in the hand.  An ace it
  stays even when the hand holds all four: A-A-A-A-joker is **five aces**, the
  one five of a kind a bug can make (and A-A-A with two bugs is five aces too).
* **WILD**: a joker is any card, including a fifth card of a rank the hand
  holds four of (or three of, with two jokers): **five of a kind** is possible.
* **DEAD**: a joker is a card without rank or suit: it never pairs, never
  completes a straight or a flush, and never counts as a kicker.  The hand is
  its other cards (a partial hand when fewer than five remain).

With fewer than five cards (the home game's partial hands) straights and
flushes do not exist, so a bug is an ace there.

Keys
----
:func:`joker_key` returns a key in the **partial-key space** of
:func:`ricochet_math.evaluator.evaluation.partial_key`: it compares with
``partial_key`` of one to five plain cards and with ``FIVE_CARD_KEY[value]``,
and for a hand without a joker it *is* that key.  Five of a kind gets its own
category, :data:`FIVE_OF_A_KIND` = 9, above the straight flush (8): key
``(9 * 15 + rank + 1) * 15**4``, above every other key; five aces is the top.
(In :mod:`ricochet_math.evaluator.names` the number 9 is the royal flush's
*bonus* category; the two numberings never meet.)  A hand made with jokers ties
the same hand of natural cards: neither source has a "natural beats wild" rule.

How the kernel finds the best hand without trying every substitution
--------------------------------------------------------------------
A hand without a joker goes straight to ``eval5/6/7`` or ``partial_key``.
Otherwise one pass over the cards gathers the evaluator's key sum (rank-key
sum and suit counters), the 13-bit rank mask of each suit and the rank masks
by multiplicity.  Then, with ``j`` jokers:

* the rank-only hands (pairs .. four of a kind, and straights made of the
  ranks): every joker is added to *one* rank and the rank multiset is looked up
  in the evaluator's hash tables.  A bug is an ace; a wild card joins the rank
  held most often (the highest of those), which is best because the category
  rises with the largest group and a larger group of a higher rank wins
  (the readable twin checks this against every substitution);
* five of a kind when that rank then has five cards;
* straights: a table by rank mask and ``j`` gives the highest five-rank window
  missing at most ``j`` ranks;
* flushes: a table by the ranks held in a suit and ``j`` gives the highest
  straight-flush window missing at most ``j`` cards, else the flush with the
  jokers as the best absent ranks of the suit.

The best of these is the hand.  Measured on one core of a machine shared with
other jobs (load 10-15 on 2 cores, so only a guide): about 20-55 ns a call for
one to four cards, 45-85 ns for five to seven cards with jokers, 15-35 ns for a
plain hand of five or seven (``evaluate`` itself: 5-7 ns in the same run; the
difference is the call on a row and the joker scan).

:func:`reference_joker_key` tries every substitution with the readable
:func:`~ricochet_math.evaluator.evaluation.reference_value` and
``reference_partial_key``; the tests check the kernel against it.
"""
from __future__ import annotations

from enum import IntEnum
from itertools import combinations, combinations_with_replacement

import numpy as np

from ricochet_math._numba import njit, pnjit, prange
from ricochet_math.errors import CardError, quote
from ricochet_math.evaluator.cards import (
    JOKERS, N_CARDS, RANK_PLURALS, RANKS, format_card, is_joker, parse_cards,
)
from ricochet_math.evaluator.evaluation import (
    CARD_BIT, CARD_KEY, FLUSH_TABLE, OFFSETS5, OFFSETS6, OFFSETS7, RANK_BIT, TOP_RANK, HASH_UMASK, HASH_USHIFT, VALUES5, VALUES6, VALUES7,
    FIVE_CARD_KEY, PARTIAL_BASE, first_repeat, eval5, eval6, eval7, levels_key, partial_key,
    reference_partial_key, reference_value,
)
from ricochet_math.evaluator.names import describe
from ricochet_math.evaluator.tables import (
    FLUSH_CAT, HIGH_CARD, KEY_SHIFT, PAIR, RANK_KEYS, STRAIGHT, STRAIGHT_FLUSH,
    THREE_OF_A_KIND, TWO_PAIR, class_values, classify,
)

__all__ = [
    "JOKERS", "N_CARDS", "is_joker", "joker_deck", "JokerRule", "FIVE_OF_A_KIND", "FIVE_OF_A_KIND_KEY",
    "joker_key_of", "joker_keys", "describe_joker_hand", "reference_joker_key", "key_category", "key_name",
]


class JokerRule(IntEnum):
    """What a joker may stand for (module docstring): the rulebook's bug, a wild card, or nothing."""

    BUG = 0   #: an ace, or any card completing a straight, flush or straight flush; five aces possible
    WILD = 1  #: any card; five of a kind possible
    DEAD = 2  #: no rank and no suit: never pairs, completes or kicks


#: Category code of five of a kind, above the straight flush (8).
FIVE_OF_A_KIND = 9
_P4 = PARTIAL_BASE ** 4
_P5 = PARTIAL_BASE ** 5
#: ``int64[13]``: the key of five of a kind by rank (index 12 = five aces, the top key).
FIVE_OF_A_KIND_KEY = np.array([(FIVE_OF_A_KIND * PARTIAL_BASE + r + 1) * _P4 for r in range(13)], dtype=np.int64)
assert FIVE_OF_A_KIND_KEY[0] > FIVE_CARD_KEY.max()

_BUG, _WILD, _DEAD = int(JokerRule.BUG), int(JokerRule.WILD), int(JokerRule.DEAD)
_RK = RANK_KEYS.astype(np.int64)
_ACE = 12
_ALL_RANKS = (1 << 13) - 1


def _joker_rank_tables() -> tuple[np.ndarray, np.ndarray]:
    """``int16[3, 8192]`` twice, by number of jokers ``j`` and 13-bit rank mask (-1: none):

    * ``straight[j, ranks]``: the best straight the ranks make with ``j`` jokers filling
      missing ranks (the highest five-rank window missing at most ``j``);
    * ``suited[j, lane]``: the best straight flush or flush the ranks held in one suit make
      with ``j`` jokers of that suit: a straight-flush window missing at most ``j`` cards,
      else the jokers as the best ranks of the suit not held.

    Built once from the evaluator's straight and flush values (a table lookup in the kernel
    instead of a scan over the ten windows)."""
    values = class_values()
    masks = np.arange(1 << 13, dtype=np.int64)
    pop = _popcount(masks)
    straight = np.full((3, masks.size), -1, dtype=np.int64)
    suited = np.full((3, masks.size), -1, dtype=np.int64)
    for j in range(3):
        for top in range(3, 13):  # lowest first: higher windows overwrite
            window = sum(1 << r for r in ((12, 0, 1, 2, 3) if top == 3 else range(top - 4, top + 1)))
            fits = _popcount(masks & window) + j >= 5
            straight[j, fits] = values[(STRAIGHT, (top,), False)]
            suited[j, fits] = values[(STRAIGHT_FLUSH, (top,), True)]
        filled = masks.copy()
        for _ in range(j):  # the jokers as the best ranks of the suit not held
            absent = ~filled & _ALL_RANKS
            filled |= np.where(absent > 0, 1 << TOP_RANK[absent], 0)
        flush = np.where(pop + j >= 5, FLUSH_TABLE[filled], -1)
        no_sf = suited[j] < 0
        suited[j, no_sf] = flush[no_sf]
    return straight.astype(np.int16), suited.astype(np.int16)


def _popcount(masks: np.ndarray) -> np.ndarray:
    return sum((masks >> r) & 1 for r in range(13))


_STRAIGHT_WITH, _SUITED_WITH = _joker_rank_tables()


def joker_deck(n_jokers: int = 2) -> np.ndarray:
    """``int64``: the 52 cards in kernel order, then ``n_jokers`` (0..2) jokers (52, 53)."""
    if isinstance(n_jokers, bool) or not isinstance(n_jokers, (int, np.integer)) or not 0 <= n_jokers <= 2:
        raise CardError(f"a deck holds 0, 1 or 2 jokers, got {quote(n_jokers)}")
    return np.arange(52 + int(n_jokers), dtype=np.int64)


# --------------------------------------------------------------------------- kernel
@njit(inline="always")
def _lookup(s, n):
    """Dense value of the rank multiset with rank-key sum ``s`` of ``n`` (5..7) cards, no flush."""
    su = np.uint64(s)
    if n == 5:
        return np.int64(VALUES5[np.uint64(OFFSETS5[su >> HASH_USHIFT]) + (su & HASH_UMASK)])
    if n == 6:
        return np.int64(VALUES6[np.uint64(OFFSETS6[su >> HASH_USHIFT]) + (su & HASH_UMASK)])
    return np.int64(VALUES7[np.uint64(OFFSETS7[su >> HASH_USHIFT]) + (su & HASH_UMASK)])


@njit(inline="always")
def _top_group(s1, s2, s3, s4):
    """(rank, count) of the highest rank among those held most often; (ace, 0) for no cards."""
    if s4:
        return TOP_RANK[np.uint64(s4)], 4
    if s3:
        return TOP_RANK[np.uint64(s3)], 3
    if s2:
        return TOP_RANK[np.uint64(s2)], 2
    if s1:
        return TOP_RANK[np.uint64(s1)], 1
    return _ACE, 0


@njit(inline="always")
def joker_key(cards, n, rule):
    """Key of the first ``n`` (1..7) cards of ``cards`` (int64, 0..53, distinct; 52 and 53 are
    jokers) under joker rule ``rule`` (0 bug, 1 wild, 2 dead), in the space of
    :func:`~ricochet_math.evaluator.evaluation.partial_key` (module docstring).

    Five or more cards: the best five (five of a kind above every straight flush);
    fewer: the partial hand by the kicker rule, a bug counting as an ace.  For a
    hand without a joker this is ``partial_key`` / ``FIVE_CARD_KEY[value]``
    exactly.  Unchecked (for kernels); Python callers use :func:`joker_key_of`.
    """
    # A plain hand goes straight to the evaluator's own kernels (the jokers are the only cards >= 52).
    if n >= 5:
        c0, c1, c2, c3, c4 = cards[0], cards[1], cards[2], cards[3], cards[4]
        top = max(max(c0, c1), max(max(c2, c3), c4))
        if n == 5:
            if top < 52:
                return FIVE_CARD_KEY[eval5(c0, c1, c2, c3, c4)]
        elif n == 6:
            c5 = cards[5]
            if max(top, c5) < 52:
                return FIVE_CARD_KEY[eval6(c0, c1, c2, c3, c4, c5)]
        else:
            c5, c6 = cards[5], cards[6]
            if max(top, max(c5, c6)) < 52:
                return FIVE_CARD_KEY[eval7(c0, c1, c2, c3, c4, c5, c6)]
    j = 0
    for i in range(n):
        j += cards[i] >= 52
    if j == 0:
        return partial_key(cards, n)
    k = np.int64(0)        # rank-key sum << KEY_SHIFT | a 4-bit counter per suit (the evaluator's card keys)
    lanes = np.int64(0)    # 16-bit lane per suit: the ranks held in it
    s1 = s2 = s3 = s4 = np.int64(0)
    for i in range(n):
        c = cards[i]
        if c >= 52:
            continue
        cu = np.uint8(c)
        k += CARD_KEY[cu]
        lanes |= CARD_BIT[cu]
        b = RANK_BIT[cu]
        s4 |= s3 & b
        s3 |= s2 & b
        s2 |= s1 & b
        s1 |= b
    s = k >> KEY_SHIFT
    counts = k & 0xFFFF
    m = n - j
    if rule == _DEAD:        # the hand is its ordinary cards
        n, j = m, 0
    if n < 5:                # partial hand: a bug is an ace, a wild card joins the largest group
        if j:
            r = np.int64(_ACE)
            if rule == _WILD:
                r, _c = _top_group(s1, s2, s3, s4)
            b = np.int64(1) << r
            for _ in range(j):
                s4 |= s3 & b
                s3 |= s2 & b
                s2 |= s1 & b
                s1 |= b
        return levels_key(s1, s2, s3, s4)
    if j == 0:               # plain hand: a flush, when present, is the best five (n <= 7)
        for suit in range(4):
            if (counts >> (4 * suit)) & 15 >= 5:
                return FIVE_CARD_KEY[FLUSH_TABLE[np.uint64((lanes >> (16 * suit)) & _ALL_RANKS)]]
        return FIVE_CARD_KEY[_lookup(s, n)]
    # Rank-only hands: every joker on one rank (an ace for a bug, the largest group for a wild card).
    if rule == _BUG:
        r = np.int64(_ACE)
        held = 0
        if s4 >> _ACE & 1:
            held = 4
        elif s3 >> _ACE & 1:
            held = 3
        elif s2 >> _ACE & 1:
            held = 2
        elif s1 >> _ACE & 1:
            held = 1
    else:
        r, held = _top_group(s1, s2, s3, s4)
    if held + j >= 5:
        return FIVE_OF_A_KIND_KEY[r]
    v = _lookup(s + j * _RK[r], n)
    # Straights: the jokers fill the missing ranks of the highest window they can.
    v = max(v, np.int64(_STRAIGHT_WITH[j, np.uint64(s1)]))
    # Straight flushes and flushes, suit by suit (-1 where the suit cannot reach five).
    for suit in range(4):
        lane = (lanes >> (16 * suit)) & _ALL_RANKS
        v = max(v, np.int64(_SUITED_WITH[j, np.uint64(lane)]))
    return FIVE_CARD_KEY[v]


@pnjit
def _joker_keys_parallel(hands, rule, out):
    for i in prange(hands.shape[0]):
        out[i] = joker_key(hands[i], hands.shape[1], rule)


@njit
def _joker_keys_serial(hands, rule, out):
    for i in range(hands.shape[0]):
        out[i] = joker_key(hands[i], hands.shape[1], rule)


# ------------------------------------------------------------------ checked entry points
_RULE_NAMES = {r.name.lower(): r for r in JokerRule}


def _rule(rule) -> int:
    """A :class:`JokerRule` from itself, its value or its name (``"bug"``, ``"wild"``, ``"dead"``)."""
    if isinstance(rule, JokerRule):
        return int(rule)
    if isinstance(rule, str) and rule.strip().lower() in _RULE_NAMES:
        return int(_RULE_NAMES[rule.strip().lower()])
    if isinstance(rule, (int, np.integer)) and not isinstance(rule, bool) and int(rule) in (0, 1, 2):
        return int(rule)
    raise CardError(f"unknown joker rule {quote(rule)}: use bug, wild or dead")


def _checked_hand(cards_or_text) -> np.ndarray:
    cards = parse_cards(cards_or_text, count=range(1, 8), jokers=True)
    return cards.astype(np.int64)


def joker_key_of(cards_or_text, rule="bug") -> int:
    """:func:`joker_key` of 1..7 cards given as text (``"As Ks Qs Js Jk"``) or kernel integers
    (0..53), checked: a :class:`CardError` names a bad card, a repeat, a wrong count or rule."""
    cards = _checked_hand(cards_or_text)
    return int(joker_key(cards, len(cards), _rule(rule)))


_PARALLEL_MIN_HANDS = 50_000


def joker_keys(hands, rule="bug", *, parallel: bool = True) -> np.ndarray:
    """Keys of a batch of hands: an ``(m, n)`` integer array, ``n`` in 1..7, cards 0..53 distinct
    within a row (checked; a :class:`CardError` names the first bad row) -> ``int64[m]``.

    The kernel runs without the GIL and with no shared state, so numba code may call
    :func:`joker_key` from its own ``prange`` loops; this wrapper uses all cores for
    large batches when ``parallel``.
    """
    code = _rule(rule)
    hands = np.asarray(hands)
    if hands.ndim == 1:
        hands = hands[None, :]
    if hands.ndim != 2 or not 1 <= hands.shape[1] <= 7:
        raise CardError(f"joker_keys needs an (m, 1..7) array of cards, got shape {hands.shape}")
    if hands.dtype.kind not in "iu":
        raise CardError(f"joker_keys needs integer cards, got dtype {hands.dtype}")
    if hands.size and (hands.min() < 0 or hands.max() > 53):
        raise CardError("card numbers must be in 0..53 (52 and 53 are the jokers)")
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    bad = first_repeat(hands)
    if bad >= 0:
        raise CardError(f"row {bad} of the hands repeats a card: {' '.join(map(str, hands[bad]))}")
    out = np.empty(hands.shape[0], dtype=np.int64)
    if parallel and hands.shape[0] >= _PARALLEL_MIN_HANDS:
        _joker_keys_parallel(hands, code, out)
    else:
        _joker_keys_serial(hands, code, out)
    return out


def key_category(key) -> int:
    """Category code of a key: 0 high card .. 8 straight flush, 9 five of a kind."""
    return int(key) // _P5


# ------------------------------------------------------------------ readable twin
def _tuple_key(t: tuple) -> int:
    """A ``(category, ranked...)`` tuple as an integer key (base-15 digits, rank + 1, 0 = none)."""
    key = t[0]
    for i in range(5):
        key = key * PARTIAL_BASE + (t[1 + i] + 1 if 1 + i < len(t) else 0)
    return key


def _five_key(five) -> int:
    """Key of five cards that may repeat a card (a joker standing for a card held):
    five of one rank is five of a kind; a repeated card makes no flush."""
    ranks = [c >> 2 for c in five]
    if len(set(ranks)) == 1:
        return int(FIVE_OF_A_KIND_KEY[ranks[0]])
    if len(set(five)) == 5:
        return int(FIVE_CARD_KEY[reference_value(five)])
    category, ranked, _ = classify(tuple(sorted(ranks, reverse=True)), False)
    return int(FIVE_CARD_KEY[class_values()[(category, ranked, False)]])


_ACES = tuple(range(48, 52))
_STRAIGHT_OR_FLUSH = (STRAIGHT, FLUSH_CAT, STRAIGHT_FLUSH)


def reference_joker_key(cards, rule="bug") -> int:
    """Slow readable twin of :func:`joker_key`: every joker tried as every card the rule allows.

    * bug: each joker as any of the four aces (a held one too: four aces and a
      joker are five aces), or as any card, a choice that counts only in five
      cards making a straight, flush or straight flush;
    * wild: each joker as any of the 52 cards (held ones too, for five of a kind);
    * dead: the jokers removed.

    Five or more cards: the best five over all choices and all five-card subsets;
    fewer: ``reference_partial_key`` (suits do not matter, so a bug is an ace).
    """
    code = _rule(rule)
    cards = [int(c) for c in cards]
    plain = [c for c in cards if c < 52]
    jokers = len(cards) - len(plain)
    if code == _DEAD or jokers == 0:
        if len(plain) >= 5:
            return int(FIVE_CARD_KEY[reference_value(plain)])
        return _tuple_key(reference_partial_key(plain)) if plain else 0
    if len(cards) < 5:
        choices = _ACES if code == _BUG else range(52)
        return max(_tuple_key(reference_partial_key(plain + list(sub)))
                   for sub in combinations_with_replacement(choices, jokers))
    best = -1
    for sub in combinations_with_replacement(range(52), jokers):  # the two jokers are alike
        as_ace = [s in _ACES for s in sub]
        hand = plain + list(sub)
        is_sub = [False] * len(plain) + [True] * jokers
        for idx in combinations(range(len(hand)), 5):
            key = _five_key([hand[i] for i in idx])
            uses_bug_freely = code == _BUG and any(is_sub[i] and not as_ace[i - len(plain)] for i in idx)
            if uses_bug_freely and key_category(key) not in _STRAIGHT_OR_FLUSH:
                continue  # a bug other than an ace counts only in a straight or a flush
            best = max(best, key)
    return best


# ------------------------------------------------------------------ names
def _partial_name(key: int) -> str:
    """Name of a key of fewer than five cards (``Pair of Aces, 8``, ``Ace-8``)."""
    digits = []
    rest = int(key)
    for _ in range(5):
        digits.append(rest % PARTIAL_BASE)
        rest //= PARTIAL_BASE
    category = rest
    ranks = [d - 1 for d in reversed(digits) if d]
    kick = "-".join(RANKS[r] for r in ranks[1:])
    if not ranks:
        return "No cards"
    if category == HIGH_CARD:
        return "High card, " + "-".join(RANKS[r] for r in ranks)
    if category == PAIR:
        return f"Pair of {RANK_PLURALS[ranks[0]]}" + (f", {kick}" if kick else "")
    if category == TWO_PAIR:
        return f"Two pair, {RANK_PLURALS[ranks[0]]} and {RANK_PLURALS[ranks[1]]}"
    if category == THREE_OF_A_KIND:
        return f"Three {RANK_PLURALS[ranks[0]]}" + (f", {kick}" if kick else "")
    return f"Four {RANK_PLURALS[ranks[0]]}"


def key_name(key: int, n_cards: int) -> str:
    """Readable name of a key of ``n_cards`` cards: ``Five Aces``, ``Royal flush``, ``Pair of Aces, 8``."""
    key = int(key)
    if key_category(key) == FIVE_OF_A_KIND:
        return f"Five {RANK_PLURALS[(key // _P4) % PARTIAL_BASE - 1]}"
    if n_cards >= 5:
        value = int(np.searchsorted(FIVE_CARD_KEY, key))
        if value < len(FIVE_CARD_KEY) and FIVE_CARD_KEY[value] == key:
            return describe(value)
    return _partial_name(key)


def _substitution(cards: list[int], code: int, target: int):
    """Cards the jokers stand for in a hand whose key is ``target`` (first found), or None."""
    plain = [c for c in cards if c < 52]
    jokers = len(cards) - len(plain)
    free = [c for c in range(52) if c not in plain]
    pool = [a for a in _ACES if a in free] if (code == _BUG and len(cards) < 5) else free
    for sub in combinations(pool, jokers):
        hand = np.array(plain + list(sub), dtype=np.int64)
        key = int(joker_key(hand, len(hand), _DEAD))
        if key != target:
            continue
        bug_not_ace = code == _BUG and len(cards) >= 5 and any(s not in _ACES for s in sub)
        if bug_not_ace and key_category(key) not in _STRAIGHT_OR_FLUSH:
            continue
        return sub
    return None


def describe_joker_hand(cards_or_text, rule="bug", *, symbols: bool = True) -> str:
    """Readable name of a hand with jokers and what they stand for, e.g.
    ``Royal flush (joker as T♠)``, ``Three Sevens, A-2 (joker as A♣)``, ``Five Aces``,
    ``Pair of Kings, 9-4 (joker dead)``."""
    cards = [int(c) for c in _checked_hand(cards_or_text)]
    code = _rule(rule)
    key = int(joker_key(np.array(cards, dtype=np.int64), len(cards), code))
    jokers = sum(1 for c in cards if c >= 52)
    n = len(cards) - jokers if code == _DEAD else len(cards)
    name = key_name(key, n)
    if not jokers:
        return name
    word = "joker" if jokers == 1 else "jokers"
    if code == _DEAD:
        return f"{name} ({word} dead)"
    if key_category(key) == FIVE_OF_A_KIND:
        return name
    sub = _substitution(cards, code, key)
    if sub is None:  # not reached: the tests check a substitution is found for every kind of hand
        return name
    return f"{name} ({word} as {' and '.join(format_card(c, symbols=symbols, jokers=True) for c in sub)})"
