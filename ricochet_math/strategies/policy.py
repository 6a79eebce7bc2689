"""A seat's policy as the kernels read it: a strategy code and one ``int64`` row of named slots;
and the table a decision kernel reads, as one named bundle.

Both layouts are declared once here (:func:`ricochet_math.rules.layout.layout`):

* :data:`Code`: which policy decides, the simple table-free rules
  (:mod:`ricochet_math.strategies.simple`) or the look-ahead
  (:mod:`ricochet_math.strategies.perfect`);
* :data:`PolicySlot`: the slots of a seat's row in the ``int64[N, len(PolicySlot)]``
  policy array: ``code``; ``key`` the two-card key a ``beats:XY`` hand must
  beat; ``mine``, ``mine_bonus``, ``others``, ``others_bonus`` the look-ahead's
  :class:`~ricochet_math.strategies.perfect.Readings` (bonus flags 0 or 1).

:class:`Table` bundles the eleven arguments every table-reading decision kernel takes
(:func:`~ricochet_math.strategies.perfect.perfect_decision` and the readings below it).
"""
from __future__ import annotations

from collections import namedtuple

from ricochet_math.rules.layout import layout

__all__ = ["CODE_FIELDS", "Code", "POLICY_FIELDS", "PolicySlot", "TABLE_FIELDS", "Table"]

CODE_FIELDS = ("always", "never", "pair", "beats", "timid", "chaser", "dealer_only", "bonus_hunter", "look_ahead")
Code = layout("Code", CODE_FIELDS, module=__name__)

POLICY_FIELDS = ("code", "key", "mine", "mine_bonus", "others", "others_bonus")
PolicySlot = layout("PolicySlot", POLICY_FIELDS, module=__name__)

#: The face-up table at a decision, as the decision kernels read it (the kernel twin of
#: :class:`~ricochet_math.strategies.registry.TableState`): ``unseen`` uint8[52] (1 = the card may
#: still be drawn); ``hole`` int64[N, 2]; ``order`` int64[N] the seats in acting order; ``pos`` the
#: index into ``order`` of the acting seat; ``best_value`` the value it must reach (-1: nothing to
#: beat); ``dealer_in`` the dealer holds ``best_value`` (not kicked out, not beaten); ``n_tied``
#: players standing at ``best_value``; ``pot`` units in the pot now; ``dealer_kicked``;
#: ``bonus_by_value`` float64[7462] the bonus in ante units; ``options`` int64[len(Option)]
#: (:data:`~ricochet_math.rules.layout.Option`, the dealer's own value in its slot).  A namedtuple
#: of arrays and scalars, which numba types field by field, as the engine's bundles.
TABLE_FIELDS = ("unseen", "hole", "order", "pos", "best_value", "dealer_in", "n_tied", "pot", "dealer_kicked",
                "bonus_by_value", "options")
Table = namedtuple("Table", TABLE_FIELDS)
