"""Quickdraw, exact: the player's two cards against the dealer's five, figures by counting every deal.

Amounts are per unit staked on the bet; RTP, hit frequency and standard
deviation are as defined in :mod:`ricochet_math.design.sidebets` ("Units and
conventions").  The counting itself is in
:mod:`ricochet_math.design.quickdraw_count`; this module turns its integer
counts into figures and return tables.

The bet
-------
The player's two-card hand against the dealer's five-card hand; ties win for
the player (second casino page).  Deals: every two-card hand of the player
(C(52,2) = 1,326) times every five-card dealer hand of the remaining 50 cards
(C(50,5) = 2,118,760), 2,809,475,760 in all, equally likely.  The player's
two cards can only beat a dealer hand of the categories a two-card hand has
(high card, pair), and whether they do depends on the comparison option
(``[quickdraw] comparison``):

* ``"kicker"``: category, then the ranked cards; a hand whose ranked cards are
  the start of the other's is lower ("Ace-8 beats Ace alone", spec "Cards and
  hands").  The dealer always holds the extra cards, so she wins every
  "equal start" and a tie cannot happen: player A-K loses to dealer A-K-Q-9-7,
  a pair of nines loses to any dealer pair of nines.
* ``"top-cards"``: category, then only as many of the dealer's ranked cards as
  the player's hand has ranked cards (two for a non-pair, one - the pair rank -
  for a pair); equal is a tie and a tie wins for the player.  Player A-K beats
  dealer A-K-Q-9-7, a pair of nines beats dealer 9-9-A-K-Q.

**Default: ``top-cards``.**  At 5 to 1 the exact figures (pinned in
``tests/design/test_sidebets.py``) are:

=============  ==========================================  ========  ==========
comparison     P(win) = hit frequency                      RTP       house edge
=============  ==========================================  ========  ==========
``kicker``     405,665,460 / 2,809,475,760 = 14.4392%      86.635%   13.365%
``top-cards``  418,486,560 / 2,809,475,760 = 14.8955%      89.373%   10.627%
=============  ==========================================  ========  ==========

Both readings give the house an edge at 5 to 1 (and both would give the
player one at 6 to 1: break-even payouts 5.93 and 5.71 to 1), so the numbers
alone do not rule either out; they favour ``top-cards``: its 10.6% edge is
in the usual range of casino side bets while 13.4% is at its steep end.  The
rule text decides the rest: "ties win for the player" only means something
if a tie can happen, which it cannot under ``kicker``; and the casino page's
own example (player A-K against dealer A-K-Q-9-7) is a tie under
``top-cards``.  The 12,821,100 deals between the two readings are exactly
those ties.

Player hands are shown by class (169: ``AA``, ``AKs``, ``AKo`` ...) or by
group (25: a pair of each rank, then by high card).  The classes are
:mod:`ricochet_math.evaluator.classes`' one list, shown here in the side
bets' display order (:func:`player_classes`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from ricochet_math.design.bet import ExactBet
from ricochet_math.errors import RuleError, quote
from ricochet_math.evaluator import classes as evaluator_classes
from ricochet_math.evaluator.cards import RANK_NAMES, RANK_PLURALS
from ricochet_math.evaluator.tables import CATEGORY_NAMES
from ricochet_math.design.quickdraw_count import check_comparison, player_hands, quickdraw_counts
from ricochet_math.rules.ruleset import COMPARISON_CHOICES, RuleSet, load_rules

__all__ = [
    "DEALS_QUICKDRAW", "QUICKDRAW_DEFAULT_COMPARISON", "QuickdrawResult", "quickdraw", "quickdraw_both",
    "quickdraw_table", "player_classes",
]

DEALS_QUICKDRAW = math.comb(52, 2) * math.comb(50, 5)  # 2,809,475,760
QUICKDRAW_DEFAULT_COMPARISON = "top-cards"  # the reading paytables/publisher.toml ships (module docstring)
_N_CAT = len(CATEGORY_NAMES)  # 9: high card .. straight flush


# =========================================================================
# Player classes, in the side bets' display order
# =========================================================================

@lru_cache(maxsize=1)
def _display_order() -> np.ndarray:
    """The evaluator's 169 classes (indices into its list) in display order: pairs from aces down,
    then non-pairs by high card, then low card, suited before offsuit."""
    reps, _, _ = evaluator_classes.player_classes()
    high, low = reps[:, 0] >> 2, reps[:, 1] >> 2
    offsuit = (reps[:, 0] & 3) != (reps[:, 1] & 3)
    key = [(bool(high[i] != low[i]), -int(high[i]), -int(low[i]), bool(offsuit[i])) for i in range(len(reps))]
    return np.array(sorted(range(len(reps)), key=key.__getitem__), dtype=np.int64)


@lru_cache(maxsize=1)
def player_classes() -> tuple[tuple[str, ...], tuple[str, ...], np.ndarray, np.ndarray]:
    """The 1,326 two-card hands and their classes, in the side bets' display order.

    Returns ``(class_labels, group_labels, hands, class_of)``: 169 class labels
    (``AA``, ``AKs``, ``AKo``; pairs first from aces down, then non-pairs by
    high card, low card, suited before offsuit), 25 group labels (``Pair of
    Aces`` .. ``Pair of Twos``, ``Ace high`` .. ``Three high``), ``hands``
    ``int64 (1326, 2)`` kernel cards ``a < b`` (read-only), and ``class_of``
    ``int64 (1326,)`` the class index of each hand (into ``class_labels``).
    """
    order = _display_order()
    _, _, labels = evaluator_classes.player_classes()
    display_index = np.empty(len(order), dtype=np.int64)  # evaluator class -> position in display order
    display_index[order] = np.arange(len(order))
    hands = player_hands()
    class_of = display_index[evaluator_classes.class_index_table()[hands[:, 0] * 52 + hands[:, 1]]]
    groups = tuple(f"Pair of {RANK_PLURALS[r]}" for r in range(12, -1, -1)) + tuple(
        f"{RANK_NAMES[h]} high" for h in range(12, 0, -1))
    return tuple(labels[i] for i in order), groups, hands, class_of


@lru_cache(maxsize=1)
def _group_of_class() -> np.ndarray:
    """Group index (0..24) of each of the 169 classes in display order: a pair by its rank from
    the aces down (0..12), a non-pair by its high card from the ace down (13..24)."""
    reps, _, _ = evaluator_classes.player_classes()
    shown = reps[_display_order()]
    high, low = shown[:, 0] >> 2, shown[:, 1] >> 2
    return np.where(high == low, 12 - high, 25 - high).astype(np.int64)


# =========================================================================
# Results
# =========================================================================

def _bet_std(pays: float, p: float) -> float:
    """Standard deviation of the return of a bet paying ``pays`` to 1 with win probability ``p``."""
    return (1.0 + pays) * math.sqrt(max(p * (1.0 - p), 0.0))


@dataclass(frozen=True, eq=False)
class QuickdrawResult(ExactBet):
    """Exact Quickdraw figures for one payout and comparison reading.

    Raw material: ``combinations`` and ``wins`` (``int64 (169, 9)``): over the
    deals whose player hand falls in each of the 169 classes
    (:attr:`classes`), the dealer hands of each category (columns: high card
    .. straight flush) and those the player beats.  Each deal is one of
    :data:`DEALS_QUICKDRAW` equally likely (player two cards, dealer five).

    >>> r = quickdraw(comparison="kicker")
    >>> r.win_combinations, round(r.rtp, 6)
    (405665460, 0.866351)
    """

    pays: float
    comparison: str
    classes: tuple[str, ...]
    combinations: np.ndarray = field(repr=False)
    wins: np.ndarray = field(repr=False)
    deals: int = DEALS_QUICKDRAW
    method: str = "exact"

    # ---- figures -----------------------------------------------------------
    @property
    def win_combinations(self) -> int:
        """Deals the player wins (including ties under ``top-cards``)."""
        return int(self.wins.sum())

    @property
    def win_fraction(self) -> Fraction:
        """P(win) as an exact fraction."""
        return Fraction(self.win_combinations, self.deals)

    @property
    def win_probability(self) -> float:
        return self.win_combinations / self.deals

    @property
    def hit_frequency(self) -> float:
        """P(the bet wins) (= :attr:`win_probability`)."""
        return self.win_probability

    @property
    def rtp_fraction(self) -> Fraction:
        """RTP as an exact fraction: (1 + pays) P(win) (for a rational ``pays``)."""
        return (1 + Fraction(self.pays)) * self.win_fraction

    @property
    def std_dev(self) -> float:
        """Standard deviation of the return per unit staked: (1 + pays) sqrt(p (1 - p))."""
        return _bet_std(self.pays, self.win_probability)

    @property
    def break_even_pays(self) -> float:
        """The payout ``x`` to 1 at which the bet has RTP 1: 1 / P(win) - 1."""
        return self.deals / self.win_combinations - 1.0

    def rtp_at(self, pays: float) -> float:
        """RTP with the same comparison at another payout (``pays`` to 1)."""
        return (1.0 + pays) * self.win_probability

    # ---- tables ---------------------------------------------------------------
    def to_frame(self, by: str = "group"):
        """The return table: player hand vs dealer category.

        ``by``: ``"class"`` (169 rows of player classes ``AA``, ``AKs``,
        ``AKo`` ...), ``"group"`` (pair of each rank, then by high card) or
        ``"category"`` (player pair / high card).  Columns: ``player``,
        ``dealer_category``, ``combinations`` (deals), ``probability``,
        ``wins`` (deals the player wins), ``win_probability`` (``wins /
        deals``: the cell's share of the overall P(win)), ``rtp_contribution``
        (``(1 + pays) * win_probability``; the column sums to the RTP).  Cells
        with no deals are left out.
        """

        labels, combos, wins = self._grouped(by)
        rows = []
        for i, lab in enumerate(labels):
            for k in range(_N_CAT):
                if combos[i, k] == 0:
                    continue
                rows.append((lab, CATEGORY_NAMES[k], int(combos[i, k]), int(wins[i, k])))
        frame = pd.DataFrame(rows, columns=["player", "dealer_category", "combinations", "wins"])
        frame.insert(3, "probability", frame["combinations"] / self.deals)
        frame["win_probability"] = frame["wins"] / self.deals
        frame["rtp_contribution"] = (1.0 + self.pays) * frame["win_probability"]
        return frame

    def by_player(self, by: str = "group"):
        """One row per player hand (``by`` as in :meth:`to_frame`).

        Columns: ``player``, ``combinations`` (deals), ``probability``,
        ``wins``, ``win_rate`` (P(win | that player hand)), ``rtp_contribution``.
        """

        labels, combos, wins = self._grouped(by)
        c, w = combos.sum(axis=1), wins.sum(axis=1)
        frame = pd.DataFrame({"player": list(labels), "combinations": c, "probability": c / self.deals,
                              "wins": w, "win_rate": w / c})
        frame["rtp_contribution"] = (1.0 + self.pays) * frame["wins"] / self.deals
        return frame

    def by_dealer(self):
        """One row per dealer category: deals, probability, wins, P(win | dealer category)."""

        c, w = self.combinations.sum(axis=0), self.wins.sum(axis=0)
        frame = pd.DataFrame({"dealer_category": list(CATEGORY_NAMES), "combinations": c,
                              "probability": c / self.deals, "wins": w})
        frame["win_rate"] = frame["wins"] / frame["combinations"]
        frame["rtp_contribution"] = (1.0 + self.pays) * frame["wins"] / self.deals
        return frame

    def _grouped(self, by: str):
        if by == "class":
            return self.classes, self.combinations, self.wins
        if by == "group":
            _, groups, _, _ = player_classes()
            index = _group_of_class()
            n = len(groups)
            labels = groups
        elif by == "category":
            index = np.array([0 if lab[0] == lab[1] else 1 for lab in self.classes], dtype=np.int64)
            n, labels = 2, ("Pair", "High card")
        else:
            raise ValueError(f"by must be 'class', 'group' or 'category', got {quote(by)}")
        combos = np.zeros((n, _N_CAT), dtype=np.int64)
        wins = np.zeros((n, _N_CAT), dtype=np.int64)
        np.add.at(combos, index, self.combinations)
        np.add.at(wins, index, self.wins)
        return labels, combos, wins

    def summary(self) -> str:
        return (
            f"Quickdraw {self.pays:g} to 1, comparison {self.comparison} ({self.method}, "
            f"{self.deals:,} deals)\n"
            f"  P(win) {self.win_combinations:,} / {self.deals:,} = {self.win_probability:.6%}\n"
            f"  RTP {self.rtp:.4%} per unit staked (house edge {self.house_edge:.4%}); "
            f"hit frequency {self.hit_frequency:.4%}; std dev {self.std_dev:.4f}; "
            f"break-even payout {self.break_even_pays:.4f} to 1"
        )


def quickdraw(rules: RuleSet | str | None = None, *, comparison: str | None = None,
              pays: float | None = None) -> QuickdrawResult:
    """Exact Quickdraw figures by counting all 2,809,475,760 deals.

    ``rules``: a :class:`~ricochet_math.rules.ruleset.RuleSet` or rule-set name (default
    ``publisher``) supplying ``[quickdraw] pays`` and ``comparison``; either
    may be overridden.  See the module docstring for the two readings.

    >>> r = quickdraw(comparison="top-cards")
    >>> r.win_combinations, round(r.rtp, 6)
    (418486560, 0.893732)
    """
    rules = load_rules(rules)
    comparison = rules.quickdraw.comparison if comparison is None else comparison
    pays = rules.quickdraw.pays if pays is None else pays
    check_comparison(comparison)
    if isinstance(pays, bool) or not isinstance(pays, (int, float)) or not math.isfinite(pays) or pays < 0:
        raise RuleError(f"Quickdraw payout must be a finite number >= 0, got {quote(pays)}")
    counts, wins = quickdraw_counts()
    labels, _, _, class_of = player_classes()
    r = COMPARISON_CHOICES.index(comparison)
    combos = np.zeros((len(labels), _N_CAT), dtype=np.int64)
    won = np.zeros((len(labels), _N_CAT), dtype=np.int64)
    np.add.at(combos, class_of, counts)
    np.add.at(won, class_of, wins[:, r, :])
    return QuickdrawResult(pays=pays, comparison=comparison, classes=labels, combinations=combos, wins=won)


def quickdraw_both(rules: RuleSet | str | None = None, *, pays: float | None = None) -> dict[str, QuickdrawResult]:
    """:func:`quickdraw` under each comparison reading, keyed ``kicker``, ``top-cards``."""
    return {c: quickdraw(rules, comparison=c, pays=pays) for c in COMPARISON_CHOICES}


def quickdraw_table(rules: RuleSet | str | None = None, by: str = "group", *, dealer: bool = False):
    """Quickdraw by player hand (or, with ``dealer=True``, by dealer category) under both readings.

    Columns: ``player`` (or ``dealer_category``), ``combinations``,
    ``probability``, then ``win_rate`` and ``rtp_contribution`` for each
    comparison (suffixed ``_kicker``, ``_top_cards``).
    """
    both = quickdraw_both(rules)
    frames = [(c, r.by_dealer() if dealer else r.by_player(by)) for c, r in both.items()]
    first = frames[0][1]
    out = first.iloc[:, :3].copy()
    for comparison, frame in frames:
        suffix = "_" + comparison.replace("-", "_")
        out["win_rate" + suffix] = frame["win_rate"].to_numpy()
        out["rtp_contribution" + suffix] = frame["rtp_contribution"].to_numpy()
    return out
