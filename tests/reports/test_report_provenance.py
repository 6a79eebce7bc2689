"""The report's provenance row "uncommitted changes to tracked files" (issue 11): "none" for a clean
checkout, the changed files' names for a dirty one (tracked files only, capped), "unknown" whenever git
cannot say; a git failure never stops a report.  Truth: a throwaway git repository built here."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from ricochet_math.reports import provenance
from ricochet_math.reports.provenance import MAX_CHANGED_NAMED, git_state
from ricochet_math.reports.sizes import SIZES
from ricochet_math.rules.ruleset import load_rules

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(repo), "PATH": "/usr/bin:/bin:/usr/local/bin"})


@pytest.fixture
def repo(tmp_path):
    _git(tmp_path, "init", "-q")
    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text("x = 1\n")
    _git(tmp_path, "add", "a.py", "b.py")
    _git(tmp_path, "commit", "-q", "-m", "first")
    return tmp_path


def test_clean_tree_says_none(repo):
    (repo / "untracked.txt").write_text("not tracked: not a change to a tracked file\n")
    commit, changes = git_state(repo)
    assert len(commit) == 40 and changes == "none"


def test_dirty_tree_names_the_files(repo):
    (repo / "b.py").write_text("x = 2\n")
    (repo / "a.py").unlink()
    assert git_state(repo)[1] == "2 files: a.py, b.py"
    _git(repo, "mv", "b.py", "c.py")
    assert git_state(repo)[1] == "2 files: a.py, c.py"


def test_many_changes_are_capped(repo):
    names = [f"f{i:02d}.py" for i in range(MAX_CHANGED_NAMED + 5)]
    for n in names:
        (repo / n).write_text("1\n")
    _git(repo, "add", *names)
    changes = git_state(repo)[1]
    assert changes.startswith(f"{len(names)} files: f00.py, f01.py")
    assert changes.endswith(" and 5 more") and "f14.py" not in changes


def test_not_a_checkout_or_no_git_is_unknown(tmp_path, monkeypatch):
    assert git_state(tmp_path)[1] == "unknown"
    assert git_state(tmp_path)[0].startswith("unknown")

    def no_git(*args, **kwargs):
        raise FileNotFoundError("git")

    monkeypatch.setattr(provenance.subprocess, "run", no_git)
    assert git_state(tmp_path) == ("unknown (git not available)", "unknown")
    rows = {k: v for k, v, _ in provenance.provenance_rows(load_rules(), SIZES["tiny"], (1,), 10, 1, "today")}
    assert rows["uncommitted changes to tracked files"] == "unknown"
