"""Where a report comes from: the package, git commit, library versions, machine, rule-set file and date.

The build date is the only provenance row that varies between builds of the
same checkout (marked volatile); it comes from ``SOURCE_DATE_EPOCH`` when
set, and is left out of reproducible builds.
"""
from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
from pathlib import Path

import matplotlib
import numba
import numpy as np
import pandas
import scipy

from ricochet_math._version import __version__
from ricochet_math.rules.files import paytables_dir

__all__ = ["provenance_rows", "build_date", "source_text"]


def source_text(rules) -> str:
    """The rule-set file, as a path relative to the shipped folder or the working folder when possible."""
    src = rules.source or "(none)"
    modified = src.endswith("(modified)")
    path = Path(src.replace(" (modified)", "")) if rules.source else None
    if path is not None and path.is_absolute():
        try:
            shown = f"paytables/{path.resolve().relative_to(paytables_dir().resolve()).as_posix()} (shipped)"
        except ValueError:
            try:
                shown = path.resolve().relative_to(Path.cwd().resolve()).as_posix()
            except ValueError:
                shown = path.name
        src = shown + (" (modified in code)" if modified else "")
    return src


def _git_commit() -> tuple[str, str]:
    """(commit of the checkout holding this package, "yes"/"no" uncommitted changes to tracked files)."""
    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10)
        if head.returncode != 0:
            return "none (not a git checkout)", ""
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
        return head.stdout.strip(), "yes" if dirty.stdout.strip() else "no"
    except (OSError, subprocess.SubprocessError):
        return "unknown (git not available)", ""


def provenance_rows(rules, size, players, rounds, seed, date: str) -> list[tuple[str, str, bool]]:
    """(item, value, volatile) rows of the provenance table."""
    commit, dirty = _git_commit()
    rows = [
        ("package", f"ricochet_math {__version__}", False),
        ("git commit", commit, False),
        ("uncommitted changes to tracked files", dirty or "n/a", False),
        ("python", platform.python_version(), False),
        ("numpy", np.__version__, False),
        ("numba", numba.__version__, False),
        ("pandas", pandas.__version__, False),
        ("scipy", scipy.__version__, False),
        ("matplotlib", matplotlib.__version__, False),
        ("platform", platform.platform(), False),
        ("machine", f"{platform.machine()}, {os.cpu_count()} logical CPUs", False),
        ("rule set", f"{rules.name} ({source_text(rules)})", False),
        ("rule set sha256", rules.sha256, False),
        ("arguments", f"size={size.name} players={','.join(map(str, players))} rounds={rounds} seed={seed}", False),
        ("built", date, True),
    ]
    return rows


def build_date(reproducible: bool) -> str:
    """The build date in UTC: ``SOURCE_DATE_EPOCH`` when set, else now, or a fixed text when ``reproducible``."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            return _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        except ValueError:
            pass
    if reproducible:
        return "not recorded (reproducible build)"
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
