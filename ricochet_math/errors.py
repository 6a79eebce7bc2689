"""Errors a user can cause.  The CLI prints any :class:`RicochetError` as one line
(``ricochet: error: ...``) and exits with status 2; it never shows a traceback
for them.  Each message names the problem and where it is (file, key, token), and quotes
what the user gave through :func:`quote`: at most :data:`QUOTE_LIMIT` characters of it, so that a
100,000-character argument still costs one readable line."""
from __future__ import annotations

__all__ = ["QUOTE_LIMIT", "quote", "shorten", "RicochetError", "CardError", "PatternError", "RuleError", "StrategyError", "TableStateError"]


class RicochetError(ValueError):
    """Base class of every user-input error in ricochet_math."""


class CardError(RicochetError):
    """A card or hand that cannot be read: malformed, unknown, duplicate, wrong count."""


class PatternError(RicochetError):
    """A hand pattern (kickout threshold, paytable line) that does not parse."""


class RuleError(RicochetError):
    """A rule-set file or value that is missing, misspelt, out of range or malformed."""


class StrategyError(RicochetError):
    """An unknown strategy name or bad strategy parameter."""


class TableStateError(RicochetError):
    """A table state that cannot occur in the game (e.g. a seat acting out of order)."""


#: the most characters of a user's value an error message quotes
QUOTE_LIMIT = 60


def _cut(text: str, limit: int) -> str:
    """The first two thirds and the last third of ``limit`` characters of ``text``: a long path keeps its
    file name, a long spec its name."""
    tail = limit // 3
    return f"{text[:limit - tail]}...{text[-tail:] if tail else ''}"


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` for an error message, cut to about ``limit`` characters (its start and its end around ``...``)
    with the length it had."""
    return text if len(text) <= limit else f"{_cut(text, limit)} ({len(text):,} characters)"


def quote(value, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for an error message, cut to about ``limit`` characters: a longer one keeps its
    start and its end around ``...``, with the length it had (``'AAAA...AAA' (100,000 characters)``).

    Safe for any value: an integer too long for ``repr`` (Python refuses above 4,300 digits) is named by
    its size, an object whose ``repr`` fails by its type."""
    try:
        text = repr(value)
    except ValueError:  # int too large to convert to text
        return f"a {abs(value).bit_length():,}-bit integer" if isinstance(value, int) else type(value).__name__
    except Exception:  # noqa: BLE001 - a user's object with a broken __repr__ still gets its message
        return f"a {type(value).__name__}"
    if len(text) <= limit:
        return text
    size = f"{len(value):,} characters" if isinstance(value, str) else f"{len(text):,} characters as text"
    return f"{_cut(text, limit)} ({size})"
