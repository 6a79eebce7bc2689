"""Errors a user can cause.  The CLI prints any :class:`RicochetError` as one line
(``ricochet: error: ...``) and exits with status 2; it never shows a traceback
for them.  Each message names the problem and where it is (file, key, token)."""
from __future__ import annotations

__all__ = ["RicochetError", "CardError", "PatternError", "RuleError", "StrategyError", "TableStateError"]


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
