"""A game report read through the one column schema: headers in words, no raw floats, percent as percent."""
from __future__ import annotations

import re

import pytest

from ricochet_math.games.rococo.report import build_rococo_report
from ricochet_math.reports.columns import overflowing_tables


def test_rococo_report_tables_have_word_headers_and_no_raw_floats(tmp_path):
    out = tmp_path / "rococo"
    build_rococo_report(out, size="tiny", seed=5, reproducible=True)
    html = (out / "report.html").read_text(encoding="utf-8")
    body = re.sub(r"<svg.*?</svg>", "", html, flags=re.S)
    headers = re.findall(r"<th[^>]*>(.*?)</th>", body, flags=re.S)
    assert headers and not [h for h in headers if "_" in h]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", body, flags=re.S)
    assert not [c for c in cells if re.search(r"\d\.\d{7,}", c)]          # e.g. -0.039262132334622335
    assert not [c for c in cells if re.search(r"\d,\d{3}\.0{4}\b", c)]      # e.g. 20,000.0000
    assert "optimal pot share (%)" in headers
    assert overflowing_tables(html) == []                                 # every table fits the PDF's page
    openpyxl = pytest.importorskip("openpyxl")
    sheet = openpyxl.load_workbook(out / "report.xlsx")["versus_naive"]
    header = [c.value for c in sheet[1]]
    assert sheet.cell(row=2, column=header.index("optimal_share") + 1).number_format.endswith("%")


def _headers_and_cells(html: str) -> tuple[list[str], list[str]]:
    body = re.sub(r"<svg.*?</svg>", "", html, flags=re.S)
    return (re.findall(r"<th[^>]*>(.*?)</th>", body, flags=re.S),
            re.findall(r"<td[^>]*>(.*?)</td>", body, flags=re.S))


def test_freeride_report_tables_are_read_through_the_column_schema(tmp_path):
    from ricochet_math.games.freeride.report import freeride_report

    out = tmp_path / "freeride"
    freeride_report(out, games=100, rounds=1000, seats=(2, 4), candidates=("always", "computer", "cautious"),
                    reproducible=True)
    html = (out / "report.html").read_text(encoding="utf-8")
    headers, cells = _headers_and_cells(html)
    assert headers and not [h for h in headers if "_" in h]
    assert not [c for c in cells if re.search(r"\d\.\d{7,}", c)]
    for header in ("game win rate (%)", "game length (rounds)", "net per round (chips)", "starter (chips)",
                   "fresh win rate, runner-up (%)", "best play folds (%)", "given up (chips)"):
        assert header in headers, header
    assert overflowing_tables(html) == []
    # the table shows the three best of each table size; its CSV keeps every candidate at full precision
    import pandas as pd

    best = pd.read_csv(out / "tables" / "best_response.csv")
    assert len(best) == 6 and {"win_low", "chips_low", "rounds"} <= set(best.columns)
    seats = pd.read_csv(out / "tables" / "seats.csv")
    assert {"net_per_round_low", "net_per_round_high"} <= set(seats.columns)
    openpyxl = pytest.importorskip("openpyxl")
    sheet = openpyxl.load_workbook(out / "report.xlsx")["seats"]
    header = [c.value for c in sheet[1]]
    assert sheet.cell(row=2, column=header.index("win") + 1).number_format == "0.00%"
    assert sheet.cell(row=2, column=header.index("net_per_round") + 1).number_format == "#,##0.000"
    # a column the report declares itself (not in the shared schema) is a percent in the workbook too
    sheet = openpyxl.load_workbook(out / "report.xlsx")["best_response_confirmed"]
    header = [c.value for c in sheet[1]]
    assert sheet.cell(row=2, column=header.index("runner_up_win") + 1).number_format == "0.00%"
