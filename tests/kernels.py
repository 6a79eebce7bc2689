"""Running Jupyter kernels from the tests without letting a lost reply hang CI.

Why: with ipykernel 7.4 (the only version in this machine's package index) nbclient sometimes waits
forever for a reply from a kernel that has finished its cell and sits idle (seen twice in CI, in the
notebook tests, with no other kernel running; upstream reports the same kind of freeze,
ipython/ipykernel#1471).  So a notebook runs in its own process group under a wall-clock limit; a
run that overstays it is killed (the kernel exits with its parent) and started again once.  A
notebook that fails is not retried: only a run that gives no answer is.  The lost reply is caught
sooner by nbclient's own wait for each cell's reply (``CELL_SECONDS``, far above any cell at the
tiny size): the run then exits with ``NO_REPLY`` and is started again at once, instead of after the
whole ``HANG_SECONDS`` (a CI run lost four minutes to one such freeze).

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
#: seconds nbclient waits for one cell's reply (the longest cell at the tiny size takes about 15 s here)
CELL_SECONDS = 90
#: exit status of a notebook run whose kernel gave no reply within CELL_SECONDS
NO_REPLY = 75


def run_with_retry(cmd: list[str], *, timeout: float = HANG_SECONDS, attempts: int = 2,
                   lost_reply: str | None = None, **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run(cmd, capture_output=True, text=True)`` in a new process group; a run past
    ``timeout`` seconds is killed with its group, and a run that exits with ``NO_REPLY`` (or, for a
    command that reports a lost reply in its output instead, prints ``lost_reply``) is let go; either is
    started again, at most ``attempts`` times in all."""
    for attempt in range(1, attempts + 1):
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True, **kwargs)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            warnings.warn(f"no answer within {timeout:.0f} s (attempt {attempt} of {attempts}): {cmd[1:3]}",
                          stacklevel=2)
            continue
        except BaseException:  # Ctrl-C (its own session never sees the terminal's): the run goes with the test
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
        lost = proc.returncode == NO_REPLY or (proc.returncode != 0 and lost_reply is not None
                                                and lost_reply in out + err)
        if not lost or attempt == attempts:
            return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
        warnings.warn(f"a cell's reply did not come within {CELL_SECONDS} s (attempt {attempt} of {attempts}): "
                      f"{cmd[1:3]}", stacklevel=2)
    raise TimeoutError(f"no answer within {timeout:.0f} s in {attempts} attempts: {cmd}")


def _execute(source: str, out: str, workdir: str, extra: str | None = None) -> int:
    import nbclient
    import nbformat

    from nbclient.exceptions import CellTimeoutError

    nb = nbformat.read(source, as_version=4)
    if extra:
        with open(extra, encoding="utf-8") as f:
            nb.cells.append(nbformat.v4.new_code_cell(f.read().strip()))
    client = nbclient.NotebookClient(nb, timeout=CELL_SECONDS, kernel_name="python3",
                                     resources={"metadata": {"path": workdir}})
    try:
        client.execute()
    except CellTimeoutError as e:  # the lost reply (or a cell far slower than any here): run it again
        print(f"no reply within {CELL_SECONDS} s: {e}", file=sys.stderr)
        return NO_REPLY
    finally:  # the outputs so far, also when a cell failed: the test reports them
        nbformat.write(nb, out)
    return 0


if __name__ == "__main__":
    sys.exit(_execute(*sys.argv[1:]))
