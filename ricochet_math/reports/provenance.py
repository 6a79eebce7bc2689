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

import numba
import numpy as np
import pandas

from ricochet_math._version import __version__
from ricochet_math.rules.files import paytables_dir

__all__ = ["provenance_rows", "rules_provenance_rows", "rules_text", "build_date", "source_text", "git_state", "MAX_CHANGED_NAMED"]


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


#: at most this many changed files are named in the provenance row (the rest are counted)
MAX_CHANGED_NAMED = 10


def _git(where: Path, *args: str) -> subprocess.CompletedProcess | None:
    """``git -C where args``, or None when git cannot be run (not installed, timed out)."""
    try:
        return subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def git_state(where: str | os.PathLike | None = None) -> tuple[str, str]:
    """(commit, uncommitted changes to tracked files) of the checkout holding ``where`` (default: this
    package), as provenance text.

    The changes are ``none`` for a clean tree, else the files ``git status --porcelain
    --untracked-files=no`` names (renames as the new name; the first :data:`MAX_CHANGED_NAMED`, then a
    count), or ``unknown`` when git cannot say (git missing, not a checkout, any git error): a report is
    never stopped by git.
    """
    here = Path(where) if where is not None else Path(__file__).resolve().parent
    head = _git(here, "rev-parse", "HEAD")
    if head is None:
        return "unknown (git not available)", "unknown"
    if head.returncode != 0:
        return "unknown (not a git checkout)", "unknown"
    status = _git(here, "status", "--porcelain", "--untracked-files=no")
    if status is None or status.returncode != 0:
        return head.stdout.strip(), "unknown"
    files = []
    for line in status.stdout.splitlines():
        name = line[3:] if len(line) > 3 else line.strip()
        if " -> " in name:  # a rename: the name it has now
            name = name.split(" -> ", 1)[1]
        files.append(name.strip('"'))
    if not files:
        return head.stdout.strip(), "none"
    shown = ", ".join(files[:MAX_CHANGED_NAMED])
    more = len(files) - MAX_CHANGED_NAMED
    return head.stdout.strip(), (f"{len(files)} file{'s' if len(files) > 1 else ''}: {shown}"
                                 + (f" and {more} more" if more > 0 else ""))


def provenance_rows(rules, size, players, rounds, seed, date: str) -> list[tuple[str, str, bool]]:
    """(item, value, volatile) rows of the casino report's provenance table (:func:`rules_provenance_rows`
    with the casino report's arguments)."""
    return rules_provenance_rows(rules, {"size": size.name, "players": ",".join(map(str, players)),
                                         "rounds": rounds, "seed": seed}, date)


def rules_text(rules) -> tuple[str, str]:
    """``(description, sha256)`` of any rule object: a casino rule set (its name and file) or a game's
    rules (anything with ``describe()`` and ``sha256``, :class:`~ricochet_math.game_rules.GameRules`)."""
    if hasattr(rules, "source"):  # a casino RuleSet: its name and the file it came from
        return f"{rules.name} ({source_text(rules)})", rules.sha256
    return rules.describe(), rules.sha256


def rules_provenance_rows(rules, arguments: dict, date: str) -> list[tuple[str, str, bool]]:
    """(item, value, volatile) rows of every report's provenance table: the package, commit, libraries and
    machine, the rules (any rule object that describes itself and gives its digest: :func:`rules_text`),
    the report's ``arguments`` (name -> value, in order) and the build ``date`` (the one volatile row)."""
    # lazy: scipy and matplotlib add about a second to `import ricochet_math` (and to every command)
    import matplotlib
    import scipy

    described, digest = rules_text(rules)
    commit, dirty = git_state()
    rows = [
        ("package", f"ricochet_math {__version__}", False),
        ("git commit", commit, False),
        ("uncommitted changes to tracked files", dirty, False),
        ("python", platform.python_version(), False),
        ("numpy", np.__version__, False),
        ("numba", numba.__version__, False),
        ("pandas", pandas.__version__, False),
        ("scipy", scipy.__version__, False),
        ("matplotlib", matplotlib.__version__, False),
        ("platform", platform.platform(), False),
        ("machine", f"{platform.machine()}, {os.cpu_count()} logical CPUs", False),
        ("rule set", described, False),
        ("rule set sha256", digest, False),
        ("arguments", " ".join(f"{k}={v}" for k, v in arguments.items()), False),
        ("built", date, True),
    ]
    return rows


def build_date(reproducible: bool) -> str:
    """The build date in UTC: ``SOURCE_DATE_EPOCH`` when set, else now, or a fixed text when ``reproducible``."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            return _dt.datetime.fromtimestamp(int(epoch), _dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        except (ValueError, OverflowError, OSError):  # not a whole number of seconds, or out of range: ignored
            pass
    if reproducible:
        return "not recorded (reproducible build)"
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
