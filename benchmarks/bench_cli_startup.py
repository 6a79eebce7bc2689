"""How long ``ricochet --help`` takes to start (issue 26): wall times of fresh processes, median of 7.

    PYTHONPATH=. python benchmarks/bench_cli_startup.py             # about 30 s on 2 cores
    PYTHONPATH=. python benchmarks/bench_cli_startup.py --repeat 15

Each row starts a new Python process and times it from start to exit; the runs of the rows are
interleaved (row 1, row 2, ..., row 1, ...) so that a change in the machine's load touches every row alike.
The rows:

* ``ricochet --help`` and ``ricochet ring --help``: the installed entry point next to this interpreter
  (``python -m ricochet_math`` where there is none);
* ``import ricochet_math``: the package root alone (each public name loads on first use);
* the baselines, measured in the same run: ``python -c pass`` (the interpreter's own start) and
  ``import ricochet_math`` followed by every name of ``__all__`` (what the import cost before the root was
  lazy: every layer, numba, pandas, scipy).

The load average (1, 5, 15 minutes) is printed before and after: on a shared machine the figures move with it.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def _rows() -> list[tuple[str, list[str]]]:
    script = shutil.which("ricochet", path=str(Path(sys.executable).parent))
    ricochet = [script] if script else [sys.executable, "-m", "ricochet_math"]
    py = sys.executable
    return [
        ("ricochet --help", [*ricochet, "--help"]),
        ("ricochet ring --help", [*ricochet, "ring", "--help"]),
        ("python -c 'import ricochet_math'", [py, "-c", "import ricochet_math"]),
        ("baseline: python -c pass", [py, "-c", "pass"]),
        ("baseline: import ricochet_math + every name of __all__",
         [py, "-c", "import ricochet_math as rm; [getattr(rm, n) for n in rm.__all__]"]),
    ]


def _wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per row; the median is printed (default 7)")
    args = parser.parse_args()
    rows = _rows()
    print(f"{sys.executable}, {os.cpu_count()} cores; load average before: {_load()}")
    for _, argv in rows:  # one untimed run each: the file cache and numba's cache warm
        _wall(argv)
    times: dict[str, list[float]] = {name: [] for name, _ in rows}
    for _ in range(args.repeat):
        for name, argv in rows:
            times[name].append(_wall(argv))
    width = max(len(name) for name in times)
    print(f"{'command':{width}}  median s  min s  max s  (of {args.repeat})")
    for name, values in times.items():
        print(f"{name:{width}}  {statistics.median(values):8.3f}  {min(values):5.3f}  {max(values):5.3f}")
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
