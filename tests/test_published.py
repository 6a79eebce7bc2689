"""Published figures: rows labelled by their reading (issue 11), the family accepted, --precision runs."""
from __future__ import annotations

import pytest

from ricochet_math.errors import RuleError
from ricochet_math.reports.published import (
    FIGURE_LABELS, check_readings, figure_key, figure_label, published_figures,
)


def test_labels_name_the_reading_and_map_back():
    for key in FIGURE_LABELS:
        for reading in ("perfect", "pot-odds-final", "pub-prob-best-ties-lose-no-bonus"):
            label = figure_label(key, reading)
            assert figure_key(label) == key
            assert ("perfect" in label) == (reading == "perfect")
    assert figure_key("RTP of weak players (always, 4 players)") is None


def test_family_readings_are_accepted():
    assert check_readings(["perfect", "pub-all-dealer-no-bonus"]) == ("perfect", "pub-all-dealer-no-bonus")
    with pytest.raises(RuleError, match="unknown reading 'pub-later-dealer'"):
        check_readings(["pub-later-dealer"])


def test_precision_runs_to_the_half_widths_and_reuses_the_store(tmp_path):
    """N = 2, pub-now-dealer-no-bonus, seed 4, half-widths of 1 point: every Monte Carlo interval is within
    them, the rows say how they were made, and a second call reads the same cells (same digits, no run)."""
    kw = dict(readings=("pub-now-dealer-no-bonus",), players=(2,), weak_profiles=(), seed=4,
              precision=(1.0, 1.0), store=tmp_path)
    a = published_figures(**kw)
    per = a.by_players.set_index("players")
    for f in ("rtp_initial", "fold_frequency", "win_frequency"):
        assert (per.loc[2, f"{f}_high"] - per.loc[2, f"{f}_low"]) / 2 <= 0.01 + 1e-12
    assert "control variates (RTP and frequencies)" in per.loc[2, "method"]
    assert not a.table["figure"].str.contains("perfect play").any()
    b = published_figures(**kw)
    assert b.by_players.equals(a.by_players)
    md = a.to_markdown()
    assert "half-width reaches 1 points on RTP" in md
