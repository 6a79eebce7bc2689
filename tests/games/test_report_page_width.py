"""Each table of a game report fits the PDF's page width (A4 less the margins), estimated from its text;
long tables go to the workbook and CSV appendix instead of pages of the PDF."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ricochet_math.games.home import report as home_report
from ricochet_math.reports.columns import PAGE_WIDTH_MM, fits_page, overflowing_tables, table_width_mm
from ricochet_math.reports.document import Table

HOME = Path(__file__).resolve().parents[2] / "reports" / "home" / "tables"


def test_the_estimate_flags_a_wide_table_and_passes_a_narrow_one():
    wide = Table("wide", [f"column {i}" for i in range(14)], [["-0.7745263105968675"] * 14])
    narrow = Table("narrow", ["strategy", "win rate (%)"], [["pot-odds", "33.40 ± 0.65"]])
    assert not fits_page(wide) and table_width_mm(wide) > PAGE_WIDTH_MM
    assert fits_page(narrow)
    html = ("<table><caption>wide <a href='x'>CSV</a></caption><thead><tr>" + "<th>h</th>" * 30 +
            "</tr></thead><tbody><tr>" + '<td class="r">123,456.7890</td>' * 30 + "</tr></tbody></table>")
    assert overflowing_tables(html) == [("wide", round(30 * table_width_mm(
        Table("w", ["h"], [["123,456.7890"]], align=["r"]))))]


def test_home_report_tables_fit_the_page_and_long_ones_go_to_the_appendix():
    tables = {"by_order": "home-by-order", "by_seat": "home-by-seat", "tests": "home-tests", "shape": "home-shape",
              "by_start_4p": "home-by-start-4p", "contrast": "home-vs-casino", "depth_error": "home-depth-error"}
    tables = {k: pd.read_csv(HOME / f"{v}.csv") for k, v in tables.items()}
    sections = home_report._sections(tables, "small", 2026, "2026-01-01 00:00:00 UTC", 1.0)
    shown = [b for s in sections for b in s.blocks if isinstance(b, Table)]
    assert shown and all(fits_page(t) for t in shown), [(t.title, round(table_width_mm(t))) for t in shown
                                                         if not fits_page(t)]
    assert all(len(t.rows) <= 40 for t in shown)                       # no thirty pages of rows
    assert sections[0].blocks[-1].csv == "home-summary"               # a summary table first
    appendix = home_report._appendix(tables)
    assert set(appendix) == set(home_report.APPENDIX) and not {t.csv for t in shown} & set(appendix)
