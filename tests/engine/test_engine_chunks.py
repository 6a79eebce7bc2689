"""engine.chunks.run_chunk_records: the sums of run_chunk and of a simulate chunk, digit for digit, and records
that add up to them."""
from __future__ import annotations

import numpy as np

from ricochet_math.engine.chunks import run_chunk_records
from ricochet_math.engine.kernel import ChunkSums, SeatSum, Status, prepare, run_chunk
from ricochet_math.solvers.executors import chunk_seed
from ricochet_math.solvers.montecarlo import simulate


def test_records_chunk_is_run_chunk_and_simulate():
    """N = 3, pot-odds-final with controls, seed 7, two chunks of 128 rounds: the same sums as run_chunk (every
    array equal) and, added, simulate's sums (chunk_size 128, one worker); the records' fold count and the decks'
    hole cards agree with the sums and the records."""
    setup = prepare("publisher", 3, "pot-odds-final", control_variates=True)
    entropy = int(np.random.SeedSequence(7).entropy)
    chunks = [run_chunk_records(setup, chunk_seed(entropy, i), 128) for i in range(2)]
    for i, c in enumerate(chunks):
        plain, decks = run_chunk(setup, chunk_seed(entropy, i), 128, keep_decks=True)
        for key in ChunkSums.KEYS:
            assert np.array_equal(getattr(c.sums, key), getattr(plain, key)), key
        assert np.array_equal(c.decks, decks)
        assert c.rounds == 128
        assert (c.records.status == Status.folded).sum() == c.sums.total[SeatSum.fold]
    r = simulate("publisher", 3, "pot-odds-final", rounds=256, seed=7, chunk_size=128, workers=1, progress=False)
    total = chunks[0].sums + chunks[1].sums.in_half(1)
    for key in ChunkSums.KEYS:
        assert np.array_equal(getattr(total, key), getattr(r.sums, key)), key
