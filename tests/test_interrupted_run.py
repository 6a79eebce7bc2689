"""An interrupted test run leaves no process behind (issue 37).

A pytest run of a tiny test file that executes a notebook through ``tests/kernels.py`` (kernels.py in a
session of its own, as the notebook tests run it, and a real ``ipykernel_launcher`` under it, whose one
cell writes its pid and sleeps) is started, then interrupted once the kernel runs: Ctrl-C as a terminal
sends it (SIGINT to the run's process group, which kernels.py's own session does not receive), or
``kill -9`` of the pytest process alone, with and without pytest-xdist workers.  Within
``GONE_SECONDS`` kernels.py, the kernel and every process of the run's session must be gone
(``tests/processes.py`` says how).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
#: seconds after the interruption by which every process of the run must be gone (the kernel polls its
#: parent once a second)
GONE_SECONDS = 15.0
#: seconds the inner run may take to reach its sleeping kernel (interpreter, ricochet_math, a kernel)
START_SECONDS = 180.0

INNER = textwrap.dedent('''
    import os
    import sys
    from pathlib import Path

    import nbformat

    from kernels import run_with_retry

    def test_a_notebook_that_sleeps(tmp_path):
        pids = os.environ["RICOCHET_TEST_PIDS"]
        cell = ("import os, pathlib, time\\n"
                f"pathlib.Path({pids!r}).write_text(f'{{os.getpid()}} {{os.getppid()}}')\\n"
                "time.sleep(900)")
        source = tmp_path / "sleep.ipynb"
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)]), source)
        run_with_retry([sys.executable, os.environ["RICOCHET_KERNELS"], str(source), str(tmp_path / "out.ipynb"),
                        str(tmp_path)], timeout=900, attempts=1)
''')


def _state(pid: int) -> str | None:
    """The process's state letter (``Z``: a zombie, finished), or None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def _alive(pid: int) -> bool:
    return _state(pid) not in (None, "Z")


def _session_members(sid: int) -> list[int]:
    """Running processes of session ``sid`` (scanned in /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":  # fields after the name: state, ppid, pgrp, session
                found.append(int(entry.name))
    return found


def _kill(pids) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; the promise is Linux's prctl")
@pytest.mark.parametrize("how, workers", [
    ("ctrl-c", "0"), ("kill -9", "1"),
    pytest.param("ctrl-c", "1", marks=pytest.mark.slow), pytest.param("kill -9", "0", marks=pytest.mark.slow),
])
def test_an_interrupted_run_leaves_no_process(how, workers, tmp_path, kernel_lock):
    (tmp_path / "test_inner.py").write_text(INNER, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # not the project's addopts
    pids_file = tmp_path / "pids.txt"
    env = dict(os.environ, RICOCHET_TEST_PIDS=str(pids_file), RICOCHET_KERNELS=str(TESTS / "kernels.py"),
               PYTHONPATH=os.pathsep.join([str(TESTS), str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env.pop("PYTEST_XDIST_WORKER", None)  # the inner run's own workers set it
    cmd = [sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:cacheprovider", "-q", "-n", workers,
           "-c", str(tmp_path / "pytest.ini"), "--rootdir", str(tmp_path), str(tmp_path / "test_inner.py")]
    leftovers: list[int] = []
    with kernel_lock, open(tmp_path / "inner.log", "w") as log:
        run = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)  # a terminal's foreground group of its own
        try:
            start = time.monotonic()
            while not pids_file.exists() or len(pids_file.read_text().split()) < 2:
                assert run.poll() is None, (tmp_path / "inner.log").read_text()[-3000:]
                assert time.monotonic() - start < START_SECONDS, "the inner run never reached its kernel"
                time.sleep(0.2)
            kernel, runner = map(int, pids_file.read_text().split())  # the kernel and kernels.py, its parent
            leftovers = [kernel, runner]
            assert _alive(kernel) and _alive(runner)
            if how == "ctrl-c":
                os.killpg(run.pid, signal.SIGINT)
            else:
                os.kill(run.pid, signal.SIGKILL)
            deadline = time.monotonic() + GONE_SECONDS
            while time.monotonic() < deadline:
                run.poll()
                left = [p for p in (kernel, runner) if _alive(p)] + _session_members(run.pid)
                if not left:
                    break
                time.sleep(0.2)
            names = {p: Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ")[:120] for p in left
                     if _state(p) is not None}
            leftovers += left
            assert not left, f"{how} with {workers} worker(s) left {names}"
        finally:
            _kill(leftovers + _session_members(run.pid))
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
            run.wait()
