"""The report as a document: sections of paragraphs, tables and plots, and the number formats.

:mod:`~ricochet_math.reports.sections` builds a list of :class:`Section`;
:mod:`~ricochet_math.reports.render` writes that one list as HTML, PDF and
CSV, so the three outputs cannot disagree.  A table carries both its text
cells (formatted here) and the DataFrame its CSV is written from (full
precision).
"""
from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Volatile", "Para", "Table", "Plot", "Section",
           "isnan", "pct", "ci", "num", "whole", "one_in", "odds", "pays", "slug"]


class Volatile(str):
    """Text that changes between builds (the date, run times): marked in every output."""


@dataclass
class Para:
    text: str
    kind: str = "p"          # "p", "h3", "note"


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
    csv: str | None = None          # file stem under tables/ (None: a view of another table's CSV)
    data: Any = None                # the DataFrame written as CSV
    note: str = ""
    align: list[str] | None = None  # "l" / "r" per column
    declared: Any = None            # the report's own columns (name -> reports.columns.Column) beyond the schema

    def __post_init__(self) -> None:
        if self.align is None:
            self.align = ["l"] + ["r"] * (len(self.columns) - 1)


@dataclass
class Plot:
    """A plot drawn by ``draw(figure, box)`` into ``box`` = (x0, y0, width, height) inches of a figure."""

    name: str
    title: str
    caption: str
    draw: Callable[[Any, tuple[float, float, float, float]], None]
    width: float = 7.2
    height: float = 3.4


@dataclass
class Section:
    number: str
    title: str
    blocks: list = field(default_factory=list)
    front: bool = False     # shown on the first page before the contents, not numbered (document control)

    @property
    def anchor(self) -> str:
        return "s" + self.number

    def p(self, text: str) -> None:
        self.blocks.append(Para(" ".join(text.split())))

    def h3(self, text: str) -> None:
        self.blocks.append(Para(text, "h3"))

    def note(self, text: str) -> None:
        self.blocks.append(Para(" ".join(text.split()), "note"))

    def table(self, *args, **kwargs) -> Table:
        t = Table(*args, **kwargs)
        self.blocks.append(t)
        return t

    def plot(self, *args, **kwargs) -> None:
        self.blocks.append(Plot(*args, **kwargs))


# ---------------------------------------------------------------- number formats

def isnan(x) -> bool:
    """None, NaN or pandas' NA."""
    return x is None or (isinstance(x, float) and math.isnan(x)) or type(x).__name__ == "NAType"


def pct(x, digits: int = 3) -> str:
    """A fraction as a percentage: 0.9612 -> '96.120%'."""
    return "n/a" if isnan(x) else f"{100.0 * float(x):.{digits}f}%"


def ci(lo, hi, digits: int = 2) -> str:
    """An interval of fractions in percent, or 'exact' when it has no width."""
    if isnan(lo) or isnan(hi):
        return "n/a"
    if lo == hi:
        return "exact"
    return f"{100.0 * lo:.{digits}f} to {100.0 * hi:.{digits}f}%"


def num(x, digits: int = 4) -> str:
    return "n/a" if isnan(x) else f"{float(x):,.{digits}f}"


def whole(x) -> str:
    """A count with thousands separators."""
    return f"{int(x):,}"


def one_in(p) -> str:
    """A probability as '1 in N'."""
    if isnan(p) or p <= 0:
        return "never"
    n = 1.0 / float(p)
    if n < 100:
        return f"1 in {n:.2f}"
    if n < 10_000:
        return f"1 in {n:,.1f}"
    return f"1 in {n:,.0f}"


def odds(p) -> str:
    """True odds against, ``(1 - p) / p`` to 1."""
    if isnan(p) or p <= 0:
        return "n/a"
    x = (1.0 - float(p)) / float(p)
    return f"{x:,.2f} to 1" if x < 1000 else f"{x:,.0f} to 1"


def pays(x) -> str:
    """Payout odds of a paytable line: 50 -> '50 to 1'."""
    x = float(x)
    return f"{x:g} to 1"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
