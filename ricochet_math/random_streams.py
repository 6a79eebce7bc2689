"""The package's random numbers, all in one place: xoshiro256** and splitmix64, their readable twins, and seeds.

Every engine and kernel of every game draws from here (the foundation layer, so a game never reaches into
another game's or the casino engine's modules for its generator):

* **xoshiro256**** (Blackman and Vigna), seeded with four 64-bit words from a
  ``numpy.random.SeedSequence`` (:func:`seed_state`), is the dealing generator: :func:`xoshiro_next` is
  one step on a state held in four ``uint64`` locals (numba keeps them in registers);
  :func:`shuffle_prefix` is a partial Fisher-Yates whose bounded integers take the top 32 bits of one
  output through Lemire's multiply-and-reject, so they are exactly uniform.
* **splitmix64** (Steele, Lea and Flood; Vigna's ``splitmix64.c``) is the small stream the strategies use
  for their own sampling (a state of one word, seeded from what a seat sees): :func:`splitmix_next`,
  and its output function :func:`mix64`, which is also a good 64-bit hash.
* :class:`Xoshiro256` and :func:`py_splitmix_next` / :func:`py_mix64` are the readable pure-Python
  twins: plain integers masked to 64 bits, the same outputs bit for bit (tested against the kernels and
  against the reference generators' published first outputs).
* **Seeds.**  A run's seed is one whole number (``SeedSequence`` entropy); chunk or batch ``i`` of a
  run is dealt from :func:`chunk_seed` ``(entropy, i)`` alone, so the figures do not depend on how many
  workers play the chunks.  :func:`resolve_seed` is the one place a missing seed becomes fresh entropy
  (the library and the command line alike), printable and recorded with the results.
"""
from __future__ import annotations

import numpy as np

from ricochet_math.arguments import check_seed

from ricochet_math._numba import njit

__all__ = ["FRESH_SEED_BITS", "resolve_seed", "chunk_seed", "seed_state",
           "xoshiro_next", "xoshiro_uniform", "xoshiro_below", "shuffle_prefix", "shuffle_array", "splitmix_next", "mix64",
           "Xoshiro256", "py_splitmix_next", "py_mix64", "SPLITMIX_GAMMA"]

#: a fresh seed is a whole number below 2**63: it prints in 19 digits and fits an ``int64``
FRESH_SEED_BITS = 63
#: splitmix64's increment (the golden ratio in 64 bits)
SPLITMIX_GAMMA = 0x9E3779B97F4A7C15
_M64 = (1 << 64) - 1
_GAMMA = np.uint64(SPLITMIX_GAMMA)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


# ------------------------------------------------------------------ seeds
def resolve_seed(seed=None) -> int:
    """The seed a run uses: ``seed`` itself (a whole number, or a ``SeedSequence``'s entropy), or for
    ``None`` fresh entropy from the operating system below ``2**63`` (recorded and printed, so the run
    can be repeated)."""
    if seed is None:
        return int(np.random.SeedSequence().entropy) % (1 << FRESH_SEED_BITS)
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.entropy)
    return check_seed(seed, allow_none=False)


def chunk_seed(entropy: int, i: int) -> np.random.SeedSequence:
    """The seed of chunk ``i``: ``SeedSequence(entropy).spawn(n)[i]`` for any ``n > i``, made on its own,
    so a run creates each chunk's seed only when the chunk starts."""
    return np.random.SeedSequence(entropy, spawn_key=(i,))


def seed_state(seed_sequence: np.random.SeedSequence) -> np.ndarray:
    """The xoshiro256** state (``uint64[4]``, never all zero) for a seed sequence."""
    state = seed_sequence.generate_state(4, np.uint64)
    if not state.any():
        state[0] = 1
    return state


