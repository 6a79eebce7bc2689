"""Is a committed report still the report of the code? (issue 28: a report must not go stale silently)

A report records the git commit that computed it (its provenance table,
``tables/provenance.csv``).  It is *fresh* when that commit already contains
the last change to every file that computes its figures (:data:`FIGURE_SOURCES`:
the layers from the evaluator to the reports, the numba policy and the rule-set
file), and when it was built from a clean tree.  The test
``tests/reports/test_report_fresh.py`` fails with :func:`stale_reason`'s one line,
which names the command that rebuilds it (:data:`REBUILD`).

The report's commit is the one it was *built* at; committing the report
afterwards (a commit that changes only ``reports/``) keeps it fresh.
"""
from __future__ import annotations

import csv
import subprocess
from pathlib import Path

__all__ = ["FIGURE_SOURCES", "REBUILD", "report_commit", "last_change", "stale_reason"]

#: the files and folders (relative to the repository root) whose changes can move a casino report's figures
FIGURE_SOURCES = (
    "ricochet_math/evaluator", "ricochet_math/rules", "ricochet_math/strategies", "ricochet_math/engine",
    "ricochet_math/solvers", "ricochet_math/design", "ricochet_math/reports", "ricochet_math/_numba.py",
    "ricochet_math/random_streams.py",
    "ricochet_math/paytables", "paytables",
)

#: the command that rebuilds the committed casino report (from a clean tree, at the commit to describe)
REBUILD = "ricochet report --rules publisher --players 1-7 --size full --seed 2026 --out reports/publisher"


def _git(root: Path, *args: str) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None


def report_commit(report: Path) -> tuple[str, str]:
    """(git commit, uncommitted changes) recorded in a report folder's ``tables/provenance.csv``."""
    rows = {}
    with open(Path(report) / "tables" / "provenance.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            rows[row["item"]] = row["value"]
    return rows.get("git commit", ""), rows.get("uncommitted changes to tracked files", "")


def last_change(root: Path, sources=FIGURE_SOURCES) -> str | None:
    """The last commit of the checkout at ``root`` that changed any of ``sources`` (None: git cannot say)."""
    r = _git(root, "log", "-1", "--format=%H", "--", *sources)
    return r.stdout.strip() or None if r is not None and r.returncode == 0 else None


def stale_reason(report: Path, root: Path, sources=FIGURE_SOURCES, rebuild: str = REBUILD) -> str | None:
    """None when the report at ``report`` describes the code of the checkout at ``root``, else one line:
    why not, and the command that rebuilds it."""
    commit, dirty = report_commit(report)
    try:
        report = Path(report).resolve().relative_to(Path(root).resolve())
    except ValueError:
        pass
    fix = f"; rebuild it from a clean tree with: {rebuild}"
    if dirty != "none":
        return f"{report} was built with uncommitted changes ({dirty or 'not recorded'}){fix}"
    last = last_change(root, sources)
    if last is None:
        return None  # not a git checkout (an installed package): nothing to compare with
    known = _git(root, "cat-file", "-e", f"{commit}^{{commit}}")
    if known is None or known.returncode != 0:
        return f"{report} names commit {commit[:12]!r}, which this checkout does not have{fix}"
    inside = _git(root, "merge-base", "--is-ancestor", last, commit)
    if inside is not None and inside.returncode == 0:
        return None
    files = _git(root, "diff", "--name-only", commit, last, "--", *sources)
    changed = files.stdout.split() if files is not None and files.returncode == 0 else []
    shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
    return (f"{report} was built at commit {commit[:12]}, older than the last change to the code that computes "
            f"its figures ({last[:12]}{': ' + shown if shown else ''}){fix}")
