"""The short Rococo report: written whole, with provenance, never over a folder the toolkit did not write."""
from __future__ import annotations

import pytest

from ricochet_math.errors import RicochetError
from ricochet_math.games.rococo.report import build_report


def test_tiny_report_is_written_with_provenance(tmp_path):
    out = tmp_path / "rococo"
    rep = build_report(out, size="tiny", seed=5, reproducible=True)
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Provenance" in html and "not recorded (reproducible build)" in html
    names = {p.name for p in (out / "tables").iterdir()}
    assert {"fixed_point.csv", "versus_naive.csv", "card_removal.csv", "provenance.csv", "run_times.csv"} <= names
    assert rep.tables["versus_naive"].optimal_share[0] == pytest.approx(0.5, abs=1e-9)
    # a second build replaces its own folder
    build_report(out, size="tiny", seed=5, reproducible=True)


def test_report_refuses_a_foreign_folder(tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(RicochetError):
        build_report(tmp_path, size="tiny")
    assert (tmp_path / "mine.txt").read_text() == "keep me"
