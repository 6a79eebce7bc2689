"""The analysis notebooks (notebooks/*.ipynb) run top to bottom on a fresh kernel at the tiny size.

Truth: issue 6 asks that each notebook runs on a fresh kernel, calls only the
public API, reads one size parameter, and is committed without stale outputs;
issue 11 that they print no warning noise and that the tuning widgets work
without a browser (their callbacks are plain functions, called here).
Each notebook is executed with nbclient in a temporary folder with
``RICOCHET_NB_SIZE=tiny``; the committed files must equal what
``notebooks/make_notebooks.py`` generates (so they carry no outputs).  The list
of notebooks is the generator's, so a new notebook is tested without editing
this file.
"""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from kernels import NO_REPLY, run_with_retry

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
KERNELS = Path(__file__).resolve().parent / "kernels.py"


def _generator():
    spec = importlib.util.spec_from_file_location("make_notebooks", NOTEBOOKS / "make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NAMES = list(_generator().NOTEBOOKS)
# The notebooks that run many solver-reading simulations take longer than the rest (01); the fast suite keeps
# the two with widget checks (03, 04), the two quickest (05, 09) and the equilibrium notebook (11, issue 33: in
# CI); the other five (6 to 11 s each on 2 cores) run with -m slow (issue 37: the fast suite's time).
SLOW = {"01-published-figures", "02-rtp-by-players", "06-home-game", "07-ring-poker", "08-rococo-poker",
        "10-rule-set-design"}

# Test-only cells appended to a notebook before it runs: they move the widgets and call the
# callbacks as a browser would, and check that the figures move.
WIDGET_CHECKS = {
    "03-paytable-tuning": '''
shipped = exact_figures(*SHIPPED)
bonus_sliders["flush"].value = 6               # fires on_change; the example edit's pays, so the
bonus_sliders["royal_flush"].value = 500       # button's re-solve below reads the cache
cover_sliders["four_of_a_kind"].value = 60
moved = exact_figures(*current())
assert moved["main game N = 1, RTP per initial bet %"] > shipped["main game N = 1, RTP per initial bet %"]
assert moved["Cover RTP %"] > shipped["Cover RTP %"]
on_resolve()
print("widgets ok")
''',
    "04-kickout-thresholds": '''
target_slider.value = target_slider.min       # fires on_target
on_run()
print("widgets ok")
''',
    "10-rule-set-design": '''
lo_slider.value = 91.0                        # fires on_band: the search answers on the built surface
hi_slider.value = 90.5                        # an inverted band: said so, no search
assert search_design(design.model, (0.91, 0.99)).miss <= search_design(design.model, (0.95, 0.96)).miss
print("widgets ok")
''',
}


def test_every_notebook_is_there_and_committed_without_outputs():
    found = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    assert found == sorted(NAMES)
    for name in NAMES:
        nb = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert code and all(not c.outputs and c.execution_count is None for c in code), name
        assert "RICOCHET_NB_SIZE" in code[0].source, f"{name}: the size parameter is read in the first code cell"
        for c in code:  # only the public API: no private names of the package
            assert not re.search(r"ricochet_math\.\w+\s+import\s+_|\bricochet_math\.\w+\._", c.source), name


def test_a_run_without_a_reply_is_started_again_once(tmp_path):
    """tests/kernels.py: a notebook run that exits with NO_REPLY (a cell's reply lost) runs once more,
    with a warning; a plain failure does not, and a second NO_REPLY is returned as it is."""
    script = ("import pathlib, sys; p = pathlib.Path(sys.argv[1]); n = int(p.read_text()) if p.exists() else 0; "
              "p.write_text(str(n + 1)); sys.exit(int(sys.argv[2]) if n == 0 else int(sys.argv[3]))")
    for first, then, want_code, want_runs in ((NO_REPLY, 0, 0, 2), (1, 0, 1, 1), (NO_REPLY, NO_REPLY, NO_REPLY, 2)):
        count = tmp_path / f"runs-{first}-{then}"
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            r = run_with_retry([sys.executable, "-c", script, str(count), str(first), str(then)], timeout=60)
        assert (r.returncode, int(count.read_text()), len(seen)) == (want_code, want_runs, want_runs - 1)


def test_notebooks_match_their_generator():
    r = subprocess.run([sys.executable, str(NOTEBOOKS / "make_notebooks.py"), "--check"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def _run(name: str, tmp_path, kernel_lock):
    """Execute the notebook at the tiny size in its own process (tests/kernels.py: killed and run again
    once if the kernel stops answering) and return the executed notebook."""
    env = {**os.environ, "RICOCHET_NB_SIZE": "tiny", "MPLBACKEND": "Agg"}
    cmd = [sys.executable, str(KERNELS), str(NOTEBOOKS / f"{name}.ipynb"), str(tmp_path / f"{name}.out.ipynb"),
           str(tmp_path)]
    if name in WIDGET_CHECKS:
        extra = tmp_path / "widget_checks.py"
        extra.write_text(WIDGET_CHECKS[name], encoding="utf-8")
        cmd.append(str(extra))
    with kernel_lock:
        r = run_with_retry(cmd, env=env, cwd=tmp_path)
    assert (tmp_path / f"{name}.out.ipynb").exists(), r.stderr[-3000:]
    nb = nbformat.read(tmp_path / f"{name}.out.ipynb", as_version=4)
    assert r.returncode == 0, (_errors(nb) or r.stderr)[-3000:]
    return nb


def _errors(nb) -> str:
    return "".join("\n".join(o.get("traceback", [])) for c in nb.cells if c.cell_type == "code"
                   for o in c.outputs if o.output_type == "error")


def _text(nb, stream: str | None = None) -> str:
    parts = []
    for c in nb.cells:
        for o in c.get("outputs", []):
            if o.output_type == "stream" and (stream is None or o.name == stream):
                parts.append(o.text)
            elif stream is None and "data" in o:
                parts.append(str(o.data.get("text/plain", "")) + str(o.data.get("text/html", "")))
    return "".join(parts)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in NAMES])
def test_notebook_runs_at_tiny_size(name, tmp_path, kernel_lock):
    nb = _run(name, tmp_path, kernel_lock)
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    # no warning noise: nothing on stderr (warnings, progress bars, tracebacks)
    assert _text(nb, "stderr") == "", _text(nb, "stderr")[:2000]
    if name in WIDGET_CHECKS:
        assert "widgets ok" in _text(nb, "stdout")
    if name == "03-paytable-tuning":
        assert (tmp_path / "my-rules.toml").exists()
        # the example edit shows a real effect at four players (it printed "+0.000%" before issue 11)
        line = re.search(r"N = 4 RTP per initial bet .*\(difference ([+-][0-9.]+)%", _text(nb, "stdout"))
        assert line and float(line.group(1)) != 0.0
