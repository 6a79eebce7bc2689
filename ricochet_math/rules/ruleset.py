"""Rule sets as data: the kickout table, paytables and rule options of one game.

A rule set is a TOML file (read with the standard library's :mod:`tomllib`);
the shipped ones live in the repository's ``paytables/`` folder (installed as
``ricochet_math/paytables``, see :func:`paytables_dir`):

* ``publisher.toml`` - the default: the first casino page's kickout table, the
  published bonus, Quickdraw 5 to 1, a placeholder Cover table, default options;
* ``publisher-4p-tens.toml`` - the same with the second casino page's
  four-player kickout (``TTxx``).

Schema (every amount in units of the ante; see ``paytables/publisher.toml``)::

    extends = "publisher.toml"   # optional: a path relative to this file, or a
                                 # bare name of a shipped rule set
    name = "my-rules"            # optional: defaults to the file's stem
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
every other value replaces the parent's.  Every problem is raised as one
:class:`~ricochet_math.errors.RuleError` line naming the file, the key and what
is wrong.

>>> from ricochet_math.rules.ruleset import load_rules
>>> rules = load_rules()                      # paytables/publisher.toml
>>> rules.kickout[4], rules.bonus.pays("royal_flush"), rules.options.split
('AAxx', 1000, 'odd-units-last')
>>> load_rules("publisher-4p-tens").kickout[4]
'TTxx'
>>> rules.with_kickout(4, "TTxx") == load_rules("publisher-4p-tens").replace(
...     name="publisher", description=rules.description)
True
"""
from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import math
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ricochet_math.errors import PatternError, RuleError

__all__ = [
    "DEFAULT_RULES",
    "MAX_PLAYERS",
    "CATEGORY_PATTERNS",
    "SPLIT_CHOICES",
    "COMPARISON_CHOICES",
    "PayLine",
    "Paytable",
    "KickoutTable",
    "QuickdrawRules",
    "RuleOptions",
    "RuleSet",
    "paytables_dir",
    "shipped_rule_sets",
    "resolve_rules_path",
    "load_rules",
    "rules_from_toml",
]

DEFAULT_RULES = "publisher.toml"
MAX_PLAYERS = 7
SPLIT_CHOICES = ("odd-units-last", "fractional")
COMPARISON_CHOICES = ("kicker", "top-cards")

# Paytable lines written as `category = pays`: the threshold of each named
# category is the weakest five-card hand of that category, written with the
# category words of ricochet_math.evaluator.evaluation.pattern_value.
CATEGORY_PATTERNS: Mapping[str, str] = {
    "pair": "pair",
    "two_pair": "two pair",
    "three_of_a_kind": "three of a kind",
    "straight": "straight",
    "flush": "flush",
    "full_house": "full house",
    "four_of_a_kind": "four of a kind",
    "straight_flush": "straight flush",
    "royal_flush": "royal flush",
}

_TOP_KEYS = ("extends", "name", "description", "kickout", "bonus", "quickdraw", "cover", "options")
_QUICKDRAW_KEYS = ("pays", "comparison")
_LINE_KEYS = ("hand", "pays")
_OPTION_KEYS = ("automatic_win", "bonus_on_automatic_win", "dealer_loses_ties", "split")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


# --------------------------------------------------------------------------
# Where the shipped rule sets are
# --------------------------------------------------------------------------

def paytables_dir() -> Path:
    """The folder of the shipped rule sets.

    Installed from a wheel it is ``ricochet_math/paytables`` (package data,
    mapped from the repository's ``paytables/`` in ``pyproject.toml``); in a
    source tree or an editable install it is ``<repo>/paytables``.
    """
    package = Path(__file__).resolve().parents[1]  # ricochet_math/
    for candidate in (package / "paytables", package.parent / "paytables"):
        if (candidate / DEFAULT_RULES).is_file():
            return candidate
    raise RuleError(f"rule-set file not found: {package.parent / 'paytables' / DEFAULT_RULES} (the shipped paytables folder is missing)")


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
    path = Path(source).expanduser()
    if relative_to is not None and not path.is_absolute():
        path = relative_to / path
    if path.is_file():
        return path
    text = str(source)
    if "/" not in text and "\\" not in text:
        name = text if text.endswith(".toml") else text + ".toml"
        shipped = paytables_dir() / name
        if shipped.is_file():
            return shipped
    raise RuleError(f"rule-set file not found: {path}")


