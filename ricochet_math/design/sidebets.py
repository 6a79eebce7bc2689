"""Side bets, exact: Quickdraw, Cover and a progressive Cover jackpot.

Both side bets are settled on the deal (spec ``shared/spec/ricochet-casino.md``,
"Side bets"), before anyone acts, so their mathematics is a pure counting
problem over the cards: no strategy, no other seats.  Every figure here is
exact (integer counts of equally likely deals); floats appear only when a
count is divided by the number of deals.

Units and conventions
---------------------
* Every amount is **per unit staked** on the side bet.  A bet that "pays ``x``
  to 1" returns the stake plus ``x`` when it wins and nothing when it loses.
* **RTP** = E[amount returned] / stake = 1 - house edge.
* **Hit frequency** = P(the bet wins, i.e. returns more than the stake).
* **Standard deviation** is that of the amount returned (equal to that of the
  net result) per unit staked.
* Fractions throughout; percent only in :meth:`summary` text.

Quickdraw
---------
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
``tests/test_sidebets.py``) are:

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

How the count is done (:func:`_quickdraw_kernel`): a five-card hand's
comparison key is a function of its dense value, increasing with it, so "the
player wins" is "the dealer's value is below a threshold" that depends only on
the player's key.  The dealer-value histogram over the 50 cards left by player
cards ``{a, b}`` is, by inclusion-exclusion,
``H(all) - H(hands holding a) - H(hands holding b) + H(hands holding a and b)``:
one pass over the 2,598,960 hands gives the first three for every card, and
the last takes 19,600 evaluations per player hand.  All 1,326 player hands
are counted (no suit-symmetry argument needed) in about a second.  The
slow twin :func:`quickdraw_brute_force` compares keys hand by hand for one
player hand; the tests check the two agree exactly.

Cover
-----
Pays on the dealer's five cards alone; the exact distribution is
:func:`ricochet_math.evaluator.evaluation.value_counts_5` over the 2,598,960 hands.  A
paytable line pays when the dealer's value is at or above its threshold and
below the next higher line (:meth:`ricochet_math.rules.ruleset.Paytable.payout`).  A
line paying ``0`` loses like a hand below every line (as the game engine
settles it).  See :func:`cover`.

The shipped default (``paytables/publisher.toml``)::

    pair of fives or better 1, two pair 2, three of a kind 3, straight 5,
    flush 7, full house 10, four of a kind 50, straight flush 200,
    royal flush 2000

has RTP 95.0463% (house edge 4.9537%), hit frequency 40.1307% (1,042,980 of
2,598,960 hands), standard deviation 2.9918 per unit staked.  The ladder
roughly doubles the pay for each step up in rarity through the full house,
then jumps for the rare hands; the royal flush's 2000 to 1 is the "large
jackpot" (it adds 0.31% to the RTP and most of the variance).

Progressive Cover
-----------------
:func:`cover_progressive`: the royal line pays the jackpot meter ``M`` to 1;
the meter restarts at ``reset`` after a hit and grows by ``meter_rate`` of
every wager.  RTP(M) = RTP of the other lines + P(royal) (1 + M); the
break-even meter solves RTP(M) = 1; the long-run RTP counts the meter's growth
as paid back to players: other lines + P(royal)(1 + reset) + meter_rate.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Mapping, Sequence

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.evaluator.cards import RANKS, RANK_NAMES, RANK_PLURALS
from ricochet_math.errors import RuleError
from ricochet_math.evaluator.evaluation import (
    FIVE_CARD_KEY, NUM_VALUES, ROYAL_FLUSH_VALUE, PARTIAL_BASE, all_five_card_values, describe, eval5, partial_key,
    reference_partial_key, value_counts_5,
)
from ricochet_math.rules.ruleset import COMPARISON_CHOICES, Paytable, RuleSet, load_rules
from ricochet_math.evaluator.tables import CATEGORY_NAMES, hand_classes

__all__ = [
    "DEALS_QUICKDRAW", "DEALS_COVER", "QUICKDRAW_DEFAULT_COMPARISON",
    "QuickdrawResult", "quickdraw", "quickdraw_both", "quickdraw_brute_force", "quickdraw_counts_for",
    "quickdraw_wins", "reference_quickdraw_win",
    "player_classes",
    "CoverResult", "cover", "cover_lines",
    "ProgressiveResult", "cover_progressive",
    "sidebets_summary", "quickdraw_table",
]

DEALS_QUICKDRAW = math.comb(52, 2) * math.comb(50, 5)  # 2,809,475,760
DEALS_COVER = math.comb(52, 5)  # 2,598,960
QUICKDRAW_DEFAULT_COMPARISON = "top-cards"  # the reading paytables/publisher.toml ships (module docstring)
_N_CAT = len(CATEGORY_NAMES)  # 9: high card .. straight flush
_DIGITS = 5  # a partial key holds up to five ranked-card digits


# =========================================================================
# Keys: the comparison of two- and five-card hands
# =========================================================================

def _key_digits(key: int) -> int:
    """How many ranked cards a partial key holds (its non-zero digits)."""
    digits = key % PARTIAL_BASE**_DIGITS
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

    ``kicker``: dealer key <= player key (never equal, see module docstring);
    ``top-cards``: dealer key cut to the player's number of ranked cards
    <= player key.  Both sets are an initial run of values because the keys
    increase with the value.
    """
    _check_comparison(comparison)
    keys = FIVE_CARD_KEY
    if comparison == "top-cards":
        keys = _truncate(keys, _key_digits(player_key))
    return int(np.searchsorted(keys, player_key, side="right"))


