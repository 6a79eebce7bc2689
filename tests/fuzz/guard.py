"""A process-level guard for fuzzing: library calls run in a worker process, so that a segmentation
fault or a hang fails the case that caused it instead of killing the test run (issue 30).

A :class:`Guard` keeps one worker (``python tests/fuzz/guard.py``) for as many cases as it is given, over
several :meth:`Guard.run` calls (one worker start, one import of the package and one load of each cached
kernel for a whole test module instead of one per test).  The worker evaluates each case's ``call``
(Python source, with ``rm``, ``np`` and ``math`` in scope, ``tmp`` the case's scratch folder and
``cli(argv, folder)`` the ``ricochet`` command run in that process as tests/cli_run.py runs it, in an empty
folder, ``cli_here(argv)`` the same in the case's folder as it is) and answers
one JSON line per case.  A case whose answer does not come within ``timeout`` seconds is a ``hang`` (the
worker is killed), one during which the worker dies is a ``crash`` (its exit status, e.g. -11 for a
segmentation fault); a fresh worker takes the cases after it.  :func:`run_cases` is one guard for one list.

Outcomes: ``refused`` (a :class:`~ricochet_math.errors.RicochetError` with a one-line message of at most
:data:`LONGEST_MESSAGE` characters), ``multiline`` (a RicochetError of several lines), ``overlong`` (one
longer than that: it quoted a whole 100,000-character argument), ``traceback`` (any other exception), ``accepted``
(the call returned; ``value`` holds what it returned when that is a dict, e.g. ``cli``'s), ``hang``,
``crash``.  ``seconds``: the call's own time in the worker.
"""
from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: extra seconds for a fresh worker's first case: the import and the kernels' loading or compilation
START_SECONDS = 120.0

#: the longest message a refusal may have (values are quoted to 60 characters: errors.quote)
LONGEST_MESSAGE = 1000


class Guard:
    """One worker process reused across :meth:`run` calls (restarted after a hang or a crash)."""

    def __init__(self, env: dict | None = None):
        self.env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
        self.proc: subprocess.Popen | None = None
        self.pending = b""

    def _start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=self.env, cwd=str(ROOT))
        self.pending = b""
        self.fresh = True

    def _stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc.stdin.close()
            self.proc.stdout.close()
            self.proc = None

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()  # end of input: the worker leaves
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
            self._stop()

    def __enter__(self) -> Guard:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _answer(self, timeout: float) -> dict | str:
        """The worker's next answer, or ``"hang"`` / ``"crash (exit status N)"``."""
        fd = self.proc.stdout.fileno()  # read raw: a buffered reader would hold answers the selector cannot see
        deadline = time.monotonic() + timeout + (START_SECONDS if self.fresh else 0.0)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self.pending:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(timeout=left):
                    self._stop()
                    return "hang"
                chunk = os.read(fd, 1 << 16)
                if not chunk:  # the worker died
                    self.proc.wait()
                    status = self.proc.returncode
                    self._stop()
                    return f"crash (exit status {status})"
                self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        self.fresh = False
        return json.loads(line)

    def run(self, cases: list[str], *, timeout: float = 60.0, tmp: str | os.PathLike = ".") -> list[dict]:
        """Each case's outcome, in order: ``{"call", "outcome", "error", "message", "seconds"[, "value"]}``."""
        results = []
        for call in cases:
            if self.proc is None:
                self._start()
            try:
                self.proc.stdin.write((json.dumps([call, str(tmp)]) + "\n").encode())
                self.proc.stdin.flush()
            except BrokenPipeError:  # died after its last answer: read the exit status below
                pass
            answer = self._answer(timeout)
            if isinstance(answer, str):
                answer = {"call": call, "outcome": answer.split()[0], "error": answer, "message": "", "seconds": -1}
            results.append(answer)
        return results


def run_cases(cases: list[str], *, timeout: float = 60.0, tmp: str | os.PathLike = ".",
              env: dict | None = None) -> list[dict]:
    """Each case's outcome, in order (one guard for this list: see the module docstring)."""
    with Guard(env) as guard:
        return guard.run(cases, timeout=timeout, tmp=tmp)


def _worker() -> None:
    # answers go to a private copy of stdout; fd 1 itself goes to /dev/null, so that nothing a case prints
    # (Python or compiled code) can fall into the answers
    answers = os.fdopen(os.dup(1), "w")
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - lives as long as the worker

    import math

    import numpy as np

    import ricochet_math as rm
    from ricochet_math.errors import RicochetError

    sys.path.insert(0, str(ROOT / "tests"))
    from cli_run import run_cli

    def cli_here(argv, folder=None):
        """``ricochet ARGV`` in this process, in ``folder`` (default: the case's folder as it is): status and
        output (a caller of this one compares the folder's files before and after)."""
        r = run_cli(*argv, cwd=folder)
        return {"status": r.returncode, "stdout": r.stdout[-4000:], "stderr": r.stderr[:200_000]}

    def cli(argv, folder):
        """``ricochet ARGV`` in this process, in ``folder`` (made empty): status, output, files left."""
        folder = Path(folder)
        folder.mkdir(parents=True)
        return cli_here(argv, folder) | {"files": sorted(p.name for p in folder.iterdir())}

    for line in sys.stdin:
        call, tmp = json.loads(line)
        os.chdir(tmp)
        scope = {"rm": rm, "np": np, "math": math, "tmp": Path(tmp), "cli": cli, "cli_here": cli_here}
        t0 = time.perf_counter()
        value = None
        try:
            value = eval(compile(call, "<case>", "eval"), scope)  # noqa: S307 - the test's own corpus
            answer = {"outcome": "accepted", "error": "", "message": ""}
        except RicochetError as exc:
            msg = str(exc)
            # one line, quoting at most a few hundred characters of any value (issue 35: not a 100 KB line)
            outcome = "multiline" if "\n" in msg.strip() else "overlong" if len(msg) > LONGEST_MESSAGE else "refused"
            answer = {"outcome": outcome, "error": type(exc).__name__, "message": msg[:2000]}
        except Exception as exc:  # noqa: BLE001 - what the fuzz counts
            answer = {"outcome": "traceback", "error": type(exc).__name__, "message": str(exc)[:300]}
        answer["seconds"] = round(time.perf_counter() - t0, 3)  # where a run's time goes
        if isinstance(value, dict):
            try:
                answer["value"] = json.loads(json.dumps(value))
            except (TypeError, ValueError):
                pass
        answers.write(json.dumps({"call": call, **answer}) + "\n")
        answers.flush()


if __name__ == "__main__":
    _worker()
