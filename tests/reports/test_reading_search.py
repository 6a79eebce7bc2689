"""The reading search (ricochet_math.reports.reading_search): cells reproduce simulate, the store resumes,
the frequency controls have the exact means they claim and the estimator matches the engine's."""
from __future__ import annotations

import numpy as np
import pytest

from ricochet_math.engine.controls import U, control_indices
from ricochet_math.reports import reading_search as rs
from ricochet_math.reports import reading_cells as rc
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
    v = rc._frequency_vectors(rec, decks, n, kick)[:, rc._F_CTL0:]
    exact = rc._frequency_means(n, kick)[rc._F_CTL0:]
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


def test_fit_table_ranks_and_states_the_policy(tmp_path):
    """Two chunks at N = 7 and 3 (seed 5): the RTP extremes are one-sided (not every N), the seven-player fold
    frequency's z is the plain one, S is the chi-square at the target precision, and the status says why."""
    rs.extend_cell(tmp_path, "publisher", "pub-now-dealer-no-bonus", 7, 5, 2)
    rs.extend_cell(tmp_path, "publisher", "pub-now-dealer-no-bonus", 3, 5, 2)
    t = rs.fit_table(tmp_path, ["pub-now-dealer-no-bonus"], 5)
    assert len(t) == 4 and set(t["page"]) == set(rs.PAGES) and list(t["rank"]) == [1, 2, 3, 4]
    row = t[(t["page"] == "publisher") & (t["rtp"] == "per initial bet")].iloc[0]
    assert row["figures"] == 3 and not row["at_target"]  # no RTP extremes without every N; 512 rounds are coarse
    assert row["fold_1"] == pytest.approx(0.22903638933692028, abs=1e-12)  # exact, no-bonus solo
    z = (row["fold_7"] - 0.1094) / np.hypot(row["fold_7_half"] / 1.959963984540054, 1e-4 / np.sqrt(12))
    assert row["fold_7_z"] == pytest.approx(z, rel=1e-9)
    assert row["rejected_by"] == "fold_7" and row["status"] == f"rejected by fold N=7 at z = {z:+.1f}"
    assert not row["policy_ok"]  # rejected, but with top five rows not yet at target nothing is firm
    text = rs.search_markdown(t, 5)
    assert "**not met**" in text and "| 1 | pub-now-dealer-no-bonus |" in text


def _per(values, ses):
    import pandas as pd
    return pd.DataFrame({"rtp_initial": values, "rtp_initial_se": ses}, index=pd.Index(range(1, 1 + len(values))))


def test_extreme_figure_is_one_sided_and_honest():
    """The lowest RTP over N: below the page as soon as one count is below it; above it only when every count
    is; with counts missing, only 'below' is known."""
    r = 1e-4 / np.sqrt(12)
    lo = rs._extreme_figure("rtp_low", _per([0.97, 0.96, 0.955], [0.0, 1e-4, 1e-4]), "rtp_initial", 0.9597, r, range(1, 4))
    assert lo["value"] == 0.955 and lo["n"] == 3
    assert lo["z"] == pytest.approx(-(0.9597 - 0.955) / np.hypot(1e-4, r))
    assert lo["lo"] == pytest.approx(0.955 - 1.959963984540054e-4) and lo["hi"] == pytest.approx(0.955 + 1.959963984540054e-4)
    above = rs._extreme_figure("rtp_low", _per([0.97, 0.962, 0.961], [0.0, 1e-4, 2e-4]), "rtp_initial", 0.9597, r, range(1, 4))
    assert above["z"] == pytest.approx(min((0.962 - 0.9597) / np.hypot(1e-4, r), (0.961 - 0.9597) / np.hypot(2e-4, r)))
    part = rs._extreme_figure("rtp_high", _per([0.9811, 0.97], [0.0, 1e-4]), "rtp_initial", 0.9691, r, range(1, 8))
    assert not part["complete"] and part["z"] == pytest.approx((0.9811 - 0.9691) / r) and part["hi"] == np.inf
    none = rs._extreme_figure("rtp_low", _per([0.97], [0.0]), "rtp_initial", 0.9597, r, range(1, 8))
    assert np.isnan(none["z"])  # a missing count could still lower the minimum to the page


