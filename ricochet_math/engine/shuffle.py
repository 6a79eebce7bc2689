"""Random decks for the batch kernel: xoshiro256**, Lemire's bounded integers, a partial Fisher-Yates.

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

__all__ = ["seed_state", "shuffle_prefix", "xoshiro_decks"]


def seed_state(seed_sequence: np.random.SeedSequence) -> np.ndarray:
    """The xoshiro256** state (``uint64[4]``, never all zero) for a seed sequence."""
    state = seed_sequence.generate_state(4, np.uint64)
    if not state.any():
        state[0] = 1
    return state


_M64 = (1 << 64) - 1


@njit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(inline="always")
def _xoshiro(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in four uint64 locals: (output, new state...)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(inline="always")
def shuffle_prefix(deck, n_cards, s0, s1, s2, s3):
    """Partial Fisher-Yates of ``deck[:n_cards]`` with Lemire's unbiased bounded integers
    from xoshiro256** state ``s0..s3``; returns the advanced state (the one shuffle both
    the rounds kernel and :func:`xoshiro_decks` use)."""
    for i in range(n_cards):
        m = np.uint64(52 - i)
        while True:
            x, s0, s1, s2, s3 = _xoshiro(s0, s1, s2, s3)
            prod = (x >> np.uint64(32)) * m
            low = prod & np.uint64(0xFFFFFFFF)
            if low >= m or low >= (np.uint64(0x100000000) - m) % m:
                break
        j = i + np.int64(prod >> np.uint64(32))
        c = deck[i]
        deck[i] = deck[j]
        deck[j] = c
    return s0, s1, s2, s3


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
    s = [int(x) for x in state]

    def next64() -> int:
        rotl = lambda x, r: ((x << r) | (x >> (64 - r))) & _M64  # noqa: E731
        result = (rotl((s[1] * 5) & _M64, 7) * 9) & _M64
        t = (s[1] << 17) & _M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result

    def below(m: int) -> int:
        prod = (next64() >> 32) * m
        if (prod & 0xFFFFFFFF) < m:
            t = ((1 << 32) - m) % m
            while (prod & 0xFFFFFFFF) < t:
                prod = (next64() >> 32) * m
        return prod >> 32

    deck = list(range(52))
    out = np.empty((rounds, 52), dtype=np.int64)
    for r in range(rounds):
        for i in range(k):
            j = i + below(52 - i)
            deck[i], deck[j] = deck[j], deck[i]
        out[r] = deck
    return out
