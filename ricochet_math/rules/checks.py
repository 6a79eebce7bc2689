"""Checks of rule-set values, each failing with one :class:`~ricochet_math.errors.RuleError` line.

Every message names the file, the key and the problem
(``paytables/mine.toml: key 'bonus.flush': payout must be a finite number >= 0 and at most
1,000,000,000 ante units, got -1``),
suggests the closest allowed key for a misspelt one, and quotes values as TOML
writes them.  ``where`` is a file name, the :class:`KeyOrigins` of a merged
document (the file that wrote each key), or ``""`` for a change made in code.
"""
from __future__ import annotations

import difflib
import math
import re
from typing import Any

from ricochet_math.errors import PatternError, RuleError, shorten, quote
from ricochet_math.evaluator.names import pattern_value
from ricochet_math.rules.toml_writer import toml_value

__all__ = [
    "KeyOrigins", "prefix", "did_you_mean", "show",
    "MAX_PAYS", "check_keys", "check_pays", "check_bool", "check_choice", "check_pattern", "check_name", "name_from_stem",
]

# A rule set's name becomes a folder name (``reports/<name>``), so it is a plain name: no
# separators, no "..", nothing a shell or a file system reads specially.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
NAME_RULE = "a plain name: 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit, no '..'"


class KeyOrigins:
    """Which file each dotted key of a merged document came from (an ``extends`` chain), for messages.

    ``str()`` of it is the leaf file, named for keys no file wrote (missing keys).
    """

    def __init__(self, leaf: str, by_key: dict[str, str] | None = None) -> None:
        self.leaf = leaf
        self.by_key = dict(by_key or {})

    def record(self, table: dict, file: str, prefix: str = "") -> None:
        for key, value in table.items():
            self.by_key[prefix + key] = file
            if isinstance(value, dict):
                self.record(value, file, prefix + key + ".")

    def file_of(self, key: str) -> str:
        return self.by_key.get(key, self.leaf)

    def __str__(self) -> str:
        return self.leaf


def prefix(where: str | KeyOrigins, key: str) -> str:
    """``FILE: key 'KEY'``, or ``key 'KEY'`` for a change made in code (``where`` = "")."""
    if isinstance(where, KeyOrigins):
        where = where.file_of(key)
    return f"{where}: key '{key}'" if where else f"key '{key}'"


def did_you_mean(key: str, allowed) -> str:
    """``; did you mean 'X'?`` for the closest allowed key, else the list of allowed keys."""
    close = difflib.get_close_matches(key, list(allowed), n=1, cutoff=0.6)
    if close:
        return f"; did you mean '{close[0]}'?"
    return f"; allowed keys: {', '.join(allowed)}"


def show(value: Any) -> str:
    """A value as TOML would write it, for messages (its type for anything TOML cannot hold)."""
    try:
        return toml_value(value)
    except TypeError:
        return f"a {type(value).__name__}"


def check_keys(table: dict, allowed: tuple[str, ...], where: str | KeyOrigins, key_prefix: str) -> None:
    """Every key of ``table`` is one of ``allowed``."""
    for key in table:
        if key not in allowed:
            raise RuleError(f"{prefix(where, key_prefix + key)}: unknown key{did_you_mean(key, allowed)}")


#: the largest payout a rule set may name, in ante units: squared payouts summed over 10**12 rounds stay
#: far inside float64's range (a payout of 1e308 overflowed them into an RTP of millions of percent)
MAX_PAYS = 1e9


def check_pays(value: Any, where: str | KeyOrigins, key: str) -> None:
    """A payout: a finite number of ante units from 0 to :data:`MAX_PAYS`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RuleError(f"{prefix(where, key)}: payout must be a number of ante units, got {show(value)}")
    # compared before any float conversion: TOML integers have no size limit (float(10**400) overflows)
    if not (isinstance(value, int) or math.isfinite(value)) or not 0 <= value <= MAX_PAYS:
        raise RuleError(f"{prefix(where, key)}: payout must be a finite number >= 0 and at most "
                        f"{MAX_PAYS:,.0f} ante units, got {shorten(show(value))}")


def check_bool(value: Any, where: str | KeyOrigins, key: str) -> None:
    """An option that is ``true`` or ``false``."""
    if not isinstance(value, bool):
        raise RuleError(f"{prefix(where, key)}: must be true or false, got {show(value)}")


def check_choice(value: Any, allowed: tuple[str, ...], where: str | KeyOrigins, key: str) -> None:
    """One of a few named readings (``split``, ``comparison``)."""
    if value not in allowed:
        choices = ", ".join(f'"{a}"' for a in allowed)
        raise RuleError(f"{prefix(where, key)}: {show(value)} is not allowed; choose one of {choices}")


def check_pattern(pattern: str, where: str | KeyOrigins, key: str) -> None:
    """A hand pattern :func:`~ricochet_math.evaluator.names.pattern_value` reads."""
    try:
        pattern_value(pattern)
    except PatternError as exc:
        raise RuleError(f"{prefix(where, key)}: threshold {quote(pattern)} does not parse: {exc}") from None


def check_name(value: Any, where: str | KeyOrigins, key: str = "name") -> str:
    """``value`` if it is a plain rule-set name (:data:`NAME_RULE`), else one :class:`RuleError` line."""
    if not isinstance(value, str):
        raise RuleError(f"{prefix(where, key)}: must be a string, got {show(value)}")
    if not _NAME.fullmatch(value) or ".." in value:
        raise RuleError(f"{prefix(where, key)}: must be {NAME_RULE}, got {show(value)}")
    return value


def name_from_stem(stem: str) -> str:
    """A plain name made from a file's stem (other characters become '-'), for files that give none."""
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).replace("..", "-").strip("._-")[:100]
    return name or "unnamed"