def test_a_wide_interval_does_not_lower_the_ranking_statistic():
    """Same point estimates, one interval ten times wider: the same S, a wider [S low, S high] around it."""
    pubs = {"fold_7": 0.1094}
    rounding = {"fold_7": 1e-4 / np.sqrt(12)}
    def fig(half):
        return {"fold_7": {"value": 0.115, "half": half, "lo": 0.115 - half, "hi": 0.115 + half, "exact": False,
                           "complete": True}}
    narrow, wide = rs._row_statistic(fig(3e-4), pubs, rounding), rs._row_statistic(fig(3e-3), pubs, rounding)
    assert narrow[0] == pytest.approx(wide[0])
    assert wide[1] < narrow[1] < narrow[0] < narrow[2] < wide[2]


def test_store_shares_exact_twins_and_locks_cells(tmp_path):
    """The spec's pot-odds-now-no-bonus is stored as pub-now-dealer-no-bonus (the same rule: digit for digit the
    same chunk); a cell another process is extending is skipped with block=False."""
    a = rs.extend_cell(tmp_path, "publisher", "pub-now-dealer-no-bonus", 4, 5, 1)
    s, f = rc._run_chunk(rs.load_rules("publisher"), 4, "pot-odds-now-no-bonus", rs.cell_seed(5, 4), 0)
    for key in ("seat", "total", "total_sq", "round"):
        assert np.array_equal(getattr(a.sums, key), getattr(s, key)), key
    assert np.array_equal(a.freq[0], f)
    assert rs.load_cell(tmp_path, "publisher", "pot-odds-now-no-bonus", 4, 5).chunks == 1
    path = rc.cell_path(tmp_path, "publisher", "pub-now-dealer-no-bonus", 4)
    with rc._cell_lock(path):
        import subprocess
        import sys
        code = ("from ricochet_math.reports import reading_search as rs; import sys; "
                f"c = rs.extend_cell({str(tmp_path)!r}, 'publisher', 'pub-now-dealer-no-bonus', 4, 5, 2, block=False); "
                "sys.exit(0 if c is None else 1)")
        assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_update_report_replaces_only_the_search_section(tmp_path):
    """The search's section of a published-figures.md is replaced, the main table kept; a foreign file refused."""
    import pandas as pd

    rs.extend_cell(tmp_path / "s", "publisher", "pub-now-dealer-no-bonus", 7, 5, 1)
    t = rs.fit_table(tmp_path / "s", ["pub-now-dealer-no-bonus"], 5)
    res = rs.SearchResult(t, pd.DataFrame(), 5, 0.0)
    md = tmp_path / "published-figures.md"
    md.write_text("# Published figures vs computed (publisher)\n\nmain table\n\n"
                  "## Which reading did the publisher compute? (old)\n\nold text\n\n## Where the gaps come from\n\ngaps\n")
    res.update_report(md)
    text = md.read_text()
    assert "main table" in text and "old text" not in text and text.endswith("## Where the gaps come from\n\ngaps\n")
    assert "**Precision policy.**" in text
    other = tmp_path / "notes.md"
    other.write_text("# my notes\n")
    with pytest.raises(rs.RicochetError, match="not a published-figures report"):
        res.update_report(other)
    assert other.read_text() == "# my notes\n"


def test_remaining_work_lists_the_cells_the_policy_still_needs(tmp_path):
    """One chunk at N = 7 for a no-bonus reading that is not rejected at that precision would need its cells
    screened: each of its page's cells is listed once, with 40 chunks for an unscreened one."""
    rs.extend_cell(tmp_path, "publisher", "pub-final-dealer-no-bonus", 7, 5, 1)
    t = rs.fit_table(tmp_path, ["pub-final-dealer-no-bonus"], 5)
    w = rs.remaining_work(tmp_path, t, 5)
    assert set(zip(w["rules"], w["players"])) == set(rs._cells_for())
    assert (w.set_index(["rules", "players"]).loc[("publisher", 3), "chunks_needed"]) == 40
