"""Tests for the certification-style report (ricochet_math.reports.build) and 'ricochet report' / 'ricochet bench'.

Truth comes from the issue's requirements (issue 6): the files exist, the HTML
opens with no network (no external src/href), the PDF is a PDF made by
matplotlib, the CSVs parse, two builds from the same rule set and seed are
identical once the date and run times are masked (and byte-identical with
``reproducible=True``), a failed build leaves nothing half-written, and the
command line reports user errors as one line with exit status 2.  The figures
of a tiny report mean nothing (sampled N = 1 analysis, a few hundred rounds),
so no figure is checked against a value here beyond internal consistency.
"""
from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from ricochet_math.reports import build as rp
from ricochet_math.reports import sections as report_sections
from ricochet_math.errors import RicochetError
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.storage import replace_folder, write_marker

TINY = dict(players=[1, 2], size="tiny", seed=7, progress=False)
VOLATILE_SPAN = re.compile(r'<span class="volatile"[^>]*>.*?</span>', re.S)
# The checkout's commit and dirty flag are provenance, not volatile, but other people commit in this tree
# while the tests run, so the comparisons below leave those two rows out.
GIT_ROWS = re.compile(r'<tr><td class="l">(git commit|uncommitted changes to tracked files)</td>.*?</tr>')
GIT_ITEMS = ("git commit", "uncommitted changes to tracked files")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Tiny builds of the default rule set, all with the same seed.

    First a build that fails after its computations (nothing may be written,
    the finished jobs must be kept), then ``a``, which resumes from them; then
    ``b`` and ``c`` with ``reproducible=True`` and a fixed ``SOURCE_DATE_EPOCH``.
    """
    root = tmp_path_factory.mktemp("reports")
    facts = {}
    real = report_sections.build_sections

    def boom(*args, **kwargs):
        raise RuntimeError("stop here")

    report_sections.build_sections = boom
    try:
        with pytest.raises(RuntimeError, match="stop here"):
            rp.build_report(out_dir=root / "a", **TINY)
    finally:
        report_sections.build_sections = real
    work = root / ".a.work"
    facts["after_failure"] = {
        "out_exists": (root / "a").exists(),
        "temp_left": [p.name for p in root.iterdir() if ".tmp-" in p.name],
        "jobs_kept": len(list(work.glob("job-*.npz"))) if work.is_dir() else 0,
    }
    a = rp.build_report(out_dir=root / "a", **TINY)
    facts["work_removed"] = not work.exists()
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", "1767225600")
    try:
        b = rp.build_report(out_dir=root / "b", reproducible=True, **TINY)
        c = rp.build_report(out_dir=root / "c", reproducible=True, **TINY)
    finally:
        mp.undo()
    return a, b, c, facts


def _masked_html(path: Path) -> str:
    return GIT_ROWS.sub("", VOLATILE_SPAN.sub("<span>MASKED</span>", path.read_text(encoding="utf-8")))


def _masked_csv(path: Path) -> str:
    frame = pd.read_csv(path, keep_default_na=False)
    if "volatile" in frame.columns:
        value_col = "seconds" if "seconds" in frame.columns else "value"
        frame[value_col] = [("MASKED" if str(v) == "True" else x) for v, x in zip(frame["volatile"], frame[value_col])]
    if "item" in frame.columns:
        frame = frame[~frame["item"].isin(GIT_ITEMS)]
    return frame.to_csv(index=False)


def test_files_exist(built):
    a = built[0]
    names = {p.as_posix() for p in a.files}
    assert {"report.html", "report.pdf"} <= names
    for table in ("main_game", "return_table_1", "return_tables_mc", "bonus_paytable", "quickdraw",
                  "cover_return_table", "volatility_index", "rtp_band", "reconciliation", "weak_players",
                  "published_vs_computed", "rule_set", "run_times", "provenance"):
        assert f"tables/{table}.csv" in names, table
    for p in a.files:
        assert (a.out_dir / p).stat().st_size > 0, p


def test_html_is_self_contained(built):
    a = built[0]
    html = a.html.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    refs = re.findall(r'\b(?:src|href)\s*=\s*["\']?([^"\'\s>]+)', html)
    assert refs, "expected local links (CSV, PDF)"
    assert not [r for r in refs if re.match(r"(?i)(https?:)?//", r)]
    assert "http://" not in html and "https://" not in html
    assert "<link" not in html and "<script" not in html and "@import" not in html
    assert html.count("<svg") == 4                      # the four plots, inline
    for number, title in (("1", "Game and rule set"), ("2", "Method"), ("3", "Main game"), ("4", "Return tables"),
                          ("5", "Bonus and side bets"), ("5b", "Volatility"), ("6", "Weak players"),
                          ("7", "Published figures"), ("8", "Plots"), ("9", "Provenance")):
        assert re.search(rf"<h2>{re.escape(number)}\. {title}", html), number
    # the rule set in force: every paytable line and the file hash
    rules = load_rules()
    assert rules.sha256 in html
    for line in list(rules.bonus) + list(rules.cover):
        assert line.key in html


def test_pdf(built):
    a = built[0]
    data = a.pdf.read_bytes()
    assert data.startswith(b"%PDF")
    assert b"CreationDate" not in data
    assert len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data)) >= 8     # a real document, not one page


def test_csvs_parse(built):
    a = built[0]
    for p in a.files:
        if p.suffix == ".csv":
            frame = pd.read_csv(a.out_dir / p)
            assert len(frame.columns) >= 2, p
    main = pd.read_csv(a.out_dir / "tables" / "main_game.csv")
    assert list(main["players"]) == [1, 2]
    assert (main["rtp_initial_low"] <= main["rtp_initial"]).all()
    assert (main["rtp_initial"] <= main["rtp_initial_high"]).all()
    # the headline RTP uses the control variates for N >= 2: inside its own interval, and narrower
    assert (main["rtp_initial_cv_low"] <= main["rtp_initial_cv"]).all()
    assert (main["rtp_initial_cv"] <= main["rtp_initial_cv_high"]).all()
    two = main[main.players == 2].iloc[0]
    assert two["rtp_initial_cv_high"] - two["rtp_initial_cv_low"] < two["rtp_initial_high"] - two["rtp_initial_low"]
    # the N >= 2 return decomposition adds up to the expected net (net = share + bonus - wagered)
    mc = pd.read_csv(a.out_dir / "tables" / "return_tables_mc.csv")
    parts = mc.loc[mc["group"] == "return", "contribution"].sum()
    total = mc.loc[mc["group"] == "total", "contribution"].iloc[0]
    assert parts == pytest.approx(total, abs=1e-12)
    assert total == pytest.approx(main.loc[main.players == 2, "rtp_initial"].iloc[0] - 1.0, abs=1e-12)
    # the exact N = 1 return table sums to the exact RTP
    rt = pd.read_csv(a.out_dir / "tables" / "return_table_1.csv")
    assert rt["probability"].sum() == pytest.approx(1.0, abs=1e-12)
    assert rt["contribution"].sum() == pytest.approx(main.loc[main.players == 1, "rtp_initial"].iloc[0] - 1.0)


def test_two_builds_match_after_masking(built):
    a, b, _, _ = built
    assert a.files == b.files
    assert _masked_html(a.html) == _masked_html(b.html)
    for p in a.files:
        if p.suffix == ".csv":
            assert _masked_csv(a.out_dir / p) == _masked_csv(b.out_dir / p), p
    # the volatile places are really marked: the date is inside a volatile span
    html = a.html.read_text(encoding="utf-8")
    assert re.search(r'class="volatile"[^>]*>\d{4}-\d\d-\d\d', html)
    assert not re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", VOLATILE_SPAN.sub("", html))


def test_reproducible_builds_are_byte_identical(built):
    _, b, c, _ = built
    assert b.files == c.files
    for p in b.files:
        x, y = (b.out_dir / p).read_bytes(), (c.out_dir / p).read_bytes()
        if x != y and p.suffix in (".html", ".csv", ".pdf"):
            # a commit by someone else between the two builds changes the provenance rows only
            git = [ln for ln in (b.out_dir / "tables" / "provenance.csv").read_text().splitlines()
                   if ln.startswith(GIT_ITEMS)]
            git2 = [ln for ln in (c.out_dir / "tables" / "provenance.csv").read_text().splitlines()
                    if ln.startswith(GIT_ITEMS)]
            if git != git2:
                pytest.skip("the checkout changed (a commit) between the two builds")
        assert x == y, p
    assert "2026-01-01 00:00:00 UTC" in b.html.read_text(encoding="utf-8")


def test_failed_build_leaves_nothing_half_written_and_resumes(built):
    facts = built[3]
    assert facts["after_failure"] == {"out_exists": False, "temp_left": [],
                                      "jobs_kept": facts["after_failure"]["jobs_kept"]}
    assert facts["after_failure"]["jobs_kept"] > 0, "finished jobs are kept for a resumed build"
    assert facts["work_removed"]


def test_rebuild_replaces_only_its_own_folder(tmp_path):
    """A report folder the toolkit wrote (its marker) is replaced whole; any other folder is refused
    untouched (issue 12: `--out` on a folder of the user's deleted its contents)."""
    out = tmp_path / "rep"
    out.mkdir()
    write_marker(out, rp.REPORT_KIND)
    (out / "report.html").write_text("old report")
    replace_folder(_fresh(tmp_path), out, rp.REPORT_KIND, rp.REPORT_LEGACY)
    assert sorted(p.name for p in out.iterdir()) == ["report.html"] and (out / "report.html").read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "stale.txt").write_text("not a report")
    with pytest.raises(RicochetError, match="not written by ricochet_math"):
        replace_folder(_fresh(tmp_path), mine, rp.REPORT_KIND, rp.REPORT_LEGACY)
    assert [p.name for p in mine.iterdir()] == ["stale.txt"]


