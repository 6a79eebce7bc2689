"""Random decks for the batch kernel: xoshiro256**, Lemire's bounded integers, a partial Fisher-Yates.

The generator is the package's (:mod:`ricochet_math.random_streams`).
The chunk kernel shuffles with xoshiro256** (Blackman and Vigna), seeded with
four 64-bit words from a ``numpy.random.SeedSequence``; a uniform integer
below ``m`` takes the top 32 bits of one output through Lemire's
multiply-and-reject, so it is exactly uniform.  Each round shuffles exactly
the first ``5N + 5`` deck positions (a partial Fisher-Yates on a deck that is
not reset between rounds, which is still a uniform shuffle), so the cards of a
round never depend on the strategies: two runs with the same seed see the
same deals (common random numbers across strategies and rule sets).
:func:`xoshiro_decks` is the pure-Python twin of that dealing.
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.engine.deal import cards_needed
from ricochet_math.random_streams import Xoshiro256, seed_state, shuffle_prefix

__all__ = ["seed_state", "shuffle_prefix", "xoshiro_decks"]


@njit
def _xoshiro_decks_kernel(state, n_cards, out):
    """The batch kernel's dealing alone (the same shuffle, round after round): out[r] = round r's deck."""
    deck = np.arange(52, dtype=np.int64)
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for r in range(out.shape[0]):
        s0, s1, s2, s3 = shuffle_prefix(deck, n_cards, s0, s1, s2, s3)
        for i in range(52):
            out[r, i] = deck[i]
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3


def xoshiro_decks(seed_sequence: np.random.SeedSequence, rounds: int, players: int, *,
                  use_kernel: bool = False) -> np.ndarray:
    """The decks :func:`run_chunk` plays, ``int64[rounds, 52]``: readable pure Python, or the kernel.

    The Python twin (xoshiro256**, Lemire's bounded integer, partial
    Fisher-Yates over ``5N + 5`` positions) is what the kernel must match.
    """
    state = seed_state(seed_sequence)
    k = cards_needed(players)
    if use_kernel:
        out = np.empty((rounds, 52), dtype=np.int64)
        _xoshiro_decks_kernel(state.copy(), k, out)
        return out
    rng = Xoshiro256(state=state)
    deck = list(range(52))
    out = np.empty((rounds, 52), dtype=np.int64)
    for r in range(rounds):
        rng.shuffle_prefix(deck, k)
        out[r] = deck
    return out
