"""A process-level guard for fuzzing: library calls run in a worker process, so that a segmentation
fault or a hang fails the case that caused it instead of killing the test run (issue 30).

:func:`run_cases` sends the cases to ``python tests/fuzz/guard.py`` (the worker), which evaluates each
``call`` (Python source, with ``rm``, ``np`` and ``math`` in scope, and ``tmp`` a scratch folder) and
answers one JSON line per case.  A case whose answer does not come within ``timeout`` seconds is a
``hang`` (the worker is killed), one during which the worker dies is a ``crash`` (its exit status, e.g.
-11 for a segmentation fault); the worker is restarted for the cases after it.

Outcomes: ``refused`` (a :class:`~ricochet_math.errors.RicochetError` with a one-line message),
``multiline`` (a RicochetError of several lines), ``traceback`` (any other exception), ``accepted``
(the call returned), ``hang``, ``crash``.
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


def run_cases(cases: list[str], *, timeout: float = 60.0, tmp: str | os.PathLike = ".",
              env: dict | None = None) -> list[dict]:
    """Each case's outcome, in order: ``{"call", "outcome", "error", "message"}`` (see the module docstring)."""
    results: list[dict | None] = [None] * len(cases)
    todo = list(range(len(cases)))
    full_env = dict(os.environ, PYTHONPATH=str(ROOT), **(env or {}))
    while todo:
        proc = subprocess.Popen([sys.executable, __file__, str(tmp)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=full_env, cwd=str(tmp))
        proc.stdin.write((json.dumps([cases[i] for i in todo]) + "\n").encode())
        proc.stdin.close()
        fd = proc.stdout.fileno()  # read raw: a buffered reader would hold answers the selector cannot see
        sel = selectors.DefaultSelector()
        sel.register(fd, selectors.EVENT_READ)
        done, pending = 0, b""
        # the first case also pays the import and the kernels' compilation
        deadline = time.monotonic() + timeout + 120
        broken = None
        while done < len(todo):
            if b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                results[todo[done]] = json.loads(line)
                done += 1
                deadline = time.monotonic() + timeout
                continue
            left = deadline - time.monotonic()
            if left <= 0 or not sel.select(timeout=left):
                proc.kill()
                broken = "hang"
                break
            chunk = os.read(fd, 1 << 16)
            if not chunk:  # the worker died
                proc.wait()
                broken = f"crash (exit status {proc.returncode})"
                break
            pending += chunk
        if broken is not None:
            i = todo[done]
            results[i] = {"call": cases[i], "outcome": broken.split()[0], "error": broken, "message": ""}
            done += 1
        sel.close()
        proc.stdout.close()
        proc.wait()
        todo = todo[done:]
    return results  # type: ignore[return-value]


def _worker(tmp: str) -> None:
    import math  # noqa: F401  (in scope for the cases)

    import numpy as np  # noqa: F401

    import ricochet_math as rm
    from ricochet_math.errors import RicochetError

    scope = {"rm": rm, "np": np, "math": math, "tmp": Path(tmp)}
    for call in json.loads(sys.stdin.readline()):
        try:
            eval(compile(call, "<case>", "eval"), dict(scope))  # noqa: S307 - the test's own corpus
            answer = {"outcome": "accepted", "error": "", "message": ""}
        except RicochetError as exc:
            msg = str(exc)
            answer = {"outcome": "refused" if "\n" not in msg.strip() else "multiline",
                      "error": type(exc).__name__, "message": msg}
        except Exception as exc:  # noqa: BLE001 - what the fuzz counts
            answer = {"outcome": "traceback", "error": type(exc).__name__, "message": str(exc)[:300]}
        sys.stdout.write(json.dumps({"call": call, **answer}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    _worker(sys.argv[1])
