"""How the suite's test files are shared between pytest-xdist workers (``--dist loadfile``, the default).

Two changes to pytest-xdist's file-by-file scheduling, both about the wall time of the 2-core CI run; which
tests run, and what each checks, is unchanged:

* **The Jupyter-kernel files are one unit of work.**  ``tests/test_notebooks.py``, ``tests/test_docs.py``
  (the site build executes a notebook) and ``tests/test_interrupted_run.py`` start kernels, and kernels run
  one at a time (``conftest.kernel_lock``: two side by side hung once).  As separate files on two workers,
  one worker sat waiting for the lock while the other ran notebooks (the docs fixture's "setup" measured
  133 s cold, most of it waiting); as one unit they run one after another on one worker while the other
  worker goes on with the rest.
* **The longest units start first** (longest-processing-time-first scheduling): pytest-xdist orders files by
  their number of tests, so a two-minute file with few tests could start last and finish alone.
  :data:`LONGEST` lists the units measured longest (seconds on the 2-core machine, cold numba cache, in the
  comments), longest first; every other file keeps its place after them.  A file missing from the list only
  loses its head start.
"""
from __future__ import annotations

from xdist.scheduler import LoadFileScheduling

#: files whose tests start Jupyter kernels: one unit, run by one worker
KERNEL_FILES = ("tests/test_notebooks.py", "tests/test_docs.py", "tests/test_interrupted_run.py")
KERNEL_UNIT = "jupyter-kernels"

#: the units measured longest, longest first (seconds, cold, fast suite, 2026-12-04)
LONGEST = (
    KERNEL_UNIT,                                  # ~150 notebooks, site build, interrupted runs
    "tests/cli/test_cli_output.py",               # 67
    "tests/test_output_safety.py",                # 58
    "tests/test_rebuild_keeps_user_files.py",     # 48
    "tests/engine/test_fast_engine.py",           # 40
    "tests/evaluator/test_jokers.py",             # 38
    "tests/cli/test_cli_inputs.py",               # 36
    "tests/solvers/test_dask.py",                 # 33
    "tests/design/test_cut_search.py",            # 31
    "tests/reports/test_report.py",               # 28
    "tests/games/test_home_tree_size.py",         # 24
    "tests/games/test_home_cli.py",               # 23
    "tests/games/test_game_report_columns.py",    # 22
    "tests/test_reliability.py",                  # 20
    "tests/test_faults.py",                       # 19
    "tests/games/test_home.py",                   # 19
    "tests/test_fuzz.py",                         # 18
)


def unit(nodeid: str) -> str:
    """The unit of work a test belongs to: its file, or :data:`KERNEL_UNIT`."""
    path = nodeid.split("::", 1)[0]
    return KERNEL_UNIT if path in KERNEL_FILES else path


def order(items: list) -> None:
    """Sort collected items in place: the units of :data:`LONGEST` first, in its order, then every other
    unit in collection order (a stable sort, so the tests inside a unit keep theirs)."""
    rank = {name: i for i, name in enumerate(LONGEST)}
    items.sort(key=lambda item: rank.get(unit(item.nodeid), len(LONGEST)))


class KernelUnitScheduling(LoadFileScheduling):
    """pytest-xdist's ``loadfile`` scheduling with the kernel files as one unit, units in collection order
    (see :func:`order`) rather than by their number of tests."""

    def __init__(self, config, log=None):
        config.option.loadscopereorder = False  # keep order()'s longest-first
        super().__init__(config, log)

    def _split_scope(self, nodeid: str) -> str:
        return unit(nodeid)
