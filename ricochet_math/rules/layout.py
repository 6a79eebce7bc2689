"""Named layouts of the arrays the kernels read and write, declared once.

A kernel takes small arrays whose slots mean something (a rule option, a sum
of a seat's results, a reading code).  Each layout is declared here or beside
its owner as one tuple of names; :func:`layout` turns it into an ``IntEnum``
whose members are the slot indices.  numba reads enum members as compile-time
constants, so kernels write ``options[Option.dealer_value]`` and no index is
ever kept in step with a list by hand.
"""
from __future__ import annotations

from enum import IntEnum

__all__ = ["layout", "OPTION_FIELDS", "Option"]


def layout(name: str, fields: tuple[str, ...], module: str | None = None) -> type[IntEnum]:
    """An ``IntEnum`` named ``name`` whose members are ``fields`` numbered 0, 1, ... in order."""
    if len(set(fields)) != len(fields):
        raise ValueError(f"layout {name}: repeated field names")
    return IntEnum(name, [(f, i) for i, f in enumerate(fields)], module=module or __name__)


#: The rule options every decision and round kernel reads, as ``int64[len(Option)]``
#: (:func:`ricochet_math.rules.arrays.options_array`).  ``dealer_value`` is not a rule
#: but the round's own dealer hand value, which the dealer-only readings need once she
#: is beaten; the engine writes it into its own copy every round.
OPTION_FIELDS = ("automatic_win", "split_fractional", "dealer_loses_ties", "bonus_on_automatic_win", "dealer_value")
Option = layout("Option", OPTION_FIELDS)
