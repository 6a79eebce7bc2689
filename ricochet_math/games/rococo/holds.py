"""Exact expected value of every hold of a five-card draw hand, for any paytable and up to five discards.

Rococo Poker exchanges 0 to 3 cards (:mod:`.draw`); video-poker draw games exchange up to five.  This
module gives the same exact counting for every one of the 32 **holds** (position masks of the cards
kept, 0 to 5 of them), restricted to those that discard at most ``max_discards`` cards:

* :func:`hold_values`: the expected pay of each allowed hold of one hand (exact: every one of the
  ``C(47, d)`` draws of ``d`` replacements counted);
* :func:`optimal_return`: the return of optimal play (the best hold of every hand) over all 2,598,960
  deals, computed once per suit-pattern class (134,459 classes, weighted by their sizes).

Both use the counting of :mod:`.draw`: ``S[X]`` = total pay of the five-card hands containing the card
set ``X`` (one pass over the 2,598,960 hands), and the draws to hold ``K`` from hand ``H`` are the hands
that contain ``K`` and none of ``H - K``, so by inclusion-exclusion their total pay is
``sum over K <= X <= H of (-1)^|X - K| S[X]`` (32 lookups per hand for all holds).  The brute-force twin
:func:`hold_values_by_enumeration` evaluates every draw instead.

A paytable is a :class:`DrawPaytable`: lines ``(hand pattern, pays)``, each hand paid the line with the
highest threshold it reaches (patterns as in :func:`~ricochet_math.evaluator.names.pattern_value`:
``"JJ"`` is any pair of jacks or better, ``"royal flush"`` the royal).  Pays are per coin bet, the stake
included (a video-poker "pays 1" returns the coin): the return of a game is the mean pay per coin.
:data:`JACKS_OR_BETTER_9_6` is full-pay Jacks or Better, whose optimal-play return is published as
99.5439% (e.g. the Wizard of Odds' Jacks or Better page; checked in ``tests/games/test_rococo_holds.py``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np
import pandas as pd

from ricochet_math._numba import njit
from ricochet_math.errors import RuleError, quote
from ricochet_math.evaluator.cards import format_cards
from ricochet_math.evaluator.evaluation import NUM_VALUES, eval5
from ricochet_math.evaluator.names import pattern_value
from ricochet_math.evaluator.subsets import next_subset
from ricochet_math.games.rococo.draw import (
    N_HANDS, N_SETS, sorted_hand, five_card_hands, hold_totals, suit_classes, superset_sums,
)

__all__ = [
    "HOLDS", "HOLD_DRAWS", "DrawPaytable", "JACKS_OR_BETTER_9_6", "holds_allowed", "hold_text",
    "HoldValues", "hold_values", "hold_values_by_enumeration", "DrawReturn", "optimal_return",
]

#: the 32 holds as position masks (bit i: the i-th lowest card kept): stand pat first, then by cards
#: kept (descending) and mask; the first 26 are Rococo's :data:`~.draw.KEEPS`
HOLDS = tuple(sorted(range(32), key=lambda m: (-bin(m).count("1"), m)))
HOLD_DRAWS = tuple(5 - bin(m).count("1") for m in HOLDS)
_HOLD_ARR = np.array(HOLDS, dtype=np.int64)
#: cards held by each mask 0..31
_POPCOUNT = np.array([bin(m).count("1") for m in range(32)], dtype=np.int64)
#: C(47, d): the number of draws of d replacement cards from the 47 unseen
_DRAWS = np.array([comb(47, d) for d in range(6)], dtype=np.float64)


def holds_allowed(max_discards: int) -> int:
    """How many of :data:`HOLDS` (a prefix) discard at most ``max_discards`` cards (0 to 5)."""
    if isinstance(max_discards, bool) or not isinstance(max_discards, (int, np.integer)) \
            or not 0 <= max_discards <= 5:
        raise RuleError(f"max_discards: a whole number from 0 to 5, got {quote(max_discards)}")
    return sum(comb(5, d) for d in range(int(max_discards) + 1))


def hold_text(hand, hold: int) -> str:
    """Readable hold: ``"hold Ks Kd, draw 3"``; ``"stand pat"``; ``"discard all, draw 5"``."""
    cards = sorted_hand(hand)
    if hold == 31:
        return "stand pat"
    if hold == 0:
        return "discard all, draw 5"
    kept = cards[[i for i in range(5) if hold >> i & 1]][::-1]
    return f"hold {format_cards(kept)}, draw {5 - len(kept)}"


@dataclass(frozen=True)
class DrawPaytable:
    """A draw game's paytable: ``lines`` of ``(hand pattern, pays per coin)``; a final hand is paid the
    line with the highest threshold it reaches, nothing below the lowest line."""

    name: str
    lines: tuple[tuple[str, float], ...]

    def __post_init__(self):
        if not self.lines:
            raise RuleError(f"paytable {quote(self.name)}: no lines")
        for pattern, pays in self.lines:
            pattern_value(pattern)  # a PatternError names a bad pattern
            if isinstance(pays, bool) or not isinstance(pays, (int, float)) or not math.isfinite(pays) \
                    or pays < 0:
                raise RuleError(f"paytable {quote(self.name)}, line {quote(pattern)}: pays must be a finite number "
                                f">= 0, got {quote(pays)}")

    def scores(self) -> np.ndarray:
        """``float64[7462]``: the pay of each final hand value."""
        out = np.zeros(NUM_VALUES)
        for value, pays in sorted((pattern_value(p), float(x)) for p, x in self.lines):
            out[value:] = pays  # a higher threshold overwrites the tail it reaches
        return out


JACKS_OR_BETTER_9_6 = DrawPaytable("Jacks or Better 9/6", (
    ("royal flush", 800), ("straight flush", 50), ("four of a kind", 25), ("full house", 9),
    ("flush", 6), ("straight", 4), ("three of a kind", 3), ("two pair", 2), ("JJ", 1),
))


# --------------------------------------------------------------------------- kernels

@njit(nogil=True)
def _hold_means(hands, rows, sums, n_holds, out):
    """``out[r, i]``: mean pay of hold ``HOLDS[i]`` for hand number ``rows[r]``."""
    sub = np.empty(32)
    totals = np.empty(32)
    for r in range(rows.shape[0]):
        hold_totals(hands[rows[r]], sums, _HOLD_ARR, n_holds, sub, totals)
        for i in range(n_holds):
            out[r, i] = totals[i] / _DRAWS[5 - _POPCOUNT[_HOLD_ARR[i]]]


@njit
def _enumerate_holds(cards, unseen, score, n_holds, out):
    """Brute force: ``out[i]`` = total pay over every draw of hold ``HOLDS[i]``, each final hand
    evaluated (the replacements are the d-subsets of ``unseen``, listed by d nested index loops)."""
    n = unseen.shape[0]
    hand = np.empty(5, dtype=np.int64)
    idx = np.empty(5, dtype=np.int64)
    for i in range(n_holds):
        k = _HOLD_ARR[i]
        m = 0
        for p in range(5):
            if k >> p & 1:
                hand[m] = cards[p]
                m += 1
        d = 5 - m
        total = 0.0
        for j in range(d):  # first d-subset of the unseen: 0, 1, ..., d-1
            idx[j] = j
        while True:
            for j in range(d):
                hand[m + j] = unseen[idx[j]]
            total += score[eval5(hand[0], hand[1], hand[2], hand[3], hand[4])]
            if not next_subset(idx, d, n):
                break
        out[i] = total


@lru_cache(maxsize=4)
def _pay_sums(paytable: DrawPaytable) -> np.ndarray:
    """``S[X]`` for every card set of 0..5 cards: the total pay of the five-card hands containing X."""
    hands, values = five_card_hands()
    sums = np.zeros(N_SETS)
    superset_sums(hands, values, paytable.scores(), sums)
    sums.setflags(write=False)
    return sums


# --------------------------------------------------------------------------- public entry points

@dataclass(frozen=True)
class HoldValues:
    """The exact expected pay (per coin) of each allowed hold of one hand, in :data:`HOLDS` order."""

    hand: np.ndarray
    paytable: DrawPaytable
    max_discards: int
    values: np.ndarray

    @property
    def best(self) -> int:
        """Position (in :data:`HOLDS`) of the hold with the highest expected pay (the first on a tie)."""
        return int(np.argmax(self.values))

    def to_frame(self) -> pd.DataFrame:
        """One row per hold, best first: the hold, cards drawn, expected pay per coin."""
        frame = pd.DataFrame({
            "hold": [hold_text(self.hand, HOLDS[i]) for i in range(len(self.values))],
            "draw": list(HOLD_DRAWS[: len(self.values)]),
            "expected_pay": self.values,
        })
        return frame.sort_values("expected_pay", ascending=False, kind="stable").reset_index(drop=True)

    def summary(self) -> str:
        i = self.best
        return (f"{format_cards(self.hand[::-1])} under {self.paytable.name} (up to {self.max_discards} "
                f"discards): best {hold_text(self.hand, HOLDS[i])}, {self.values[i]:.6f} per coin")


def hold_values(hand, paytable: DrawPaytable = JACKS_OR_BETTER_9_6, *, max_discards: int = 5) -> HoldValues:
    """Exact expected pay per coin of every hold of ``hand`` (text or five cards) that discards at most
    ``max_discards`` cards (0-5), by counting (the first call per paytable makes one pass over all
    2,598,960 hands, a fraction of a second)."""
    n = holds_allowed(max_discards)
    cards = sorted_hand(hand)
    hands = np.ascontiguousarray(cards[None, :])
    out = np.empty((1, n))
    _hold_means(hands, np.zeros(1, dtype=np.int64), _pay_sums(paytable), n, out)
    return HoldValues(cards, paytable, int(max_discards), out[0])


def hold_values_by_enumeration(hand, paytable: DrawPaytable = JACKS_OR_BETTER_9_6, *,
                               max_discards: int = 5) -> np.ndarray:
    """The brute-force twin of :func:`hold_values`: ``float64[n]``, every draw of every hold evaluated
    (2,598,960 final hands for all 32 holds; tens of milliseconds)."""
    n = holds_allowed(max_discards)
    cards = sorted_hand(hand)
    unseen = np.setdiff1d(np.arange(52, dtype=np.int64), cards)
    out = np.empty(n)
    _enumerate_holds(cards, unseen, paytable.scores(), n, out)
    return out / _DRAWS[[5 - bin(HOLDS[i]).count("1") for i in range(n)]]


@dataclass(frozen=True)
class DrawReturn:
    """The return of optimal play of a draw game: the best hold of every deal, exact.

    ``expected_pay``: mean pay per coin over the 2,598,960 equally likely deals (the game's return,
    stake included); ``best_hold_share[i]``: the share of deals whose best hold is ``HOLDS[i]`` (the
    first in :data:`HOLDS` order on a tie)."""

    paytable: DrawPaytable
    max_discards: int
    expected_pay: float
    best_hold_share: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """One row per hold size: cards drawn and the share of deals whose best hold draws that many."""
        draws = np.array(HOLD_DRAWS[: len(self.best_hold_share)])
        return pd.DataFrame({"draw": np.arange(self.max_discards + 1),
                             "share_of_deals": [self.best_hold_share[draws == d].sum()
                                                for d in range(self.max_discards + 1)]})

    def summary(self) -> str:
        return (f"{self.paytable.name}, optimal play, up to {self.max_discards} discards: return "
                f"{100 * self.expected_pay:.4f}% (exact over all {N_HANDS:,} deals)")


def optimal_return(paytable: DrawPaytable = JACKS_OR_BETTER_9_6, *, max_discards: int = 5) -> DrawReturn:
    """The exact return of optimal play (each deal's best hold) over all 2,598,960 deals.

    Computed on one representative of each of the 134,459 suit-pattern classes (a suit permutation maps
    draws to draws and keeps every pay), weighted by the number of deals in its class; a few seconds."""
    n = holds_allowed(max_discards)
    hands, _ = five_card_hands()
    classes = suit_classes()
    rows = np.asarray(classes.representative, dtype=np.int64)
    means = np.empty((len(rows), n))
    _hold_means(hands, rows, _pay_sums(paytable), n, means)
    best = np.argmax(means, axis=1)
    size = classes.size.astype(np.float64)
    expected = math.fsum(size * means[np.arange(len(rows)), best]) / N_HANDS
    share = np.bincount(best, weights=size, minlength=n) / N_HANDS
    return DrawReturn(paytable, int(max_discards), expected, share)
