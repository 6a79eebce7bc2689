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

The bets, one module each:

* :mod:`ricochet_math.design.quickdraw`: Quickdraw, the player's two cards
  against the dealer's five, under both readings of the comparison rule
  (its exact count over 2,809,475,760 deals is in
  :mod:`ricochet_math.design.quickdraw_count`);
* :mod:`ricochet_math.design.cover`: Cover, on the dealer's five cards alone,
  and a progressive Cover jackpot.

This module holds what spans both (:func:`sidebets_summary`, the table
``ricochet sidebets`` prints first) and gives every side-bet name under one
import (``from ricochet_math.design.sidebets import cover, quickdraw``).
"""
from __future__ import annotations

from ricochet_math.design.cover import (
    DEALS_COVER, CoverLine, CoverResult, ProgressiveResult, cover, cover_lines, cover_progressive,
)
from ricochet_math.design.quickdraw import (
    DEALS_QUICKDRAW, QUICKDRAW_DEFAULT_COMPARISON, QuickdrawResult, player_classes, quickdraw, quickdraw_both,
    quickdraw_table,
)
from ricochet_math.design.quickdraw_count import (
    quickdraw_brute_force, quickdraw_counts_for, quickdraw_wins, reference_quickdraw_win,
)
import pandas as pd

from ricochet_math.rules.ruleset import RuleSet, load_rules

__all__ = [
    "DEALS_QUICKDRAW", "DEALS_COVER", "QUICKDRAW_DEFAULT_COMPARISON",
    "QuickdrawResult", "quickdraw", "quickdraw_both", "quickdraw_brute_force", "quickdraw_counts_for",
    "quickdraw_wins", "reference_quickdraw_win",
    "player_classes",
    "CoverLine", "CoverResult", "cover", "cover_lines",
    "ProgressiveResult", "cover_progressive",
    "sidebets_summary", "quickdraw_table",
]


def sidebets_summary(rules: RuleSet | str | None = None) -> "pd.DataFrame":
    """One row per side bet and reading: the rule set's Cover, Quickdraw under both comparisons.

    Columns: ``bet``, ``reading``, ``in_rules`` (the reading the rule set
    uses), ``rtp``, ``house_edge``, ``hit_frequency``, ``std_dev`` (per unit
    staked), ``wins`` (winning deals or hands), ``deals``.
    """

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

