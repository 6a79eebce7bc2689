"""Tables as text for a terminal: each column read through a declared format, laid out by tabulate.

A command declares how its columns read (:class:`Percent`, :class:`OneIn`,
:class:`Whole`, :class:`Number`, :class:`Text`); :func:`text_table` turns the
frame into aligned text no wider than ``width`` characters by splitting the
columns into several tables that repeat the key columns (``wide=True`` keeps
one table).  The formats only round for reading: CSV and JSON are written from
the frame itself, at full precision and as fractions.

An estimate with a confidence interval (columns ``NAME``, ``NAME_low`` and
``NAME_high``) reads ``96.94 ± 0.05``: the estimate and half the interval's
width.  An interval of no width (an exact figure) reads as the bare value; an
interval the rounding shows as lopsided (clipped at 0) reads ``0.01 [0.00, 0.03]``.
"""
from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd
from tabulate import tabulate

from ricochet_math.reports.document import isnan, one_in

__all__ = ["Percent", "OneIn", "Whole", "Number", "Text", "text_table", "INTERVAL_NOTE", "has_interval"]

#: the footnote for tables that show ``±`` intervals
INTERVAL_NOTE = ("a ± b: the estimate and half the width of its 95% confidence interval; [low, high]: an uneven\n"
                 "confidence interval (the exact binomial one where an event was never or always seen); a bare\n"
                 "figure is exact or has no interval (a standard deviation).")

@dataclass(frozen=True)
class Percent:
    """A fraction shown in percent with ``digits`` decimals (0.969475 -> ``96.95``), titled ``NAME %``;
    with ``interval`` its ``NAME_low``/``NAME_high`` columns join it as ``± half-width``."""

    digits: int = 2
    interval: bool = True
    title: str | None = None

    def header(self, name: str) -> str:
        return self.title if self.title is not None else f"{name} %"

    def uses(self, name: str, frame: pd.DataFrame) -> tuple[str, ...]:
        bounds = (f"{name}_low", f"{name}_high")
        return bounds if self.interval and all(b in frame.columns for b in bounds) else ()

    def cells(self, name: str, frame: pd.DataFrame) -> list[str]:
        return _cells(frame, name, self.uses(name, frame), 100.0, self.digits)


@dataclass(frozen=True)
class OneIn:
    """A probability as ``1 in N`` (the convention for rare hands and paytable lines)."""

    title: str | None = None

    def header(self, name: str) -> str:
        return self.title if self.title is not None else name

    def uses(self, name: str, frame: pd.DataFrame) -> tuple[str, ...]:
        return ()

    def cells(self, name: str, frame: pd.DataFrame) -> list[str]:
        return ["" if isnan(p) else one_in(p) for p in frame[name]]


@dataclass(frozen=True)
class Number:
    """A number with ``digits`` decimals and thousands separators (units: the column's own); with
    ``interval`` its ``NAME_low``/``NAME_high`` columns join it as ``± half-width``."""

    digits: int = 3
    interval: bool = False
    title: str | None = None

    def header(self, name: str) -> str:
        return self.title if self.title is not None else name

    def uses(self, name: str, frame: pd.DataFrame) -> tuple[str, ...]:
        bounds = (f"{name}_low", f"{name}_high")
        return bounds if self.interval and all(b in frame.columns for b in bounds) else ()

    def cells(self, name: str, frame: pd.DataFrame) -> list[str]:
        return _cells(frame, name, self.uses(name, frame), 1.0, self.digits)


def _cells(frame: pd.DataFrame, name: str, bounds: tuple[str, ...], scale: float, d: int) -> list[str]:
    """``scale * value`` with ``d`` decimals, and its interval from the ``bounds`` columns when given."""
    lows, highs = (frame[bounds[0]], frame[bounds[1]]) if bounds else ([None] * len(frame), [None] * len(frame))
    out = []
    for v, lo, hi in zip(frame[name], lows, highs):
        if isnan(v):
            out.append("")
        elif isnan(lo) or isnan(hi) or lo == hi:
            out.append(f"{scale * v:,.{d}f}")
        else:
            below, above = f"{scale * (v - lo):.{d}f}", f"{scale * (hi - v):.{d}f}"
            out.append(f"{scale * v:,.{d}f} ± {above}" if below == above else
                       f"{scale * v:,.{d}f} [{scale * lo:,.{d}f}, {scale * hi:,.{d}f}]")
    return out


