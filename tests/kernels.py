"""Running Jupyter kernels from the tests without letting a lost reply hang CI.

Why: with ipykernel 7.4 (the only version in this machine's package index) nbclient sometimes waits
forever for a reply from a kernel that has finished its cell and sits idle (seen twice in CI, in the
notebook tests, with no other kernel running; upstream reports the same kind of freeze,
ipython/ipykernel#1471).  So a notebook runs in its own process group under a wall-clock limit; a
run that overstays it is killed (the kernel exits with its parent) and started again once.  A
notebook that fails is not retried: only a run that gives no answer is.

Run as a script it executes one notebook:
``python tests/kernels.py SOURCE.ipynb OUT.ipynb WORKDIR [EXTRA_CELL.py]``.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import warnings

#: seconds a notebook run or a documentation build may take before it counts as hung
HANG_SECONDS = 240


def run_with_retry(cmd: list[str], *, timeout: float = HANG_SECONDS, attempts: int = 2,
                   **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run(cmd, capture_output=True, text=True)`` in a new process group; a run past
    ``timeout`` seconds is killed with its group and started again, at most ``attempts`` times."""
    for attempt in range(1, attempts + 1):
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, **kwargs)
        try:
            out, err = proc.communicate(timeout=timeout)
            return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            warnings.warn(f"no answer within {timeout:.0f} s (attempt {attempt} of {attempts}): {cmd[1:3]}",
                          stacklevel=2)
    raise TimeoutError(f"no answer within {timeout:.0f} s in {attempts} attempts: {cmd}")


def _execute(source: str, out: str, workdir: str, extra: str | None = None) -> int:
    import nbclient
    import nbformat

    nb = nbformat.read(source, as_version=4)
    if extra:
        with open(extra, encoding="utf-8") as f:
            nb.cells.append(nbformat.v4.new_code_cell(f.read().strip()))
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": workdir}})
    try:
        client.execute()
    finally:  # the outputs so far, also when a cell failed: the test reports them
        nbformat.write(nb, out)
    return 0


if __name__ == "__main__":
    sys.exit(_execute(*sys.argv[1:]))
