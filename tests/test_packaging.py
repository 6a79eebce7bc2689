"""The built wheel holds the whole package: every module and every data file of the source tree.

`pyproject.toml` lets setuptools discover the packages; this test is what makes sure it does, so a new
sub-package (a sixth game, a new layer) can never be left out of the wheel again.  CI builds the sdist
and the wheel once (``.ci/wheel``) and passes the folder in ``RICOCHET_DIST``; run alone, the test builds
the wheel itself with ``python -m build`` (about 10 s).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import ricochet_math
from ricochet_math._version import VERSION, __version__

ROOT = Path(ricochet_math.__file__).resolve().parent
CHECKOUT = ROOT.parent


def _source_files() -> set[str]:
    """The package's files as a wheel names them (``ricochet_math/...``): modules and data, no caches."""
    found = set()
    for path in ROOT.rglob("*"):
        rel = path.relative_to(CHECKOUT)
        if path.is_dir() or "__pycache__" in rel.parts or path.suffix in {".pyc", ".nbi", ".nbc"}:
            continue
        found.add(rel.as_posix())
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    given = os.environ.get("RICOCHET_DIST")
    if given:
        wheels = sorted(Path(given).glob("ricochet_math-*.whl"))
        assert len(wheels) == 1, f"expected one wheel in RICOCHET_DIST={given}, found {wheels}"
        return wheels[0]
    if not (CHECKOUT / "pyproject.toml").is_file():
        pytest.skip("not a source checkout: the package was installed from a wheel")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(CHECKOUT)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return next(out.glob("ricochet_math-*.whl"))


def test_wheel_holds_every_module_and_data_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    in_wheel = {n for n in names if n.startswith("ricochet_math/")}
    source = _source_files()
    assert sorted(source - in_wheel) == [], "in the source tree but not in the wheel"
    assert sorted(in_wheel - source) == [], "in the wheel but not in the source tree"


def test_wheel_ships_the_data_the_toolkit_reads(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("ricochet_math/py.typed", "ricochet_math/paytables/publisher.toml",
                   "ricochet_math/paytables/publisher-4p-tens.toml", "ricochet_math/reports/templates/report.html.j2"):
        assert needed in names
    for game in ("home", "ring", "rococo", "freeride"):
        assert f"ricochet_math/games/{game}/__init__.py" in names


def test_version_is_written_once(wheel):
    """The wheel's metadata, the installed metadata and ``_version.VERSION`` carry the same string."""
    assert wheel.name.startswith(f"ricochet_math-{VERSION}-")
    assert __version__ == VERSION
    metadata = zipfile.ZipFile(wheel).read(f"ricochet_math-{VERSION}.dist-info/METADATA").decode()
    assert f"\nVersion: {VERSION}\n" in metadata
    project = tomllib.loads((CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and "version" in project["dynamic"]
