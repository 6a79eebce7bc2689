"""Writing the report: the document of :mod:`~ricochet_math.reports.document` as HTML, PDF and CSV.

The HTML is self-contained (inline CSS, plots as inline SVG): it opens with
no network.  The PDF is made with matplotlib only, in the PDF core fonts
(Helvetica, Courier).  Both are reproducible: the SVG hash salt is fixed and
the PDF has no creation date; text that varies between builds
(:class:`~ricochet_math.reports.document.Volatile`) is marked in the HTML.
"""
from __future__ import annotations

import io
import logging
import re
import textwrap
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jinja2
import matplotlib as mpl
import pandas as pd
from markupsafe import Markup, escape
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from ricochet_math.reports.document import Para, Plot, Table, Volatile

__all__ = ["rc_context", "render_html", "render_pdf", "write_csvs", "read_csvs"]

_RC = {
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "axes.titlesize": 9,
    "svg.hashsalt": "ricochet-report",
    "svg.fonttype": "none",
    "pdf.fonttype": 42,
    "pdf.compression": 6,
    "path.simplify": True,
    "figure.dpi": 100,
}


# The PDF uses the PDF core fonts (Helvetica, Courier): no font embedding, several times faster to
# write than embedded TrueType subsets, and every PDF reader has them.
_RC_PDF = {"pdf.use14corefonts": True, "font.family": "Helvetica", "axes.unicode_minus": False}


@contextmanager
def rc_context(pdf: bool = False):
    """Matplotlib settings of the report (fixed SVG hash salt, fonts), restored on leaving.

    ``pdf``: the PDF core fonts.  Matplotlib's "Helvetica not found" warnings
    (it lays text out with another font's metrics) are silenced meanwhile.
    """
    log = logging.getLogger("matplotlib.font_manager")
    level = log.level
    with mpl.rc_context():
        mpl.rcdefaults()
        mpl.rcParams.update(_RC)
        if pdf:
            mpl.rcParams.update(_RC_PDF)
        log.setLevel(logging.ERROR)
        try:
            yield
        finally:
            log.setLevel(level)


def _svg(plot: Plot) -> str:
    """The plot as an inline SVG element: no XML header, metadata or namespaces; ids prefixed by the plot's name."""
    fig = Figure(figsize=(plot.width, plot.height))
    plot.draw(fig, (0.0, 0.0, plot.width, plot.height))
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    text = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", text)
    text = re.sub(r'\s+version="1\.1"', "", text)
    prefix = plot.name + "-"
    text = re.sub(r'\bid="', f'id="{prefix}', text)
    text = text.replace("url(#", f"url(#{prefix}").replace('href="#', f'href="#{prefix}')
    return text.strip()


def render_html(path: Path, sections, title: str, subtitle: list[str], date: str) -> None:
    """The self-contained HTML (templates/report.html.j2): inline CSS, plots as inline SVG, volatile text marked."""

    def cell(value):
        if isinstance(value, Volatile):
            return Markup('<span class="volatile" title="varies between builds">{}</span>').format(str(value))
        return value

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("ricochet_math.reports", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]), trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
    )
    env.filters["cell"] = cell
    blocks = []
    for s in sections:
        items = []
        for b in s.blocks:
            if isinstance(b, Para):
                items.append({"kind": b.kind, "text": b.text})
            elif isinstance(b, Table):
                items.append({"kind": "table", "title": b.title, "columns": b.columns, "rows": b.rows,
                              "csv": b.csv, "note": b.note, "align": b.align})
            else:
                items.append({"kind": "figure", "title": b.title, "caption": b.caption, "svg": Markup(_svg(b)),
                              "name": b.name})
        blocks.append({"number": s.number, "title": s.title, "anchor": s.anchor, "blocks": items})
    html = env.get_template("report.html.j2").render(title=title, subtitle=subtitle, sections=blocks,
                                                     date=cell(Volatile(date)), escape=escape)
    path.write_text(html, encoding="utf-8")


