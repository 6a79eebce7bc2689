"""A game report read through the one column schema: headers in words, no raw floats, percent as percent."""
from __future__ import annotations

import re

import pandas as pd
import pytest

from ricochet_math.reports.columns import overflowing_tables


def test_rococo_report_tables_have_word_headers_and_no_raw_floats(rococo_tiny_report):
    out, _ = rococo_tiny_report
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


def _summary(out) -> tuple[str, str, pd.DataFrame]:
    """A written game report's first section checked as a summary: numbered 1 and titled "Summary", its
    table in words and within the page, a plot in the report; returns the report's HTML, the summary's
    sentences (unescaped) and its CSV."""
    import html as markup

    page = (out / "report.html").read_text(encoding="utf-8")
    titles = re.findall(r"<h2>(\d+)\. (.*?)</h2>", page)
    assert titles[0] == ("1", "Summary") and len({n for n, _ in titles}) == len(titles)
    first = page[page.index('<section id="s1">'):]
    first = first[:first.index("</section>")]
    headers = re.findall(r"<th(?:\s[^>]*)?>(.*?)</th>", first, flags=re.S)   # not <thead>
    assert headers[0] == "figure" and not [h for h in headers if "_" in h]
    assert overflowing_tables(page) == []
    assert "<svg" in page or "<img" in page                               # the report has its plot
    text = " ".join(markup.unescape(p) for p in re.findall(r"<p>(.*?)</p>", first, flags=re.S))
    return page, text, pd.read_csv(out / "tables" / "summary.csv")


def _first_page(out, words=()) -> str:
    """Page 1 of a written game report (issue 36): the document control (rules and their SHA-256, version,
    seed, size, run time, the sign-off fields) and the headline figures, before the contents; in the PDF
    too where one was written.  Returns the HTML before the contents."""
    page = (out / "report.html").read_text(encoding="utf-8")
    front = page[:page.index("<nav>")]
    for item in ("Document control", "Document id", "Rule-set SHA-256", "ricochet_math", "Size and seed",
                 "Run time", "Reviewed by (name, laboratory)", "Signature", "Approved for release by",
                 "Headline figures", *words):
        assert item in front, item
    body = re.sub(r"<svg.*?</svg>", "", page, flags=re.S)
    assert not re.findall(r"\d(?:\.\d+)?e-\d+", body)                     # one p-value format: no 6.33e-221
    pdf = out / "report.pdf"
    if pdf.exists():
        pypdf = pytest.importorskip("pypdf")
        text = " ".join(pypdf.PdfReader(pdf).pages[0].extract_text().split())
        for item in ("Document control", "Rule-set SHA-256", "Headline figures", *words):
            assert " ".join(item.split()) in text, item
        assert "Contents" not in text
    return front


def _quoted(value, low, high, scale=1.0, digits=2, unit="") -> str:
    """How a summary sentence quotes an estimate: ``x ± h``, or "no detectable difference (± h)" when its
    interval holds zero (the same half-width the table shows)."""
    half = f"{scale * (high - low) / 2:.{digits}f}{unit}"
    if low <= 0 <= high:
        return f"no detectable difference (± {half})"
    return f"{scale * value:,.{digits}f} ± {half}"


