"""Rule-set files: where they are, reading their TOML, and inheritance (``extends``).

A rule set is a TOML file (read with the standard library's :mod:`tomllib`);
the shipped ones live in ``ricochet_math/paytables/`` (package data; the
repository's ``paytables/`` links to it, see :func:`paytables_dir`):

* ``publisher.toml`` - the default: the first casino page's kickout table, the
  published bonus, Quickdraw 5 to 1, a placeholder Cover table, default options;
* ``publisher-4p-tens.toml`` - the same with the second casino page's
  four-player kickout (``TTxx``).

Schema (every amount in units of the ante; see ``paytables/publisher.toml``)::

    extends = "publisher.toml"   # optional: a path relative to this file, or a
                                 # bare name of a shipped rule set
    name = "my-rules"            # optional: defaults to the file's stem made plain; a plain name (letters,
                                 # digits, ., _, -): it becomes the report's folder name
    description = "..."          # optional

    [kickout]                    # required, players "1".."7" -> threshold pattern
    1 = "KKQ"                    # the dealer folds at or above this hand
    ...

    [bonus]                      # required (may be empty): high-hand bonus
    straight = 2                 # a named category = pays
    my_line = { hand = "QQQ", pays = 3 }   # or any threshold pattern

    [cover]                      # required (may be empty): Cover side bet, same form

    [quickdraw]
    pays = 5                     # required: wins `pays` to 1
    comparison = "top-cards"     # "top-cards" (default) or "kicker"

    [options]                    # all optional, defaults shown
    automatic_win = true
    bonus_on_automatic_win = true
    dealer_loses_ties = true
    split = "odd-units-last"     # or "fractional"

With ``extends`` the parent is loaded first and the child merged over it:
tables merge key by key (so ``flush = 6`` under ``[bonus]`` changes one line),
every other value replaces the parent's.  This module returns that merged
document as plain data; :func:`ricochet_math.rules.ruleset.load_rules` checks it
and builds the :class:`~ricochet_math.rules.ruleset.RuleSet`.
"""
from __future__ import annotations

import os
import tomllib
from pathlib import Path

from ricochet_math.errors import RuleError, quote
from ricochet_math.rules.checks import KeyOrigins, prefix, show

__all__ = ["DEFAULT_RULES", "NESTED_TOO_DEEPLY", "paytables_dir", "shipped_rule_sets", "resolve_rules_path", "parse_toml",
           "load_chain", "resolve_extends"]

DEFAULT_RULES = "publisher.toml"
#: the message for a document nested past Python's recursion limit (a rule set needs three levels)
NESTED_TOO_DEEPLY = "arrays or tables nested too deeply (a rule set needs at most three levels)"


def paytables_dir() -> Path:
    """The folder of the shipped rule sets: ``ricochet_math/paytables`` (package data).

    The same folder in a source tree, an editable install and an installed wheel; the
    repository's top-level ``paytables/`` is a link to it, for readers of the source.
    """
    folder = Path(__file__).resolve().parents[1] / "paytables"  # ricochet_math/paytables
    if not (folder / DEFAULT_RULES).is_file():
        raise RuleError(f"rule-set file not found: {folder / DEFAULT_RULES} (the shipped paytables folder is missing)")
    return folder


def shipped_rule_sets() -> tuple[str, ...]:
    """Names of the shipped rule sets (file stems), default first."""
    stems = sorted(p.stem for p in paytables_dir().glob("*.toml"))
    default = Path(DEFAULT_RULES).stem
    return tuple(sorted(stems, key=lambda s: (s != default, s)))


def resolve_rules_path(source: str | Path | None = None, *, relative_to: Path | None = None) -> Path:
    """The file a rule-set reference names.

    ``None`` is the default ``publisher.toml``.  A path that exists (relative to
    ``relative_to`` when given, else to the working directory) wins; otherwise a
    bare name such as ``publisher`` or ``publisher.toml`` is looked up among
    the shipped rule sets.  Raises :class:`RuleError` "rule-set file not found".
    """
    if source is None:
        return paytables_dir() / DEFAULT_RULES
    if not isinstance(source, (str, os.PathLike)):
        raise RuleError(f"a rule set is a file path, a shipped rule-set name or a RuleSet, "
                        f"got a {type(source).__name__}: {quote(source)}")
    if not str(source).strip() or "\0" in str(source):
        raise RuleError(f"rule-set file not found: {quote(str(source))} is not a file name")
    path = Path(source).expanduser()
    if relative_to is not None and not path.is_absolute():
        path = relative_to / path
    try:
        if path.is_file():
            return path
        text = str(source)
        if "/" not in text and "\\" not in text:
            name = text if text.endswith(".toml") else text + ".toml"
            shipped = paytables_dir() / name
            if shipped.is_file():
                return shipped
    except OSError as exc:  # a name too long for the file system, a folder that cannot be read
        raise RuleError(f"rule-set file not found: {quote(str(source))} ({exc.strerror})") from None
    raise RuleError(f"rule-set file not found: {quote(str(path))}")


def parse_toml(text: str, where: str) -> dict:
    """The TOML document in ``text``; a syntax error is a :class:`RuleError` naming ``where`` and the line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"{where}: invalid TOML: {exc}") from None
    except RecursionError:  # tomllib reads nested arrays and inline tables recursively
        raise RuleError(f"{where}: invalid TOML: {NESTED_TOO_DEEPLY}") from None


def load_chain(path: Path, seen: tuple[str, ...] = ()) -> tuple[dict, list[bytes], KeyOrigins]:
    """The file at ``path`` merged over its ``extends`` parents, every file's bytes (parents first),
    and which file wrote each key.  ``seen``: the files already on the chain (cycle check)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RuleError(f"rule-set file not found: {path} ({exc.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuleError(f"{path}: invalid TOML: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    raw = parse_toml(text, str(path))
    me = str(path.resolve())
    merged, parents, origins = resolve_extends(raw, str(path), path.parent, seen + (me,))
    return merged, parents + [data], origins


def resolve_extends(raw: dict, where: str, base: Path, seen: tuple[str, ...]) -> tuple[dict, list[bytes], KeyOrigins]:
    """``raw`` (read from ``where``) merged over its parent chain, the parents' bytes, and key origins.

    The parent reference resolves against ``base``; ``raw`` loses its ``extends`` key."""
    origins = KeyOrigins(where)
    if "extends" not in raw:
        origins.record(raw, where)
        return raw, [], origins
    parent_ref = raw.pop("extends")
    if not isinstance(parent_ref, str) or not parent_ref.strip():
        raise RuleError(f"{prefix(where, 'extends')}: must be a file name (string), got {show(parent_ref)}")
    try:
        parent = resolve_rules_path(parent_ref, relative_to=base)
    except RuleError:
        raise RuleError(f"{prefix(where, 'extends')}: parent rule-set file not found: {base / parent_ref}") from None
    if str(parent.resolve()) in seen:
        chain = " -> ".join(Path(s).name for s in seen + (str(parent.resolve()),))
        raise RuleError(f"{prefix(where, 'extends')}: inheritance cycle: {chain}")
    parent_raw, parent_bytes, parent_origins = load_chain(parent, seen)
    # The leaf's own name, not the parent's, unless it sets one.
    parent_raw.pop("name", None)
    origins = KeyOrigins(where, parent_origins.by_key)
    origins.record(raw, where)
    return _deep_merge(parent_raw, raw), parent_bytes, origins


def _deep_merge(base: dict, over: dict) -> dict:
    """``over`` on top of ``base``: tables merge key by key, any other value replaces."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out