class _PdfWriter:
    """Flow text, tables and plots onto A4 pages (matplotlib only)."""

    W, H = 8.27, 11.69
    X0, X1, TOP, BOTTOM = 0.7, 7.57, 0.7, 0.75
    SANS, MONO = "Helvetica", "Courier"     # PDF core fonts: nothing to embed, fast to write

    def __init__(self, pdf, footer: str):
        self.pdf, self.footer = pdf, footer
        self.fig = None
        self.page = 0
        self.y = 0.0

    # -- pages
    def new_page(self):
        self.finish_page()
        self.fig = Figure(figsize=(self.W, self.H))
        self.page += 1
        self.y = self.H - self.TOP

    def finish_page(self):
        if self.fig is not None:
            self.fig.text(self.X0 / self.W, 0.4 / self.H, _latin1(self.footer), fontsize=6.5, color="0.4",
                          parse_math=False)
            self.fig.text(self.X1 / self.W, 0.4 / self.H, f"page {self.page}", fontsize=6.5, color="0.4",
                          ha="right", parse_math=False)
            self.pdf.savefig(self.fig)
            self.fig = None

    def need(self, h: float):
        if self.fig is None or self.y - h < self.BOTTOM:
            self.new_page()

    def text(self, line: str, size: float, *, weight="normal", family=None, color="black",
             indent: float = 0.0, lead: float = 1.3):
        self.lines([line], size, weight=weight, family=family, color=color, indent=indent, lead=lead)

    def lines(self, lines: Sequence[str], size: float, *, weight="normal", family=None, color="black",
              indent: float = 0.0, lead: float = 1.3, on_new_page=None):
        """Draw lines top-down, ``size * lead`` points apart, breaking pages as needed."""
        pitch = size * lead / 72.0
        family = family or self.SANS
        for line in lines:
            if self.fig is None or self.y - pitch < self.BOTTOM:
                self.new_page()
                if on_new_page is not None:
                    on_new_page()
            baseline = self.y - 0.8 * size / 72.0      # the same baseline whatever glyphs a line holds
            self.fig.text((self.X0 + indent) / self.W, baseline / self.H, _latin1(line), fontsize=size,
                          fontweight=weight, family=family, color=color, va="baseline", parse_math=False)
            self.y -= pitch

    # -- blocks
    def heading(self, text: str, size: float = 13):
        self.need(size * 3.5 / 72.0)
        self.y -= 0.12
        self.text(text, size, weight="bold")
        self.y -= 0.05

    def paragraph(self, text: str, size: float = 8.5, color="black"):
        width = int((self.X1 - self.X0) * 72.0 / (size * 0.52))
        self.lines(textwrap.wrap(text, width) or [""], size, color=color)
        self.y -= 0.08

    def table(self, t: Table):
        cells = [list(t.columns)] + [[str(c) for c in row] for row in t.rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(t.columns))]
        cap = 46
        if sum(widths) + 2 * len(widths) > 150:   # wrap the widest text columns
            widths = [min(w, cap) for w in widths]
        lines = []
        for k, row in enumerate(cells):
            wrapped = [textwrap.wrap(c, widths[i]) or [""] for i, c in enumerate(row)]
            for j in range(max(len(w) for w in wrapped)):
                parts = []
                for i, w in enumerate(wrapped):
                    piece = w[j] if j < len(w) else ""
                    parts.append(piece.rjust(widths[i]) if t.align[i] == "r" and k > 0 else piece.ljust(widths[i]))
                lines.append(("  ".join(parts).rstrip(), k == 0))
        chars = max(len(s) for s, _ in lines)
        size = min(7.0, (self.X1 - self.X0) * 72.0 / (0.602 * max(chars, 1)))
        mono = self.MONO
        header = [s for s, is_head in lines if is_head]
        body = [s for s, is_head in lines if not is_head]
        rule = "-" * chars
        self.need(size * 1.3 / 72.0 * (len(header) + 1 + min(len(body), 3)) + 0.3)

        def head(title=t.title):
            self.text(title, 8.5, weight="bold")
            self.lines(header, size, family=mono, weight="bold")
            self.text(rule, size, family=mono, color="0.5")

        head()
        self.lines(body, size, family=mono, on_new_page=lambda: head(t.title + " (continued)"))
        if t.note:
            self.paragraph(t.note, 7, color="0.3")
        self.y -= 0.12

    def plot(self, p: Plot):
        w = self.X1 - self.X0
        h = p.height * w / p.width
        self.need(h + 0.9)
        self.text(p.title, 8.5, weight="bold")
        p.draw(self.fig, (self.X0, self.y - h, w, h))
        self.y -= h + 0.05
        self.paragraph(p.caption, 7.5, color="0.3")


_LATIN1 = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2265": ">=", "\u2264": "<=",
                         "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2026": "...",
                         "\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"})


def _latin1(text: str) -> str:
    """Text the PDF core fonts can show: a few common symbols spelled out, anything else outside Latin-1 as '?'."""
    return str(text).translate(_LATIN1).encode("latin-1", "replace").decode("latin-1")


def render_pdf(path: Path, sections, title: str, subtitle: list[str], date: str) -> None:
    """The same report on A4 pages, matplotlib only (PDF core fonts, no creation date)."""
    metadata = {"Title": title, "Subject": "Ricochet Poker certification-style report",
                "Creator": "ricochet_math.reports.build", "CreationDate": None, "ModDate": None}
    with PdfPages(path, metadata=metadata) as pdf:
        w = _PdfWriter(pdf, title)
        w.new_page()
        w.y -= 1.0
        for line in textwrap.wrap(title, 52):
            w.text(line, 18, weight="bold")
        w.y -= 0.1
        for line in subtitle:
            w.paragraph(line, 9.5)
        w.paragraph(f"Built: {date} (varies between builds)", 9.5, color="0.35")
        w.y -= 0.3
        w.text("Contents", 12, weight="bold")
        w.lines([f"{s.number}.  {s.title}" for s in sections], 10, indent=0.2, lead=1.6)
        for s in sections:
            w.new_page()
            w.heading(f"{s.number}. {s.title}")
            for b in s.blocks:
                if isinstance(b, Para):
                    if b.kind == "h3":
                        w.need(0.6)
                        w.y -= 0.05
                        w.text(b.text, 10.5, weight="bold")
                        w.y -= 0.03
                    elif b.kind == "note":
                        w.paragraph(b.text, 8.5, color="#a00000")
                    else:
                        w.paragraph(b.text)
                elif isinstance(b, Table):
                    w.table(b)
                else:
                    w.plot(b)
        w.finish_page()


def write_csvs(directory: Path, sections, extra: Mapping[str, Any]) -> list[Path]:
    """Every table that names a CSV, and the ``extra`` frames, as ``<name>.csv`` (full precision)."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    frames = {}
    for s in sections:
        for b in s.blocks:
            if isinstance(b, Table) and b.csv:
                if b.csv in frames:
                    raise RuntimeError(f"two tables write {b.csv}.csv")
                frames[b.csv] = b.data
    frames.update(extra)
    for name in sorted(frames):
        p = directory / f"{name}.csv"
        frames[name].to_csv(p, index=False, lineterminator="\n")
        written.append(p)
    return written


def read_csvs(paths) -> dict[str, Any]:
    """The written CSVs read back, by file stem (what :class:`~ricochet_math.reports.build.ReportResult` holds)."""
    return {p.stem: pd.read_csv(p) for p in paths}
