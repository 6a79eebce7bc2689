"""exact_rtp_row: the exact N = 1 row in rtp_table's columns.

Truth: the row's figures are SoloAnalysis.at_threshold's (the independent path:
the return table's probabilities summed by hand here), with intervals of no width.
"""
from __future__ import annotations

import pytest

from ricochet_math import exact_rtp_row, simulate, solo_analysis
from ricochet_math.errors import StrategyError

CLASSES = [0, 84]   # a sampled analysis: seconds


def test_row_equals_the_solo_analysis_and_has_rtp_tables_columns():
    solo = solo_analysis("publisher", classes=CLASSES)
    row = exact_rtp_row("publisher", solo).iloc[0]
    table = solo.return_table()
    mean = float((table["probability"] * table["net"]).sum())
    assert row["rtp_initial"] == pytest.approx(1.0 + mean, abs=1e-15)
    assert row["rtp_initial_low"] == row["rtp_initial_high"] == row["rtp_initial"]
    assert row["hit_frequency"] == pytest.approx(float(table.loc[table["net"] > 0, "probability"].sum()), abs=1e-15)
    assert row["method"] == "exact over 2 of 169 classes" and row["players"] == 1
    mc = simulate("publisher", 2, "always", 200, 1, progress=False).to_frame()
    missing = {"rtp_initial", "rtp_wagered", "fold_frequency", "win_frequency", "kickout_rate", "sd_net",
               "rules_sha256"} - set(mc.columns)
    assert not missing and set(exact_rtp_row("publisher", solo).columns) - {"method"} <= set(mc.columns)


def test_reading_must_match_the_analysis():
    solo = solo_analysis("publisher", classes=CLASSES)
    with pytest.raises(StrategyError, match="ignores it"):
        exact_rtp_row("publisher", solo, reading="perfect-no-bonus")
    with pytest.raises(StrategyError, match="perfect or perfect-no-bonus"):
        exact_rtp_row("publisher", solo, reading="always")
