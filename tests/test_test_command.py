"""The README's test command is CI's (issue 37): the test run's environment comes from tests/conftest.py,
not from .ci/run, so a developer's `pytest` and CI's run the same way."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_run_has_its_environment():
    assert os.environ.get("NUMBA_NUM_THREADS"), "tests/conftest.py sets two numba threads a process"
    assert "PYTHONDONTWRITEBYTECODE" not in os.environ and not sys.dont_write_bytecode


def test_ci_runs_the_readme_command_and_sets_nothing_for_it():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    code = [line.split("#")[0].strip() for line in ci.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    assert code[-1] == "pytest", "CI's last step is the README's `pytest`, word for word"
    assert not [line for line in code if re.match(r"(export|unset)\s+(NUMBA|PYTHON)", line)], \
        "the test run's environment belongs in tests/conftest.py"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", readme, flags=re.S).group(1)
    assert first_block.splitlines()[1].endswith("&& pytest")


def test_the_markers_say_what_m_slow_does():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "addopts = \"-m 'not slow'" in text
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "`pytest -m slow` runs only" in readme and "`pytest -m ''`" in readme
