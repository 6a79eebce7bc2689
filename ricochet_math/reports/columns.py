"""The one column schema: what each table column is (name, unit, format, description), read the same way by the
terminal tables, the HTML/PDF report and the workbook.

A column is declared once in :data:`SCHEMA` (by its CSV name): its title in words, its unit and its
format.  The three outputs ask this module how to show it, so a percent is a percent everywhere:

* :func:`document_table`: a report table (:class:`~ricochet_math.reports.document.Table`) from a frame,
  headers in words, cells formatted, an estimate and its ``NAME_low``/``NAME_high`` columns shown as
  ``96.94 ± 0.05``; the CSV keeps the frame at full precision;
* :func:`text_formats`: the formats :func:`~ricochet_math.reports.tables.text_table` reads (the CLI);
* :func:`excel_format`: the workbook's number format (the stored number is the full value).

Formats: ``percent`` (a fraction shown in percent), ``count`` (a whole number with thousands separators),
``number`` (a decimal with ``digits`` decimals and separators), ``p_value`` (four decimals, ``< 0.0001``
below) and ``text``.  A column nobody declared is read from its data, never guessed from its name: text
as text, whole numbers (also whole floats such as ``20000.0``) as counts, other numbers with four decimals.

:func:`table_width_mm` estimates a report table's width in the PDF (A4 less the margins) from its text, and
:func:`overflowing_tables` lists a written report's tables that would run off the page.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ricochet_math.reports.document import Table, isnan

__all__ = ["Column", "SCHEMA", "FORMATS", "column", "cell", "estimate_text", "p_text", "P_FLOOR", "document_table", "text_formats",
           "excel_format", "table_width_mm", "fits_page", "overflowing_tables", "PAGE_WIDTH_MM"]

FORMATS = ("percent", "count", "number", "p_value", "text")
_BOUNDS = re.compile(r"(_low|_high|_plain)+$")


@dataclass(frozen=True)
class Column:
    """One column: ``name`` in the CSV, ``title`` in words (the header), ``unit`` (what one of its numbers
    is: "fraction", "chips", "antes", "games", ...), ``format`` (one of :data:`FORMATS`), ``digits``
    (decimals shown; for a percent, decimals of the percent) and a one-line ``description``."""

    name: str
    title: str
    unit: str = ""
    format: str = "number"
    digits: int = 4
    description: str = ""

    def __post_init__(self):
        if self.format not in FORMATS:
            raise ValueError(f"column {self.name!r}: format must be one of {FORMATS}, got {self.format!r}")

    @property
    def header(self) -> str:
        """The header in words, with the unit where the cells do not show it."""
        if self.format == "percent":
            return f"{self.title} (%)"
        if self.unit and self.format == "number" and self.unit not in ("ratio", "statistic", self.title):
            return f"{self.title} ({self.unit})"
        return self.title


def _schema(text: str) -> dict[str, Column]:
    """The declarations below: ``name | title | unit | format | digits | description``, one a line."""
    out = {}
    for line in text.strip().splitlines():
        name, title, unit, fmt, digits, description = (p.strip() for p in line.split("|"))
        out[name] = Column(name, title, unit, fmt, int(digits), description)
    return out


#: every declared column, by CSV name (bounds ``NAME_low``/``NAME_high`` read as ``NAME``)
SCHEMA: dict[str, Column] = _schema("""
players | players | players | count | 0 | number of players at the table
seats | seats | seats | count | 0 | number of seats at the table
seat | seat | seat | count | 0 | seat number (0 = the first seat)
position | position | position | count | 0 | position in the order of play (1 = acts first)
games | games | games | count | 0 | games played
rounds | rounds | rounds | count | 0 | rounds played
deals | deals | deals | count | 0 | deals counted
hands | hands | hands | count | 0 | hands counted
count | count | hands | count | 0 | how many
combinations | combinations | hands | count | 0 | combinations counted
wins | wins | games | count | 0 | wins counted
weight | weight | hands | count | 0 | weight (hands it stands for)
strategies | strategies | strategies | count | 0 | strategies compared
starts | starts first | rounds | count | 0 | rounds in which the seat chooses first
draws | draws | draws | count | 0 | draws counted
decisions | decisions per game | | number | 2 | decisions per game
step | step | step | count | 0 | fixed-point step
seed | seed | seed | text | 0 | random seed (a whole number of up to 128 bits, shown and stored digit for digit)
opponents | opponents | players | count | 0 | opponents at the table
hands_changed | hands whose keep changed | hands | count | 0 | hands whose best keep changed in the step
exact_room | exact room | cards | count | 0 | cards of room solved exactly
room | room | cards | count | 0 | cards of room
positions | positions | positions | count | 0 | positions counted
start_cards | starting cards | cards | count | 0 | starting cards
sampled_pairs | sampled pairs | deals | count | 0 | deals sampled
kernel_games | kernel games | games | count | 0 | games played by the kernel
win_combinations | winning combinations | hands | count | 0 | combinations that win
folds_below_that | folds below that | hands | count | 0 | hands folded below the threshold
plays_up_to_value | plays up to value | value | count | 0 | dense hand value
seat_df | seat test df | degrees of freedom | count | 0 | degrees of freedom of the seat test
df | df | degrees of freedom | count | 0 | degrees of freedom of the test
win | win share | fraction | percent | 2 | share of games won (a win shared by k counts 1/k)
win_rate | win rate | fraction | percent | 2 | share of games won
win_frequency | win frequency | fraction | percent | 4 | share of rounds won
fair | fair share | fraction | percent | 2 | the win share of equal chances, 1 / players
outright | outright wins | fraction | percent | 2 | share of games won alone
rotate | rotation | | text | 0 | the first player moves one seat left each round
strongest | strongest hand | fraction | percent | 2 | share of hands in the strongest slot
middle | middle hand | fraction | percent | 2 | share of hands in the middle slot
weakest | weakest hand | fraction | percent | 2 | share of hands in the weakest slot
fold_rate | fold rate | fraction | percent | 2 | share of decisions that fold
split_rate | split rate | fraction | percent | 2 | share of pots split
rtp | RTP | fraction | percent | 4 | return to player per initial wager
rtp_initial | RTP per initial wager | fraction | percent | 4 | return per ante (initial wager)
rtp_wagered | RTP per total wagered | fraction | percent | 4 | return per unit of total amount wagered
seat_rtp | RTP by seat | fraction | percent | 4 | return to player of one seat
others_rtp | RTP of the others | fraction | percent | 4 | return to the other players
all_publisher_like_rtp | RTP, all publisher-like | fraction | percent | 4 | return when every player plays like the publisher
min_rtp | lowest RTP | fraction | percent | 4 | lowest return over the strategies
max_rtp | highest RTP | fraction | percent | 4 | highest return over the strategies
min | lowest | fraction | percent | 4 | lowest value
max | highest | fraction | percent | 4 | highest value
house_edge | house edge | fraction | percent | 4 | the house's share of the initial wager
element_of_risk | element of risk | fraction | percent | 4 | house edge per total wagered
hit_frequency | hit frequency | fraction | percent | 4 | share of rounds that pay
probability | probability | fraction | percent | 4 | probability
kickout_rate | kickout rate | fraction | percent | 4 | share of rounds the dealer folds
kickout_rate_exact | kickout rate, exact | fraction | percent | 4 | the kickout rate by exact counting
fold_frequency | fold frequency | fraction | percent | 4 | share of hands folded
fold_frequency_dealer_in | fold frequency, dealer in | fraction | percent | 4 | share folded when the dealer stays in
play_frequency_dealer_in | play frequency, dealer in | fraction | percent | 4 | share played when the dealer stays in
exact | exact | fraction | percent | 4 | exact figure
monte_carlo | Monte Carlo | fraction | percent | 4 | Monte Carlo estimate
computed | computed | fraction | percent | 4 | the toolkit's figure
published | published | fraction | percent | 4 | the publisher's figure
difference | difference | fraction | percent | 4 | computed minus published
half_width | half-width | fraction | percent | 4 | half the width of the 95% interval
ci | 95% interval | fraction | percent | 4 | bound of the 95% confidence interval
level | level | fraction | percent | 2 | confidence level
hands_differ | hands played differently | fraction | percent | 2 | share of hands whose keep differs
optimal_share | optimal pot share | fraction | percent | 2 | mean pot share of optimal drawing
naive_share | naive pot share | fraction | percent | 2 | mean pot share of naive drawing
gain | gain | fraction | percent | 3 | optimal minus naive pot share
model_share | model pot share | fraction | percent | 2 | pot share with independent opponents
dealt_share | dealt pot share | fraction | percent | 2 | pot share with opponents dealt from the deck
dealt_se | s.e. of the dealt share | fraction | percent | 3 | standard error of the dealt share
q_change | change of the distribution | total variation | number | 6 | total-variation change of the final-hand distribution
mean_share | mean pot share | fraction | percent | 4 | mean pot share of a random hand
net_per_pot | net per pot | antes | number | 4 | net chips per pot, in antes
points | points | points | number | 3 | points per game
ev | EV | chips per game | number | 3 | expected net chips per game
ev_by_order | EV by order of play | chips per game | number | 3 | expected net chips per game by order of play
ev_by_seat | EV by seat | chips per game | number | 3 | expected net chips per game by seat
return_per_ante | return per ante | fraction | percent | 2 | net chips per game per one-chip ante
casino_return | casino return | fraction | percent | 2 | casino Ricochet return per ante by position (perfect play)
home_return_by_order | home return by order | fraction | percent | 2 | home-game return per ante by order of play
home_return_by_seat | home return by seat | fraction | percent | 2 | home-game return per ante by seat
cards_bought | cards bought per game | cards | number | 2 | cards bought per game
pot | average pot | chips | number | 2 | chips in the pot
seat_wald | seat test statistic | statistic | number | 2 | Wald statistic of equal seat EVs (chi-square)
order_wald | order test statistic | statistic | number | 2 | Wald statistic of equal EVs by order of play (chi-square)
chi_square | chi-square | statistic | number | 3 | test statistic
statistic | statistic | statistic | number | 3 | test statistic
seat_p_value | seat test p-value | probability | p_value | 4 | p-value of the seat test
order_p_value | order test p-value | probability | p_value | 4 | p-value of the order-of-play test
p_value | p-value | probability | p_value | 4 | p-value of the test
seat_largest_gap | largest seat gap | chips per game | number | 3 | largest difference between seat EVs
order_largest_gap | largest order gap | chips per game | number | 3 | largest difference between order EVs
run_time_s | run time | s | number | 1 | seconds (varies between machines and loads)
seconds | time | s | number | 2 | seconds (varies between machines and loads)
z | z | statistic | number | 2 | standard score
se | s.e. | | number | 4 | standard error
std_dev | standard deviation | antes | number | 4 | standard deviation per round
sd_net | s.d. of the net | antes | number | 4 | standard deviation of the net per round
pays | pays | to 1 | number | 2 | payout odds
amount | amount | antes | number | 4 | amount
wagered | wagered | antes | number | 4 | amount wagered
average_wagered | average wagered | antes | number | 4 | average amount wagered per round
net | net | antes | number | 4 | net per round
contribution | contribution | antes | number | 6 | contribution to the return
rtp_contribution | RTP contribution | antes | number | 6 | contribution to the return per initial wager
break_even_pays | break-even pays | to 1 | number | 2 | pays at which the bet breaks even
edge | edge | points | number | 2 | win share above the fair share, in percentage points
pooled_edge | pooled edge | points | number | 2 | edge pooled over the seeds, in percentage points
final_chips | final chips | | number | 2 | chips at the end of the game
net_per_round | net per round | chips | number | 3 | net chips per round
""")


def column(name: str, series: pd.Series | None = None, declared: Mapping[str, Column] | None = None) -> Column:
    """The declared column (its bounds ``NAME_low``/``NAME_high`` read like ``NAME``): a report's own
    ``declared`` columns first, then :data:`SCHEMA`; else one read from the data: text, a count when every
    value is whole, a number with four decimals otherwise."""
    key = str(name)
    base = _BOUNDS.sub("", key)
    for known in (declared or {}, SCHEMA):
        if key in known:
            return known[key]
        if base in known:
            return known[base]
    title = key.replace("_", " ")
    if series is None or pd.api.types.is_bool_dtype(series) or not pd.api.types.is_numeric_dtype(series):
        return Column(key, title, format="text")
    values = pd.to_numeric(series, errors="coerce").dropna()
    if pd.api.types.is_integer_dtype(series) or (len(values) and all(
            math.isfinite(v) and float(v).is_integer() for v in values)):
        return Column(key, title, format="count", digits=0)
    return Column(key, title, format="number", digits=4)


def estimate_text(col: Column, value, low, high, unit: str = "") -> str:
    """An estimate for a sentence: ``value ± h`` in ``col``'s format, or "no detectable difference (± h)"
    where its 95% interval [low, high] holds zero (the project's wording for a difference inside its
    interval); ``unit`` follows the number ("" or " points")."""
    if low <= 0 <= high:
        return f"no detectable difference (± {cell(col, (high - low) / 2)}{unit})"
    return cell(col, value, low, high) + unit


#: below this a p-value is shown as "< 0.0001" (four decimals cannot tell smaller ones apart)
P_FLOOR = 1e-4


def p_text(p, prefix: bool = False) -> str:
    """The one p-value format of every report (issue 36): four decimals, "< 0.0001" below that, never ``0``
    or ``6.33e-221``; ``prefix``: as a sentence says it, "p = 0.0421" or "p < 0.0001"."""
    if isnan(p):
        return "n/a"
    text = "< 0.0001" if float(p) < P_FLOOR else f"{float(p):.4f}"
    if not prefix:
        return text
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def cell(col: Column, value, low=None, high=None) -> str:
    """One value as text by its column's format; with ``low``/``high``, ``estimate ± half-width`` (or
    ``estimate [low, high]`` where the rounding shows the interval lopsided)."""
    if isnan(value):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if col.format == "text" or isinstance(value, str):
        if isinstance(value, (float, np.floating)) and float(value).is_integer():
            return str(int(value))  # a whole number read back from a CSV (a seed): no '.0'
        return str(value)
    v = float(value)
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if col.format == "p_value":
        return p_text(v)
    if col.format == "count":
        return f"{int(round(v)):,}"
    scale, d = (100.0, col.digits) if col.format == "percent" else (1.0, col.digits)
    text = f"{scale * v:,.{d}f}"
    if low is None or high is None or isnan(low) or isnan(high) or low == high:
        return text
    below, above = f"{scale * (v - float(low)):.{d}f}", f"{scale * (float(high) - v):.{d}f}"
    return f"{text} ± {above}" if below == above else f"{text} [{scale * float(low):,.{d}f}, {scale * float(high):,.{d}f}]"


def _shown(frame: pd.DataFrame, names: Iterable[str] | None) -> list[str]:
    """The columns shown: ``names``, or every column but the bounds of an estimate shown beside it."""
    if names is not None:
        return list(names)
    cols = [str(c) for c in frame.columns]
    bounds = {f"{c}_{e}" for c in cols for e in ("low", "high") if f"{c}_low" in cols and f"{c}_high" in cols}
    return [c for c in cols if c not in bounds]


def document_table(title: str, frame: pd.DataFrame, csv: str | None, *, names: Iterable[str] | None = None,
                   titles: Mapping[str, str] | None = None, declared: Mapping[str, Column] | None = None,
                   note: str = "") -> Table:
    """A report table of ``frame`` (the CSV ``csv`` keeps all its columns at full precision): the columns
    ``names`` (default: all, each estimate with its ``_low``/``_high`` bounds as one ``±`` cell), headers in
    words (``titles`` overrides a header), cells by the schema (``declared`` adds columns named at run time,
    such as one per player count)."""
    shown = _shown(frame, names)
    cols = [column(n, frame[n], declared) for n in shown]
    headers = [(titles or {}).get(n, c.header) for n, c in zip(shown, cols)]
    rows = []
    for i in range(len(frame)):
        row = []
        for n, c in zip(shown, cols):
            lo, hi = (f"{n}_low", f"{n}_high")
            bounds = (frame[lo].iloc[i], frame[hi].iloc[i]) if lo in frame.columns and hi in frame.columns \
                else (None, None)
            row.append(cell(c, frame[n].iloc[i], *bounds))
        rows.append(row)
    align = ["l" if c.format == "text" else "r" for c in cols]
    has_interval = any(f"{n}_low" in frame.columns for n in shown)
    if has_interval and "±" not in note:
        note = (note + " " if note else "") + "a ± b: the estimate and half the width of its 95% confidence interval."
    return Table(title, headers, rows, csv=csv, data=frame, note=note, align=align, declared=dict(declared or {}))


def text_formats(frame: pd.DataFrame) -> dict[str, object]:
    """The :func:`~ricochet_math.reports.tables.text_table` format of every column of ``frame`` (the CLI)."""
    from ricochet_math.reports.tables import Number, Percent, Text, Whole

    out = {}
    for name in frame.columns:
        c = column(str(name), frame[name])
        if c.format == "percent":
            out[name] = Percent(c.digits, title=c.header)
        elif c.format == "count":
            out[name] = Whole(title=c.header)
        elif c.format in ("number", "p_value"):
            out[name] = Number(c.digits, interval=True, title=c.header)
        else:
            out[name] = Text(title=c.header)
    return out


def excel_format(name: str, series: pd.Series, declared: Mapping[str, Column] | None = None) -> str | None:
    """The workbook's number format of a column (None for text): a percent with the column's decimals,
    counts as ``#,##0``, numbers with their decimals and separators (``declared``: the report's own columns,
    as :func:`document_table` read them)."""
    if pd.api.types.is_bool_dtype(series) or not pd.api.types.is_numeric_dtype(series):
        return None
    c = column(str(name), series, declared)
    decimals = "." + "0" * c.digits if c.digits > 0 else ""
    if c.format == "percent":
        return f"0{decimals}%"
    if c.format == "count":
        return "#,##0"
    if c.format == "p_value":
        return f"0{decimals}"
    if c.format == "text":
        return None
    return f"#,##0{decimals}"


#: the PDF's text width: A4 (210 mm) less the template's 13 mm side margins (templates/report.html.j2)
PAGE_WIDTH_MM = 184.0
#: widest glyph of the PDF's table text, DejaVu Sans digits at 7.5 pt (0.636 em), in mm
_CHAR_MM = 0.636 * 7.5 * 25.4 / 72
#: a cell's left and right padding (0.55 rem each at the PDF's 9 pt root size), in mm
_PAD_MM = 2 * 0.55 * 9 * 25.4 / 72


def table_width_mm(table: Table) -> float:
    """An upper estimate of a report table's width in the PDF: per column the longest unbreakable text
    (right-aligned cells do not wrap; headers and left-aligned cells wrap at spaces) at the widest glyph,
    plus the padding."""
    total = 0.0
    for j, header in enumerate(table.columns):
        right = (table.align or [])[j:j + 1] == ["r"]
        words = [len(w) for w in str(header).split()] or [0]
        for row in table.rows:
            text = str(row[j])
            words.append(len(text) if right else max((len(w) for w in text.split()), default=0))
        total += max(words) * _CHAR_MM + _PAD_MM
    return total


def fits_page(table: Table) -> bool:
    """Whether :func:`table_width_mm` keeps the table within the PDF's text width."""
    return table_width_mm(table) <= PAGE_WIDTH_MM


