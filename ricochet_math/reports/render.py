"""Writing the report: the document of :mod:`~ricochet_math.reports.document` as HTML and CSV, and the
PDF made from that HTML.

The HTML is self-contained (inline CSS, plots as inline SVG): it opens with
no network.  The PDF is the same HTML laid out on A4 pages by WeasyPrint
(issue 11: one source, so the PDF cannot drift from the HTML); WeasyPrint is
the optional ``pdf`` extra, and :func:`pdf_available` says when it cannot run.
Both are reproducible: the SVG hash salt is fixed and the PDF has no creation
date; text that varies between builds
(:class:`~ricochet_math.reports.document.Volatile`) is marked in the HTML.
"""
from __future__ import annotations

import io
import os
import threading
import logging
import re
import warnings
from collections.abc import Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jinja2
import pandas as pd
from markupsafe import Markup, escape

from ricochet_math.reports.document import Para, Plot, Table, Volatile
from ricochet_math.storage import exact_seed_columns

__all__ = ["rc_context", "render_html", "render_pdf", "pdf_available", "PDF_NEEDS", "write_csvs", "read_csvs"]

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


@contextmanager
def rc_context():
    """Matplotlib settings of the report (fixed SVG hash salt, fonts), restored on leaving."""
    # lazy, like the figure below: matplotlib adds about half a second to `import ricochet_math`
    import matplotlib as mpl

    with mpl.rc_context():
        mpl.rcdefaults()
        mpl.rcParams.update(_RC)
        yield


def _svg(plot: Plot) -> str:
    """The plot as an inline SVG element: no XML header, metadata or namespaces; ids prefixed by the plot's name."""
    from matplotlib.figure import Figure

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


def render_html(path: Path, sections, title: str, subtitle: list[str], date: str, pdf: bool = True) -> None:
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
        blocks.append({"number": s.number, "title": s.title, "anchor": s.anchor, "blocks": items,
                       "front": getattr(s, "front", False)})
    html = env.get_template("report.html.j2").render(title=title, subtitle=subtitle, sections=blocks,
                                                     date=cell(Volatile(date)), escape=escape, pdf=pdf)
    path.write_text(html, encoding="utf-8")


#: what the PDF needs and how to get it, said in one line when it is missing
PDF_NEEDS = ("the PDF needs WeasyPrint and the pango libraries: pip install 'ricochet_math[pdf]' "
             "(see the README); the HTML, CSV tables and workbook are complete without it")


def pdf_available() -> str | None:
    """None when :func:`render_pdf` can run here, else the reason (one line)."""
    try:
        with warnings.catch_warnings():  # WeasyPrint's notes about optional system libraries: not ours to say
            warnings.simplefilter("ignore")
            import weasyprint  # noqa: F401  (loads pango through cffi: fails without the system libraries)
    except (ImportError, OSError) as exc:
        return f"{PDF_NEEDS} ({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'missing'})"
    return None


def render_pdf(html_path: Path, path: Path) -> None:
    """The PDF of the report made from the report's own HTML file by WeasyPrint (the print rules are in
    the template: A4 pages, page numbers, a contents page with page numbers; WeasyPrint makes the
    bookmarks from the headings and keeps the contents' links).

    The HTML is read as a string with no base address, so its links to the CSV files and to the PDF itself
    are left out of the PDF (they would be absolute paths of the build's temporary folder); the links inside
    the document are kept.  No creation date, and a fixed identifier: the same HTML gives the same bytes.
    """
    import weasyprint

    log = logging.getLogger("weasyprint")
    level = log.level
    log.setLevel(logging.ERROR)  # "relative URI reference without a base URI": the links left out, on purpose
    try:
        document = weasyprint.HTML(string=html_path.read_text(encoding="utf-8"), base_url=None)
        with _font_timestamp():
            document.write_pdf(path, pdf_identifier=b"ricochet_math-report", uncompressed_pdf=False)
    finally:
        log.setLevel(level)


_FONT_LOCK = threading.Lock()


@contextmanager
def _font_timestamp():
    """Pin the time fontTools stamps into the fonts WeasyPrint subsets (their ``head.modified``): it takes
    ``SOURCE_DATE_EPOCH``, else the clock, so two builds a second apart gave different PDF bytes, and a
    ``SOURCE_DATE_EPOCH`` that is not a whole number ended the build in a ValueError.  A valid value is
    kept; otherwise 0 (the font's subset time is nobody's figure) while the PDF is written."""
    with _FONT_LOCK:
        old = os.environ.get("SOURCE_DATE_EPOCH")
        try:
            valid = old is not None and int(old) >= 0
        except ValueError:
            valid = False
        if not valid:
            os.environ["SOURCE_DATE_EPOCH"] = "0"
        try:
            yield
        finally:
            if not valid:
                if old is None:
                    os.environ.pop("SOURCE_DATE_EPOCH", None)
                else:
                    os.environ["SOURCE_DATE_EPOCH"] = old


def document_tables(sections, extra: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    """Every table that names a CSV, in the document's order, then the ``extra`` frames: (frames by CSV
    stem, titles by CSV stem, the report's own declared columns by CSV stem), what
    :func:`~ricochet_math.reports.workbook.write_workbook` writes."""
    frames, titles, declared = {}, {}, {}
    for s in sections:
        for b in s.blocks:
            if isinstance(b, Table) and b.csv:
                frames[b.csv] = b.data
                titles[b.csv] = f"{s.number}. {b.title}"
                if b.declared:
                    declared[b.csv] = b.declared
    for name, frame in extra.items():
        frames[name] = frame
        titles[name] = name.replace("_", " ")
    return frames, titles, declared


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
        exact_seed_columns(frames[name]).to_csv(p, index=False, lineterminator="\n")
        written.append(p)
    return written


def read_csvs(paths) -> dict[str, Any]:
    """The written CSVs read back, by file stem (what :class:`~ricochet_math.reports.build.ReportResult` holds)."""
    return {p.stem: pd.read_csv(p) for p in paths}
