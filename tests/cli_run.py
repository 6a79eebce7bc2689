"""Run the ``ricochet`` command in the test's own process: the parser and the handlers as the entry point
runs them, without a Python start-up and the package's imports per call (about 2 s each on 2 cores).

``run_cli(*args, cwd=...)`` returns a :class:`subprocess.CompletedProcess` like ``subprocess.run`` would:
the exit status :func:`ricochet_math.cli.app.main` returns (or a ``SystemExit``'s code, as for ``--help``
and usage errors) and everything written to stdout and stderr.  A handful of tests still start a real
process (tests/cli/test_cli.py) to check the installed entry point and its exit codes.
"""
from __future__ import annotations

import contextlib
import io
import os
import subprocess
from pathlib import Path

from ricochet_math.cli.app import main


def run_cli(*args: str, cwd: str | os.PathLike | None = None, timeout: float | None = None) -> subprocess.CompletedProcess:
    """``ricochet ARGS`` in this process, in folder ``cwd`` (default: the current one); ``timeout`` is
    accepted for call-compatibility with ``subprocess.run`` and ignored."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(Path(cwd) if cwd is not None else Path.cwd()), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(args))
        except SystemExit as exc:  # --help, --version and usage errors leave through argparse
            status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return subprocess.CompletedProcess(["ricochet", *args], status, out.getvalue(), err.getvalue())
