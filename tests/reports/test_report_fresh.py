"""The committed casino report describes the code (issue 28): it fails here, with the command that rebuilds
it, when any module that computes its figures changed after the commit the report was built at, or when it
was built with uncommitted changes (ricochet_math.reports.freshness)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from ricochet_math.reports.freshness import REBUILD, last_change, stale_reason

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "reports" / "publisher"
GIT = shutil.which("git") is not None and (ROOT / ".git").exists()


@pytest.mark.skipif(not GIT, reason="not a git checkout: no history to compare the report with")
def test_committed_report_is_not_stale():
    reason = stale_reason(COMMITTED, ROOT)
    assert reason is None, reason


def _repo(tmp_path: Path) -> Path:
    """A small git repository with a figure module, and a report built at its first commit."""
    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    (tmp_path / "ricochet_math" / "solvers").mkdir(parents=True)
    (tmp_path / "ricochet_math" / "solvers" / "m.py").write_text("X = 1\n")
    git("add", ".")
    git("commit", "-q", "-m", "code")
    head = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    tables = tmp_path / "reports" / "publisher" / "tables"
    tables.mkdir(parents=True)
    (tables / "provenance.csv").write_text(
        f"item,value,volatile\ngit commit,{head},False\nuncommitted changes to tracked files,none,False\n")
    git("add", ".")
    git("commit", "-q", "-m", "the report, built at the code commit")
    return tmp_path


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_later_change_to_a_figure_module_makes_it_stale(tmp_path):
    root = _repo(tmp_path)
    report = root / "reports" / "publisher"
    assert stale_reason(report, root) is None  # committing the report after building it keeps it fresh
    (root / "README.md").write_text("docs only\n")
    subprocess.run(["git", "-C", str(root), "add", "."], check=True)
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-m", "docs"], check=True)
    assert stale_reason(report, root) is None  # a change elsewhere does not
    (root / "ricochet_math" / "solvers" / "m.py").write_text("X = 2\n")
    subprocess.run(["git", "-C", str(root), "commit", "-q", "-am", "figures move"], check=True)
    reason = stale_reason(report, root)
    assert reason is not None and "ricochet_math/solvers/m.py" in reason and REBUILD in reason
    assert "\n" not in reason
    assert last_change(root) is not None


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_report_built_with_uncommitted_changes_is_stale(tmp_path):
    root = _repo(tmp_path)
    prov = root / "reports" / "publisher" / "tables" / "provenance.csv"
    prov.write_text(prov.read_text().replace(",none,", ",1 file: ricochet_math/solvers/m.py,"))
    reason = stale_reason(root / "reports" / "publisher", root)
    assert reason is not None and "uncommitted" in reason and REBUILD in reason
