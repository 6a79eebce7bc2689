"""Where the Monte Carlo driver's chunks run: local threads, or a Dask cluster.

:func:`~ricochet_math.solvers.montecarlo.simulate` cuts a run into chunks,
seeds chunk ``i`` from ``(entropy, i)`` alone and adds the finished chunks'
sums **in chunk order**, so the result is the same, bit for bit, whichever
executor ran the chunks and in whatever order they finished.  An executor
only decides where a chunk runs:

* :class:`LocalExecutor` (the default): a thread pool in this process (the
  numba kernels release the GIL), every core unless told otherwise;
* :class:`DaskExecutor`: the workers of a ``dask.distributed`` cluster, from
  a ``Client`` or a scheduler address ``tcp://HOST:PORT``.  Dask's scheduler
  places the tasks; each task is :func:`dask_chunk`, which prepares the kernel
  setup once per worker process and returns the chunk's small sums.

Both keep a bounded number of chunks in flight (:data:`IN_FLIGHT_PER_WORKER`
per worker thread), so memory does not grow with the number of rounds, and
both hand every finished chunk to the driver's ``done(i, sums)`` in the
driver's thread.  Ctrl-C (``KeyboardInterrupt``) cancels the chunks not
started, hands over the ones already finished and re-raises.
"""
from __future__ import annotations

from contextlib import contextmanager

import itertools
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

import numpy as np

from ricochet_math.arguments import check_whole
from ricochet_math.engine.kernel import KernelSetup, prepare, run_chunk
from ricochet_math.engine.sums import ChunkSums
from ricochet_math.errors import RicochetError, quote
from ricochet_math.random_streams import chunk_seed
from ricochet_math.rules.ruleset import RuleSet

__all__ = [
    "executor_for_run", "call_interruptibly", "IN_FLIGHT_PER_WORKER", "MAX_WORKERS", "ChunkJob", "LocalExecutor", "DaskExecutor", "chunk_seed",
           "dask_chunk", "default_workers"]

#: chunks handed out per worker thread ahead of time: enough to keep every worker busy, few enough that
#: Ctrl-C waits for at most about one chunk per worker
IN_FLIGHT_PER_WORKER = 2
#: the most threads a local executor may ask for
MAX_WORKERS = 4096