@dataclass(frozen=True)
class Whole(Number):
    """A count with thousands separators (12,712,560)."""

    digits: int = 0


@dataclass(frozen=True)
class Text:
    """The value as it is (names, hand values, codes), left-aligned; wrapped at ``wrap`` characters if given."""

    title: str | None = None
    wrap: int | None = None

    def header(self, name: str) -> str:
        return self.title if self.title is not None else name

    def uses(self, name: str, frame: pd.DataFrame) -> tuple[str, ...]:
        return ()

    def cells(self, name: str, frame: pd.DataFrame) -> list[str]:
        return ["" if isnan(v) else str(v) for v in frame[name]]


def _default(series: pd.Series):
    """The format of an undeclared column: counts with separators, other numbers to 6 significant digits."""
    if pd.api.types.is_bool_dtype(series) or not pd.api.types.is_numeric_dtype(series):
        return Text()
    if pd.api.types.is_integer_dtype(series):
        return Whole()
    return _Significant()


@dataclass(frozen=True)
class _Significant:
    """Six significant digits, for a float column no command declared."""

    def header(self, name: str) -> str:
        return name

    def uses(self, name: str, frame: pd.DataFrame) -> tuple[str, ...]:
        return ()

    def cells(self, name: str, frame: pd.DataFrame) -> list[str]:
        return ["" if isnan(v) else f"{float(v):,.6g}" for v in frame[name]]


def has_interval(frame: pd.DataFrame, formats: Mapping[str, object] | None) -> bool:
    """Whether :func:`text_table` shows a ``±`` interval for this frame (so the caller adds :data:`INTERVAL_NOTE`)."""
    return any(name in frame.columns and f.uses(name, frame) and
               any(not (isnan(lo) or isnan(hi)) and lo != hi for lo, hi in zip(frame[f"{name}_low"], frame[f"{name}_high"]))
               for name, f in (formats or {}).items())


def text_table(frame: pd.DataFrame, formats: Mapping[str, object] | None = None, *, keys: int = 1,
               width: int = 100, wide: bool = False) -> str:
    """``frame`` as aligned text, each column through its format (``formats[name]``, else a default).

    Interval columns a :class:`Percent` reads (``NAME_low``, ``NAME_high``)
    are not shown on their own.  When the text would be wider than ``width``
    characters and ``wide`` is false, the columns are split into several tables,
    each led by the first ``keys`` columns.
    """
    if not len(frame):
        return "(no rows)"
    formats = dict(formats or {})
    used = set()
    for name in frame.columns:
        if name in formats:
            used.update(formats[name].uses(name, frame))
    columns = []  # (header, cells, right-aligned)
    for name in frame.columns:
        if name in used:
            continue
        fmt = formats.get(name) or _default(frame[name])
        cells = fmt.cells(name, frame)
        if isinstance(fmt, Text) and fmt.wrap:
            cells = ["\n".join(textwrap.wrap(c, fmt.wrap, break_long_words=False)) or c for c in cells]
        columns.append((fmt.header(name), cells, not isinstance(fmt, Text)))
    groups = [columns] if wide else _split(columns, keys, width)
    return "\n\n".join(_render(group) for group in groups)


def _split(columns, keys: int, width: int):
    """Greedy groups of columns, each led by the key columns, each rendered within ``width`` where a column
    allows (measured on tabulate's own output)."""
    lead, rest = columns[:keys], columns[keys:]
    groups, group = [], []
    for column in rest:
        if group and _text_width(_render(lead + group + [column])) > width:
            groups.append(lead + group)
            group = []
        group.append(column)
    groups.append(lead + group)
    return groups


def _text_width(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def _render(columns) -> str:
    headers = [h for h, _, _ in columns]
    rows = list(zip(*(cells for _, cells, _ in columns)))
    align = ["right" if right else "left" for _, _, right in columns]
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True, colalign=align)

