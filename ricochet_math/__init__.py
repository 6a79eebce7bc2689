"""ricochet_math: the mathematics of the casino table game Ricochet Poker."""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("ricochet_math")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.1.0"

from .errors import CardError, PatternError, RicochetError, RuleError  # noqa: E402

__all__ = ["__version__", "RicochetError", "CardError", "PatternError", "RuleError"]