# --------------------------------------------------------------------------
# The rule-set objects
# --------------------------------------------------------------------------

def _pattern_value(pattern: str) -> int:
    from ricochet_math.evaluator.evaluation import pattern_value  # lazy: the evaluator builds tables on import

    return int(pattern_value(pattern))


def _describe_pattern(pattern: str) -> str:
    """Description of a threshold pattern's hand, or the pattern itself if the evaluator cannot say."""
    try:
        from ricochet_math.evaluator.evaluation import describe, pattern_value
    except ImportError:
        return pattern
    try:
        return str(describe(pattern_value(pattern)))
    except PatternError:
        return pattern


@dataclass(frozen=True)
class PayLine:
    """One paytable line: hands at or above ``hand_pattern`` pay ``pays`` ante units.

    ``key`` names the line (``flush``, ``pair_of_fives``); ``hand_pattern`` is a
    threshold pattern, standing for the weakest five-card hand matching it.
    """

    key: str
    hand_pattern: str
    pays: int | float

    def value(self) -> int:
        """Dense hand value (``0..7461``) of the threshold."""
        return _pattern_value(self.hand_pattern)


@dataclass(frozen=True)
class Paytable:
    """Paytable lines in file order; a hand is paid the single highest line it reaches.

    Lines are looked up by key (``table["flush"]``) or position (``table[0]``).
    """

    lines: tuple[PayLine, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", tuple(self.lines))
        keys = [line.key for line in self.lines]
        if len(set(keys)) != len(keys):
            raise RuleError(f"paytable has a duplicate line key: {keys}")

    def __iter__(self) -> Iterator[PayLine]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, item: int | str) -> PayLine:
        if isinstance(item, str):
            for line in self.lines:
                if line.key == item:
                    return line
            raise KeyError(item)
        return self.lines[item]

    def __contains__(self, key: object) -> bool:
        return any(line.key == key for line in self.lines)

    def keys(self) -> tuple[str, ...]:
        return tuple(line.key for line in self.lines)

    def pays(self, key: str) -> int | float:
        """Payout of line ``key`` in ante units."""
        return self[key].pays

    def with_pays(self, **pays: int | float) -> Paytable:
        """A copy with new payouts for existing lines (``with_pays(flush=6)``)."""
        unknown = [k for k in pays if k not in self]
        if unknown:
            raise RuleError(f"paytable has no line {unknown[0]!r}{_did_you_mean(unknown[0], self.keys())}")
        for k, v in pays.items():
            _check_pays(v, "", k)
        return Paytable(tuple(dataclasses.replace(l, pays=pays.get(l.key, l.pays)) for l in self.lines))

    def with_line(self, key: str, hand_pattern: str, pays: int | float) -> Paytable:
        """A copy with line ``key`` added (at the end) or replaced (in place)."""
        _check_pays(pays, "", key)
        _check_pattern(hand_pattern, "", key)
        new = PayLine(key, hand_pattern, pays)
        if key in self:
            return Paytable(tuple(new if l.key == key else l for l in self.lines))
        return Paytable(self.lines + (new,))

    def to_arrays(self):
        """``(thresholds, pays)``: ``int64`` hand values ascending and ``float64`` payouts.

        A hand of value ``v`` is paid ``pays[i]`` for the largest ``i`` with
        ``thresholds[i] <= v`` (nothing if there is none): ``np.searchsorted(
        thresholds, v, side="right") - 1``.  Lines sharing a threshold keep the
        later one.
        """
        import numpy as np

        by_value = {}
        for line in self.lines:
            by_value[line.value()] = float(line.pays)
        values = sorted(by_value)
        return np.array(values, dtype=np.int64), np.array([by_value[v] for v in values], dtype=np.float64)

    def payout(self, hand_value: int) -> float:
        """Ante units paid on a five-card hand of dense value ``hand_value``."""
        best, paid = -1, 0.0
        for line in self.lines:
            v = line.value()
            if best <= v <= hand_value:
                best, paid = v, float(line.pays)
        return paid

    def to_frame(self):
        """``pandas.DataFrame`` with columns ``key``, ``hand`` (pattern), ``pays``."""
        import pandas as pd

        return pd.DataFrame(
            {"key": [l.key for l in self.lines], "hand": [l.hand_pattern for l in self.lines],
             "pays": [l.pays for l in self.lines]},
        )


