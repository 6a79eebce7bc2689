"""The home-game report at the tiny size: its files, its tables, its provenance, and the folder rules."""
from __future__ import annotations

import pandas as pd
import pytest

from ricochet_math.errors import RicochetError
from ricochet_math.games.home.report import build_report


@pytest.mark.slow
def test_tiny_report_writes_html_and_tables(tmp_path):
    out = tmp_path / "home"
    report = build_report(out, "tiny", 2026, workers=1)
    assert (out / "report.html").exists()
    names = {p.stem for p in (out / "tables").glob("*.csv")}
    assert {"home-by-order", "home-by-seat", "home-tests", "home-vs-casino", "home-depth-error"} <= names
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "git commit" in html and "seed=2026" in html
    tests = pd.read_csv(out / "tables" / "home-tests.csv")
    assert (tests.seat_df == tests.players - 1).all()
    # EV by order of play sums to zero in every run (the pot is shared out)
    by_order = pd.read_csv(out / "tables" / "home-by-order.csv")
    assert by_order.groupby(["variation", "strategy", "players"]).ev.sum().abs().max() < 1e-9
    assert report.out_dir == out and report.html.exists() and report.size == "tiny"
    assert set(report.tables) >= {"tests", "by_order", "contrast"}  # the computed frames, full precision
    build_report(out, "tiny", 2026, workers=1)  # its own folder: replaced


def test_report_refuses_a_folder_it_did_not_write(tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(RicochetError, match="not written by ricochet_math"):
        build_report(tmp_path, "tiny")
    with pytest.raises(RicochetError, match="size"):
        build_report(tmp_path / "new", "huge")
    assert (tmp_path / "mine.txt").read_text() == "keep me"
