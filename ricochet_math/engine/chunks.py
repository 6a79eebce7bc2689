"""A random chunk of rounds with its per-round records: the public twin of
:func:`ricochet_math.engine.kernel.run_chunk` for analyses that need each round, not only the sums.

:func:`run_chunk_records` deals ``rounds`` rounds from a seed sequence exactly as
:func:`~ricochet_math.engine.kernel.run_chunk` does (same decks, same sums, digit for digit,
so a chunk of :func:`ricochet_math.solvers.montecarlo.simulate` is reproduced), and also returns
every round's record (the kernel's ``Records`` bundle: status, wagers, shares, bonus, final
values, acting order, dealer value, kickout, pot, ...) and the deck orders dealt.  The reading
search (:mod:`ricochet_math.reports.reading_search`) builds its fold and win frequency controls
from them.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ricochet_math.arguments import check_whole
from ricochet_math.engine.kernel import (
    Decks,
    KernelSetup,
    Records,
    record_buffers,
    run_decks,
    seed_state,
)
from ricochet_math.engine.sums import ChunkSums

__all__ = ["RecordedChunk", "run_chunk_records"]


@dataclass(frozen=True, eq=False)
class RecordedChunk:
    """One chunk of random rounds: ``sums`` (as :func:`~ricochet_math.engine.kernel.run_chunk` returns
    them), ``records`` (the kernel's per-round ``Records``: per seat ``[R, N]`` status codes of
    :data:`~ricochet_math.engine.kernel.Status`, wagered, pot_share, bonus (ante units), final_value,
    quickdraw, position, order; per round ``[R]`` dealer_value, kicked, pot, house_takes_pot,
    house_net, cover, n_winners) and ``decks`` (``int64[R, 52]``, the deck order of every round)."""

    sums: ChunkSums
    records: Records
    decks: np.ndarray

    @property
    def rounds(self) -> int:
        return int(self.decks.shape[0])


def run_chunk_records(setup: KernelSetup, seed_sequence: np.random.SeedSequence, rounds: int) -> RecordedChunk:
    """``rounds`` random rounds dealt from ``seed_sequence`` with their records and decks; the sums are
    :func:`~ricochet_math.engine.kernel.run_chunk`'s for the same arguments (the tests check it)."""
    rounds = check_whole(rounds, "rounds", low=0)
    kept = np.empty((rounds, 52), dtype=np.int64)
    records = record_buffers(setup.players, rounds)
    sums = run_decks(setup, Decks(seed_state(seed_sequence), np.empty((0, 52), np.int64), kept), rounds, records)
    return RecordedChunk(sums, records, kept)
