"""Issue 36: what a reviewer meets first.  The document control and the headline on page 1 of every report
(one builder), one p-value format, the glossary, and plots whose axes show what they are for (the casino
RTP panel zoomed to the band, distinct percent ticks, error bars inside the frame, no '0.000%' tick).

Truths: the committed home tables (reports/home/tables) for the home report's text; synthetic frames whose
extremes are known for the plots; the report's own provenance rows for the document control.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ricochet_math.reports.columns import Column, cell, p_text
from ricochet_math.reports.document import Para, Section, Table
from ricochet_math.reports.front_page import REVIEW_FIELDS, band_place, control_rows, counts_text, game_front
from ricochet_math.reports.glossary import TERMS, glossary_section
from ricochet_math.reports.plots import log_percent, plot_by_players

ROOT = Path(__file__).resolve().parents[2]
HOME = ROOT / "reports" / "home" / "tables"
P_FORMAT = re.compile(r"^(< 0\.0001|[01]\.\d{4})$")


# ---------------------------------------------------------------- p-values

@pytest.mark.parametrize("p, text", [(0.0, "< 0.0001"), (6.33e-221, "< 0.0001"), (9.99e-5, "< 0.0001"),
                                     (1e-4, "0.0001"), (0.04213, "0.0421"), (0.5, "0.5000"), (1.0, "1.0000")])
def test_one_p_value_format(p, text):
    assert p_text(p) == text
    assert cell(Column("p_value", "p-value", "probability", "p_value", 4), p) == text
    assert p_text(p, prefix=True) == ("p " + text if text.startswith("<") else "p = " + text)


def test_home_report_prints_every_p_value_in_the_one_format():
    """The home report printed p = 0 and 6.33e-221 beside '< 0.0001' (the committed tables hold such p-values)."""
    from ricochet_math.games.home import report as home_report

    names = {"by_order": "home-by-order", "by_seat": "home-by-seat", "tests": "home-tests", "shape": "home-shape",
             "by_start_4p": "home-by-start-4p", "contrast": "home-vs-casino", "depth_error": "home-depth-error"}
    tables = {k: pd.read_csv(HOME / f"{v}.csv") for k, v in names.items()}
    assert (tables["tests"].order_p_value < 1e-100).any()  # the case that printed 6.33e-221
    sections = home_report._sections(tables, "small", 2026, "2026-01-01 00:00:00 UTC", 1.0)
    checked = 0
    for s in sections:
        for b in s.blocks:
            if isinstance(b, Table):
                for j, header in enumerate(b.columns):
                    if re.search(r"\bp\b|p-value", header):
                        for row in b.rows:
                            assert P_FORMAT.match(row[j]), (b.title, header, row[j])
                            checked += 1
            elif isinstance(b, Para):
                assert not re.search(r"\d e-\d|\de-\d", b.text), b.text
    assert checked > 50


def test_home_report_first_page_and_its_optimal_rows():
    """Issue 36: page 1 of the home report holds the document control and the two claims in figures (from the
    committed tables); the optimal rows (100 games at size small) carry their game count and claim nothing."""
    from ricochet_math.games.home import report as home_report

    names = {"by_order": "home-by-order", "by_seat": "home-by-seat", "tests": "home-tests", "shape": "home-shape",
             "by_start_4p": "home-by-start-4p", "contrast": "home-vs-casino", "depth_error": "home-depth-error"}
    tables = {k: pd.read_csv(HOME / f"{v}.csv") for k, v in names.items()}
    doc = home_report.document(tables, "small", 2026, "2026-01-01 00:00:00 UTC", 107.1)
    control, headline = doc[0], doc[1]
    assert control.front and headline.front and not doc[2].front
    rows = dict(control.blocks[0].rows)
    assert rows["Rule-set SHA-256"] == home_report.Variations().sha256 and rows["Run time"] == "107 s (1 min 47 s)"
    assert rows["Size and seed"] == "size small (20,000 games per run), seed 2026"
    texts = " ".join(b.text for b in headline.blocks if isinstance(b, Para))
    t = tables["tests"]
    runs = t[t.strategy != "optimal"]
    assert f"smallest p-value of the Wald test of equal seat EVs is {p_text(runs.seat_p_value.min())}" in texts
    (view,) = [b for b in headline.blocks if isinstance(b, Table)]
    assert view.csv is None and {r[0] for r in view.rows} == {"pot-odds"}
    shown = [r for s in doc for b in s.blocks if isinstance(b, Table) for r in b.rows]
    optimal = [r for r in shown if len(r) > 2 and str(r[0]).startswith("optimal") and r[1].isdigit()]
    assert optimal and all(r[0] == "optimal (100 games)" for r in optimal)
    notes = " ".join(b.text for s in doc for b in s.blocks if isinstance(b, Para))
    assert "support no finding of their own" in notes


# ---------------------------------------------------------------- the first page

class _Rules:
    sha256 = "ab" * 32

    def describe(self) -> str:
        return "a test game, 2 players"


def _provenance():
    return [("git commit", "0123456789abcdef0123", False), ("uncommitted changes to tracked files", "none", False),
            ("built", "2026-01-01 00:00:00 UTC", True)]


def test_document_control_is_one_block_for_every_report():
    rows = dict(control_rows(_Rules(), _provenance(), document="test", size="tiny", seed=7, run_time=125.0))
    assert rows["Document id"] == "RICOCHET-MATH-TEST-ABABABAB"
    assert rows["Rule set"] == "a test game, 2 players" and rows["Rule-set SHA-256"] == "ab" * 32
    assert rows["Revision"].endswith("+g0123456789ab") and rows["Toolkit commit"] == "0123456789abcdef0123"
    assert rows["Size and seed"] == "size tiny, seed 7" and rows["Run time"] == "125 s (2 min 5 s)"
    assert rows["Date"] == "2026-01-01 00:00:00 UTC"
    assert all(rows[f] == "" for f in REVIEW_FIELDS)
    assert dict(control_rows(_Rules(), _provenance(), document="t", size="s", seed=1))["Run time"] == "not recorded"


def test_a_game_front_carries_the_summary_figures_as_a_view():
    summary = Section("1", "Summary")
    summary.p("The headline in words: 50.00%.")
    summary.p("A second paragraph.")
    t = summary.table("Summary", ["figure", "value"], [["x", "50.00"]], csv="summary", data=pd.DataFrame({"x": [1]}))
    front = game_front(_Rules(), _provenance(), document="test", size="tiny", seed=7, run_time=None,
                       summary=summary)
    assert [s.front for s in front] == [True, True]
    control, headline = front
    assert control.blocks[0].title == "Document control"
    texts = [b.text for b in headline.blocks if isinstance(b, Para)]
    assert "The headline in words: 50.00%." in texts and "A second paragraph." not in texts
    (view,) = [b for b in headline.blocks if isinstance(b, Table)]
    assert view.csv is None and view.rows == t.rows  # the same rows; no second CSV file


@pytest.mark.parametrize("low, high, place", [(0.962, 0.963, "inside"), (0.9694, 0.9695, "above"),
                                              (0.94, 0.95, "below"), (0.959, 0.961, "across the lower edge"),
                                              (0.968, 0.970, "across the upper edge"),
                                              (0.955, 0.98, "across the band")])
def test_band_place(low, high, place):
    assert band_place(low, high, (0.9597, 0.9691)) == place


def test_counts_text():
    assert counts_text([3, 4, 5, 6, 7]) == "3 to 7" and counts_text([2]) == "2" and counts_text([1, 3]) == "1 and 3"
    assert counts_text([1, 3, 5]) == "1, 3 and 5"


def test_glossary_defines_the_terms_the_reviewers_asked_about():
    for term in ("jokers bug", "t:P1,P2,P3,P4[:strong|weak|hide][:wary]", "min-lift", "pot-odds", "VI95"):
        assert TERMS[term]
    assert "t:x,x,x,88:wary" in TERMS["t:P1,P2,P3,P4[:strong|weak|hide][:wary]"]
    g = glossary_section("9", ["VI95"])
    assert g.title == "Glossary" and g.blocks[0].rows[0][0] == "VI95"


# ---------------------------------------------------------------- plots

def _main(rtp):
    n = np.arange(1, len(rtp) + 1)
    rtp = np.asarray(rtp)
    return pd.DataFrame({"players": n, "rtp_initial": rtp, "rtp_initial_low": rtp - 0.0005,
                         "rtp_initial_high": rtp + 0.0005, "fold_frequency": 0.3, "fold_frequency_low": 0.29,
                         "fold_frequency_high": 0.31})


def test_casino_rtp_panel_is_zoomed_to_the_band():
    """The weak profiles reach 30%; the perfect-play panel still shows the band (95.97-96.91%) at a scale where
    an interval of 0.1 points is visible."""
    from matplotlib.figure import Figure

    main = _main([0.9695, 0.9619, 0.9543, 0.9481, 0.9555, 0.9486, 0.9539])
    strat = pd.DataFrame([{"strategy": "chaser", "players": n, "rtp_initial": 0.3 + 0.05 * n} for n in range(1, 8)])
    fig = Figure(figsize=(7.2, 3.4))
    plot_by_players(fig, (0, 0, 7.2, 3.4), main, strat, ["chaser"])
    zoomed, profiles = fig.axes[0], fig.axes[1]
    lo, hi = zoomed.get_ylim()
    assert lo <= 0.9481 - 0.0005 and hi >= 0.9695 + 0.0005      # every interval inside the frame
    assert lo <= 0.9597 and hi >= 0.9691                           # and the band
    assert hi - lo < 0.04                                          # not 30% to 100%
    assert profiles.get_ylim()[0] < 0.4                            # the profiles keep their own panel


def test_percent_ticks_are_distinct_and_error_bars_inside_the_frame():
    from matplotlib.figure import Figure

    from ricochet_math.games.freeride.report import _plot_seats

    seat = pd.DataFrame({"seat": [1, 2, 3, 4], "win": [0.2584, 0.2512, 0.2467, 0.2437]})
    seat["win_low"], seat["win_high"] = seat.win - 0.006, seat.win + 0.006
    seat["position"], seat["net_per_round"] = [0, 1, 2, 3], [-0.5, 0.1, 0.2, 0.2]
    seat["net_per_round_low"], seat["net_per_round_high"] = seat.net_per_round - 0.05, seat.net_per_round + 0.05
    fig = Figure(figsize=(7.2, 3.0))
    _plot_seats(fig, (0, 0, 7.2, 3.0), seat, pd.DataFrame())
    fig.canvas.draw() if hasattr(fig.canvas, "draw") else None
    ax = fig.axes[0]
    lo, hi = ax.get_ylim()
    assert lo < seat.win_low.min() and hi > seat.win_high.max()
    formatter = ax.yaxis.get_major_formatter()
    ticks = [t for t in ax.get_yticks() if lo <= t <= hi]
    labels = [formatter(t, i) for i, t in enumerate(ticks)]
    assert len(labels) >= 3 and len(set(labels)) == len(labels), labels
    right = fig.axes[1]
    assert right.get_ylim()[0] < -0.55 and right.get_ylim()[1] > 0.25


@pytest.mark.parametrize("value, text", [(1e-6, "0.0001%"), (1e-4, "0.01%"), (0.05, "5%"), (0.5, "50%"), (1.0, "100%")])
def test_log_axis_percent_ticks_keep_their_digits(value, text):
    assert log_percent(value) == text


def test_print_layout_keeps_page_one_for_the_front_and_no_near_empty_pages():
    """Page 1: title, document control, headline; the contents start page 2; a section no longer forces a
    new page (the casino report's page 3 held one small table, issue 36)."""
    from importlib.resources import files

    css = (files("ricochet_math.reports") / "templates" / "report.html.j2").read_text(encoding="utf-8")
    printed = css[css.index("@media print"):]
    assert re.search(r"nav \{[^}]*break-before: page", printed)
    assert not re.search(r"h2 \{[^}]*break-before: page", printed)
