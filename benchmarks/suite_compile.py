"""How much of a test run is numba compiling the kernels: a pytest plugin that times every compilation.

    RICOCHET_COMPILE_CSV=benchmarks/test-suite-compile.csv PYTHONPATH=benchmarks pytest -p suite_compile

Every pytest process (the controller and each pytest-xdist worker: ``-p`` is passed on to them) listens to
numba's ``numba:compile`` event, which numba raises only when it compiles (a kernel loaded from the cache
raises none), and at its end appends one row to the CSV: the process, how many kernels it compiled and the
seconds it spent compiling (the union of the compile intervals, so a kernel compiled inside another is
counted once).  Processes a test starts (a CLI subprocess, a notebook kernel) are not counted: in a cold run
they find most kernels already compiled by the workers.  Measure it on a fresh clone with empty caches
(``RICOCHET_CACHE_DIR`` an empty folder, no ``__pycache__``) and nothing else running.
"""
from __future__ import annotations

import csv
import os
import time
from pathlib import Path

_intervals: list[tuple[float, float]] = []
_starts: dict[int, float] = {}


def _listen() -> None:
    from numba.core import event

    class Timer(event.Listener):
        def on_start(self, ev):
            _starts[id(ev.data["dispatcher"])] = time.perf_counter()

        def on_end(self, ev):
            start = _starts.pop(id(ev.data["dispatcher"]), None)
            if start is not None:
                _intervals.append((start, time.perf_counter()))

    event.register("numba:compile", Timer())


def union_seconds(intervals: list[tuple[float, float]]) -> float:
    """The length of the union of ``(start, end)`` intervals (seconds)."""
    total, end = 0.0, float("-inf")
    for a, b in sorted(intervals):
        if b > end:
            total += b - max(a, end)
            end = b
    return total


def pytest_configure(config) -> None:
    _listen()


def pytest_unconfigure(config) -> None:
    target = os.environ.get("RICOCHET_COMPILE_CSV")
    if not target:
        return
    path = Path(target)
    new = not path.exists()
    with path.open("a", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        if new:
            out.writerow(["process", "kernels_compiled", "compile_s"])
        out.writerow([os.environ.get("PYTEST_XDIST_WORKER", "controller"), len(_intervals),
                      f"{union_seconds(_intervals):.1f}"])
