"""Checks of the arguments of public functions, each failing with one :class:`RicochetError` line.

A public function checks what it is given before any work starts, so that a
wrong argument costs a line of text, not a traceback after minutes of work.
Each check returns the value in its canonical type (``int``, ``float``).

Text that stands for a number or a list (a command-line value, a string in a TOML file, a strategy
spec) is read here too, by one grammar: :func:`whole_from_text` and :func:`number_from_text` take
ASCII digits only (``int`` and ``float`` also take ``'１２'`` and ``'٣'``), :func:`split_items`
and :func:`spec_parts` refuse an empty item, a trailing separator and whitespace inside a spec.
"""
from __future__ import annotations

import math
import numbers

from ricochet_math.errors import RicochetError, quote

__all__ = ["MAX_SEED", "check_whole", "check_seed", "check_level", "check_finite", "check_instance",
           "whole_from_text", "number_from_text", "split_items", "spec_parts", "named_values"]

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
        raise RicochetError(f"{name} must be {bound}, got {quote(value)}")
    return int(value)


def check_seed(seed, name: str = "seed", *, allow_none: bool = True) -> int | None:
    """A seed: ``None`` (fresh entropy, when allowed) or a whole number from 0 to 2**128 - 1."""
    if seed is None and allow_none:
        return None
    if not _is_whole(seed) or not 0 <= seed <= MAX_SEED:
        raise RicochetError(f"{name} must be a whole number from 0 to 2**128 - 1, got {quote(seed)}")
    return int(seed)


def check_level(level, name: str = "level") -> float:
    """A confidence level strictly between 0 and 1 (e.g. 0.95)."""
    if isinstance(level, bool) or not isinstance(level, numbers.Real) or not 0.0 < float(level) < 1.0:
        raise RicochetError(f"{name} must be a number strictly between 0 and 1 (e.g. 0.95), got {quote(level)}")
    return float(level)


def check_finite(value, name: str, *, low: float = -math.inf, high: float = math.inf) -> float:
    """A finite real number in ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)) \
            or not low <= float(value) <= high:
        raise RicochetError(f"{name} must be a finite number from {low:g} to {high:g}, got {quote(value)}")
    return float(value)


def check_instance(value, kind: type, name: str, *, allow_none: bool = False):
    """``value`` if it is a ``kind`` (or None, when allowed): a rule object, a model, a table."""
    if (value is None and allow_none) or isinstance(value, kind):
        return value
    raise RicochetError(f"{name} must be {kind.__name__}{' or None' if allow_none else ''}, "
                        f"got {type(value).__name__}")


# --------------------------------------------------------------------------- numbers and lists written as text

def _ascii_text(text, name: str, kind: str) -> str:
    prefix = f"{name}: " if name else ""
    if not isinstance(text, str):
        raise RicochetError(f"{prefix}not {kind} written as text but a {type(text).__name__}")
    stripped = text.strip(" \t\n\r\f\v")  # ASCII spaces only: a no-break space is not ours either
    if not stripped.isascii():  # int() and float() read any script's digits: '１２' and '٣' are not ours
        raise RicochetError(f"{prefix}not {kind} in ASCII digits 0-9: {quote(text)}")
    return stripped


def whole_from_text(text: str, name: str = "", *, grouping: bool = True) -> int:
    """The whole number ``text`` writes, in ASCII digits with an optional sign (``grouping``: ``1_000`` and
    ``1,000`` read as 1000).  ``'１２'``, ``'٣'``, ``'0x10'``, ``'1.0'`` and ``''`` are refused with one
    line led by ``name`` (``"--seed: not a whole number in ASCII digits 0-9: '１２'"``); the range is the
    caller's to check (:func:`check_whole`)."""
    stripped = _ascii_text(text, name, "a whole number")
    if grouping:
        stripped = stripped.replace(",", "_")
    # ASCII only now, so isdigit() means 0-9; int() itself refuses '1__0', '_1' and '+-1'
    try:
        if not stripped or not all(ch.isdigit() or ch in "+-_" for ch in stripped):
            raise ValueError(text)
        return int(stripped)
    except ValueError:
        raise RicochetError(f"{name + ': ' if name else ''}not a whole number in ASCII digits 0-9: "
                            f"{quote(text)}") from None


