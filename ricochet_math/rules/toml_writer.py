"""The toolkit's one TOML writer: keys, values and paytable lines as TOML text.

A rule set holds only strings, numbers and booleans, so this is all the TOML
the toolkit writes (:meth:`~ricochet_math.rules.ruleset.RuleSet.to_toml`, tuned
paytables, the values quoted in error messages).  Reading is the standard
library's :mod:`tomllib`.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

__all__ = ["toml_key", "toml_value", "paytable_line"]

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def toml_key(key: str) -> str:
    """A key as TOML writes it: bare when it may be (letters, digits, ``_``, ``-``), else quoted."""
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def toml_value(value: Any) -> str:
    """A string, number or boolean as TOML text (``inf``/``nan`` included); ``TypeError`` otherwise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        # JSON string escapes are a subset of TOML basic-string escapes.
        return json.dumps(value, ensure_ascii=False)
    raise TypeError(f"cannot write {type(value).__name__} as a TOML value")


def paytable_line(key: str, hand_pattern: str, pays: int | float, *, category_pattern: str | None = None) -> str:
    """One paytable line: ``key = pays`` when ``hand_pattern`` is the named category's own
    (``category_pattern``), else ``key = { hand = "PATTERN", pays = N }``."""
    if hand_pattern == category_pattern:
        return f"{toml_key(key)} = {toml_value(pays)}"
    return f"{toml_key(key)} = {{ hand = {toml_value(hand_pattern)}, pays = {toml_value(pays)} }}"
