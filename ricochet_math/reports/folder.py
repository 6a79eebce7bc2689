"""Writing a report folder: one function every report uses, the casino game's and each further game's.

A report is a list of :class:`~ricochet_math.reports.document.Section` plus a few
volatile frames (run times, provenance).  :func:`write_report_folder` lays it
out the same way for every game: ``report.html`` (the single source),
``tables/*.csv`` (full precision), ``report.xlsx`` (one sheet per table, numbers
as numbers) and ``report.pdf`` (WeasyPrint from the same HTML, where the
``pdf`` extra is installed; otherwise one line in ``notes`` says so).  Everything
is written in a temporary folder beside ``out`` and moved into place only when
complete, with the toolkit's marker, so a failure leaves nothing half-written
and a folder the toolkit did not write is never replaced.

The marker records every file the report wrote with its SHA-256.  A rebuild
replaces exactly those and keeps whatever else is in the folder (a reviewer's
notes, a spreadsheet beside the tables); a file of the report's that was edited
since is not overwritten: the rebuild is refused, naming it
(:func:`ricochet_math.storage.replace_folder`).
"""
from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ricochet_math.reports import render, workbook
from ricochet_math.storage import STAGING_MARKER, replace_folder, staging_folder, write_marker

__all__ = ["WrittenReport", "write_report_folder"]


@dataclass(frozen=True)
class WrittenReport:
    """What :func:`write_report_folder` wrote: the files (relative to the folder), the CSV tables read back
    (full precision), notes for the reader (for example why there is no PDF), and the files of the user's
    that the folder held and still holds (relative paths)."""

    files: tuple[Path, ...]
    tables: dict[str, Any]
    notes: tuple[str, ...]
    kept: tuple[str, ...] = ()


def write_report_folder(out: Path, sections: Sequence, extra: Mapping[str, Any], title: str,
                        subtitle: list[str], date: str, kind: str, marker: Mapping[str, Any]) -> WrittenReport:
    """Write the report ``sections`` (plus the ``extra`` frames as CSV and workbook sheets) to ``out``.

    ``kind`` names the report in the folder's marker (``marker`` adds fields such as the seed);
    an existing ``out`` is replaced only if it is empty or its marker says the toolkit wrote a report
    of that kind (``out`` was checked by :func:`~ricochet_math.storage.prepare_output_folder` before
    the work).  The PDF is made from the HTML just written, so the two carry
    the same content."""
    no_pdf = render.pdf_available()
    tmp = staging_folder(out, kind)
    try:
        with render.rc_context():
            csvs = render.write_csvs(tmp / "tables", sections, extra)
            render.render_html(tmp / "report.html", sections, title, subtitle, date, pdf=not no_pdf)
        frames, titles, declared = render.document_tables(sections, extra)
        workbook.write_workbook(tmp / "report.xlsx", frames, titles, title, date, declared)
        if not no_pdf:
            render.render_pdf(tmp / "report.html", tmp / "report.pdf")
        tables = render.read_csvs(csvs)
        files = tuple(sorted(p.relative_to(tmp) for p in tmp.rglob("*") if p.is_file() and p.name != STAGING_MARKER))
        write_marker(tmp, kind, record_files=True, **marker)
        kept = replace_folder(tmp, out, kind, "report folder")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return WrittenReport(files=files, tables=tables, notes=(no_pdf,) if no_pdf else (), kept=kept)