# ------------------------------------------------------------------ xoshiro256** (numba)
@njit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(inline="always")
def xoshiro_next(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in four uint64 locals: ``(output, s0, s1, s2, s3)``."""
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
def xoshiro_uniform(s0, s1, s2, s3):
    """A uniform float in ``[0, 1)`` from the top 53 bits of one output: ``(u, s0, s1, s2, s3)``."""
    x, s0, s1, s2, s3 = xoshiro_next(s0, s1, s2, s3)
    return (x >> np.uint64(11)) * (1.0 / 9007199254740992.0), s0, s1, s2, s3


@njit(inline="always")
def xoshiro_below(m, s0, s1, s2, s3):
    """A uniform integer in ``[0, m)`` (``1 <= m <= 2**32``), Lemire's multiply-and-reject on the top
    32 bits, exactly uniform: ``(j, s0, s1, s2, s3)``.  :meth:`Xoshiro256.below` is its twin."""
    mm = np.uint64(m)
    while True:
        x, s0, s1, s2, s3 = xoshiro_next(s0, s1, s2, s3)
        prod = (x >> np.uint64(32)) * mm
        low = prod & np.uint64(0xFFFFFFFF)
        if low >= mm or low >= (np.uint64(0x100000000) - mm) % mm:
            break
    return np.int64(prod >> np.uint64(32)), s0, s1, s2, s3


@njit(inline="always")
def _fisher_yates(values, size, count, s0, s1, s2, s3):
    """Partial Fisher-Yates: positions ``0..count-1`` of ``values[:size]`` each swapped with a uniform
    position at or after it (:func:`xoshiro_below`); returns the advanced state."""
    for i in range(count):
        j, s0, s1, s2, s3 = xoshiro_below(size - i, s0, s1, s2, s3)
        c = values[i]
        values[i] = values[i + j]
        values[i + j] = c
    return s0, s1, s2, s3


@njit(inline="always")
def shuffle_array(values, n, s0, s1, s2, s3):
    """Fisher-Yates of ``values[:n]`` in place (any length); returns the advanced state.
    :meth:`Xoshiro256.shuffle_prefix` over ``n`` of ``n`` positions is its twin."""
    return _fisher_yates(values, n, n, s0, s1, s2, s3)


@njit(inline="always")
def shuffle_prefix(deck, n_cards, s0, s1, s2, s3):
    """Partial Fisher-Yates of ``deck[:n_cards]`` (a 52-card deck) with Lemire's unbiased bounded
    integers from xoshiro256** state ``s0..s3``; returns the advanced state.  :meth:`Xoshiro256.shuffle_prefix`
    is its twin."""
    return _fisher_yates(deck, 52, n_cards, s0, s1, s2, s3)


# ------------------------------------------------------------------ splitmix64 (numba)
@njit(inline="always")
def mix64(z):
    """splitmix64's output function of a ``uint64`` (a bijective 64-bit hash)."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(inline="always")
def splitmix_next(state):
    """``(next state, next 64-bit output)`` of splitmix64 from ``state`` (``uint64``)."""
    state = state + _GAMMA
    return state, mix64(state)


# ------------------------------------------------------------------ the readable twins
def py_mix64(z: int) -> int:
    """:func:`mix64` on Python integers."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def py_splitmix_next(state: int) -> tuple[int, int]:
    """:func:`splitmix_next` on Python integers: ``(next state, output)``."""
    state = (state + SPLITMIX_GAMMA) & _M64
    return state, py_mix64(state)


class Xoshiro256:
    """xoshiro256** on Python integers, the readable twin of :func:`xoshiro_next` and :func:`shuffle_prefix`.

    ``Xoshiro256(SeedSequence(7))`` starts from :func:`seed_state`; ``Xoshiro256(state=[...])`` from four words.
    """

    def __init__(self, seed_sequence: np.random.SeedSequence | None = None, *, state=None) -> None:
        words = seed_state(seed_sequence) if state is None else state
        self.s = [int(x) & _M64 for x in words]

    def next64(self) -> int:
        """The next 64-bit output."""
        s = self.s
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

    def below(self, m: int) -> int:
        """A uniform integer in ``[0, m)``, ``m <= 2**32``: Lemire's multiply-and-reject on the top 32 bits."""
        while True:
            prod = (self.next64() >> 32) * m
            low = prod & 0xFFFFFFFF
            if low >= m or low >= ((1 << 32) - m) % m:
                return prod >> 32

    def uniform(self) -> float:
        """A uniform float in ``[0, 1)`` from the top 53 bits (:func:`xoshiro_uniform`)."""
        return (self.next64() >> 11) * (1.0 / 9007199254740992.0)

    def shuffle_prefix(self, deck: list, n_cards: int) -> None:
        """Partial Fisher-Yates of ``deck[:n_cards]`` in place (``deck`` of 52 cards), as the kernel does it."""
        size = len(deck)
        for i in range(n_cards):
            j = i + self.below(size - i)
            deck[i], deck[j] = deck[j], deck[i]