def default_workers() -> int:
    """The CPU cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class ChunkJob:
    """What every chunk of one run shares.  A worker elsewhere receives the picklable fields and
    rebuilds the kernel setup from them (strategies by name, so only strategies that
    :func:`~ricochet_math.strategies.registry.get_strategy` knows run on Dask).

    ``local`` (never sent) runs chunk ``i`` of ``length`` rounds in this process and returns its sums;
    the driver supplies it, with its own setup already compiled, for :class:`LocalExecutor`.
    """

    rules: RuleSet
    players: int
    strategies: tuple[str, ...]
    control_variates: bool
    entropy: int
    local: Callable[[int, int], ChunkSums]


class LocalExecutor:
    """A thread pool of ``workers`` threads in this process (None: every core the driver may use)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = None if workers is None else check_whole(workers, "workers", high=MAX_WORKERS)

    def run(self, job: ChunkJob, todo: Iterator[tuple[int, int]], remaining: int,
            done: Callable[[int, ChunkSums], None], *, keep_running: bool = True) -> None:
        """Run the chunks ``(index, length)`` of ``todo`` (``remaining`` of them) and call ``done`` on each
        as it finishes.  On Ctrl-C, ``keep_running``: wait for the chunks already running and hand them
        over (a checkpointed run keeps them); else re-raise at once (their threads finish on their own)."""
        workers = min(self.workers or default_workers(), max(remaining, 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            running: dict[Future, int] = {}

            def submit(item: tuple[int, int]) -> None:
                running[pool.submit(job.local, *item)] = item[0]

            try:
                for item in itertools.islice(todo, IN_FLIGHT_PER_WORKER * workers):
                    submit(item)
                while running:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        done(running.pop(fut), fut.result())
                        nxt = next(todo, None)
                        if nxt is not None:
                            submit(nxt)
            except KeyboardInterrupt:
                # Drop the chunks not started, let the running ones finish (one chunk's time) and keep them.
                pool.shutdown(wait=keep_running, cancel_futures=True)
                for fut, i in running.items():
                    if fut.done() and not fut.cancelled() and fut.exception() is None:
                        done(i, fut.result())
                raise


def call_interruptibly(fn: Callable, *args):
    """``fn(*args)`` run in a helper thread while this thread waits, so Ctrl-C reaches this thread at once
    even while ``fn`` runs one long numba kernel (which releases the GIL but cannot see signals): the
    ``KeyboardInterrupt`` is raised here and ``fn`` is left to finish on its own (a daemon thread: it
    does not keep the process alive).  The result or the exception of ``fn`` otherwise."""
    out: dict = {}

    def target() -> None:
        try:
            out["value"] = fn(*args)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread as it is
            out["error"] = exc

    thread = threading.Thread(target=target, name="ricochet-kernel", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.1)
    if "error" in out:
        raise out["error"]
    return out["value"]


class DaskExecutor:
    """The workers of a ``dask.distributed`` cluster: ``client`` is a ``dask.distributed.Client`` or a
    scheduler address such as ``tcp://10.0.0.5:8786`` (this executor then opens the client and
    :meth:`close` closes it).  Needs the optional dependency ``ricochet_math[distributed]`` here, and
    on every worker the same versions of ricochet_math, numpy and numba (the task, :func:`dask_chunk`, is
    imported there by name, and the sums are bit for bit the local ones only with the same kernels).
    Start the workers without Dask's default ``MALLOC_TRIM_THRESHOLD_=65536``
    (``distributed.nanny.pre-spawn-environ``): with it the perfect-play kernel runs about 40% slower in a
    worker (benchmarks/README.md)."""

    def __init__(self, client) -> None:
        # Imported here, not at the top: dask is an optional dependency, and importing
        # dask.distributed costs about 0.7 s (measured), which every other use of the package would pay.
        try:
            from dask.distributed import Client
        except ImportError:
            raise RicochetError("the Dask executor needs dask.distributed: "
                                "pip install 'ricochet_math[distributed]'") from None
        self._owns_client = isinstance(client, str)
        if self._owns_client:
            try:
                client = Client(client)
            except (OSError, ValueError, TimeoutError) as exc:
                raise RicochetError(f"cannot reach the Dask scheduler {quote(client)}: {exc}") from None
        elif not isinstance(client, Client):
            raise RicochetError(f"a Dask executor needs a dask.distributed.Client or a scheduler address "
                                f"'tcp://HOST:PORT', got {quote(client)}")
        self.client = client

    def close(self) -> None:
        """Close the client if this executor opened it (from an address)."""
        if self._owns_client:
            self.client.close()

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def run(self, job: ChunkJob, todo: Iterator[tuple[int, int]], remaining: int,
            done: Callable[[int, ChunkSums], None]) -> None:
        """Run the chunks ``(index, length)`` of ``todo`` on the cluster and call ``done`` on each as it
        finishes (``remaining`` only sizes the local thread pool)."""
        from dask.distributed import as_completed  # importable: __init__ imported dask.distributed

        threads = max(sum(self.client.nthreads().values()), 1)
        args = (job.rules, job.players, job.strategies, job.control_variates, job.entropy)
        index: dict[object, int] = {}

        def submit(item: tuple[int, int]):
            i, length = item
            # pure=False: every chunk is distinct, so skip hashing the rule set into a task key
            fut = self.client.submit(dask_chunk, *args, i, length, pure=False)
            index[fut] = i
            return fut

        pending = as_completed([submit(item) for item in itertools.islice(todo, IN_FLIGHT_PER_WORKER * threads)])
        try:
            for fut in pending:
                i = index.pop(fut)
                done(i, ChunkSums.from_arrays(fut.result()))
                nxt = next(todo, None)
                if nxt is not None:
                    pending.add(submit(nxt))
        except KeyboardInterrupt:
            # Keep the chunks the cluster already finished.
            for fut, i in list(index.items()):
                if fut.status == "finished":
                    done(i, ChunkSums.from_arrays(fut.result()))
            raise
        finally:
            if index:  # stopped early (Ctrl-C, a failed chunk): the chunks still queued would be wasted work
                self.client.cancel(list(index))


#: per worker process: the kernel setups prepared so far, by (rule set sha256, players, strategies, controls)
_SETUPS: dict[tuple, KernelSetup] = {}


def dask_chunk(rules: RuleSet, players: int, strategies: tuple[str, ...], control_variates: bool,
               entropy: int, i: int, length: int) -> dict[str, np.ndarray]:
    """The task a Dask worker runs: chunk ``i`` (``length`` rounds, seeded by :func:`chunk_seed`) of the
    run ``(rules, players, strategies, control_variates, entropy)``; returns its
    :meth:`ChunkSums.to_arrays <ricochet_math.engine.sums.ChunkSums.to_arrays>`.  The kernel setup is
    prepared once per worker process and game (the numba kernels compile, or load from the cache, on
    the first chunk)."""
    key = (rules.sha256, players, strategies, control_variates)
    setup = _SETUPS.get(key)
    if setup is None:
        setup = _SETUPS[key] = prepare(rules, players, strategies, control_variates=control_variates)
    return run_chunk(setup, chunk_seed(entropy, i), length)[0].to_arrays()



@contextmanager
def executor_for_run(executor):
    """One executor for a run of several simulations (a table, a sweep, a report): a scheduler address
    opens one Dask client for all of them and closes it at the end; None, a Client or an executor
    passes through unchanged."""
    if isinstance(executor, str):
        with DaskExecutor(executor) as opened:
            yield opened
    else:
        yield executor
