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


def test_search_runs_to_the_policy_and_writes_the_table(tmp_path):
    """Seed 2, N = 7 only, no top rows: a bonus-in-the-decision reading is out by the exact one-player fold
    frequency (22.9% published, 21.41% computed) with no cell run; the no-bonus one is screened (one chunk) and
    rejected by its seven-player fold frequency (14.67%, z = +9.1); then every row meets the policy."""
    from ricochet_math.reports.reading_search import load_cell, search_readings

    res = search_readings(("pub-now-dealer", "pub-now-dealer-no-bonus"), store=tmp_path / "s", seed=2,
                          screen_chunks=1, players=(7,), top=0)
    assert load_cell(tmp_path / "s", "publisher", "pub-now-dealer", 7, 2).chunks == 0
    assert load_cell(tmp_path / "s", "publisher", "pub-now-dealer-no-bonus", 7, 2).chunks == 1
    t = res.table
    assert t["policy_ok"].all() and res.summary()["policy_met"]
    row = t[(t["reading"] == "pub-now-dealer") & (t["rtp"] == "per initial bet")].iloc[0]
    assert row["status"] == "rejected by fold N=1 at z = -51.7"
    row = t[(t["reading"] == "pub-now-dealer-no-bonus") & (t["rtp"] == "per initial bet")].iloc[0]
    assert row["status"].startswith("rejected by fold N=7 at z = +9.")
    wag = t[(t["reading"] == "pub-now-dealer-no-bonus") & (t["rtp"] == "per wagered")].iloc[0]
    assert wag["rejected_by"] == "rtp_high" and wag["rejected_z"] > 400  # 98.11% exact at one player
    text = res.to_markdown()
    assert "Which reading did the publisher compute?" in text and "**policy met**" in text
    out = res.write(tmp_path / "publisher-readings.csv")
    assert out.read_text().startswith("rank,reading,page,rtp,")


def _search_only(tmp_path, capsys):
    """Run `published --search --search-only --write DIR` on a bonus-in reading and check what it wrote."""
    from ricochet_math.cli import main

    out = tmp_path / "out"
    out.mkdir()
    md = out / "published-figures.md"
    md.write_text("# Published figures vs computed (publisher)\n\nMAIN\n\n"
                  "## Which reading did the publisher compute? (old)\n\nOLDTEXT\n\n## Where the gaps come from\n\nx\n")
    assert main(["published", "--search", "--search-only", "--readings", "pub-now-dealer", "--seed", "2",
                 "--top", "1", "--store", str(tmp_path / "s"), "--write", str(out)]) == 0
    text = md.read_text()
    assert "MAIN" in text and "OLDTEXT" not in text and "**policy met**" in text
    assert (out / "publisher-readings.csv").read_text().startswith("rank,reading,page,rtp,")
    assert "rejected by fold N=1 at z = -51.7" in capsys.readouterr().out


@pytest.mark.slow
def test_cli_search_only_updates_the_section(tmp_path, capsys):
    """`published --search --search-only --write DIR`: the search's CSV and section, the main table untouched
    (a bonus-in reading: out by the exact one-player fold frequency; --top 1 runs its cells to the target
    precision, about two minutes)."""
    _search_only(tmp_path, capsys)


def test_cli_search_only_updates_the_section_fast(tmp_path, capsys, monkeypatch):
    """The same command through the same parser, handler and writer, with the search itself asked for the top
    0 rows (the command line refuses 0; the library takes it): the rejected reading gets no cell run, so the
    wiring and the written files are checked in seconds."""
    from ricochet_math.reports import reading_search

    real = reading_search.search_readings

    def top_zero(*args, **kwargs):
        return real(*args, **{**kwargs, "top": 0})

    monkeypatch.setattr(reading_search, "search_readings", top_zero)
    import ricochet_math.cli.solver as cli_solver  # the handler's own name for it, if bound at import
    if hasattr(cli_solver, "search_readings"):
        monkeypatch.setattr(cli_solver, "search_readings", top_zero)
    _search_only(tmp_path, capsys)
