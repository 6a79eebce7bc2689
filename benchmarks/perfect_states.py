"""Seeded table states for the perfect-play kernel checks and timings (issue 14).

:func:`states` deals random rounds with the readable engine
(:class:`~ricochet_math.engine.round.Round`), lets the first ``k`` seats in order of play
fold or play at random (``k`` = 0..N-1) and returns what the next seat sees, as the
kernel's arguments.  :data:`CHECK_READINGS` are the eleven readings the identity check
runs on each state: the eight of :data:`~ricochet_math.strategies.perfect.READING_NAMES`
and three best responses, so 2,550 states give 28,050 state/reading pairs.
"""
from __future__ import annotations

import numpy as np

from ricochet_math.engine.round import Round
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.strategies.perfect import READING_NAMES

__all__ = ["CHECK_READINGS", "states", "first_to_act"]

CHECK_READINGS = READING_NAMES + ("perfect-vs-myopic", "perfect-vs-pot-odds-final-no-bonus", "myopic-vs-perfect")


def _args(st):
    return (st.unseen.copy(), np.asarray(st.holes, dtype=np.int64), np.asarray(st.order, dtype=np.int64),
            st.position, st.best_value, st.dealer_in, st.n_tied, st.pot, st.dealer_kicked,
            st.bonus_by_value, st.options.copy())


def states(seed: int, per_players: int, players=range(2, 8), rules=None, low_kickout: bool = True):
    """``per_players`` states for each player count (tuples of the kernel's arguments after the
    reading: unseen, hole, order, pos, best_value, dealer_in, n_tied, pot, dealer_kicked,
    bonus_by_value, options).  Every other state uses a rule set that kicks the dealer out on a
    pair of twos and lets her win ties, so the kicked-out and tie branches are exercised."""
    base = load_rules(rules)
    low = base.with_options(dealer_loses_ties=False, bonus_on_automatic_win=False)
    for n in range(1, 8):
        low = low.with_kickout(n, "22")
    rng = np.random.default_rng(seed)
    out = []
    for n in players:
        made = 0
        while made < per_players:
            r = low if (low_kickout and made % 2) else base
            rnd = Round(r, n, rng.permutation(52))
            for _ in range(int(rng.integers(0, n))):
                if rnd.is_terminal() or rnd.automatic_win_due():
                    break
                rnd.apply("fold" if rng.random() < 0.4 else "play")
            if rnd.is_terminal() or rnd.automatic_win_due():
                continue
            out.append(_args(rnd.table_state()))
            made += 1
    return out


def first_to_act(seed: int, count: int, players: int, rules=None):
    """``count`` states of the first seat to act at a fresh table of ``players`` (the decision rows)."""
    r = load_rules(rules)
    rng = np.random.default_rng(seed)
    return [_args(Round(r, players, rng.permutation(52)).table_state()) for _ in range(count)]