@dataclass(frozen=True, eq=False)
class KickoutTable(Mapping):
    """Kickout thresholds by number of players: ``table[n]`` for ``n`` in ``1..7``.

    The dealer folds when her five-card hand is at or above ``table[n]`` with
    ``n`` players (spec "Kickout thresholds").  Compares equal to any mapping
    with the same items, e.g. ``{1: "KKQ", ..., 7: "A2345"}``.
    """

    patterns: tuple[str, ...]

    def __hash__(self) -> int:
        return hash(self.patterns)

    def __post_init__(self) -> None:
        object.__setattr__(self, "patterns", tuple(self.patterns))
        if len(self.patterns) != MAX_PLAYERS:
            raise RuleError(f"kickout table needs {MAX_PLAYERS} thresholds (1..{MAX_PLAYERS} players), got {len(self.patterns)}")

    @classmethod
    def from_mapping(cls, table: Mapping[int, str]) -> KickoutTable:
        return cls(tuple(table[n] for n in range(1, MAX_PLAYERS + 1)))

    def __getitem__(self, n: int) -> str:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_PLAYERS:
            raise KeyError(n)
        return self.patterns[n - 1]

    def __iter__(self) -> Iterator[int]:
        return iter(range(1, MAX_PLAYERS + 1))

    def __len__(self) -> int:
        return MAX_PLAYERS

    def replace(self, n: int, pattern: str) -> KickoutTable:
        _check_players(n)
        return KickoutTable(tuple(pattern if i + 1 == n else p for i, p in enumerate(self.patterns)))


@dataclass(frozen=True)
class QuickdrawRules:
    """Quickdraw side bet: wins ``pays`` to 1 when the player's two cards beat the dealer's five.

    ``comparison`` is ``"kicker"`` (the dealer's extra cards count) or
    ``"top-cards"`` (only as many dealer cards as the player holds are
    compared; a tie wins for the player).  Spec "Side bets".
    """

    pays: int | float = 5
    comparison: str = "top-cards"

    def __post_init__(self) -> None:
        _check_pays(self.pays, "", "quickdraw.pays")
        _check_choice(self.comparison, COMPARISON_CHOICES, "", "quickdraw.comparison")


@dataclass(frozen=True)
class RuleOptions:
    """Readings of the rules an analyst can flip (spec "A round", each marked *option*).

    * ``automatic_win`` (step 8): with the dealer kicked out and every other
      player folded, the one player left wins without paying the play bet.
    * ``bonus_on_automatic_win``: that player is dealt 3 free cards and paid
      any bonus they make.
    * ``dealer_loses_ties`` (step 6): a player who ties the dealer stays in.
    * ``split`` (step 7): ``"odd-units-last"`` (whole units, odd units to the
      tied player(s) who acted last) or ``"fractional"`` (exact split).
    """

    automatic_win: bool = True
    split: str = "odd-units-last"
    dealer_loses_ties: bool = True
    bonus_on_automatic_win: bool = True

    def __post_init__(self) -> None:
        for key in ("automatic_win", "dealer_loses_ties", "bonus_on_automatic_win"):
            _check_bool(getattr(self, key), "", f"options.{key}")
        _check_choice(self.split, SPLIT_CHOICES, "", "options.split")


