"""Quickdraw, exact count: which of the 2,809,475,760 deals the player's two cards win.

The player's two-card hand is compared with the dealer's five-card hand under
one of two readings of the rule (``[quickdraw] comparison``, see
:mod:`ricochet_math.design.quickdraw` for what each means and which ships).
This module holds the comparison itself and the exact count over every deal;
:mod:`~ricochet_math.design.quickdraw` turns the counts into figures.

How the count is done (:func:`_quickdraw_kernel`): a five-card hand's
comparison key is a function of its dense value, increasing with it, so "the
player wins" is "the dealer's value is below a threshold" that depends only on
the player's key (:func:`quickdraw_wins`).  The dealer-value histogram over
the 50 cards left by player cards ``{a, b}`` is, by inclusion-exclusion,
``H(all) - H(hands holding a) - H(hands holding b) + H(hands holding a and b)``:
one pass over the 2,598,960 hands gives the first three for every card, and
the last takes 19,600 evaluations per player hand.  All 1,326 player hands
are counted (no suit-symmetry argument needed) in about a second.

Two independent routes check it: the slow twin :func:`quickdraw_brute_force`
compares partial keys deal by deal for one player hand, and the readable rule
:func:`reference_quickdraw_win` compares ``(category, ranked cards...)``
tuples; the tests check both against the fast count.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.errors import RuleError, quote
from ricochet_math.evaluator.cards import parse_cards
from ricochet_math.evaluator.evaluation import (
    FIVE_CARD_KEY, NUM_VALUES, PARTIAL_BASE, all_five_card_values, eval5, partial_key, reference_partial_key,
)
from ricochet_math.evaluator.tables import CATEGORY_NAMES, hand_classes
from ricochet_math.rules.ruleset import COMPARISON_CHOICES

__all__ = [
    "player_hands", "quickdraw_wins", "check_comparison", "quickdraw_counts",
    "quickdraw_brute_force", "quickdraw_counts_for", "reference_quickdraw_win",
]

_N_CAT = len(CATEGORY_NAMES)  # 9: high card .. straight flush
_DIGITS = 5  # a partial key holds up to five ranked-card digits
_CATEGORY_UNIT = PARTIAL_BASE ** _DIGITS  # a partial key's category: key // _CATEGORY_UNIT (15**5)


# =========================================================================
# Keys: the comparison of two- and five-card hands
# =========================================================================

def _key_digits(key: int) -> int:
    """How many ranked cards a partial key holds (its non-zero digits)."""
    digits = key % _CATEGORY_UNIT
    n = 0
    while digits:
        n += digits % PARTIAL_BASE != 0
        digits //= PARTIAL_BASE
    return n


def _truncate(keys, n_digits: int):
    """Keys cut to their category and first ``n_digits`` ranked cards (``top-cards``)."""
    unit = PARTIAL_BASE ** (_DIGITS - n_digits)
    return (keys // unit) * unit


def quickdraw_wins(player_key: int, comparison: str) -> int:
    """Value threshold: the player's two cards win against every dealer value below it.

    ``kicker``: dealer key <= player key (never equal: the dealer always holds the extra cards);
    ``top-cards``: dealer key cut to the player's number of ranked cards
    <= player key.  Both sets are an initial run of values because the keys
    increase with the value.
    """
    check_comparison(comparison)
    keys = FIVE_CARD_KEY
    if comparison == "top-cards":
        keys = _truncate(keys, _key_digits(player_key))
    return int(np.searchsorted(keys, player_key, side="right"))


def check_comparison(comparison: str) -> None:
    """Raise one line of :class:`~ricochet_math.errors.RuleError` unless ``kicker`` or ``top-cards``."""
    if comparison not in COMPARISON_CHOICES:
        raise RuleError(f"Quickdraw comparison {quote(comparison)} is not allowed; choose one of "
                        + ", ".join(f'"{c}"' for c in COMPARISON_CHOICES))


def reference_quickdraw_win(player, dealer, comparison: str) -> bool:
    """Readable rule: does the player's two-card hand win against the dealer's five?

    Keys are ``(category, ranked cards...)`` tuples from
    :func:`~ricochet_math.evaluator.evaluation.reference_partial_key`; a tuple that is a
    prefix of another is smaller (the kicker rule).  ``top-cards`` cuts the
    dealer's tuple to the player's length first.  Ties win for the player.
    """
    check_comparison(comparison)
    p = reference_partial_key(player)
    d = reference_partial_key(dealer)
    if comparison == "top-cards":
        d = d[: len(p)]
    return p >= d


# =========================================================================
# The player's hands
# =========================================================================

@lru_cache(maxsize=1)
def player_hands() -> np.ndarray:
    """The 1,326 two-card hands, ``int64 (1326, 2)`` kernel cards ``a < b`` in lexicographic order:
    the rows of :func:`quickdraw_counts` (shared: do not write into it)."""
    hands = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
    hands.setflags(write=False)
    return hands


# =========================================================================
# Kernels
# =========================================================================

@njit
def _card_histogram_kernel(values, out):
    """Per-card value histograms of all five-card hands.

    values: int16 (2598960,) hand values in lexicographic card order (as
    :func:`~ricochet_math.evaluator.evaluation.all_five_card_values`); out: int64 (52,
    7462), zeroed: ``out[c, v]`` = hands holding card ``c`` with value ``v``.
    """
    i = 0
    for a in range(48):
        for b in range(a + 1, 49):
            for c in range(b + 1, 50):
                for d in range(c + 1, 51):
                    for e in range(d + 1, 52):
                        v = values[i]
                        out[a, v] += 1
                        out[b, v] += 1
                        out[c, v] += 1
                        out[d, v] += 1
                        out[e, v] += 1
                        i += 1


@njit
def _quickdraw_kernel(players, thresholds, cat_start, all_cum, card_cum, counts_out, wins_out):
    """Dealer hands by category, and those the player beats, for each player hand.

    players: int64 (P, 2) the player's cards; thresholds: int64 (P, R) for
    each comparison reading, the player wins against dealer values below it;
    cat_start: int64 (10,) first value of each category, then 7462;
    all_cum: int64 (7463,) prefix sums of the value histogram of all hands
    (``all_cum[x]`` = hands of value < x); card_cum: int64 (52, 7463) the same
    over the hands holding each card; counts_out: int64 (P, 9) dealer hands
    from the 50 other cards by category; wins_out: int64 (P, R, 9) of those,
    the ones the player beats.
    """
    n_players = players.shape[0]
    n_readings = thresholds.shape[1]
    both = np.zeros(all_cum.shape[0], dtype=np.int64)
    for p in range(n_players):
        a = players[p, 0]
        b = players[p, 1]
        # Histogram of the hands holding both a and b (shifted by one for the prefix sum).
        both[:] = 0
        for c in range(52):
            if c == a or c == b:
                continue
            for d in range(c + 1, 52):
                if d == a or d == b:
                    continue
                for e in range(d + 1, 52):
                    if e == a or e == b:
                        continue
                    both[eval5(a, b, c, d, e) + 1] += 1
        for x in range(1, both.shape[0]):
            both[x] += both[x - 1]
        # Inclusion-exclusion: hands of value < x avoiding both a and b.
        for k in range(cat_start.shape[0] - 1):
            lo = cat_start[k]
            hi = cat_start[k + 1]
            n_lo = all_cum[lo] - card_cum[a, lo] - card_cum[b, lo] + both[lo]
            n_hi = all_cum[hi] - card_cum[a, hi] - card_cum[b, hi] + both[hi]
            counts_out[p, k] = n_hi - n_lo
            for r in range(n_readings):
                t = min(hi, thresholds[p, r])
                if t > lo:
                    n_t = all_cum[t] - card_cum[a, t] - card_cum[b, t] + both[t]
                    wins_out[p, r, k] = n_t - n_lo


@njit
def _quickdraw_brute_kernel(a, b, out):
    """Slow twin of :func:`_quickdraw_kernel` for one player hand: compare keys deal by deal.

    a, b: the player's kernel cards; out: int64 (3, 9), zeroed: row 0 dealer
    hands by category, row 1 wins under ``kicker``, row 2 wins under
    ``top-cards``.  Uses ``partial_key`` directly (no value thresholds, no
    inclusion-exclusion).
    """
    p = np.empty(2, dtype=np.int64)
    p[0] = a
    p[1] = b
    kp = partial_key(p, 2)
    # The player's number of ranked cards (1 for a pair, 2 otherwise).
    nd = 0
    rest = kp % _CATEGORY_UNIT
    while rest > 0:
        if rest % PARTIAL_BASE != 0:
            nd += 1
        rest //= PARTIAL_BASE
    unit = 1
    for _ in range(_DIGITS - nd):
        unit *= PARTIAL_BASE
    h = np.empty(5, dtype=np.int64)
    for c0 in range(52):
        if c0 == a or c0 == b:
            continue
        for c1 in range(c0 + 1, 52):
            if c1 == a or c1 == b:
                continue
            for c2 in range(c1 + 1, 52):
                if c2 == a or c2 == b:
                    continue
                for c3 in range(c2 + 1, 52):
                    if c3 == a or c3 == b:
                        continue
                    for c4 in range(c3 + 1, 52):
                        if c4 == a or c4 == b:
                            continue
                        h[0] = c0
                        h[1] = c1
                        h[2] = c2
                        h[3] = c3
                        h[4] = c4
                        kd = partial_key(h, 5)
                        cat = kd // _CATEGORY_UNIT
                        out[0, cat] += 1
                        if kp >= kd:
                            out[1, cat] += 1
                        if kp >= (kd // unit) * unit:
                            out[2, cat] += 1



# =========================================================================
# The counts
# =========================================================================

@lru_cache(maxsize=1)
def quickdraw_counts() -> tuple[np.ndarray, np.ndarray]:
    """``(counts, wins)`` per player hand (rows of :func:`player_hands`): int64 (1326, 9) dealer hands
    by category, and int64 (1326, 2, 9) of those the player beats under each reading (``kicker``,
    ``top-cards``, the order of ``COMPARISON_CHOICES``)."""
    values = all_five_card_values()
    card_hist = np.zeros((52, NUM_VALUES), dtype=np.int64)
    _card_histogram_kernel(values, card_hist)
    all_hist = np.bincount(values, minlength=NUM_VALUES).astype(np.int64)
    all_cum = np.concatenate(([0], np.cumsum(all_hist)))
    card_cum = np.concatenate((np.zeros((52, 1), dtype=np.int64), np.cumsum(card_hist, axis=1)), axis=1)
    categories = np.array([hc.category for hc in hand_classes()], dtype=np.int64)
    cat_start = np.searchsorted(categories, np.arange(_N_CAT + 1)).astype(np.int64)
    hands = player_hands()
    player_keys = [int(partial_key(h, 2)) for h in hands]
    thresholds = np.array([[quickdraw_wins(k, c) for c in COMPARISON_CHOICES] for k in player_keys],
                          dtype=np.int64)
    counts = np.zeros((len(hands), _N_CAT), dtype=np.int64)
    wins = np.zeros((len(hands), len(COMPARISON_CHOICES), _N_CAT), dtype=np.int64)
    _quickdraw_kernel(hands, thresholds, cat_start, all_cum, card_cum, counts, wins)
    return counts, wins


def quickdraw_brute_force(player) -> dict[str, np.ndarray]:
    """Slow twin for one player hand: dealer hands by category and wins, deal by deal.

    ``player``: two kernel cards or card text (``"As Kd"``).  Returns
    ``{"combinations": int64 (9,), "kicker": int64 (9,), "top-cards": int64
    (9,)}`` over the C(50,5) dealer hands.  About a second per hand.
    """
    cards = parse_cards(player if isinstance(player, str) else list(player), count=2)
    out = np.zeros((3, _N_CAT), dtype=np.int64)
    _quickdraw_brute_kernel(int(cards[0]), int(cards[1]), out)
    return {"combinations": out[0], "kicker": out[1], "top-cards": out[2]}


def quickdraw_counts_for(player) -> dict[str, np.ndarray]:
    """The fast count's figures for one player hand, in the form of :func:`quickdraw_brute_force`."""
    cards = sorted(int(c) for c in parse_cards(player if isinstance(player, str) else list(player), count=2))
    hands = player_hands()
    i = int(np.flatnonzero((hands[:, 0] == cards[0]) & (hands[:, 1] == cards[1]))[0])
    counts, wins = quickdraw_counts()
    return {"combinations": counts[i].copy(), **{c: wins[i, j].copy() for j, c in enumerate(COMPARISON_CHOICES)}}
