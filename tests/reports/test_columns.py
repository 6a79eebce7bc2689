"""The one column schema: the CLI tables, the report tables and the workbook read a column the same way."""
from __future__ import annotations

import re

import pandas as pd
import pytest

from ricochet_math.reports.columns import SCHEMA, Column, cell, column, document_table, excel_format, text_formats
from ricochet_math.reports.tables import text_table

FRAME = pd.DataFrame({
    "players": [2, 3], "games": [20_000.0, 20_000.0], "win_rate": [0.33395, 0.2512345],
    "win_rate_low": [0.3274136, 0.2450001], "win_rate_high": [0.3404864, 0.2574689],
    "rtp_wagered": [0.981638, 0.97], "seat_wald": [3.2, 0.5], "seat_p_value": [0.0734, 0.00001],
    "mystery": [-0.039262132334622335, 1.5], "strategy": ["pot-odds", "min-lift"],
})


def test_every_declared_column_has_a_known_format_and_words():
    for name, c in SCHEMA.items():
        assert c.name == name and c.title and "_" not in c.title, name
        assert c.format in ("percent", "count", "number", "p_value", "text")


def test_a_percent_is_a_percent_in_all_three_outputs():
    doc = document_table("t", FRAME, "t")
    head = doc.columns
    row = dict(zip(head, doc.rows[0]))
    assert row["win rate (%)"] == "33.40 ± 0.65"
    assert row["RTP per total wagered (%)"] == "98.1638"
    assert excel_format("rtp_wagered", FRAME.rtp_wagered) == "0.0000%"
    assert excel_format("win_rate_low", FRAME.win_rate_low) == "0.00%"
    text = text_table(FRAME, text_formats(FRAME), width=400)
    assert "98.1638" in text and "33.40 ± 0.65" in text


def test_counts_are_whole_with_separators_and_no_raw_floats():
    doc = document_table("t", FRAME, "t")
    row = dict(zip(doc.columns, doc.rows[0]))
    assert row["games"] == "20,000"                      # not 20,000.0000
    assert excel_format("games", FRAME.games) == "#,##0"
    assert row["mystery"] == "-0.0393"                   # an undeclared float: four decimals
    for r in doc.rows:
        for v in r:
            assert not re.search(r"\d\.\d{7,}", v), v     # no raw float in a human output
    assert row["seat test statistic"] == "3.20"           # a statistic is not a percent
    assert excel_format("seat_wald", FRAME.seat_wald) == "#,##0.00"
    assert dict(zip(doc.columns, doc.rows[1]))["seat test p-value"] == "< 0.0001"


def test_headers_are_words_and_bounds_join_their_estimate():
    doc = document_table("t", FRAME, "t")
    assert not any("_" in h for h in doc.columns)
    assert "win_rate_low" not in doc.columns and len(doc.columns) == len(FRAME.columns) - 2
    assert "±" in doc.note
    assert doc.align[doc.columns.index("strategy")] == "l"


def test_undeclared_columns_are_read_from_their_data_not_their_name():
    assert column("x_rate", pd.Series([1, 2])).format == "count"
    assert column("x_rate", pd.Series([0.5, 0.25])).format == "number"
    assert column("x_rate", pd.Series(["a"])).format == "text"
    assert cell(Column("x", "x", format="count", digits=0), 1234567.0) == "1,234,567"
    with pytest.raises(ValueError):
        Column("x", "x", format="weird")


def test_a_reports_own_columns_format_the_workbook_as_its_table(tmp_path):
    """A column a report declares itself (``declared=``, not in SCHEMA) is formatted the same in the report
    table and in its workbook sheet: a declared share is a percent in both, not a bare fraction."""
    from ricochet_math.reports.columns import Column
    from ricochet_math.reports.document import Section
    from ricochet_math.reports.render import document_tables
    from ricochet_math.reports.workbook import write_workbook

    openpyxl = pytest.importorskip("openpyxl")
    frame = pd.DataFrame({"strategy": ["a", "b"], "best_folds": [0.125, 0.5], "best_folds_low": [0.1, 0.45],
                          "best_folds_high": [0.15, 0.55]})
    declared = {"best_folds": Column("best_folds", "best folds", unit="%", format="percent", digits=1)}
    table = document_table("t", frame, "folds", declared=declared)
    assert dict(zip(table.columns, table.rows[0]))["best folds (%)"] == "12.5 ± 2.5"
    section = Section("1", "s")
    section.blocks.append(table)
    frames, titles, own = document_tables([section], {})
    assert own == {"folds": declared}
    write_workbook(tmp_path / "w.xlsx", frames, titles, "t", "2026-12-02 00:00:00 UTC", own)
    sheet = openpyxl.load_workbook(tmp_path / "w.xlsx")["folds"]
    header = [c.value for c in sheet[1]]
    for name in ("best_folds", "best_folds_low", "best_folds_high"):
        assert sheet.cell(row=2, column=header.index(name) + 1).number_format == "0.0%", name
    assert excel_format("best_folds", frame.best_folds) == "#,##0.0000"          # undeclared: a number
    assert excel_format("best_folds", frame.best_folds, declared) == "0.0%"


def test_estimate_text_says_no_detectable_difference_when_the_interval_holds_zero():
    """The one wording of the project for a difference inside its interval, used by every game report."""
    from ricochet_math.reports.columns import estimate_text

    pc = Column("lead", "lead", "fraction", "percent", 2)
    assert estimate_text(pc, 0.0201, -0.0017, 0.0419, " points") == "no detectable difference (± 2.18 points)"
    assert estimate_text(pc, 0.1412, 0.1242, 0.1582, " points") == "14.12 ± 1.70 points"
    chips = Column("net", "net", "chips", "number", 3)
    assert estimate_text(chips, -0.259, -0.334, -0.184) == "-0.259 ± 0.075"