@dataclass(frozen=True)
class RuleSet:
    """Everything that decides the money in one game of casino Ricochet.

    ``source`` is the file it was loaded from and ``sha256`` the digest of that
    file's bytes preceded by its parents' (``extends``), so a figure can cite
    the exact rules it used.  A rule set changed in code (:meth:`replace` and
    the ``with_*`` helpers) has ``source`` marked ``(modified)`` and ``sha256``
    of its :meth:`to_toml` text.  Neither takes part in ``==``: two rule sets
    are equal when their rules (and name and description) are.
    """

    name: str
    description: str
    kickout: KickoutTable
    bonus: Paytable
    quickdraw: QuickdrawRules
    cover: Paytable
    options: RuleOptions = field(default_factory=lambda: RuleOptions())
    source: str = field(default="", compare=False)
    sha256: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.kickout, KickoutTable):
            object.__setattr__(self, "kickout", KickoutTable.from_mapping(self.kickout))

    # ---- reading -------------------------------------------------------

    def kickout_value(self, n_players: int) -> int:
        """Dense hand value of the kickout threshold for ``n_players`` (the dealer folds at ``>=``)."""
        _check_players(n_players)
        return _pattern_value(self.kickout[n_players])

    # ---- changing (for notebooks) ---------------------------------------

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with fields replaced (``dataclasses.replace``), marked as modified."""
        new = dataclasses.replace(self, **changes)
        if "source" not in changes and "sha256" not in changes:
            source = self.source if self.source.endswith("(modified)") else f"{self.source or '<code>'} (modified)"
            object.__setattr__(new, "source", source)
            object.__setattr__(new, "sha256", hashlib.sha256(new.to_toml().encode()).hexdigest())
        return new

    def with_kickout(self, n_players: int, pattern: str) -> RuleSet:
        """A copy with the kickout threshold for ``n_players`` set to ``pattern``."""
        _check_players(n_players)
        _check_pattern(pattern, "", f"kickout.{n_players}")
        return self.replace(kickout=self.kickout.replace(n_players, pattern))

    def with_bonus(self, **pays: int | float) -> RuleSet:
        """A copy with new bonus payouts (``with_bonus(royal_flush=500)``)."""
        return self.replace(bonus=self.bonus.with_pays(**pays))

    def with_cover(self, **pays: int | float) -> RuleSet:
        """A copy with new Cover payouts (``with_cover(four_of_a_kind=50)``)."""
        return self.replace(cover=self.cover.with_pays(**pays))

    def with_quickdraw(self, **changes: Any) -> RuleSet:
        """A copy with Quickdraw changed (``with_quickdraw(comparison="top-cards")``)."""
        return self.replace(quickdraw=dataclasses.replace(self.quickdraw, **changes))

    def with_options(self, **changes: Any) -> RuleSet:
        """A copy with rule options changed (``with_options(split="fractional")``)."""
        return self.replace(options=dataclasses.replace(self.options, **changes))

    # ---- showing ---------------------------------------------------------

    def rows(self, *, describe: bool = False) -> list[tuple[str, str, Any, str]]:
        """Every key in force as ``(section, key, value, detail)`` rows.

        ``detail`` is the threshold's hand for kickout rows (described by the
        evaluator when ``describe``), the pattern for paytable lines.
        """
        rows: list[tuple[str, str, Any, str]] = [
            ("rule set", "name", self.name, ""),
            ("rule set", "description", self.description, ""),
        ]
        for n, pattern in self.kickout.items():
            rows.append(("kickout", str(n), pattern, _describe_pattern(pattern) if describe else ""))
        for section, table in (("bonus", self.bonus), ("cover", self.cover)):
            for line in table:
                rows.append((section, line.key, line.pays, line.hand_pattern))
        for key in _QUICKDRAW_KEYS:
            rows.append(("quickdraw", key, getattr(self.quickdraw, key), ""))
        for key in _OPTION_KEYS:
            rows.append(("options", key, getattr(self.options, key), ""))
        return rows

    def to_frame(self, *, describe: bool = False):
        """Tidy ``pandas.DataFrame`` of every key in force: ``section, key, value, detail``."""
        import pandas as pd

        return pd.DataFrame(self.rows(describe=describe), columns=["section", "key", "value", "detail"])

    def summary(self) -> str:
        """A few lines of text naming the rule set and its main numbers."""
        kick = ", ".join(f"{n}: {p}" for n, p in self.kickout.items())
        bonus = ", ".join(f"{l.key} {l.pays:g}" for l in self.bonus)
        cover = ", ".join(f"{l.key} {l.pays:g}" for l in self.cover)
        opts = ", ".join(f"{k}={_toml_value(getattr(self.options, k))}" for k in _OPTION_KEYS)
        lines = [
            f"rule set {self.name}: {self.description}".rstrip(": "),
            f"  source: {self.source or '(none)'}" + (f" (sha256 {self.sha256[:12]})" if self.sha256 else ""),
            f"  kickout (players: threshold): {kick}",
            f"  bonus (ante units): {bonus or 'none'}",
            f"  quickdraw: {self.quickdraw.pays:g} to 1, comparison {self.quickdraw.comparison}",
            f"  cover (ante units): {cover or 'none'}",
            f"  options: {opts}",
        ]
        return "\n".join(lines)

    def to_toml(self) -> str:
        """The resolved rule set as standalone TOML text (no ``extends``).

        ``rules_from_toml(r.to_toml()) == r`` for every rule set ``r``.
        """
        out = [
            f"# Rule set {self.name}, resolved" + (f" from {self.source}" if self.source else ""),
            f"name = {_toml_value(self.name)}",
            f"description = {_toml_value(self.description)}",
            "",
            "[kickout]",
        ]
        out += [f"{n} = {_toml_value(p)}" for n, p in self.kickout.items()]
        for section, table in (("bonus", self.bonus), ("cover", self.cover)):
            out += ["", f"[{section}]"]
            for line in table:
                if CATEGORY_PATTERNS.get(line.key) == line.hand_pattern:
                    out.append(f"{_toml_key(line.key)} = {_toml_value(line.pays)}")
                else:
                    out.append(f"{_toml_key(line.key)} = {{ hand = {_toml_value(line.hand_pattern)}, "
                               f"pays = {_toml_value(line.pays)} }}")
        out += ["", "[quickdraw]"]
        out += [f"{k} = {_toml_value(getattr(self.quickdraw, k))}" for k in _QUICKDRAW_KEYS]
        out += ["", "[options]"]
        out += [f"{k} = {_toml_value(getattr(self.options, k))}" for k in _OPTION_KEYS]
        return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------

def load_rules(source: str | Path | RuleSet | None = None) -> RuleSet:
    """Load and validate a rule set.

    ``source`` is a path, a bare name of a shipped rule set (``publisher``,
    ``publisher-4p-tens.toml``), ``None`` for the default ``publisher.toml``, or
    a :class:`RuleSet` (returned as it is).  Raises :class:`RuleError` with one
    line naming the file, the key and the problem.
    """
    if isinstance(source, RuleSet):
        return source
    path = resolve_rules_path(source)
    raw, chain_bytes, origins = _load_chain(path, ())
    digest = hashlib.sha256(b"".join(chain_bytes)).hexdigest()
    return _build(raw, origins, default_name=path.stem, sha256=digest)


def rules_from_toml(text: str, *, source: str = "<string>") -> RuleSet:
    """A rule set from TOML text (``extends`` is resolved against the working directory)."""
    raw = _parse_toml(text, source)
    raw, parents, origins = _resolve_extends(raw, source, Path.cwd(), (source,))
    digest = hashlib.sha256(b"".join(parents) + text.encode()).hexdigest()
    return _build(raw, origins, default_name=Path(source).stem if source != "<string>" else "unnamed", sha256=digest)


def _parse_toml(text: str, where: str) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleError(f"{where}: invalid TOML: {exc}") from None


class _Origins:
    """Which file each dotted key of a merged document came from (for messages).

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


