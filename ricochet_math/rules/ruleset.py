"""Rule sets as data: the kickout table, paytables and rule options of one game.

A :class:`RuleSet` is a frozen dataclass built from a TOML file
(:func:`load_rules`; the file format, where the shipped files are and how
``extends`` merges them: :mod:`ricochet_math.rules.files`).  Building checks
every key and value; every problem is raised as one
:class:`~ricochet_math.errors.RuleError` line naming the file, the key and what
is wrong (:mod:`ricochet_math.rules.checks`).  The ``with_*`` helpers edit a
copy in a notebook, and :meth:`RuleSet.to_toml` writes any rule set back as a
standalone file.

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
import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ricochet_math.arguments import whole_from_text
from ricochet_math.errors import PatternError, RicochetError, RuleError, quote
from ricochet_math.evaluator.names import describe, pattern_value
from ricochet_math.rules.checks import (
    KeyOrigins, check_bool, check_choice, check_keys, check_name, check_pattern, check_pays, did_you_mean,
    name_from_stem, prefix, show,
)
from ricochet_math.rules.files import (
    NESTED_TOO_DEEPLY, load_chain, parse_toml, resolve_extends, resolve_rules_path,
)
from ricochet_math.rules.toml_writer import paytable_line, toml_key, toml_value

__all__ = [
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
    "load_rules",
    "rules_from_toml",
]

MAX_PLAYERS = 7
SPLIT_CHOICES = ("odd-units-last", "fractional")
COMPARISON_CHOICES = ("kicker", "top-cards")

# Paytable lines written as `category = pays`: the threshold of each named
# category is the weakest five-card hand of that category, written with the
# category words of ricochet_math.evaluator.names.pattern_value.
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


# --------------------------------------------------------------------------
# The rule-set objects
# --------------------------------------------------------------------------

def _describe_pattern(pattern: str) -> str:
    """The hand a threshold pattern stands for, or the pattern itself if it does not parse."""
    try:
        return describe(pattern_value(pattern))
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
        return pattern_value(self.hand_pattern)


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
            raise RuleError(f"paytable has no line {quote(unknown[0])}{did_you_mean(unknown[0], self.keys())}")
        for k, v in pays.items():
            check_pays(v, "", k)
        return Paytable(tuple(dataclasses.replace(l, pays=pays.get(l.key, l.pays)) for l in self.lines))

    def with_line(self, key: str, hand_pattern: str, pays: int | float) -> Paytable:
        """A copy with line ``key`` added (at the end) or replaced (in place)."""
        check_pays(pays, "", key)
        check_pattern(hand_pattern, "", key)
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
        check_pays(self.pays, "", "quickdraw.pays")
        check_choice(self.comparison, COMPARISON_CHOICES, "", "quickdraw.comparison")


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
            check_bool(getattr(self, key), "", f"options.{key}")
        check_choice(self.split, SPLIT_CHOICES, "", "options.split")


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
        check_name(self.name, "", "name")  # the name becomes a folder name: plain names only
        if not isinstance(self.kickout, KickoutTable):
            object.__setattr__(self, "kickout", KickoutTable.from_mapping(self.kickout))

    # ---- reading -------------------------------------------------------

    def kickout_value(self, n_players: int) -> int:
        """Dense hand value of the kickout threshold for ``n_players`` (the dealer folds at ``>=``)."""
        _check_players(n_players)
        return pattern_value(self.kickout[n_players])

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
        check_pattern(pattern, "", f"kickout.{n_players}")
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
        return pd.DataFrame(self.rows(describe=describe), columns=["section", "key", "value", "detail"])

    def summary(self) -> str:
        """A few lines of text naming the rule set and its main numbers."""
        kick = ", ".join(f"{n}: {p}" for n, p in self.kickout.items())
        bonus = ", ".join(f"{l.key} {l.pays:g}" for l in self.bonus)
        cover = ", ".join(f"{l.key} {l.pays:g}" for l in self.cover)
        opts = ", ".join(f"{k}={toml_value(getattr(self.options, k))}" for k in _OPTION_KEYS)
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
            f"name = {toml_value(self.name)}",
            f"description = {toml_value(self.description)}",
            "",
            "[kickout]",
        ]
        out += [f"{n} = {toml_value(p)}" for n, p in self.kickout.items()]
        for section, table in (("bonus", self.bonus), ("cover", self.cover)):
            out += ["", f"[{section}]"]
            out += [paytable_line(line.key, line.hand_pattern, line.pays,
                                  category_pattern=CATEGORY_PATTERNS.get(line.key)) for line in table]
        out += ["", "[quickdraw]"]
        out += [f"{k} = {toml_value(getattr(self.quickdraw, k))}" for k in _QUICKDRAW_KEYS]
        out += ["", "[options]"]
        out += [f"{k} = {toml_value(getattr(self.options, k))}" for k in _OPTION_KEYS]
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
    try:
        raw, chain_bytes, origins = load_chain(path, ())
        digest = hashlib.sha256(b"".join(chain_bytes)).hexdigest()
        return _build(raw, origins, default_name=path.stem, sha256=digest)
    except RecursionError:  # merging, key origins and messages walk the document recursively
        raise RuleError(f"{path}: {NESTED_TOO_DEEPLY}") from None


def rules_from_toml(text: str, *, source: str = "<string>") -> RuleSet:
    """A rule set from TOML text (``extends`` is resolved against the working directory)."""
    if not isinstance(text, str):
        raise RuleError(f"{source}: rule-set text must be a string, got a {type(text).__name__}")
    try:
        raw = parse_toml(text, source)
        raw, parents, origins = resolve_extends(raw, source, Path.cwd(), (source,))
        digest = hashlib.sha256(b"".join(parents) + text.encode("utf-8", "surrogatepass")).hexdigest()
        return _build(raw, origins, default_name=Path(source).stem if source != "<string>" else "unnamed",
                      sha256=digest)
    except RecursionError:  # merging, key origins and messages walk the document recursively
        raise RuleError(f"{source}: {NESTED_TOO_DEEPLY}") from None


def _build(raw: dict, where: KeyOrigins, *, default_name: str, sha256: str) -> RuleSet:
    """Validate a merged TOML document and build the rule set."""
    check_keys(raw, _TOP_KEYS, where, "")
    for section in ("kickout", "bonus", "quickdraw", "cover"):
        if section not in raw:
            raise RuleError(f"{prefix(where, section)}: missing required table [{section}]")
        if not isinstance(raw[section], dict):
            raise RuleError(f"{prefix(where, section)}: must be a table [{section}], got {show(raw[section])}")
    name = check_name(raw["name"], where) if "name" in raw else name_from_stem(default_name)
    description = raw.get("description", "")
    if not isinstance(description, str):
        raise RuleError(f"{prefix(where, 'description')}: must be a string, got {show(description)}")

    # [kickout]: "1".."7" -> pattern, all required.
    kick = raw["kickout"]
    for key in kick:
        try:  # the one grammar of whole numbers as text: ASCII digits ('٣' and '²' are not player counts)
            count = whole_from_text(key, grouping=False)
        except RicochetError:
            raise RuleError(f"{prefix(where, f'kickout.{key}')}: not a player count; keys are the numbers of players 1..{MAX_PLAYERS}") from None
        if not 1 <= count <= MAX_PLAYERS or key != str(count):
            raise RuleError(f"{prefix(where, f'kickout.{key}')}: player count must be 1..{MAX_PLAYERS}")
    patterns = []
    for n in range(1, MAX_PLAYERS + 1):
        if str(n) not in kick:
            raise RuleError(f"{prefix(where, f'kickout.{n}')}: missing required key (all of 1..{MAX_PLAYERS} players need a threshold)")
        pattern = kick[str(n)]
        if not isinstance(pattern, str):
            raise RuleError(f"{prefix(where, f'kickout.{n}')}: threshold must be a hand pattern string such as \"KKQ\", got {show(pattern)}")
        check_pattern(pattern, where, f"kickout.{n}")
        patterns.append(pattern)

    bonus = _build_paytable(raw["bonus"], where, "bonus")
    cover = _build_paytable(raw["cover"], where, "cover")

    qd = raw["quickdraw"]
    check_keys(qd, _QUICKDRAW_KEYS, where, "quickdraw.")
    if "pays" not in qd:
        raise RuleError(f"{prefix(where, 'quickdraw.pays')}: missing required key (the Quickdraw payout, e.g. pays = 5)")
    check_pays(qd["pays"], where, "quickdraw.pays")
    comparison = qd.get("comparison", QuickdrawRules.comparison)
    check_choice(comparison, COMPARISON_CHOICES, where, "quickdraw.comparison")

    opts = raw.get("options", {})
    if not isinstance(opts, dict):
        raise RuleError(f"{prefix(where, 'options')}: must be a table [options], got {show(opts)}")
    check_keys(opts, _OPTION_KEYS, where, "options.")
    for key in ("automatic_win", "dealer_loses_ties", "bonus_on_automatic_win"):
        if key in opts:
            check_bool(opts[key], where, f"options.{key}")
    if "split" in opts:
        check_choice(opts["split"], SPLIT_CHOICES, where, "options.split")

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


def _build_paytable(table: dict, where: KeyOrigins, section: str) -> Paytable:
    lines = []
    for key, value in table.items():
        dotted = f"{section}.{key}"
        if isinstance(value, dict):
            check_keys(value, _LINE_KEYS, where, dotted + ".")
            if "pays" not in value:
                raise RuleError(f"{prefix(where, f'{dotted}.pays')}: missing required key (the line's payout)")
            hand = value.get("hand", CATEGORY_PATTERNS.get(key))
            if hand is None:
                raise RuleError(f"{prefix(where, f'{dotted}.hand')}: missing required key ('{key}' is not a named category, so the line needs a hand pattern)")
            if not isinstance(hand, str):
                raise RuleError(f"{prefix(where, f'{dotted}.hand')}: must be a hand pattern string, got {show(hand)}")
            check_pattern(hand, where, f"{dotted}.hand")
            pays = value["pays"]
            check_pays(pays, where, f"{dotted}.pays")
        else:
            if key not in CATEGORY_PATTERNS:
                raise RuleError(
                    f"{prefix(where, dotted)}: unknown hand category{did_you_mean(key, CATEGORY_PATTERNS)}"
                    f"; for another threshold write {toml_key(key)} = {{ hand = \"PATTERN\", pays = N }}"
                )
            hand, pays = CATEGORY_PATTERNS[key], value
            check_pays(pays, where, dotted)
        lines.append(PayLine(key, hand, pays))
    return Paytable(tuple(lines))


def _check_players(n: Any) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_PLAYERS:
        raise RuleError(f"number of players must be 1..{MAX_PLAYERS}, got {quote(n)}")
