"""A rule set as the arrays the kernels read: payouts by final hand value and the options."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ricochet_math.evaluator.evaluation import NUM_VALUES
from ricochet_math.rules.layout import Option
from ricochet_math.rules.ruleset import RuleSet

__all__ = ["bonus_by_value", "cover_by_value", "options_array"]


def bonus_by_value(rules: RuleSet) -> np.ndarray:
    """``float64[7462]``: the high-hand bonus (ante units) of each final five-card value (read-only)."""
    return _table_by_value(rules.bonus)


def cover_by_value(rules: RuleSet) -> np.ndarray:
    """``float64[7462]``: the Cover payout (to 1) on each dealer value; 0 = the bet loses (read-only)."""
    return _table_by_value(rules.cover)


@lru_cache(maxsize=64)
def _table_by_value(paytable) -> np.ndarray:
    thresholds, pays = paytable.to_arrays()
    line = np.searchsorted(thresholds, np.arange(NUM_VALUES), side="right") - 1
    out = np.where(line >= 0, pays[np.maximum(line, 0)] if len(pays) else 0.0, 0.0)
    out = np.ascontiguousarray(out, dtype=np.float64)
    out.flags.writeable = False
    return out


def options_array(rules: RuleSet, dealer_value: int = -1) -> np.ndarray:
    """``int64[len(Option)]``: the rule options in the :data:`~ricochet_math.rules.layout.Option` layout,
    with ``dealer_value`` (-1: not dealt yet) in its slot."""
    out = np.zeros(len(Option), dtype=np.int64)
    out[Option.automatic_win] = rules.options.automatic_win
    out[Option.split_fractional] = rules.options.split == "fractional"
    out[Option.dealer_loses_ties] = rules.options.dealer_loses_ties
    out[Option.bonus_on_automatic_win] = rules.options.bonus_on_automatic_win
    out[Option.dealer_value] = dealer_value
    return out