def _load_chain(path: Path, seen: tuple[str, ...]) -> tuple[dict, list[bytes], _Origins]:
    """The file at ``path`` merged over its ``extends`` parents, their bytes (parents first), key origins."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RuleError(f"rule-set file not found: {path} ({exc.strerror})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RuleError(f"{path}: invalid TOML: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    raw = _parse_toml(text, str(path))
    me = str(path.resolve())
    merged, parents, origins = _resolve_extends(raw, str(path), path.parent, seen + (me,))
    return merged, parents + [data], origins


def _resolve_extends(raw: dict, where: str, base: Path, seen: tuple[str, ...]) -> tuple[dict, list[bytes], _Origins]:
    """``raw`` merged over its parent chain, the parents' bytes, and key origins."""
    origins = _Origins(where)
    if "extends" not in raw:
        origins.record(raw, where)
        return raw, [], origins
    parent_ref = raw.pop("extends")
    if not isinstance(parent_ref, str) or not parent_ref.strip():
        raise RuleError(f"{_prefix(where, 'extends')}: must be a file name (string), got {_show(parent_ref)}")
    try:
        parent = resolve_rules_path(parent_ref, relative_to=base)
    except RuleError:
        raise RuleError(f"{_prefix(where, 'extends')}: parent rule-set file not found: {base / parent_ref}") from None
    if str(parent.resolve()) in seen:
        chain = " -> ".join(Path(s).name for s in seen + (str(parent.resolve()),))
        raise RuleError(f"{_prefix(where, 'extends')}: inheritance cycle: {chain}")
    parent_raw, parent_bytes, parent_origins = _load_chain(parent, seen)
    # The leaf's own name, not the parent's, unless it sets one.
    parent_raw.pop("name", None)
    origins = _Origins(where, parent_origins.by_key)
    origins.record(raw, where)
    return _deep_merge(parent_raw, raw), parent_bytes, origins


