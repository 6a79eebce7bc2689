"""The reading search (ricochet_math.reports.reading_search): cells reproduce simulate, the store resumes,
the frequency controls have the exact means they claim and the estimator matches the engine's."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.engine.controls import U, control_indices
from ricochet_math.reports import reading_search as rs
from ricochet_math.solvers.montecarlo import simulate
from ricochet_math.solvers.variance import controlled_estimate

READING = "pub-prob-best-no-bonus"


def test_cell_is_simulate_chunk_for_chunk_and_resumes(tmp_path):
    """4 chunks in two steps (a stop and a resume) give simulate's sums digit for digit (same seed, 256 a chunk)."""
    rs.extend_cell(tmp_path, "publisher", READING, 3, 5, 2)
    cell = rs.extend_cell(tmp_path, "publisher", READING, 3, 5, 4)
    assert cell.chunks == 4 and cell.rounds == 1024
    r = simulate("publisher", 3, READING, rounds=1024, seed=rs.cell_seed(5, 3), chunk_size=256, workers=1,
                 progress=False)
    for key in ("seat", "total", "total_sq", "round", "controls"):
        assert np.array_equal(getattr(cell.sums, key), getattr(r.sums, key)), key
    f = rs.cell_figures(cell)
    assert f["fold_plain"] == pytest.approx(r.summary()["fold_frequency"].estimate, abs=1e-15)
    assert f["win_plain"] == pytest.approx(r.summary()["win_frequency"].estimate, abs=1e-15)
    with pytest.raises(Exception, match="another seed"):
        rs.load_cell(tmp_path, "publisher", READING, 3, 6)


def test_frequency_control_means_are_exact():
    """The deal-level controls averaged over 60,000 random deals (no play needed) lie within 4.5 standard
    errors of the exact means, for N = 7 on the default page (seed 3)."""
    from ricochet_math.rules.ruleset import load_rules
    from collections import namedtuple
    from ricochet_math.evaluator.evaluation import eval5

    n, rounds = 7, 60_000
    kick = int(load_rules("publisher").kickout_value(n))
    rng = np.random.default_rng(3)
    decks = np.argsort(rng.random((rounds, 52)), axis=1)[:, :5 * n + 5]
    d = 2 * n
    dv = np.array([eval5(*map(int, row[d:d + 5])) for row in decks])
    Rec = namedtuple("Rec", "status dealer_value kicked")
    rec = Rec(np.zeros((rounds, n), np.int64), dv, dv >= kick)
    v = rs._frequency_vectors(rec, decks, n, kick)[:, rs._F_CTL0:]
    exact = rs._frequency_means(n, kick)[rs._F_CTL0:]
    se = v.std(axis=0, ddof=1) / np.sqrt(rounds)
    z = (v.mean(axis=0) - exact) / np.where(se > 0, se, 1.0)
    assert np.all(np.abs(z) < 4.5), z


def test_controlled_mean_is_the_engine_estimator():
    """On the engine's own control sums, controlled_mean gives controlled_estimate's figures (seed 11)."""
    r = simulate("publisher", 2, "pub-final-dealer", rounds=6144, seed=11, chunk_size=256, workers=1,
                 progress=False)
    means = np.array(r.control_means)
    want = controlled_estimate(r.sums.controls, means)
    got = rs.controlled_mean(r.sums.controls, means, U.x, control_indices(r.sums.controls.shape[1], U.x))
    assert got[0] == pytest.approx(want.controlled.estimate, rel=1e-12)
    assert got[1] == pytest.approx(want.controlled.std_error, rel=1e-9)
    assert got[2] == pytest.approx(want.plain.estimate, rel=1e-12)


def test_fit_table_ranks_and_flags_resolution(tmp_path):
    rs.extend_cell(tmp_path, "publisher", "pub-now-dealer-no-bonus", 7, 5, 2)
    rs.extend_cell(tmp_path, "publisher", "pub-now-dealer-no-bonus", 3, 5, 2)
    t = rs.fit_table(tmp_path, ["pub-now-dealer-no-bonus"], 5)
    assert len(t) == 4 and set(t["page"]) == set(rs.PAGES)
    row = t.iloc[0]
    assert row["figures"] == 3 and not row["resolved"]  # no RTP range without every N; 512 rounds are coarse
    assert row["fold_1"] == pytest.approx(0.22903638933692028, abs=1e-12)  # exact, no-bonus solo
    z = (row["fold_7"] - 0.1094) / np.hypot(row["fold_7_half"] / 1.959963984540054, 1e-4 / np.sqrt(12))
    assert row["fold_7_z"] == pytest.approx(z, rel=1e-9)
    text = rs.search_markdown(t, 5)
    assert "No reading has every figure computed yet." in text