def _fresh(tmp_path):
    new = tmp_path / ".rep.tmp-x"
    new.mkdir()
    (new / "report.html").write_text("new")
    return new


def test_parse_players():
    assert rp.parse_players("1-7") == tuple(range(1, 8))
    assert rp.parse_players("2,4-5, 7") == (2, 4, 5, 7)
    assert rp.parse_players(3) == (3,)
    assert rp.parse_players([2, 1, 2]) == (1, 2)
    for bad in ("9", "0-3", "1-x", "", [8], "3-1"):
        with pytest.raises(RicochetError):
            rp.parse_players(bad)


def test_bad_arguments():
    with pytest.raises(RicochetError, match="unknown report size"):
        rp.build_report(size="huge", progress=False)
    with pytest.raises(RicochetError, match="rounds"):
        rp.build_report(rounds=0, progress=False)


# --------------------------------------------------------------------------- command line

def _ricochet(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "ricochet_math", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_cli_report_help():
    r = _ricochet("report", "--help")
    assert r.returncode == 0
    assert "example:" in r.stdout and "ricochet report" in r.stdout
    for option in ("--rules", "--players", "--size", "--rounds", "--seed", "--out", "--format"):
        assert option in r.stdout


@pytest.mark.parametrize("args, words", [
    (["--players", "9"], "1..7"),
    (["--players", "1-x"], "bad player counts"),
    (["--size", "huge"], "invalid choice"),
    (["--rounds", "0"], "at least 1"),
    (["--rules", "no-such-rules"], "no-such-rules"),
])
def test_cli_report_errors(args, words, tmp_path):
    r = _ricochet("report", "--out", str(tmp_path / "x"), *args)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ricochet: error:") and words in lines[0]
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "x").exists()


@pytest.mark.slow
def test_cli_report_tiny(tmp_path):
    out = tmp_path / "rep"
    r = _ricochet("report", "--players", "1", "--size", "tiny", "--out", str(out), "--quiet", "--format", "csv",
                  timeout=300)
    assert r.returncode == 0, r.stderr
    frame = pd.read_csv(io.StringIO(r.stdout))
    assert list(frame["players"]) == [1]
    assert (out / "report.html").exists() and (out / "report.pdf").exists()


def test_cli_bench_help():
    r = _ricochet("bench", "--help")
    assert r.returncode == 0 and "example:" in r.stdout and "--repeat" in r.stdout and "--format" in r.stdout
    r = _ricochet("bench", "--repeat", "0")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_cli_bench_runs():
    r = _ricochet("bench", "--repeat", "1", "--format", "csv", timeout=600)
    assert r.returncode == 0, r.stderr
    frame = pd.read_csv(io.StringIO(r.stdout))
    assert len(frame) == 6 and (frame["median_s"] > 0).all()