def _check_comparison(comparison: str) -> None:
    if comparison not in COMPARISON_CHOICES:
        raise RuleError(f"Quickdraw comparison {comparison!r} is not allowed; choose one of "
                        + ", ".join(f'"{c}"' for c in COMPARISON_CHOICES))


# =========================================================================
# Player classes
# =========================================================================

@lru_cache(maxsize=1)
def player_classes() -> tuple[tuple[str, ...], tuple[str, ...], np.ndarray, np.ndarray]:
    """The 1,326 two-card hands and their classes.

    Returns ``(class_labels, group_labels, hands, class_of)``: 169 class labels
    (``AA``, ``AKs``, ``AKo``; pairs first from aces down, then non-pairs by
    high card, low card, suited before offsuit), 25 group labels (``Pair of
    Aces`` .. ``Pair of Twos``, ``Ace high`` .. ``Three high``), ``hands``
    ``int64 (1326, 2)`` kernel cards ``a < b``, and ``class_of`` ``int64
    (1326,)`` the class index of each hand.
    """
    labels: list[str] = []
    index: dict[tuple, int] = {}
    for r in range(12, -1, -1):
        index[(r, r, False)] = len(labels)
        labels.append(RANKS[r] * 2)
    for h in range(12, 0, -1):
        for lo in range(h - 1, -1, -1):
            for suited in (True, False):
                index[(h, lo, suited)] = len(labels)
                labels.append(RANKS[h] + RANKS[lo] + ("s" if suited else "o"))
    hands = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
    class_of = np.empty(len(hands), dtype=np.int64)
    for i, (a, b) in enumerate(hands):
        ra, rb = a >> 2, b >> 2
        h, lo = max(ra, rb), min(ra, rb)
        class_of[i] = index[(h, lo, (a & 3) == (b & 3) and h != lo)]
    groups = tuple(f"Pair of {RANK_PLURALS[r]}" for r in range(12, -1, -1)) + tuple(
        f"{RANK_NAMES[h]} high" for h in range(12, 0, -1))
    return tuple(labels), groups, hands, class_of


def _group_of_class() -> np.ndarray:
    """Group index (0..24) of each of the 169 classes."""
    labels, groups, _, _ = player_classes()
    out = np.empty(len(labels), dtype=np.int64)
    for i, lab in enumerate(labels):
        r = RANKS.index(lab[0])
        out[i] = 12 - r if lab[0] == lab[1] else 13 + 12 - r
    return out


