"""The short Rococo report: written whole, with provenance, never over a folder the toolkit did not write."""
from __future__ import annotations

import shutil

import pytest

from ricochet_math.errors import RicochetError
from ricochet_math.games.rococo.report import build_report


def test_tiny_report_is_written_with_provenance(rococo_tiny_report, tmp_path):
    built, rep = rococo_tiny_report
    html = (built / "report.html").read_text(encoding="utf-8")
    assert "Provenance" in html and "not recorded (reproducible build)" in html
    names = {p.name for p in (built / "tables").iterdir()}
    assert {"fixed_point.csv", "versus_naive.csv", "card_removal.csv", "provenance.csv", "run_times.csv"} <= names
    assert rep.tables["versus_naive"].optimal_share[0] == pytest.approx(0.5, abs=1e-9)
    # a second build replaces its own folder (a copy of the shared one)
    out = tmp_path / "rococo"
    shutil.copytree(built, out)
    build_report(out, size="tiny", seed=5, reproducible=True)


def test_report_refuses_a_foreign_folder(tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(RicochetError):
        build_report(tmp_path, size="tiny")
    assert (tmp_path / "mine.txt").read_text() == "keep me"


def test_best_response_is_confirmed_on_a_fresh_seed():
    """The grid's best and runner-up played again on seed + CONFIRM_SEED_OFFSET: each estimate is the plain
    simulation of that policy on the fresh seed, the lead is their difference, and the selection's seed is
    refused (seed 5, 1,000 pots a run)."""
    import pytest

    import ricochet_math as rm
    from ricochet_math.games.rococo.analysis import CONFIRM_SEED_OFFSET, _grid_policy

    br = rm.rococo.best_response("standard", 2, 1000, 5, opens=("KK", None), calls=("JJ",), blind_rates=(0.0,))
    c = br.confirm()
    assert c.seed == 5 + CONFIRM_SEED_OFFSET and c.pots == 1000
    row = br.table.iloc[0]
    again = rm.rococo.simulate(None, [_grid_policy(row["open"], row["call"], 0.0), "standard"], 1000, c.seed)
    assert c.best.estimate == again.net[0].estimate
    assert c.lead.estimate == pytest.approx(c.best.estimate - c.runner_up.estimate, abs=1e-12)
    frame = c.to_frame()
    assert list(frame.columns[:3]) == ["against", "selected", "runner_up"] and len(frame) == 1
    assert frame.verdict.iloc[0] in ("confirmed", "reversed") or frame.verdict.iloc[0].startswith(
        "no detectable difference (± ")
    with pytest.raises(rm.RicochetError, match="did not use"):
        br.confirm(seed=5)