def _deep_merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def _build(raw: dict, where: _Origins, *, default_name: str, sha256: str) -> RuleSet:
    """Validate a merged TOML document and build the rule set."""
    _check_keys(raw, _TOP_KEYS, where, "")
    for section in ("kickout", "bonus", "quickdraw", "cover"):
        if section not in raw:
            raise RuleError(f"{_prefix(where, section)}: missing required table [{section}]")
        if not isinstance(raw[section], dict):
            raise RuleError(f"{_prefix(where, section)}: must be a table [{section}], got {_show(raw[section])}")
    name = raw.get("name", default_name)
    description = raw.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise RuleError(f"{_prefix(where, key)}: must be a string, got {_show(value)}")

    # [kickout]: "1".."7" -> pattern, all required.
    kick = raw["kickout"]
    for key in kick:
        if not key.isdigit():
            raise RuleError(f"{_prefix(where, f'kickout.{key}')}: not a player count; keys are the numbers of players 1..{MAX_PLAYERS}")
        if not 1 <= int(key) <= MAX_PLAYERS or key != str(int(key)):
            raise RuleError(f"{_prefix(where, f'kickout.{key}')}: player count must be 1..{MAX_PLAYERS}")
    patterns = []
    for n in range(1, MAX_PLAYERS + 1):
        if str(n) not in kick:
            raise RuleError(f"{_prefix(where, f'kickout.{n}')}: missing required key (all of 1..{MAX_PLAYERS} players need a threshold)")
        pattern = kick[str(n)]
        if not isinstance(pattern, str):
            raise RuleError(f"{_prefix(where, f'kickout.{n}')}: threshold must be a hand pattern string such as \"KKQ\", got {_show(pattern)}")
        _check_pattern(pattern, where, f"kickout.{n}")
        patterns.append(pattern)

    bonus = _build_paytable(raw["bonus"], where, "bonus")
    cover = _build_paytable(raw["cover"], where, "cover")

    qd = raw["quickdraw"]
    _check_keys(qd, _QUICKDRAW_KEYS, where, "quickdraw.")
    if "pays" not in qd:
        raise RuleError(f"{_prefix(where, 'quickdraw.pays')}: missing required key (the Quickdraw payout, e.g. pays = 5)")
    _check_pays(qd["pays"], where, "quickdraw.pays")
    comparison = qd.get("comparison", QuickdrawRules.comparison)
    _check_choice(comparison, COMPARISON_CHOICES, where, "quickdraw.comparison")

    opts = raw.get("options", {})
    if not isinstance(opts, dict):
        raise RuleError(f"{_prefix(where, 'options')}: must be a table [options], got {_show(opts)}")
    _check_keys(opts, _OPTION_KEYS, where, "options.")
    for key in ("automatic_win", "dealer_loses_ties", "bonus_on_automatic_win"):
        if key in opts:
            _check_bool(opts[key], where, f"options.{key}")
    if "split" in opts:
        _check_choice(opts["split"], SPLIT_CHOICES, where, "options.split")

    return RuleSet(
        name=name,
        description=description,
        kickout=KickoutTable(tuple(patterns)),
        bonus=bonus,
        quickdraw=QuickdrawRules(pays=qd["pays"], comparison=comparison),
        cover=cover,
        options=RuleOptions(**opts),
        source=str(where),
        sha256=sha256,
    )