def test_rococo_report_opens_with_its_summary_and_charts(rococo_tiny_report):
    out, _ = rococo_tiny_report
    page, text, summary = _summary(out)
    _first_page(out, ["exchange against 1 optimal opponent", f"{100 * summary.iloc[0].optimal_share:.2f}"])
    # the strategy and the betting charts, then section 7's convergence and equilibrium strategy (issue 33)
    assert page.count("<svg") == 4
    exchange = summary.iloc[0]
    assert exchange.optimal_share == pytest.approx(0.5, abs=1e-9)        # heads-up optimal play is symmetric
    for name in ("optimal_share", "naive_share", "hands_differ"):
        assert f"{100 * exchange[name]:.2f}%" in text, name
    betting = summary.dropna(subset=["net_per_pot"])
    assert len(betting) == 4                       # two policies, the blind option, the confirmed best response
    versus = pd.read_csv(out / "tables" / "simulation.csv")
    assert list(betting.net_per_pot[:2]) == list(versus.net_per_pot)     # the report's own figures
    confirmed = pd.read_csv(out / "tables" / "best_response_confirmed.csv")
    assert betting.net_per_pot.iloc[-1] == confirmed.lead.iloc[0]         # the fresh seed's lead, not the selection's
    for r in betting.itertuples():
        assert _quoted(r.net_per_pot, r.net_per_pot_low, r.net_per_pot_high, digits=4) in text, r.figure


def test_freeride_report_opens_with_its_summary_and_seat_plot(tmp_path):
    from ricochet_math.games.freeride.report import freeride_report

    out = tmp_path / "freeride"
    freeride_report(out, games=100, rounds=1000, seats=(2, 4), candidates=("always", "computer", "cautious"),
                    reproducible=True)
    page, text, summary = _summary(out)
    _first_page(out, ["seat 1 of 4, game win rate"])
    assert page.count("<svg") == 1
    seats = pd.read_csv(out / "tables" / "seats.csv")
    win = summary[summary.figure.str.startswith("seat ")]
    assert list(win.win) == list(seats.win) and len(win) == 4
    assert f"from {100 * win.win.min():.2f}% to {100 * win.win.max():.2f}%" in text
    for r in summary.dropna(subset=["net_per_round"]).itertuples():
        assert _quoted(r.net_per_round, r.net_per_round_low, r.net_per_round_high, digits=3) in text, r.figure
    best = summary.dropna(subset=["lead"])
    assert list(best.seats) == [2, 4]
    for r in best.itertuples():
        assert f"{100 * r.win:.2f} ± {50 * (r.win_high - r.win_low):.2f}%" in text
        assert _quoted(r.lead, r.lead_low, r.lead_high, scale=100, unit=" points") in text, r.figure


def test_ring_report_opens_with_its_summary_and_seat_plot(tmp_path):
    from ricochet_math.games.ring.report import ring_report

    out = tmp_path / "ring"
    ring_report(out, games=60, pair_games=20, strategies=("random", "greedy-fast"), timing_holdings=5, seed=1,
                reproducible=True)
    page, text, summary = _summary(out)
    front = _first_page(out, ["Ring Poker", summary.figure.iloc[0]])
    assert "jokers bug" in page.split("Glossary", 1)[1]                # the glossary defines the title's term
    assert "± 0.00<" not in page                                          # self-play shares said exact
    assert front.count("<tr>") > summary.shape[0]
    assert page.count("<svg") == 1
    tests = pd.read_csv(out / "tables" / "equal_chances.csv")
    seat = summary.dropna(subset=["edge"])
    assert list(seat.p_value) == list(tests.p_value)
    for r in seat.itertuples():
        assert f"{100 * r.estimate:.2f} ± {50 * (r.estimate_high - r.estimate_low):.2f}%" in text, r.figure
        assert "edge: " + _quoted(r.edge, r.edge_low, r.edge_high, unit=" points") in text, r.figure
        p = "p < 0.0001" if r.p_value < 1e-4 else f"p = {r.p_value:.4f}"
        assert f"{r.figure.replace('seat 1, ', '')}: " in text and p in text
    best = summary.dropna(subset=["lead"])
    assert len(best) == 4                                                # two opponents, two player counts
    for r in best.itertuples():
        assert _quoted(r.lead, r.lead_low, r.lead_high, scale=100) in text, r.figure
    jokers = summary[summary.figure.str.contains("straight flush")]
    assert len(jokers) == 2
    for r in jokers.itertuples():
        assert f"{100 * r.estimate:.2f} ± {50 * (r.estimate_high - r.estimate_low):.2f}%" in text
