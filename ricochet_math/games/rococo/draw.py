"""Rococo Poker's exchange: the 26 ways to keep five cards, and the final hand they lead to.

A player exchanges 0 to 3 of his five cards once, so he **keeps** 2 to 5 of them: 10 + 10 + 5 + 1 = 26
keeps, written as bit masks over the positions of the five cards sorted ascending (bit ``i`` set: card
``i`` kept).  The replacements come from the 47 cards he has not seen.

Two independent paths give the final hand:

* **Enumeration** (:func:`draw_distribution`, readable-sized and exact): every draw of ``5 - k`` cards
  from the 47 unseen, evaluated; for one hand that is 173,196 final hands, a few milliseconds.
* **Counting** (:func:`superset_sums` and friends, used by the solver for all 2,598,960 hands): for a
  score ``w[v]`` of each final value, ``S[X] = sum of w[v(F)] over the five-card hands F that contain the
  card set X``, for every X of 0..5 cards (2,893,163 sets, one pass over the 2,598,960 hands).  The
  draws to keep K from hand H are the hands F that contain K and none of the discards, so by
  inclusion-exclusion over the discards ``sum over draws = sum over K <= X <= H of (-1)^|X - K| S[X]``:
  32 lookups per hand instead of up to 16,215 evaluations per keep.

Sets of cards are indexed by the combinatorial number system (colex rank): a sorted set
``c0 < c1 < ... < c(k-1)`` has index ``OFFSET[k] + sum C(c_i, i + 1)``.  The five-card hands themselves
are numbered ``0..2,598,959`` in that order (:func:`five_card_hands`).

Suit-pattern classes: two hands are in the same class when a permutation of the four suits maps one
onto the other (134,459 classes; their final-hand distributions are the same for every keep, up to
the same permutation).  :func:`suit_classes` numbers them by their member with the smallest 52-bit card mask.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations
from math import comb

import numpy as np
import pandas as pd

from ricochet_math._numba import njit
from ricochet_math.errors import CardError, quote
from ricochet_math.evaluator.cards import format_cards, parse_cards
from ricochet_math.evaluator.evaluation import NUM_VALUES, eval5
from ricochet_math.evaluator.tables import CATEGORY_NAMES

__all__ = ["BINOM", "KEEP_MASKS", "sorted_hand", 
    "KEEPS", "KEEP_DRAWS", "N_HANDS", "N_SETS", "N_CLASSES", "DRAW_WEIGHT", "DRAW_DENOMINATOR",
    "keep_cards", "keep_text", "parse_keep", "five_card_hands", "hand_index", "suit_classes", "SuitClasses",
    "DrawDistribution", "draw_distribution", "keep_scores_by_enumeration",
]

N_HANDS = comb(52, 5)                      # 2,598,960
N_CLASSES = 134_459                        # suit-pattern classes of five-card hands
#: C(52, k) and the offsets of the k-card sets in the set index
BINOM = np.array([[comb(n, k) for k in range(6)] for n in range(53)], dtype=np.int64)
_OFFSET = np.array([sum(comb(52, j) for j in range(k)) for k in range(7)], dtype=np.int64)
N_SETS = int(_OFFSET[6])                   # sets of 0..5 cards: 2,893,163

#: the 26 keeps as position masks, stand pat first, then by cards kept (desc), then mask (asc)
KEEPS = tuple(sorted((m for m in range(32) if bin(m).count("1") >= 2),
                     key=lambda m: (-bin(m).count("1"), m)))
KEEP_DRAWS = tuple(5 - bin(m).count("1") for m in KEEPS)
#: the common denominator of the draw probabilities: C(47, 3) = 16,215 = 345 * 47 = 15 * 1,081
DRAW_DENOMINATOR = comb(47, 3)
#: DRAW_DENOMINATOR / C(47, d) for d = 0..3 replacement cards: each final hand's weight in whole numbers
DRAW_WEIGHT = np.array([DRAW_DENOMINATOR // comb(47, d) for d in range(4)], dtype=np.int64)
KEEP_MASKS = np.array(KEEPS, dtype=np.int64)
_POPCOUNT = np.array([bin(m).count("1") for m in range(32)], dtype=np.int64)
_DRAWS_DENOM = np.array([comb(47, d) for d in range(4)], dtype=np.float64)


def keep_cards(hand, keep: int) -> np.ndarray:
    """The cards kept by position mask ``keep`` from ``hand`` (the hand sorted ascending first)."""
    if isinstance(keep, bool) or not isinstance(keep, (int, np.integer)) or not 0 <= keep <= 31:
        raise CardError(f"keep must be a position mask 0..31 over the five sorted cards, got {quote(keep)}")
    cards = sorted_hand(hand)
    return cards[[i for i in range(5) if keep >> i & 1]]


def keep_text(hand, keep: int) -> str:
    """Readable keep: ``"keep Ks Kd, draw 3"``; ``"stand pat"`` for all five.  ``keep``: one of
    :data:`KEEPS` (a position mask keeping 2 to 5 of the sorted cards: at most 3 are exchanged)."""
    if isinstance(keep, bool) or not isinstance(keep, (int, np.integer)) or int(keep) not in KEEPS:
        raise CardError(f"keep must be a position mask over the five sorted cards keeping 2 to 5 of them (one of "
                        f"KEEPS), got {quote(keep, 40)}")
    if keep == 31:
        return "stand pat"
    kept = keep_cards(hand, keep)[::-1]
    return f"keep {format_cards(kept)}, draw {5 - len(kept)}"


def parse_keep(hand, text: str, *, where: str = "keep") -> int:
    """The position mask for the kept cards given as text (``"Ks Kd"``), checked against the hand."""
    from ricochet_math.errors import CardError

    cards = np.sort(np.asarray(hand, dtype=np.int64))
    kept = parse_cards(text, count=(2, 3, 4, 5), where=where) if text.strip() else np.array([], dtype=np.int64)
    mask = 0
    for c in kept:
        hits = np.flatnonzero(cards == int(c))
        if not len(hits):
            raise CardError(f"{where}: {format_cards([int(c)])} is not in the hand {format_cards(cards)}")
        mask |= 1 << int(hits[0])
    return mask


# --------------------------------------------------------------------------- set indexing kernels

@njit(inline="always")
def _set_index(c, mask):
    """Colex index (with size offset) of the sub-set ``mask`` of the sorted cards ``c[0..4]``."""
    idx = 0
    j = 0
    for i in range(5):
        if mask >> i & 1:
            j += 1
            idx += BINOM[c[i], j]
    return _OFFSET[j] + idx


@njit
def _hands_kernel(hands, values):
    """Fill ``hands[h]`` with the sorted cards of hand number ``h`` (colex order) and ``values[h]``."""
    for e in range(4, 52):
        for d in range(3, e):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        h = BINOM[a, 1] + BINOM[b, 2] + BINOM[c, 3] + BINOM[d, 4] + BINOM[e, 5]
                        hands[h, 0] = a
                        hands[h, 1] = b
                        hands[h, 2] = c
                        hands[h, 3] = d
                        hands[h, 4] = e
                        values[h] = eval5(a, b, c, d, e)


@lru_cache(maxsize=1)
def five_card_hands() -> tuple[np.ndarray, np.ndarray]:
    """``(int8[2,598,960, 5] sorted cards, int16[2,598,960] values)``, hand ``h`` in colex order."""
    hands = np.empty((N_HANDS, 5), dtype=np.int8)
    values = np.empty(N_HANDS, dtype=np.int16)
    _hands_kernel(hands, values)
    hands.setflags(write=False)
    values.setflags(write=False)
    return hands, values


def hand_index(hand) -> int:
    """The number ``0..2,598,959`` of a five-card hand (any order)."""
    c = sorted(int(x) for x in hand)
    return sum(comb(x, i + 1) for i, x in enumerate(c))


_PERMS = np.array(list(permutations(range(4))), dtype=np.int64)


@njit
def _canonical_kernel(hands, out):
    """``out[h]``: the smallest 52-bit card mask among the 24 suit relabellings of hand ``h`` (one
    value per suit-pattern class; masks need no sorting, unlike hand numbers)."""
    for h in range(hands.shape[0]):
        best = np.int64(1) << 62
        for p in range(24):
            m = np.int64(0)
            for i in range(5):
                c = hands[h, i]
                m |= np.int64(1) << ((c >> 2) * 4 + _PERMS[p, c & 3])
            if m < best:
                best = m
        out[h] = best


@njit
def _mask_numbers(masks, out):
    """``out[i]``: the hand number of the five cards in mask ``masks[i]``."""
    for i in range(masks.shape[0]):
        j = 0
        idx = 0
        for c in range(52):
            if masks[i] >> c & 1:
                j += 1
                idx += BINOM[c, j]
        out[i] = idx


@dataclass(frozen=True)
class SuitClasses:
    """The suit-pattern classes: ``of_hand[h]`` class of hand ``h``; ``representative[k]`` the number of
    the member with the smallest card mask; ``size[k]`` the number of hands in class ``k`` (4 to 24)."""

    of_hand: np.ndarray
    representative: np.ndarray
    size: np.ndarray


@lru_cache(maxsize=1)
def suit_classes() -> SuitClasses:
    """The 134,459 suit-pattern classes of the 2,598,960 hands (a couple of seconds, cached)."""
    hands, _ = five_card_hands()
    canon = np.empty(N_HANDS, dtype=np.int64)
    _canonical_kernel(hands, canon)
    masks, of_hand, size = np.unique(canon, return_inverse=True, return_counts=True)
    reps = np.empty(len(masks), dtype=np.int64)
    _mask_numbers(masks, reps)
    out = SuitClasses(of_hand.astype(np.int32), reps, size.astype(np.int64))
    for a in (out.of_hand, out.representative, out.size):
        a.setflags(write=False)
    return out


# --------------------------------------------------------------------------- counting kernels

@njit
def superset_sums(hands, values, weight, out):
    """``out[X] += weight[v(F)]`` for every hand ``F`` and every sub-set ``X`` of it (32 per hand):
    afterwards ``out[X]`` is the total weight of the five-card hands containing card set ``X``."""
    for h in range(hands.shape[0]):
        c = hands[h]
        w = weight[values[h]]
        for mask in range(32):
            out[_set_index(c, mask)] += w


@njit(inline="always")
def hold_totals(c, sums, holds, n_holds, sub, totals):
    """``totals[i]`` = sum of the scores over the draws of hold ``holds[i]`` (a position mask of the
    cards kept, ``i < n_holds``) from the sorted hand ``c``, by inclusion-exclusion over the discards
    (``sub`` is scratch, 32 entries)."""
    for mask in range(32):
        sub[mask] = sums[_set_index(c, mask)]
    for i in range(n_holds):
        k = holds[i]
        free = 31 ^ k
        t = 0.0
        x = free
        while True:  # every sub-set x of the discards, including the empty one
            if _POPCOUNT[x] & 1:
                t -= sub[k | x]
            else:
                t += sub[k | x]
            if x == 0:
                break
            x = (x - 1) & free
        totals[i] = t


@njit(inline="always")
def _keep_totals(c, sums, sub, totals):
    """:func:`hold_totals` for the 26 keeps of :data:`KEEPS`."""
    hold_totals(c, sums, KEEP_MASKS, KEEP_MASKS.shape[0], sub, totals)


@njit(nogil=True)
def keep_scores(hands, rows, sums, out):
    """``out[r, i]``: mean score of keep ``KEEPS[i]`` for hand number ``rows[r]``, from ``sums``
    (:func:`superset_sums` of the score by value)."""
    sub = np.empty(32)
    totals = np.empty(KEEP_MASKS.shape[0])
    for r in range(rows.shape[0]):
        _keep_totals(hands[rows[r]], sums, sub, totals)
        for i in range(KEEP_MASKS.shape[0]):
            out[r, i] = totals[i] / _DRAWS_DENOM[5 - _POPCOUNT[KEEP_MASKS[i]]]


@njit(nogil=True)
def best_keeps(hands, rows, sums, keep_out, score_out, tolerance):
    """For each hand number ``rows[r]``: the keep with the highest mean score (``keep_out[r]`` its
    position in :data:`KEEPS`, ``score_out[r]`` its score).  A keep replaces an earlier one in the
    :data:`KEEPS` order only when better by more than ``tolerance`` (float noise never decides)."""
    sub = np.empty(32)
    totals = np.empty(KEEP_MASKS.shape[0])
    for r in range(rows.shape[0]):
        _keep_totals(hands[rows[r]], sums, sub, totals)
        best = 0
        bs = totals[0] / _DRAWS_DENOM[5 - _POPCOUNT[KEEP_MASKS[0]]]
        for i in range(1, KEEP_MASKS.shape[0]):
            s = totals[i] / _DRAWS_DENOM[5 - _POPCOUNT[KEEP_MASKS[i]]]
            if s > bs + tolerance:
                bs = s
                best = i
        keep_out[r] = best
        score_out[r] = bs


@njit
def scatter_strategy(hands, rows, counts, keep_pos, coef):
    """The transpose of :func:`keep_scores` for a strategy: add each hand's inclusion-exclusion terms,
    weighted by ``counts[r]`` (hands it stands for) and :data:`DRAW_WEIGHT`, into ``coef[X]`` (int64)."""
    for r in range(rows.shape[0]):
        c = hands[rows[r]]
        k = KEEP_MASKS[keep_pos[r]]
        free = 31 ^ k
        w = counts[r] * DRAW_WEIGHT_K[5 - _POPCOUNT[k]]
        x = free
        while True:
            if _POPCOUNT[x] & 1:
                coef[_set_index(c, k | x)] -= w
            else:
                coef[_set_index(c, k | x)] += w
            if x == 0:
                break
            x = (x - 1) & free


DRAW_WEIGHT_K = DRAW_WEIGHT  # the name the kernel reads (a global frozen at compile time)


@njit
def gather_values(hands, values, coef, out):
    """``out[v(F)] += sum of coef[X] over the sub-sets X of F``, for every hand ``F``: with ``coef``
    from :func:`scatter_strategy`, ``out[v]`` counts final hands of value ``v`` in units of
    1 / :data:`DRAW_DENOMINATOR` draw."""
    for h in range(hands.shape[0]):
        c = hands[h]
        t = 0
        for mask in range(32):
            t += coef[_set_index(c, mask)]
        out[values[h]] += t


# --------------------------------------------------------------------------- enumeration (one hand)

@njit
def _enumerate_keeps(cards, unseen, hist):
    """``hist[i, v]``: number of draws of keep ``KEEPS[i]`` ending on value ``v`` (every draw evaluated)."""
    n = unseen.shape[0]
    kept = np.empty(5, dtype=np.int64)
    for i in range(KEEP_MASKS.shape[0]):
        k = KEEP_MASKS[i]
        m = 0
        for p in range(5):
            if k >> p & 1:
                kept[m] = cards[p]
                m += 1
        d = 5 - m
        if d == 0:
            hist[i, eval5(kept[0], kept[1], kept[2], kept[3], kept[4])] += 1
        elif d == 1:
            for a in range(n):
                hist[i, eval5(kept[0], kept[1], kept[2], kept[3], unseen[a])] += 1
        elif d == 2:
            for a in range(n):
                for b in range(a + 1, n):
                    hist[i, eval5(kept[0], kept[1], kept[2], unseen[a], unseen[b])] += 1
        else:
            for a in range(n):
                for b in range(a + 1, n):
                    for e in range(b + 1, n):
                        hist[i, eval5(kept[0], kept[1], unseen[a], unseen[b], unseen[e])] += 1


def sorted_hand(hand) -> np.ndarray:
    if isinstance(hand, str):
        hand = parse_cards(hand, count=5, where="hand")
    try:
        cards = np.sort(np.asarray(hand, dtype=np.int64))
    except (TypeError, ValueError, OverflowError):  # nested lists, text in a list, huge integers
        cards = None
    if cards is None or cards.shape != (5,) or len(set(cards.tolist())) != 5 or cards.min() < 0 or cards.max() > 51:
        raise CardError(f"a Rococo hand is five distinct cards, got {quote(hand, 80)}")
    return cards


def enumerate_hand(hand) -> np.ndarray:
    """``int64[26, 7462]``: for each keep, how many of its draws end on each value (enumeration)."""
    cards = sorted_hand(hand)
    unseen = np.setdiff1d(np.arange(52, dtype=np.int64), cards)
    hist = np.zeros((len(KEEPS), NUM_VALUES), dtype=np.int64)
    _enumerate_keeps(cards, unseen, hist)
    return hist


def keep_scores_by_enumeration(hand, score: np.ndarray) -> np.ndarray:
    """``float64[26]``: mean of ``score[v]`` over the draws of each keep, by enumeration (the
    brute-force twin of the counting kernels)."""
    hist = enumerate_hand(hand)
    return hist @ np.asarray(score, dtype=np.float64) / hist.sum(axis=1)


@dataclass(frozen=True)
class DrawDistribution:
    """The exact final-hand distribution of each of the 26 keeps of one hand.

    ``counts[i, v]``: draws of keep ``KEEPS[i]`` that end on value ``v``; ``draws[i]`` = C(47, 5 - k).
    """

    hand: np.ndarray
    counts: np.ndarray

    @property
    def draws(self) -> np.ndarray:
        return self.counts.sum(axis=1)

    def probabilities(self) -> np.ndarray:
        """``float64[26, 7462]``: the distributions as probabilities."""
        return self.counts / self.draws[:, None]

    def by_category(self) -> np.ndarray:
        """``float64[26, 9]``: probability of each final category (high card .. straight flush)."""
        from ricochet_math.evaluator.evaluation import CATEGORY_BY_VALUE

        cat = np.asarray(CATEGORY_BY_VALUE[: NUM_VALUES], dtype=np.int64)
        out = np.zeros((len(KEEPS), len(CATEGORY_NAMES)))
        for j in range(len(CATEGORY_NAMES)):
            out[:, j] = self.counts[:, cat == j].sum(axis=1)
        return out / self.draws[:, None]

    def to_frame(self) -> pd.DataFrame:
        """One row per keep: the keep, cards drawn, the number of draws and each category's probability."""
        cats = self.by_category()
        frame = pd.DataFrame({"keep": [keep_text(self.hand, k) for k in KEEPS], "draw": list(KEEP_DRAWS),
                              "draws": self.draws})
        for j, name in enumerate(CATEGORY_NAMES):
            frame[name] = cats[:, j]
        return frame

    def summary(self) -> str:
        return f"{format_cards(self.hand[::-1])}: 26 keeps, {int(self.draws.sum()):,} final hands counted"


def draw_distribution(hand) -> DrawDistribution:
    """The exact final-hand distribution of every keep of ``hand`` (text or five cards)."""
    cards = sorted_hand(hand)
    return DrawDistribution(cards, enumerate_hand(cards))


def brute_force_keep_sets(hand) -> dict[int, list[tuple[int, ...]]]:
    """Readable reference for tests: the final five-card sets of every keep, listed."""
    cards = sorted_hand(hand).tolist()
    unseen = [c for c in range(52) if c not in cards]
    out = {}
    for k in KEEPS:
        kept = [cards[i] for i in range(5) if k >> i & 1]
        out[k] = [tuple(sorted(kept + list(d))) for d in combinations(unseen, 5 - len(kept))]
    return out
