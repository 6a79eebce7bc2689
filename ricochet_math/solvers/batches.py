"""The game-neutral Monte Carlo driver: batches of games, seeded by index, summed in order.

Every game of the toolkit estimates its figures the same way.  A run of ``games``
games is cut into batches of ``batch_size``; batch ``i`` is played from the seed
:func:`~ricochet_math.solvers.executors.chunk_seed` ``(entropy, i)`` alone, by a
function the game supplies::

    play(seed: numpy.random.SeedSequence, length: int) -> Mapping[str, numpy.ndarray]

which returns the batch's **sums** (counts, totals, totals of squares: anything
that adds up over games).  The driver adds the batches' sums **in batch order**,
so the result is the same, bit for bit, whatever the number of threads and
whatever order the batches finished in.  The casino game's
:func:`~ricochet_math.solvers.montecarlo.simulate` is the same driver with its
own kernel, checkpoints and controls; :class:`InOrderSums` is shared by both.

The further games (``games/<name>/``) call :func:`run_batches` with their numba
batch kernel and turn the sums into :class:`~ricochet_math.solvers.stats.Estimate`
figures with :mod:`ricochet_math.solvers.stats`.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.errors import RicochetError
from ricochet_math.progress import bar as progress_bar
from ricochet_math.random_streams import chunk_seed, resolve_seed
from ricochet_math.solvers.executors import MAX_WORKERS, LocalExecutor, call_interruptibly

__all__ = ["ArraySums", "BatchRun", "InOrderSums", "run_batches", "MAX_GAMES", "MAX_BATCH"]

#: the most games one run may ask for
MAX_GAMES = 10**12
#: the most games in one batch (a batch's records live in memory at once)
MAX_BATCH = 10**7


@dataclass(frozen=True)
class ArraySums:
    """Named arrays that add element by element (the sums of a batch or of a run)."""

    arrays: Mapping[str, np.ndarray]

    def __add__(self, other: ArraySums) -> ArraySums:
        if self.arrays.keys() != other.arrays.keys():
            raise AssertionError(f"batch sums with different fields: {sorted(self.arrays)} and {sorted(other.arrays)}")
        return ArraySums({k: self.arrays[k] + other.arrays[k] for k in self.arrays})


class InOrderSums:
    """The sums of a run's finished batches, added **in batch order** (so float sums are the same
    whatever order the threads finished in): ``prefix`` holds batches ``0..prefix_chunks-1`` added in
    order; ``waiting`` holds finished batches past the first unfinished one, until their turn.
    ``zeros`` is any value with ``+`` (``ArraySums``, the casino engine's ``ChunkSums``)."""

    def __init__(self, zeros, rounds: int, chunk_size: int) -> None:
        self.prefix = zeros
        self.prefix_chunks = 0
        self.waiting: dict[int, object] = {}
        self.rounds, self.chunk_size = rounds, chunk_size

    def length(self, i: int) -> int:
        """Games in batch ``i`` (the last one may be short)."""
        return min(self.chunk_size, self.rounds - i * self.chunk_size)

    @property
    def rounds_done(self) -> int:
        return (min(self.prefix_chunks * self.chunk_size, self.rounds)
                + sum(self.length(i) for i in self.waiting))

    def add(self, i: int, chunk) -> None:
        self.waiting[i] = chunk
        while self.prefix_chunks in self.waiting:
            self.prefix = self.prefix + self.waiting.pop(self.prefix_chunks)
            self.prefix_chunks += 1

    def total(self, n_chunks: int):
        if self.prefix_chunks != n_chunks:
            raise AssertionError(f"{n_chunks - self.prefix_chunks} chunks are missing from the total")
        return self.prefix


@dataclass(frozen=True)
class BatchRun:
    """The summed arrays of a run of ``games`` games (``sums[name]``), with what reproduces it:
    ``seed`` (the entropy actually used), ``batch_size`` (part of the seeding) and the run time in seconds."""

    sums: Mapping[str, np.ndarray]
    games: int
    seed: int
    batch_size: int
    run_time: float


@dataclass(frozen=True)
class _Job:
    local: Callable[[int, int], ArraySums]  # what LocalExecutor.run calls: (batch index, length) -> sums


def run_batches(play: Callable[[np.random.SeedSequence, int], Mapping[str, np.ndarray]], games: int,
                seed: int | None = None, *, batch_size: int = 10_000, workers: int | None = None,
                executor=None, progress: bool = False, unit: str = "games", desc: str | None = None) -> BatchRun:
    """Play ``games`` games in batches and return their summed arrays.

    ``play(seed_sequence, length)`` plays ``length`` games from that seed and returns their sums as
    named numpy arrays (the same names and shapes for every batch).  ``seed``: 0 to 2**128 - 1 (None:
    fresh entropy, recorded on the result).  ``batch_size`` is part of the seeding (the same seed and
    batch size give the same games); ``workers`` (threads, default every core) is not: the sums are
    the same bit for bit for any number of workers.  Numba kernels that release the GIL
    (``nogil=True``) run in parallel; others still give the same figures, one batch at a time.
    ``executor``: a :class:`~ricochet_math.solvers.executors.LocalExecutor` instead of ``workers`` (the
    games' batches are closures over compiled kernels, so they run on local threads only).
    ``progress``: a progress bar on stderr when it is a terminal (tqdm: ``unit`` played, the rate and the time
    left; the first batch includes compiling or loading the game's kernel), named ``desc`` (default: the
    ``unit`` played).
    """
    games = check_whole(games, "games", high=MAX_GAMES)
    batch_size = check_whole(batch_size, "batch_size", high=MAX_BATCH)
    seed = check_seed(seed)
    if workers is not None:
        workers = check_whole(workers, "workers", high=MAX_WORKERS)
    if executor is not None:
        if workers is not None:
            raise RicochetError("give workers (local threads) or executor, not both: "
                                "LocalExecutor(workers) sets the threads of a local executor")
        if not isinstance(executor, LocalExecutor):
            raise RicochetError(f"the games run on local threads only: give a LocalExecutor, not "
                                f"{type(executor).__name__}")
        workers = executor.workers
    entropy = resolve_seed(seed)
    n_batches = -(-games // batch_size)
    start = time.perf_counter()

    def local(i: int, length: int) -> ArraySums:
        out = play(chunk_seed(entropy, i), length)
        if not isinstance(out, Mapping):
            raise RicochetError(f"a batch must return a mapping of named arrays, got {type(out).__name__}")
        return ArraySums(MappingProxyType({k: np.asarray(v) for k, v in out.items()}))

    # no bar when stderr is not a terminal (logs, pipes, captured test output): ricochet_math.progress
    what = desc or f"Monte Carlo, {unit}"
    bar = progress_bar(games, f"{what}: loading the kernel (compiled on the first run)", unit=f" {unit}",
                       unit_scale=True, progress=progress)
    try:
        # the first batch compiles the game's kernel once, before the threads; waited for (not run) here, so
        # that Ctrl-C stops the run at once (nothing is kept: a batch run has no checkpoint)
        first = call_interruptibly(local, 0, min(batch_size, games))
        bar.set_description_str(what)
        sums = InOrderSums(ArraySums({k: np.zeros_like(v) for k, v in first.arrays.items()}), games, batch_size)

        def add(i: int, part: ArraySums) -> None:
            sums.add(i, part)
            bar.update(sums.length(i))

        add(0, first)
        todo = ((i, sums.length(i)) for i in range(1, n_batches))
        LocalExecutor(workers).run(_Job(local), todo, n_batches - 1, add, keep_running=False)
        total = sums.total(n_batches)
    finally:
        bar.close()
    return BatchRun(sums=MappingProxyType(dict(total.arrays)), games=games, seed=entropy, batch_size=batch_size,
                    run_time=time.perf_counter() - start)
