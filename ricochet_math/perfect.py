"""Perfect play and the publisher-like strategy readings, as numba decision kernels.

STUB: the real solver is being written; the signature below is the contract
the fast engine's strategy dispatch calls.
"""
from __future__ import annotations

import numpy as np

from ._numba import njit

# Strategy readings (spec, "Strategy readings").  Bit 0 of the variant says
# "ignore the bonus when deciding".
PERFECT = 0
PERFECT_NO_BONUS = 1
MYOPIC = 2
MYOPIC_NO_BONUS = 3
POT_ODDS_NOW = 4
POT_ODDS_NOW_NO_BONUS = 5
POT_ODDS_FINAL = 6
POT_ODDS_FINAL_NO_BONUS = 7

# options array layout passed to every decision kernel
OPT_AUTOMATIC_WIN, OPT_SPLIT_FRACTIONAL, OPT_DEALER_LOSES_TIES, OPT_BONUS_ON_AUTOMATIC_WIN = range(4)


@njit
def perfect_decision(variant, deck, hole, order, pos, best_value, dealer_in, n_tied, pot,
                     dealer_kicked, bonus_by_value, options):
    """Return True to play, False to fold, for the seat ``order[pos]``.

    deck: uint8[52], 1 = card unseen (may still be drawn); hole: int64[N, 2];
    order: int64[N] seats in acting order; pos: index into ``order`` of the
    acting seat; best_value: value the acting seat must reach (-1: nothing to
    beat); dealer_in: the dealer holds best_value (not kicked out, not beaten);
    n_tied: players standing at best_value; pot: units in the pot now;
    dealer_kicked; bonus_by_value: float64[7462] bonus in ante units;
    options: int64[4] (see OPT_*).
    """
    # placeholder until the solver lands: play a pair or better, or when nothing stands
    s = order[pos]
    if best_value < 0:
        return True
    return (hole[s, 0] >> 2) == (hole[s, 1] >> 2)