def _build_paytable(table: dict, where: _Origins, section: str) -> Paytable:
    lines = []
    for key, value in table.items():
        dotted = f"{section}.{key}"
        if isinstance(value, dict):
            _check_keys(value, _LINE_KEYS, where, dotted + ".")
            if "pays" not in value:
                raise RuleError(f"{_prefix(where, f'{dotted}.pays')}: missing required key (the line's payout)")
            hand = value.get("hand", CATEGORY_PATTERNS.get(key))
            if hand is None:
                raise RuleError(f"{_prefix(where, f'{dotted}.hand')}: missing required key ('{key}' is not a named category, so the line needs a hand pattern)")
            if not isinstance(hand, str):
                raise RuleError(f"{_prefix(where, f'{dotted}.hand')}: must be a hand pattern string, got {_show(hand)}")
            _check_pattern(hand, where, f"{dotted}.hand")
            pays = value["pays"]
            _check_pays(pays, where, f"{dotted}.pays")
        else:
            if key not in CATEGORY_PATTERNS:
                raise RuleError(
                    f"{_prefix(where, dotted)}: unknown hand category{_did_you_mean(key, CATEGORY_PATTERNS)}"
                    f"; for another threshold write {_toml_key(key)} = {{ hand = \"PATTERN\", pays = N }}"
                )
            hand, pays = CATEGORY_PATTERNS[key], value
            _check_pays(pays, where, dotted)
        lines.append(PayLine(key, hand, pays))
    return Paytable(tuple(lines))


# --------------------------------------------------------------------------
# Checks (one-line messages: file, key, problem)
# --------------------------------------------------------------------------

def _prefix(where: str | _Origins, key: str) -> str:
    """``FILE: key 'KEY'``; ``where`` is a file name, key origins, or "" (a change made in code)."""
    if isinstance(where, _Origins):
        where = where.file_of(key)
    return f"{where}: key '{key}'" if where else f"key '{key}'"


def _check_keys(table: dict, allowed: tuple[str, ...], where: str, prefix: str) -> None:
    for key in table:
        if key not in allowed:
            raise RuleError(f"{_prefix(where, prefix + key)}: unknown key{_did_you_mean(key, allowed)}")


def _did_you_mean(key: str, allowed) -> str:
    close = difflib.get_close_matches(key, list(allowed), n=1, cutoff=0.6)
    if close:
        return f"; did you mean '{close[0]}'?"
    return f"; allowed keys: {', '.join(allowed)}"


def _check_pays(value: Any, where: str, key: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RuleError(f"{_prefix(where, key)}: payout must be a number of ante units, got {_show(value)}")
    if not math.isfinite(value) or value < 0:
        raise RuleError(f"{_prefix(where, key)}: payout must be a finite number >= 0, got {_show(value)}")


def _check_bool(value: Any, where: str, key: str) -> None:
    if not isinstance(value, bool):
        raise RuleError(f"{_prefix(where, key)}: must be true or false, got {_show(value)}")


def _check_choice(value: Any, allowed: tuple[str, ...], where: str, key: str) -> None:
    if value not in allowed:
        choices = ", ".join(f'"{a}"' for a in allowed)
        raise RuleError(f"{_prefix(where, key)}: {_show(value)} is not allowed; choose one of {choices}")


def _check_players(n: Any) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_PLAYERS:
        raise RuleError(f"number of players must be 1..{MAX_PLAYERS}, got {n!r}")


def _check_pattern(pattern: str, where: str, key: str) -> None:
    try:
        _pattern_value(pattern)
    except PatternError as exc:
        raise RuleError(f"{_prefix(where, key)}: threshold {pattern!r} does not parse: {exc}") from None


def _show(value: Any) -> str:
    """A value as TOML would write it, for messages."""
    try:
        return _toml_value(value)
    except TypeError:
        return f"a {type(value).__name__}"


# --------------------------------------------------------------------------
# A tiny TOML writer (strings, numbers, booleans: all a rule set holds)
# --------------------------------------------------------------------------

def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
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
