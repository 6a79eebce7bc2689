"""Checks of the arguments of public functions, each failing with one :class:`RicochetError` line.

A public function checks what it is given before any work starts, so that a
wrong argument costs a line of text, not a traceback after minutes of work.
Each check returns the value in its canonical type (``int``, ``float``).
"""
from __future__ import annotations

import math
import numbers

from ricochet_math.errors import RicochetError

__all__ = ["MAX_SEED", "check_whole", "check_seed", "check_level", "check_finite", "check_instance"]

#: seeds are unsigned 128-bit integers (numpy's SeedSequence entropy)
MAX_SEED = 2 ** 128 - 1


def _is_whole(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def check_whole(value, name: str, *, low: int = 1, high: int | None = None) -> int:
    """``value`` as an ``int`` if it is a whole number in ``[low, high]``."""
    if not _is_whole(value) or value < low or (high is not None and value > high):
        if high is None:
            bound = "a positive whole number" if low == 1 else f"a whole number >= {low:,}"
        else:
            bound = f"a positive whole number up to {high:,}" if low == 1 else f"a whole number from {low:,} to {high:,}"
        raise RicochetError(f"{name} must be {bound}, got {value!r}")
    return int(value)


def check_seed(seed, name: str = "seed", *, allow_none: bool = True) -> int | None:
    """A seed: ``None`` (fresh entropy, when allowed) or a whole number from 0 to 2**128 - 1."""
    if seed is None and allow_none:
        return None
    if not _is_whole(seed) or not 0 <= seed <= MAX_SEED:
        raise RicochetError(f"{name} must be a whole number from 0 to 2**128 - 1, got {seed!r}")
    return int(seed)


def check_level(level, name: str = "level") -> float:
    """A confidence level strictly between 0 and 1 (e.g. 0.95)."""
    if isinstance(level, bool) or not isinstance(level, numbers.Real) or not 0.0 < float(level) < 1.0:
        raise RicochetError(f"{name} must be a number strictly between 0 and 1 (e.g. 0.95), got {level!r}")
    return float(level)


def check_finite(value, name: str, *, low: float = -math.inf, high: float = math.inf) -> float:
    """A finite real number in ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)) \
            or not low <= float(value) <= high:
        raise RicochetError(f"{name} must be a finite number from {low:g} to {high:g}, got {value!r}")
    return float(value)


def check_instance(value, kind: type, name: str, *, allow_none: bool = False):
    """``value`` if it is a ``kind`` (or None, when allowed): a rule object, a model, a table."""
    if (value is None and allow_none) or isinstance(value, kind):
        return value
    raise RicochetError(f"{name} must be {kind.__name__}{' or None' if allow_none else ''}, "
                        f"got {type(value).__name__}")
