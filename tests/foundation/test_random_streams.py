"""The package's one random module: the numba generators against their readable twins and against the
reference generators' published outputs; seeds by chunk index; the one place a fresh seed is made."""
from __future__ import annotations

import numba
import numpy as np

from ricochet_math.random_streams import (
    FRESH_SEED_BITS, SPLITMIX_GAMMA, Xoshiro256, chunk_seed, mix64, py_mix64, py_splitmix_next, resolve_seed,
    seed_state, shuffle_array, shuffle_prefix, splitmix_next, xoshiro_next,
)


@numba.njit
def _splitmix_outputs(state, k):
    out = np.empty(k, np.uint64)
    for j in range(k):
        state, out[j] = splitmix_next(state)
    return out


@numba.njit
def _xoshiro_outputs(st, k):
    s0, s1, s2, s3 = st[0], st[1], st[2], st[3]
    out = np.empty(k, np.uint64)
    for j in range(k):
        out[j], s0, s1, s2, s3 = xoshiro_next(s0, s1, s2, s3)
    return out


@numba.njit
def _shuffled(st, n_cards, rounds):
    s0, s1, s2, s3 = st[0], st[1], st[2], st[3]
    deck = np.arange(52, dtype=np.int64)
    out = np.empty((rounds, 52), np.int64)
    for r in range(rounds):
        s0, s1, s2, s3 = shuffle_prefix(deck, n_cards, s0, s1, s2, s3)
        out[r] = deck
    return out


@numba.njit
def _shuffled_array(st, n):
    s0, s1, s2, s3 = st[0], st[1], st[2], st[3]
    values = np.arange(100, 100 + n, dtype=np.int64)
    shuffle_array(values, n, s0, s1, s2, s3)
    return values


@numba.njit
def _mixed(z):
    return mix64(z)


def test_splitmix64_known_values():
    # Vigna's splitmix64.c from state 0: first outputs 0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4
    assert py_mix64(SPLITMIX_GAMMA) == 0xE220A8397B1DCDAF
    state, first = py_splitmix_next(0)
    _, second = py_splitmix_next(state)
    assert (first, second) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)
    got = [int(x) for x in _splitmix_outputs(np.uint64(12345), 5)]
    want, st = [], 12345
    for _ in range(5):
        st, out = py_splitmix_next(st)
        want.append(out)
    assert got == want
    assert int(_mixed(np.uint64(2**63 + 5))) == py_mix64(2**63 + 5)


def test_xoshiro256_known_values_and_twin():
    # xoshiro256** from state (1, 2, 3, 4): the reference implementation's first outputs
    ref = Xoshiro256(state=[1, 2, 3, 4])
    assert [ref.next64() for _ in range(3)] == [11520, 0, 1509978240]
    st = seed_state(np.random.SeedSequence(2026))
    py = Xoshiro256(state=st)
    assert [int(x) for x in _xoshiro_outputs(st, 50)] == [py.next64() for _ in range(50)]


def test_shuffle_twin_equals_kernel():
    for n_cards in (15, 52):
        st = seed_state(np.random.SeedSequence(n_cards))
        nb = _shuffled(st, n_cards, 40)
        py, deck = Xoshiro256(np.random.SeedSequence(n_cards)), list(range(52))
        for r in range(40):
            py.shuffle_prefix(deck, n_cards)
            assert nb[r].tolist() == deck


def test_shuffle_array_twin_equals_kernel():
    for n in (2, 47):
        py, values = Xoshiro256(np.random.SeedSequence(n)), list(range(100, 100 + n))
        py.shuffle_prefix(values, n)
        assert _shuffled_array(seed_state(np.random.SeedSequence(n)), n).tolist() == values


def test_below_is_in_range_and_uniform():
    rng = Xoshiro256(np.random.SeedSequence(9))
    draws = np.array([rng.below(6) for _ in range(60_000)])
    counts = np.bincount(draws, minlength=6)
    assert draws.min() == 0 and draws.max() == 5
    # each count ~ Binomial(60000, 1/6): sd 91; 5 sd
    assert np.all(np.abs(counts - 10_000) < 5 * 91.3)


def test_seeds():
    assert resolve_seed(42) == 42
    assert resolve_seed(np.random.SeedSequence(7)) == 7
    fresh = {resolve_seed() for _ in range(4)}
    assert len(fresh) == 4 and all(0 <= s < 2**FRESH_SEED_BITS for s in fresh)
    spawned = np.random.SeedSequence(5).spawn(3)
    for i in range(3):
        assert np.array_equal(chunk_seed(5, i).generate_state(4), spawned[i].generate_state(4))
