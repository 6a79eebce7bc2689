"""Shared fixtures for the ricochet_math tests."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from filelock import FileLock

from ricochet_math.rules.files import paytables_dir
from ricochet_math.rules.ruleset import load_rules


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