# =========================================================================
# Quickdraw kernels
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
    rest = kp % 759375  # 15**5
    while rest > 0:
        if rest % 15 != 0:
            nd += 1
        rest //= 15
    unit = 1
    for _ in range(5 - nd):
        unit *= 15
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
                        cat = kd // 759375
                        out[0, cat] += 1
                        if kp >= kd:
                            out[1, cat] += 1
                        if kp >= (kd // unit) * unit:
                            out[2, cat] += 1


# =========================================================================
# Quickdraw results
# =========================================================================

@lru_cache(maxsize=1)
def _quickdraw_counts() -> tuple[np.ndarray, np.ndarray]:
    """``(counts, wins)`` per player hand: int64 (1326, 9) and (1326, 2, 9) (kicker, top-cards)."""
    values = all_five_card_values()
    card_hist = np.zeros((52, NUM_VALUES), dtype=np.int64)
    _card_histogram_kernel(values, card_hist)
    all_hist = np.bincount(values, minlength=NUM_VALUES).astype(np.int64)
    all_cum = np.concatenate(([0], np.cumsum(all_hist)))
    card_cum = np.concatenate((np.zeros((52, 1), dtype=np.int64), np.cumsum(card_hist, axis=1)), axis=1)
    categories = np.array([hc.category for hc in hand_classes()], dtype=np.int64)
    cat_start = np.searchsorted(categories, np.arange(_N_CAT + 1)).astype(np.int64)
    _, _, hands, _ = player_classes()
    player_keys = [int(partial_key(h, 2)) for h in hands]
    thresholds = np.array([[quickdraw_wins(k, c) for c in COMPARISON_CHOICES] for k in player_keys],
                          dtype=np.int64)
    counts = np.zeros((len(hands), _N_CAT), dtype=np.int64)
    wins = np.zeros((len(hands), len(COMPARISON_CHOICES), _N_CAT), dtype=np.int64)
    _quickdraw_kernel(hands, thresholds, cat_start, all_cum, card_cum, counts, wins)
    return counts, wins


def _bet_std(pays: float, p: float) -> float:
    """Standard deviation of the return of a bet paying ``pays`` to 1 with win probability ``p``."""
    return (1.0 + pays) * math.sqrt(max(p * (1.0 - p), 0.0))


@dataclass(frozen=True, eq=False)
class QuickdrawResult:
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
    def rtp(self) -> float:
        """Expected return per unit staked: (1 + pays) P(win)."""
        return float(self.rtp_fraction)

    @property
    def house_edge(self) -> float:
        return 1.0 - self.rtp

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
        import pandas as pd

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
        import pandas as pd

        labels, combos, wins = self._grouped(by)
        c, w = combos.sum(axis=1), wins.sum(axis=1)
        frame = pd.DataFrame({"player": list(labels), "combinations": c, "probability": c / self.deals,
                              "wins": w, "win_rate": w / c})
        frame["rtp_contribution"] = (1.0 + self.pays) * frame["wins"] / self.deals
        return frame

    def by_dealer(self):
        """One row per dealer category: deals, probability, wins, P(win | dealer category)."""
        import pandas as pd

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
            raise ValueError(f"by must be 'class', 'group' or 'category', got {by!r}")
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
    _check_comparison(comparison)
    if isinstance(pays, bool) or not isinstance(pays, (int, float)) or not math.isfinite(pays) or pays < 0:
        raise RuleError(f"Quickdraw payout must be a finite number >= 0, got {pays!r}")
    counts, wins = _quickdraw_counts()
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


def quickdraw_brute_force(player) -> dict[str, np.ndarray]:
    """Slow twin for one player hand: dealer hands by category and wins, deal by deal.

    ``player``: two kernel cards or card text (``"As Kd"``).  Returns
    ``{"combinations": int64 (9,), "kicker": int64 (9,), "top-cards": int64
    (9,)}`` over the C(50,5) dealer hands.  About a second per hand.
    """
    from ricochet_math.evaluator.cards import parse_cards

    cards = parse_cards(player if isinstance(player, str) else list(player), count=2)
    out = np.zeros((3, _N_CAT), dtype=np.int64)
    _quickdraw_brute_kernel(int(cards[0]), int(cards[1]), out)
    return {"combinations": out[0], "kicker": out[1], "top-cards": out[2]}


def quickdraw_counts_for(player) -> dict[str, np.ndarray]:
    """The fast count's figures for one player hand, in the form of :func:`quickdraw_brute_force`."""
    from ricochet_math.evaluator.cards import parse_cards

    cards = sorted(int(c) for c in parse_cards(player if isinstance(player, str) else list(player), count=2))
    _, _, hands, _ = player_classes()
    i = int(np.flatnonzero((hands[:, 0] == cards[0]) & (hands[:, 1] == cards[1]))[0])
    counts, wins = _quickdraw_counts()
    return {"combinations": counts[i].copy(), **{c: wins[i, j].copy() for j, c in enumerate(COMPARISON_CHOICES)}}


def reference_quickdraw_win(player, dealer, comparison: str) -> bool:
    """Readable rule: does the player's two-card hand win against the dealer's five?

    Keys are ``(category, ranked cards...)`` tuples from
    :func:`~ricochet_math.evaluator.evaluation.reference_partial_key`; a tuple that is a
    prefix of another is smaller (the kicker rule).  ``top-cards`` cuts the
    dealer's tuple to the player's length first.  Ties win for the player.
    """
    _check_comparison(comparison)
    p = reference_partial_key(player)
    d = reference_partial_key(dealer)
    if comparison == "top-cards":
        d = d[: len(p)]
    return p >= d


# =========================================================================
# Cover
# =========================================================================

@dataclass(frozen=True)
class CoverLine:
    """One Cover line's share of the 2,598,960 dealer hands."""

    key: str
    hand_pattern: str
    threshold: int
    pays: float
    combinations: int


def _as_paytable(source) -> Paytable:
    if isinstance(source, Paytable):
        return source
    return load_rules(source).cover


def cover_lines(paytable: Paytable) -> np.ndarray:
    """``int64[7462]``: index of the line paying each dealer value (-1 for none).

    The line with the highest threshold at or below the value; between lines
    sharing a threshold, the later one (as :meth:`Paytable.payout`).
    """
    out = np.full(NUM_VALUES, -1, dtype=np.int64)
    best = np.full(NUM_VALUES, -1, dtype=np.int64)
    for i, line in enumerate(paytable.lines):
        t = line.value()
        take = np.arange(NUM_VALUES) >= t
        take &= best <= t
        out[take] = i
        best[take] = t
    return out


@lru_cache(maxsize=1)
def _value_counts() -> np.ndarray:
    counts = value_counts_5()
    counts.setflags(write=False)
    return counts


@dataclass(frozen=True, eq=False)
class CoverResult:
    """Exact Cover figures for one paytable, over the dealer's 2,598,960 hands.

    ``lines`` are in ascending threshold order (file order between equal
    thresholds), each with the number of hands it pays; ``losing`` hands reach
    no line.  A line pays ``pays`` to 1 (returns ``1 + pays``); a line paying 0
    loses like no line.
    """

    paytable: Paytable
    lines: tuple[CoverLine, ...]
    losing: int
    hands: int = DEALS_COVER
    method: str = "exact"

    @property
    def rtp_fraction(self) -> Fraction:
        total = sum(Fraction(l.combinations) * (1 + Fraction(l.pays)) for l in self.lines if l.pays > 0)
        return total / self.hands

    @property
    def rtp(self) -> float:
        """Expected return per unit staked: sum over paying lines of P(line) (1 + pays)."""
        return float(self.rtp_fraction)

    @property
    def house_edge(self) -> float:
        return 1.0 - self.rtp

    @property
    def hit_frequency(self) -> float:
        """P(the dealer's hand reaches a line paying more than 0)."""
        return sum(l.combinations for l in self.lines if l.pays > 0) / self.hands

    @property
    def std_dev(self) -> float:
        """Standard deviation of the return per unit staked."""
        p = np.array([l.combinations for l in self.lines], dtype=np.float64) / self.hands
        ret = np.array([1.0 + l.pays if l.pays > 0 else 0.0 for l in self.lines])
        mean = float(p @ ret)
        second = float(p @ ret**2)
        return math.sqrt(max(second - mean * mean, 0.0))

    def to_frame(self):
        """The return table: one row per line plus a ``(no line)`` row.

        Columns: ``key``, ``hand`` (threshold pattern), ``from`` (its hand,
        described), ``combinations`` (of 2,598,960), ``probability``, ``pays``
        (to 1), ``return`` (``1 + pays``; 0 for no line or a line paying 0), ``rtp_contribution``
        (``probability * return``; sums to the RTP).
        """
        import pandas as pd

        rows = [("(no line)", "", "", self.losing, 0.0, 0.0)]
        rows += [(l.key, l.hand_pattern, describe(l.threshold), l.combinations, float(l.pays),
                  1.0 + l.pays if l.pays > 0 else 0.0) for l in self.lines]
        frame = pd.DataFrame(rows, columns=["key", "hand", "from", "combinations", "pays", "return"])
        frame.insert(4, "probability", frame["combinations"] / self.hands)
        frame["rtp_contribution"] = frame["probability"] * frame["return"]
        return frame

    def summary(self) -> str:
        table = ", ".join(f"{l.key} {l.pays:g}" for l in self.lines)
        return (
            f"Cover ({self.method}, {self.hands:,} dealer hands): {table}\n"
            f"  RTP {self.rtp:.4%} per unit staked (house edge {self.house_edge:.4%}); "
            f"hit frequency {self.hit_frequency:.4%}; std dev {self.std_dev:.4f}"
        )


def cover(source: RuleSet | Paytable | str | None = None, **pays: float) -> CoverResult:
    """Exact Cover return table for a rule set's (or any) paytable.

    ``source``: a rule set, rule-set name (default ``publisher``) or a
    :class:`~ricochet_math.rules.ruleset.Paytable`; keyword arguments change line
    payouts (``cover(royal_flush=5000)``).

    >>> r = cover()
    >>> r.rtp_fraction, round(r.rtp, 6), round(r.hit_frequency, 6)
    (Fraction(44111, 46410), 0.950463, 0.401307)
    """
    table = _as_paytable(source)
    if pays:
        table = table.with_pays(**pays)
    if not len(table):
        raise RuleError("the Cover paytable has no lines")
    counts = _value_counts()
    line_of = cover_lines(table)
    per_line = np.bincount(line_of + 1, weights=counts, minlength=len(table) + 1).astype(np.int64)
    order = sorted(range(len(table)), key=lambda i: (table.lines[i].value(), i))
    lines = tuple(
        CoverLine(table.lines[i].key, table.lines[i].hand_pattern, table.lines[i].value(),
                  table.lines[i].pays, int(per_line[i + 1]))
        for i in order
    )
    return CoverResult(paytable=table, lines=lines, losing=int(per_line[0]))


# =========================================================================
# Progressive Cover
# =========================================================================

@dataclass(frozen=True, eq=False)
class ProgressiveResult:
    """Cover with a progressive jackpot line paying the meter ``M`` to 1.

    ``base_rtp`` is the RTP of every other line (including their stake
    return); ``p_jackpot`` the probability of the jackpot line.  Meter values
    are in units of the (fixed) wager.
    """

    cover: CoverResult
    line: str
    reset: float
    meter_rate: float
    base_rtp: float
    p_jackpot: float

    def rtp_at(self, meter) -> float | np.ndarray:
        """RTP of a bet settled while the meter stands at ``meter``: base + P(jackpot)(1 + meter)."""
        m = np.asarray(meter, dtype=np.float64)
        out = self.base_rtp + self.p_jackpot * (1.0 + m)
        return float(out) if out.ndim == 0 else out

    @property
    def break_even_meter(self) -> float:
        """The meter at which a bet has RTP 1 (negative: every meter is above break-even)."""
        return (1.0 - self.base_rtp) / self.p_jackpot - 1.0

    @property
    def rtp_at_reset(self) -> float:
        return self.rtp_at(self.reset)

    @property
    def mean_meter_at_hit(self) -> float:
        """Expected meter when the jackpot hits: reset + meter_rate / P(jackpot)."""
        return self.reset + self.meter_rate / self.p_jackpot

    @property
    def long_run_rtp(self) -> float:
        """RTP over the jackpot cycle: base + P(jackpot)(1 + reset) + meter_rate.

        The meter's growth (``meter_rate`` of every wager) is all paid back to
        a player at the next hit; the house funds each reset.
        """
        return self.base_rtp + self.p_jackpot * (1.0 + self.reset) + self.meter_rate

    def to_frame(self, meters: Sequence[float] | None = None):
        """RTP at a range of meters (default: reset to twice the break-even meter)."""
        import pandas as pd

        if meters is None:
            top = max(self.reset, self.break_even_meter, 1.0) * 2.0
            grain = 10.0 ** max(math.floor(math.log10(top)) - 2, 0)
            meters = np.unique(np.round(np.linspace(self.reset, top, 11) / grain) * grain)
        meters = np.asarray(meters, dtype=np.float64)
        return pd.DataFrame({"meter": meters, "rtp": self.rtp_at(meters) * np.ones_like(meters)})

    def summary(self) -> str:
        return (
            f"Progressive Cover: {self.line} pays the meter (reset {self.reset:g}, "
            f"meter rate {self.meter_rate:.2%} of each wager)\n"
            f"  RTP at reset {self.rtp_at_reset:.4%}; break-even meter {self.break_even_meter:,.0f}; "
            f"mean meter at a hit {self.mean_meter_at_hit:,.0f}; long-run RTP {self.long_run_rtp:.4%}"
        )


def cover_progressive(source: RuleSet | Paytable | str | None = None, *, reset: float, meter_rate: float,
                      line: str | None = None) -> ProgressiveResult:
    """Progressive Cover: the jackpot line (default the royal flush line) pays the meter.

    ``reset``: the meter after a hit (wager units, >= 0); ``meter_rate``: the
    fraction of each wager added to the meter, in [0, 1).  Raises
    :class:`~ricochet_math.errors.RuleError` when the paytable has no such line.

    >>> p = cover_progressive(reset=2000, meter_rate=0.02)
    >>> round(p.break_even_meter), round(p.long_run_rtp, 6)
    (34186, 0.970463)
    """
    table = _as_paytable(source)
    if not (isinstance(reset, (int, float)) and math.isfinite(reset) and reset >= 0):
        raise RuleError(f"progressive reset must be a finite number >= 0, got {reset!r}")
    if not (isinstance(meter_rate, (int, float)) and 0 <= meter_rate < 1):
        raise RuleError(f"progressive meter rate must be a fraction in [0, 1), got {meter_rate!r}")
    if line is None:
        royal = [l.key for l in table.lines if l.value() == ROYAL_FLUSH_VALUE]
        if not royal:
            raise RuleError("the Cover paytable has no royal flush line for the progressive jackpot")
        line = royal[-1]
    if line not in table:
        raise RuleError(f"the Cover paytable has no line {line!r}; lines: {', '.join(table.keys())}")
    result = cover(table)
    (jackpot,) = [l for l in result.lines if l.key == line]
    if jackpot.combinations == 0:
        raise RuleError(f"Cover line {line!r} pays no hand (a later line shares its threshold)")
    p_jack = jackpot.combinations / result.hands
    base = sum(l.combinations * (1.0 + l.pays) for l in result.lines if l.key != line and l.pays > 0) / result.hands
    return ProgressiveResult(result, line, float(reset), float(meter_rate), base, p_jack)


# =========================================================================
# Reports (what ``ricochet sidebets`` prints)
# =========================================================================

def sidebets_summary(rules: RuleSet | str | None = None) -> "pd.DataFrame":
    """One row per side bet and reading: the rule set's Cover, Quickdraw under both comparisons.

    Columns: ``bet``, ``reading``, ``in_rules`` (the reading the rule set
    uses), ``rtp``, ``house_edge``, ``hit_frequency``, ``std_dev`` (per unit
    staked), ``wins`` (winning deals or hands), ``deals``.
    """
    import pandas as pd

    rules = load_rules(rules)
    rows = []
    for comparison, r in quickdraw_both(rules).items():
        rows.append(("Quickdraw", f"{comparison}, {r.pays:g} to 1", comparison == rules.quickdraw.comparison,
                     r.rtp, r.house_edge, r.hit_frequency, r.std_dev, r.win_combinations, r.deals))
    c = cover(rules)
    rows.append(("Cover", "paytable " + ", ".join(f"{l.key} {l.pays:g}" for l in c.lines), True,
                 c.rtp, c.house_edge, c.hit_frequency, c.std_dev,
                 sum(l.combinations for l in c.lines if l.pays > 0), c.hands))
    return pd.DataFrame(rows, columns=["bet", "reading", "in_rules", "rtp", "house_edge", "hit_frequency",
                                       "std_dev", "wins", "deals"])


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
