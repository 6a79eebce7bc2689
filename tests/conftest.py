"""Shared fixtures for the ricochet_math tests, and the environment every test run has (CI's and the
README's ``pytest`` alike)."""
from __future__ import annotations

import os
import sys

# The test run's environment, set here (before anything imports numba) so that the README's `pytest` is
# what CI runs (.ci/run sets nothing more); every process a test starts inherits it:
# * two numba threads per process: the suite runs one process per core (pytest-xdist), and each with a
#   thread per core would oversubscribe the machine; no figure depends on the thread count.  A value
#   already set (a developer timing a kernel) is kept.
os.environ.setdefault("NUMBA_NUM_THREADS", "2")
# * bytecode caching on, whatever the machine's default: with PYTHONDONTWRITEBYTECODE set, every Python
#   process the suite starts (CLI subprocesses, notebook kernels, workers) compiles the package's modules
#   again (about 0.25 s each time on the 2-core machine).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

import textwrap  # noqa: E402  (after the environment above)

import processes  # noqa: E402  (tests/processes.py: pytest puts this folder on the path for its conftest)

# every process a test starts ends with the test run, however it ends (Ctrl-C, kill, kill -9): see there
processes.install()
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from filelock import FileLock  # noqa: E402

from ricochet_math.rules.files import paytables_dir  # noqa: E402
from ricochet_math.rules.ruleset import load_rules  # noqa: E402


@pytest.fixture(scope="session")
def default_rules():
    """The shipped default rule set, ``paytables/publisher.toml``."""
    return load_rules()


@pytest.fixture(scope="session")
def shipped_paytables() -> Path:
    """The folder of the shipped rule-set files."""
    return paytables_dir()


@pytest.fixture
def tmp_rules(tmp_path):
    """Factory: ``tmp_rules(text, name="rules.toml")`` writes dedented TOML under ``tmp_path``.

    ``extends = "publisher"`` in the text inherits the shipped default, so a
    test only writes the keys it is about.  Returns the file's path.
    """

    def write(text: str, name: str = "rules.toml") -> Path:
        path = tmp_path / name
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
        return path

    return write


@pytest.fixture(scope="session")
def kernel_lock(tmp_path_factory):
    """A lock held while a Jupyter kernel runs, shared by every pytest-xdist worker.

    The notebook tests and the documentation build (which executes a notebook) each start a kernel;
    two kernels started side by side on the 2-core CI machine hung once in nbclient waiting for an
    execute reply (ipykernel 7; upstream reports intermittent freezes, ipython/ipykernel#1471), so the
    kernels run one at a time.  The lock file lives in the folder every worker's temporary folder shares.
    """
    root = tmp_path_factory.getbasetemp()
    if root.name.startswith("popen-gw"):   # pytest-xdist: one folder per worker under a shared one
        root = root.parent
    return FileLock(str(root / "jupyter-kernel.lock"))


@pytest.fixture(scope="session")
def rococo_tiny_report(tmp_path_factory):
    """``(folder, result)`` of the tiny Rococo report (seed 5, reproducible), built once per test worker: the
    tests that only read a built report share it (each build is seconds; tests that rebuild or write beside a
    report build their own).  Nothing may write into the folder."""
    from ricochet_math.games.rococo.report import build_report

    out = tmp_path_factory.mktemp("rococo-tiny") / "rococo"
    return out, build_report(out, size="tiny", seed=5, reproducible=True)


# How pytest-xdist shares the files between workers: tests/scheduling.py (the kernel files as one unit, the
# longest units first).  Only the order of the tests and which worker runs them change.
def pytest_collection_modifyitems(config, items):
    import scheduling

    scheduling.order(items)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: absent with -p no:xdist
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadfile":
        return None  # another --dist named on the command line: pytest-xdist's own
    import scheduling

    return scheduling.KernelUnitScheduling(config, log)
