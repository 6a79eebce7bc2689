"""The one-player perfect-play strategy as a lab's math report shows it: a 13 x 13 chart and a description in words.

Source: :meth:`~ricochet_math.solvers.solo.SoloAnalysis.strategy_chart` (one row
per two-card class: the strongest dealer hand the class still plays against
while she is in, how many dealer hands below that it folds (card removal),
and its fold frequency while she is in).  With one player every card is face
up, so the decision is "play when the dealer's five cards are no stronger
than the limit of my two cards"; this module groups the classes by that limit
(a pair rank for most of them) and writes each group as hand ranges
(``AA-22``, ``AKs-ATs``, ``KQo``), strongest limit first.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ricochet_math.evaluator.cards import RANKS
from ricochet_math.evaluator.names import describe

__all__ = ["GRID_RANKS", "strategy_chart", "strategy_grid", "hand_grid_names", "limit_name",
           "hand_ranges", "strategy_words"]

#: the chart's row and column order: A down to 2
GRID_RANKS = RANKS[::-1]


def strategy_chart(solo) -> pd.DataFrame:
    """:meth:`SoloAnalysis.strategy_chart` with ``play_frequency_dealer_in`` (1 - fold frequency) and
    ``limit`` (:func:`limit_name` of the strongest dealer hand played against); classes not analysed
    (test sizes) are left out."""
    chart = solo.strategy_chart()
    chart = chart[np.asarray(solo.classes_done, dtype=bool)].reset_index(drop=True)
    chart["play_frequency_dealer_in"] = 1.0 - chart["fold_frequency_dealer_in"]
    chart["limit"] = [limit_name(int(v)) for v in chart["plays_up_to_value"]]
    return chart


def hand_grid_names() -> pd.DataFrame:
    """The hand name of every cell of the 13 x 13 chart: pairs on the diagonal, suited above it
    (row = high card), offsuit below it (column = high card), as :meth:`SoloAnalysis.strategy_grid`."""
    names = pd.DataFrame("", index=list(GRID_RANKS), columns=list(GRID_RANKS))
    for i, r in enumerate(GRID_RANKS):
        for j, c in enumerate(GRID_RANKS):
            names.iloc[i, j] = r + c if i == j else (r + c + "s" if i < j else c + r + "o")
    return names


def strategy_grid(chart: pd.DataFrame, column: str = "play_frequency_dealer_in") -> pd.DataFrame:
    """``column`` of :func:`strategy_chart` as the 13 x 13 grid (rows and columns A..2); NaN where a
    class was not analysed."""
    grid = pd.DataFrame(np.nan, index=list(GRID_RANKS), columns=list(GRID_RANKS))
    names = hand_grid_names()
    where = {names.iloc[i, j]: (i, j) for i in range(13) for j in range(13)}
    for hand, value in zip(chart["hand"], chart[column]):
        i, j = where[hand]
        grid.iloc[i, j] = float(value)
    return grid


def limit_name(value: int) -> str:
    """The strongest dealer hand a class plays against, as its category and top rank: 'Pair of Kings',
    'High card, ace high', 'never plays' (value -1)."""
    if value < 0:
        return "never plays"
    text = describe(value)
    if text.startswith("High card"):
        return f"High card, {text.split(', ')[1].split('-')[0]} high"
    return text.split(", ")[0]


def _runs(ranks: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive rank indices (descending input) as (first, last) pairs."""
    runs: list[list[int]] = []
    for r in ranks:
        if runs and runs[-1][1] == r + 1:
            runs[-1][1] = r
        else:
            runs.append([r, r])
    return [(a, b) for a, b in runs]


def hand_ranges(hands) -> str:
    """Class names written as ranges, strongest first: ``AA-JJ, 88, AKs-AJs, KQs, AKo``."""
    pairs, suited, offsuit = [], {}, {}
    for h in hands:
        hi, lo = RANKS.index(h[0]), RANKS.index(h[1])
        if hi == lo:
            pairs.append(hi)
        else:
            (suited if h.endswith("s") else offsuit).setdefault(hi, []).append(lo)
    parts = []
    for a, b in _runs(sorted(pairs, reverse=True)):
        parts.append(RANKS[a] * 2 if a == b else f"{RANKS[a] * 2}-{RANKS[b] * 2}")
    for group, end in ((suited, "s"), (offsuit, "o")):
        for hi in sorted(group, reverse=True):
            for a, b in _runs(sorted(group[hi], reverse=True)):
                first, last = RANKS[hi] + RANKS[a] + end, RANKS[hi] + RANKS[b] + end
                parts.append(first if a == b else f"{first}-{last}")
    return ", ".join(parts)


def strategy_words(chart: pd.DataFrame, threshold: str, complete: bool = True) -> list[str]:
    """The strategy of :func:`strategy_chart` in sentences: one per limit, strongest first.

    Every sentence is true of every hand it names (issue 28): a hand's limit is the strongest dealer hand
    it plays against, so it folds against every stronger one; against weaker dealer hands it plays, except
    the ones card removal makes it fold, and those hands are named apart with their count of exceptions
    (the chart's ``folds_below_that``), never folded into a simpler rule that is wrong for them.
    """
    if not len(chart):
        return ["No starting-hand class was analysed."]
    lines = [f"With one player every card is face up: the dealer folds (is kicked out) at or above "
             f"{threshold}. Otherwise each two-card hand has a limit, the strongest dealer hand it plays against: "
             "it folds against every stronger dealer hand and plays against every weaker one, except the dealer "
             "hands counted below, which it folds against although they are weaker (card removal: the "
             "dealer's five cards change the player's draws). The table 'Strategy by starting hand' gives each "
             "hand's limit and its count of exceptions, and 'ricochet advise' the decision for any deal."
             + ("" if complete else " TEST SIZE: only the classes analysed are listed.")]
    order = chart.groupby("limit", sort=False)["plays_up_to_value"].max().sort_values(ascending=False)
    for limit in order.index:
        group = chart[chart["limit"] == limit]
        if limit == "never plays":
            lines.append(f"Never play: {hand_ranges(group['hand'])}.")
            continue
        article = "a " if limit.startswith("Pair") else ""
        name = f"{article}{limit[0].lower() + limit[1:]}"
        exact = group.loc[group["folds_below_that"] == 0, "hand"]
        other = group[group["folds_below_that"] > 0]
        parts = []
        if len(exact):
            parts.append(f"{hand_ranges(exact)} play against every weaker dealer hand")
        if len(other):
            lo, hi = int(other["folds_below_that"].min()), int(other["folds_below_that"].max())
            count = f"{lo:,}" if lo == hi else f"{lo:,} to {hi:,}"
            parts.append(f"{hand_ranges(other['hand'])} also fold against {count} weaker dealer hands (per hand, over its suit combinations)")
        lines.append(f"Limit {name}: " + "; ".join(parts) + ".")
    always = chart.loc[chart["fold_frequency_dealer_in"] == 0, "hand"]
    if len(always):
        lines.append(f"Never folds while the dealer is in: {hand_ranges(always)}.")
    below = int((chart["folds_below_that"] > 0).sum())
    lines.append(f"{below} of the {len(chart)} classes fold against some dealer hands weaker than their limit "
                 f"(counted above); the other {len(chart) - below} never do.")
    return lines
