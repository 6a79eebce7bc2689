"""What every game's ``Rules`` offers besides its fields: TOML files, a digest and a one-line description.

A game's rules are a small frozen dataclass (``RingRules``, ``HomeRules``, ...) that checks its own fields
in ``__post_init__`` with one-line :class:`~ricochet_math.errors.RuleError` messages.  Mixing in
:class:`GameRules` gives it, with no code of its own:

* ``Rules.from_toml(path)`` / ``Rules.from_dict(mapping)``: the fields from a TOML file (or a mapping),
  the same one-line errors as the casino rule sets: an unknown key names the file and suggests the
  nearest field (``did you mean 'players'?``), a bad value names the file and the field's check;
* ``to_dict()`` / ``to_toml()``: the fields as plain values (enums by their lower-case name, tuples as
  lists), which ``from_dict`` reads back to an equal object;
* ``sha256``: the digest of the canonical ``to_dict()`` and the game's name, which reports record
  (:mod:`ricochet_math.reports.provenance`), so a figure names the exact rules it was computed under;
* ``describe()``: one line for people; the game's ``summary()`` where it has one.
"""
from __future__ import annotations

import difflib
import enum
import hashlib
import json
import os
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import ClassVar

from ricochet_math.errors import RicochetError, RuleError, quote

__all__ = ["GameRules"]


class GameRules:
    """Mixin for a game's frozen rules dataclass (see the module docstring).  ``GAME``: the game's name."""

    GAME: ClassVar[str] = "game"

    # ---- reading
    @classmethod
    def from_dict(cls, values, where: str = "rules"):
        """The rules from a mapping of field names to values; ``where`` names the source in errors."""
        if not isinstance(values, dict):
            raise RuleError(f"{where}: expected a table of rule options, got {type(values).__name__}")
        known = {f.name: f for f in fields(cls)}
        kwargs = {}
        for key, value in values.items():
            if key not in known:
                near = difflib.get_close_matches(str(key), list(known), n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else f" (known: {', '.join(known)})"
                raise RuleError(f"{where}: unknown {cls.GAME} rule option {quote(key)}{hint}")
            try:
                kwargs[key] = _from_plain(value, getattr(cls, key, None))
            except RuleError as exc:
                raise RuleError(f"{where}: {key}: {exc}") from None
        try:
            return cls(**kwargs)
        except RicochetError as exc:
            raise RuleError(f"{where}: {exc}") from None
        except (TypeError, ValueError) as exc:
            raise RuleError(f"{where}: {exc}") from None

    @classmethod
    def from_toml(cls, path: str | os.PathLike):
        """The rules from a TOML file of ``option = value`` lines (a missing option keeps its default)."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise RicochetError(f"cannot read the rules file {quote(str(p), 300)}: {exc.strerror or exc}") from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RuleError(f"{p}: not valid TOML: {exc}") from None
        return cls.from_dict(data, str(p))

    # ---- writing
    def to_dict(self) -> dict:
        """The fields as plain values (enums by lower-case name, tuples as lists)."""
        return {f.name: _to_plain(getattr(self, f.name)) for f in fields(self)}

    def to_toml(self) -> str:
        """The rules as a TOML file that :meth:`from_toml` reads back to equal rules."""
        lines = [f"# {self.GAME} rules ({self.describe()})"]
        for key, value in self.to_dict().items():
            lines.append(f"{key} = {json.dumps(value)}")
        return "\n".join(lines) + "\n"

    @property
    def sha256(self) -> str:
        """The digest of the game's name and its canonical fields."""
        blob = json.dumps({"game": self.GAME, "rules": self.to_dict()}, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def describe(self) -> str:
        """One line for people (the game's ``summary()`` where it has one)."""
        summary = getattr(self, "summary", None)
        if callable(summary):
            return str(summary())
        return f"{self.GAME}: " + ", ".join(f"{k} {v}" for k, v in self.to_dict().items())


def _to_plain(value):
    if isinstance(value, enum.Enum):
        return value.name.lower()
    if isinstance(value, tuple):
        return [_to_plain(v) for v in value]
    return value


def _from_plain(value, default):
    if isinstance(default, enum.Enum) and isinstance(value, str):
        try:
            return type(default)[value.upper()]
        except KeyError:
            names = ", ".join(m.name.lower() for m in type(default))
            raise RuleError(f"unknown value {quote(value)}: choose {names}") from None
    if isinstance(default, tuple) and isinstance(value, list):
        return tuple(value)
    return value