def number_from_text(text: str, name: str = "") -> float:
    """The number ``text`` writes (``0.5``, ``-2``, ``1e-3``, ``1_000``), ASCII only; ``nan`` and ``inf``
    read as such, for the caller's range check to name (:func:`check_finite`)."""
    stripped = _ascii_text(text, name, "a number")
    try:
        return float(stripped)
    except ValueError:
        raise RicochetError(f"{name + ': ' if name else ''}not a number in ASCII digits 0-9: {quote(text)}") from None


def split_items(text: str, name: str, *, sep: str = ",", error: type[RicochetError] = RicochetError) -> list[str]:
    """The items of a ``sep``-separated list (``standard,loose``; spaces around an item are dropped).  An
    empty list, an empty item (``a,,b``) and a trailing separator (``a,b,``) are refused with one line
    naming ``name`` (an ``error``, e.g. :class:`~ricochet_math.errors.StrategyError`): each would otherwise be
    silently dropped or read as a default."""
    if not isinstance(text, str):
        raise error(f"{name} must be a {quote(sep)}-separated list written as text, got {type(text).__name__}")
    items = [item.strip() for item in text.split(sep)]
    if not text.strip():
        raise error(f"{name} is empty: give a {quote(sep)}-separated list")
    for i, item in enumerate(items):
        if not item:
            where = "a trailing" if i == len(items) - 1 else "a leading" if i == 0 else "an empty item between two"
            raise error(f"{name} {quote(text)} has {where} {quote(sep)}: give every item")
    return items


def spec_parts(text: str, name: str, *, sep: str = ":", spaces: bool = False,
               error: type[RicochetError] = RicochetError) -> tuple[str, list[str]]:
    """A spec ``NAME[:P1[:P2...]]`` (a strategy such as ``pot-odds:1.5``) as ``(NAME, [P1, P2, ...])``.

    Leading and trailing spaces are dropped (and those around each part); whitespace inside (unless
    ``spaces``: a grammar whose parameters are words, such as ``full house``), an empty name and an empty
    parameter (``pot-odds:``, ``a::b``) are refused with one line naming ``name`` and the spec, where a
    parser that split the text itself would have read ``pot-odds:`` as ``pot-odds`` with its default."""
    if not isinstance(text, str):
        raise error(f"{name} must be text such as 'NAME' or 'NAME:VALUE', got {type(text).__name__}")
    spec = text.strip()
    if not spec:
        raise error(f"{name} is empty: give a name")
    if not spaces and any(ch.isspace() for ch in spec):
        raise error(f"{name} {quote(text)} has a space inside: write it without spaces")
    head, *params = (part.strip() for part in spec.split(sep))
    if not head:
        raise error(f"{name} {quote(text)} has no name before {quote(sep)}")
    for i, param in enumerate(params):
        if not param:
            what = "an empty parameter list" if len(params) == 1 else "an empty parameter"
            at = "after the last" if i == len(params) - 1 else "between two"
            raise error(f"{name} {quote(text)} has {what} ({at} {quote(sep)}): give the value or leave out "
                                f"the {quote(sep)}")
    return head, params


def named_values(items, name: str, *, sep: str = "=",
                 error: type[RicochetError] = RicochetError) -> tuple[str | None, dict[str, str]]:
    """``["N", "KEY=N", ...]`` as ``(the one unnamed value or None, {KEY: N})``: a key given twice, two
    unnamed values, an empty key or an empty value are refused with one line naming ``name`` (the later
    one would otherwise silently win)."""
    default, named = None, {}
    for item in items or ():
        if not isinstance(item, str):
            raise error(f"{name} must be text such as 'N' or 'KEY{sep}N', got {type(item).__name__}")
        key, found, value = item.rpartition(sep)
        key, value = key.strip(), value.strip()
        if (found and not key) or not value:
            raise error(f"bad {name} {quote(item)}: write N or KEY{sep}N")
        if not found:
            if default is not None:
                raise error(f"{name} is given two values without a key ({quote(default)} and "
                                    f"{quote(value)}): give one, or name each KEY{sep}N")
            default = value
        elif key in named:
            raise error(f"{name} gives {quote(key)} twice ({quote(named[key])} and {quote(value)}): "
                                "give each key once")
        else:
            named[key] = value
    return default, named
