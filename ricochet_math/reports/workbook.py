"""The report's tables as one Excel workbook (``report.xlsx``): labs and operators work in spreadsheets.

One sheet per table of ``tables/*.csv`` (the same names, the same columns,
the same rows), a ``contents`` sheet first (sheet, title, CSV) and the
provenance and run-time sheets last.  Numbers are written as numbers, never
text, with the number format of the one column schema (:mod:`.columns`: a percent
is a percent, counts with thousands separators); the stored value is the full number.
Written with XlsxWriter (write-only, small, pure Python), in memory so the zip
entries carry a fixed date, and with a fixed creation date: the same tables
give the same bytes.

XlsxWriter, like every xlsx writer, stores a number with 16 significant digits
(``%.16G``); Excel shows 15.  The CSV files keep the full 17 digits.  A seed (a whole number of up to
128 bits) does not fit a spreadsheet number, so every seed column is written as text, digit for digit,
and so is any other whole number beyond 2**53 (issue 36).
"""
from __future__ import annotations

import datetime as _dt
import math
import re
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.reports.columns import excel_format
from ricochet_math.storage import exact_seed_columns, is_seed_column

__all__ = ["write_workbook", "number_format", "SHEET_CONTENTS", "WORKBOOK_DIGITS"]

SHEET_CONTENTS = "contents"
#: significant digits an xlsx file keeps of a number (XlsxWriter and openpyxl both write ``%.16G``)
WORKBOOK_DIGITS = 16



def number_format(name: str, series: pd.Series, declared: Mapping | None = None) -> str | None:
    """The Excel number format of a column, from the column schema (:mod:`.columns`) and the report's own
    ``declared`` columns; None for text."""
    return excel_format(name, series, declared)


def _created(date: str) -> _dt.datetime:
    """The workbook's creation date: the report's build date, or 1980-01-01 when it is not recorded."""
    try:
        return _dt.datetime.strptime(date, "%Y-%m-%d %H:%M:%S UTC")
    except ValueError:
        return _dt.datetime(1980, 1, 1)


def write_workbook(path: Path, frames: Mapping[str, pd.DataFrame], titles: Mapping[str, str], title: str,
                   date: str, declared: Mapping[str, Mapping] | None = None) -> None:
    """Write ``frames`` (by CSV stem, in order) as one sheet each, after a contents sheet listing
    ``titles[stem]``.  ``date``: the build date (the workbook's creation date); ``declared``: by CSV stem,
    the report's own columns beyond the schema, so a sheet formats them as its report table does."""
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path), {"in_memory": True, "strings_to_numbers": False,
                                           "strings_to_formulas": False, "strings_to_urls": False,
                                           "nan_inf_to_errors": False})
    book.set_properties({"title": title, "subject": "Ricochet Poker mathematics report",
                         "author": "ricochet_math", "created": _created(date)})
    bold = book.add_format({"bold": True, "bg_color": "#F2F3F5", "bottom": 1, "text_wrap": True,
                            "valign": "top"})
    formats: dict[str, object] = {}

    names = _sheet_names(list(frames))
    contents = book.add_worksheet(SHEET_CONTENTS)
    contents.write_row(0, 0, ["sheet", "table", "csv file"], bold)
    contents.write_string(len(frames) + 2, 0, title)
    contents.write_string(len(frames) + 3, 0, f"built {date}")
    contents.set_column(0, 0, 28)
    contents.set_column(1, 1, 90)
    contents.set_column(2, 2, 32)
    for i, stem in enumerate(frames, start=1):
        contents.write_url(i, 0, f"internal:'{names[stem]}'!A1", string=names[stem])
        contents.write_string(i, 1, titles.get(stem, stem))
        contents.write_string(i, 2, f"tables/{stem}.csv")
    contents.freeze_panes(1, 0)

    for stem, frame in frames.items():
        frame = exact_seed_columns(frame)
        sheet = book.add_worksheet(names[stem])
        sheet.write_row(0, 0, [str(c) for c in frame.columns], bold)
        for j, name in enumerate(frame.columns):
            col = frame[name]
            seeds = is_seed_column(name)
            fmt = None if seeds else number_format(str(name), col, (declared or {}).get(stem))
            if fmt and fmt not in formats:
                formats[fmt] = book.add_format({"num_format": fmt})
            cell_format = formats[fmt] if fmt else None
            for i, value in enumerate(col.tolist(), start=1):
                _write(sheet, i, j, value, cell_format, text_numbers=seeds)
            width = max([len(str(name))] + [len(str(v)) for v in col.head(200).tolist() if fmt is None] + [10])
            sheet.set_column(j, j, min(width + 2, 60) if fmt is None else max(len(str(name)) + 2, 12),
                             cell_format)
        sheet.freeze_panes(1, 0)
    book.close()


#: the largest whole number a spreadsheet cell (a double) holds exactly
_EXACT_WHOLE = 2 ** 53


def _write(sheet, row: int, col: int, value, cell_format, text_numbers: bool = False) -> None:
    """One cell: numbers as numbers, booleans as booleans, text as text, missing values blank; a whole
    number as text where ``text_numbers`` (a seed) or where a double would round it (beyond 2**53)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and (
            text_numbers or abs(int(value)) > _EXACT_WHOLE):
        sheet.write_string(row, col, str(int(value)))
    elif value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        sheet.write_blank(row, col, None, cell_format)
    elif isinstance(value, (bool, np.bool_)):
        sheet.write_boolean(row, col, bool(value))
    elif isinstance(value, (int, float, np.integer, np.floating)):
        if math.isinf(float(value)):
            sheet.write_string(row, col, "inf" if value > 0 else "-inf")
        else:
            sheet.write_number(row, col, float(value), cell_format)
    else:
        sheet.write_string(row, col, str(value))


def _sheet_names(stems: list[str]) -> dict[str, str]:
    """Excel sheet names (at most 31 characters, unique, none of ``[]:*?/\\``) for the CSV stems."""
    out, used = {}, {SHEET_CONTENTS}
    for stem in stems:
        base = re.sub(r"[\[\]:*?/\\']", "_", stem)[:31]
        name, k = base, 2
        while name.lower() in used:
            name = f"{base[:28]}~{k}"
            k += 1
        used.add(name.lower())
        out[stem] = name
    return out
