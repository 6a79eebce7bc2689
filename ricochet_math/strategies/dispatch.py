"""The one interface between the engine and the policies: :func:`decide`.

The batch kernel (:mod:`ricochet_math.engine.kernel`) must see the policy at
compile time, so it calls this numba function, which routes a seat by its
:data:`~ricochet_math.strategies.policy.Code` to the simple rules
(:func:`~ricochet_math.strategies.simple.simple_decide`) or to the look-ahead
(:func:`~ricochet_math.strategies.perfect.perfect_decision`).  The engine names
no policy module but this one.

:func:`decide_table_free` is the same source compiled with the look-ahead
branch pruned before typing: a kernel for table-free strategies neither
compiles nor links the look-ahead (half the compile time), and pays nothing
for a branch it never takes.
"""
from __future__ import annotations

from ricochet_math._numba import njit, specialise
from ricochet_math.strategies.perfect import Readings, perfect_decision
from ricochet_math.strategies.policy import Code, PolicySlot
from ricochet_math.strategies.simple import simple_decide

__all__ = ["decide", "decide_table_free"]


_LOOK_AHEAD = True  # a compile-time constant in each compiled variant (below)


def _decide(policy, pos, unseen, hole, order, best_value, dealer_in, n_tied, pot, dealer_kicked, dealer_key,
            bonus_by_value, options):
    """Fold (False) or play (True) for seat ``order[pos]``.

    policy: ``int64[N, len(PolicySlot)]`` every seat's row; dealer_key: the
    kicker-rule key of the dealer's five cards; the other arguments are those of
    :func:`~ricochet_math.strategies.perfect.perfect_decision` (unseen: uint8[52],
    1 = unseen; hole: int64[N, 2]; order: int64[N]; best_value: -1 = nothing to beat; ...).
    """
    s = order[pos]
    code = policy[s, PolicySlot.code]
    if _LOOK_AHEAD and code == Code.look_ahead:
        rd = Readings(policy[s, PolicySlot.mine], policy[s, PolicySlot.mine_bonus] != 0,
                      policy[s, PolicySlot.others], policy[s, PolicySlot.others_bonus] != 0)
        return perfect_decision(rd, unseen, hole, order, pos, best_value, dealer_in, n_tied, pot, dealer_kicked,
                                bonus_by_value, options)
    return simple_decide(code, policy[s, PolicySlot.key], hole[s, 0], hole[s, 1], best_value, dealer_kicked,
                         dealer_key)


decide = njit(inline="always")(specialise(_decide, "decide", _LOOK_AHEAD=True))
decide_table_free = njit(inline="always")(specialise(_decide, "decide_table_free", _LOOK_AHEAD=False))