def overflowing_tables(html: str) -> list[tuple[str, float]]:
    """The tables of a written ``report.html`` that :func:`fits_page` rejects, as ``(caption, width in mm)``:
    the check a report's PDF needs, run on the HTML the PDF is made from."""
    from html.parser import HTMLParser

    class _Tables(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tables, self.cell, self.where = [], None, None

        def handle_starttag(self, tag, attrs):
            if tag == "table":
                self.tables.append({"caption": "", "head": [], "rows": [], "align": []})
            elif self.tables and tag == "caption":
                self.where = "caption"
            elif self.tables and tag == "tr":
                self.tables[-1]["rows"].append([])
                self.tables[-1]["align"] = []
            elif self.tables and tag in ("th", "td"):
                self.cell = ""
                self.where = tag
                if tag == "td":
                    self.tables[-1]["align"].append("r" if "r" in (dict(attrs).get("class") or "").split() else "l")
            elif self.tables and tag == "a" and self.where == "caption":
                self.where = "caption-link"

        def handle_endtag(self, tag):
            if tag in ("th", "td") and self.cell is not None:
                t = self.tables[-1]
                (t["head"] if tag == "th" else t["rows"][-1]).append(" ".join(self.cell.split()))
                self.cell = None
                self.where = None
            elif tag in ("caption",):
                self.where = None
            elif tag == "a" and self.where == "caption-link":
                self.where = "caption"

        def handle_data(self, data):
            if self.where == "caption":
                self.tables[-1]["caption"] += data
            elif self.cell is not None:
                self.cell += data

    parser = _Tables()
    parser.feed(html)
    out = []
    for t in parser.tables:
        rows = [r for r in t["rows"] if r]
        table = Table(t["caption"].strip(), t["head"], rows, align=t["align"] or None)
        if len(table.align) != len(table.columns):
            table.align = ["l"] + ["r"] * (len(table.columns) - 1)
        width = table_width_mm(table)
        if width > PAGE_WIDTH_MM:
            out.append((table.title, round(width)))
    return out
