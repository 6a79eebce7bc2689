"""Monte Carlo throughput on local threads and on a Dask LocalCluster of 1 and 2 workers (issue 12).

    python benchmarks/bench_dask.py                         # always N = 7 and perfect N = 4
    python benchmarks/bench_dask.py --always 1000000 --perfect 0   # always-play only, shorter

For each job (always-play at N = 7, perfect play at N = 4) and each executor
(local threads 1 and 2, Dask LocalCluster of 1 and 2 single-thread worker
processes): rounds per second, the median of ``--repeats`` timed runs (after
one untimed run that compiles or loads the kernels in every worker).  Every
executor's sums are checked equal, bit for bit, to the local 1-thread run.
The load average is printed before and after: figures taken on a busy machine
say little.  The workers are spawned without Dask's ``MALLOC_TRIM_THRESHOLD_``
(see benchmarks/README.md).  The last lines give the per-worker rate and what 100 such
workers would take for 10**9 rounds per player count.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import time

import dask
from dask.distributed import Client, LocalCluster

from ricochet_math import __version__
from ricochet_math.solvers.executors import DaskExecutor, LocalExecutor
from ricochet_math.solvers.montecarlo import simulate

CERTIFICATION_ROUNDS = 10 ** 9


def digest(result) -> str:
    h = hashlib.sha256()
    for key in result.sums.KEYS:
        h.update(getattr(result.sums, key).tobytes())
    return h.hexdigest()


def rate(job: dict, executor, repeats: int) -> tuple[float, str]:
    """Median rounds/s over ``repeats`` runs of ``job`` on ``executor``, and the run's sums digest."""
    res = simulate(**job, executor=executor)  # compiles, or loads from the cache, in every worker
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        simulate(**job, executor=executor)
        times.append(time.perf_counter() - t0)
    return job["rounds"] / statistics.median(times), digest(res)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--always", type=int, default=4_000_000, help="always-play rounds at N = 7 (0: skip)")
    ap.add_argument("--perfect", type=int, default=4_000, help="perfect-play rounds at N = 4 (0: skip)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--chunk-size", type=int, default=None, help="rounds per chunk (default: the driver's)")
    args = ap.parse_args(argv)
    jobs = {}
    if args.always:
        jobs["always N=7"] = dict(players=7, strategy="always", rounds=args.always, seed=2026, progress=False,
                                   chunk_size=args.chunk_size)
    if args.perfect:
        jobs["perfect N=4"] = dict(players=4, strategy="perfect", rounds=args.perfect, seed=2026, progress=False,
                                     chunk_size=args.chunk_size)
    print(f"ricochet_math {__version__}, {os.cpu_count()} CPUs, load average before {os.getloadavg()}")
    # Dask spawns workers with MALLOC_TRIM_THRESHOLD_=65536, which makes the perfect-play kernel about 40%
    # slower in a worker's task thread (0.18 s against 0.13 s per 256-round chunk at N = 4, measured);
    # None leaves glibc's own threshold, as in the local runs.
    dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None})
    per_worker = {}
    for name, job in jobs.items():
        ref_rate, ref = rate(job, LocalExecutor(1), args.repeats)
        print(f"{name}: local 1 thread   {ref_rate:12,.0f} rounds/s")
        local2, d = rate(job, LocalExecutor(2), args.repeats)
        print(f"{name}: local 2 threads  {local2:12,.0f} rounds/s  ({local2 / ref_rate:.2f}x)"
              + ("" if d == ref else "  SUMS DIFFER"))
        for workers in (1, 2):
            with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                r, d = rate(job, DaskExecutor(client), args.repeats)
            print(f"{name}: Dask {workers} worker(s) {r:12,.0f} rounds/s  ({r / ref_rate:.2f}x)"
                  + ("" if d == ref else "  SUMS DIFFER"))
            if workers == 1:
                per_worker[name] = r
    print(f"load average after {os.getloadavg()}")
    for name, r in per_worker.items():
        minutes = CERTIFICATION_ROUNDS / (100 * r) / 60
        print(f"{name}: 10**9 rounds on 100 workers at the measured {r:,.0f} rounds/s per worker: "
              f"{minutes:,.1f} min of work (before scheduler overhead; a chunk must stay seconds of work)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
