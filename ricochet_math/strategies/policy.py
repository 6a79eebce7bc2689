"""A seat's policy as the kernels read it: a strategy code and one ``int64`` row of named slots.

Both layouts are declared once here (:func:`ricochet_math.rules.layout.layout`):

* :data:`Code`: which policy decides, the simple table-free rules
  (:mod:`ricochet_math.strategies.simple`) or the look-ahead
  (:mod:`ricochet_math.strategies.perfect`);
* :data:`PolicySlot`: the slots of a seat's row in the ``int64[N, len(PolicySlot)]``
  policy array: ``code``; ``key`` the two-card key a ``beats:XY`` hand must
  beat; ``mine``, ``mine_bonus``, ``others``, ``others_bonus`` the look-ahead's
  :class:`~ricochet_math.strategies.perfect.Readings` (bonus flags 0 or 1).
"""
from __future__ import annotations

from ricochet_math.rules.layout import layout

__all__ = ["CODE_FIELDS", "Code", "POLICY_FIELDS", "PolicySlot"]

CODE_FIELDS = ("always", "never", "pair", "beats", "timid", "chaser", "dealer_only", "bonus_hunter", "look_ahead")
Code = layout("Code", CODE_FIELDS, module=__name__)

POLICY_FIELDS = ("code", "key", "mine", "mine_bonus", "others", "others_bonus")
PolicySlot = layout("PolicySlot", POLICY_FIELDS, module=__name__)
