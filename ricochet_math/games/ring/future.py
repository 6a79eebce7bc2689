"""The ``greedy`` drafting value: the expected value of the best arrangement reachable from the cards
taken so far, the candidate pair, and the pairs still to come (issue 16, "greedy by hand potential").

**The model.**  A seat that holds ``n`` cards and takes a pair will get ``16 - n`` more cards before
the showdown (every seat gets exactly two cards a round, with 2 or 3 players).  Those cards come
from the piles' face-down cards, which the seat has not seen: the 54 cards less every card turned up
so far (its own, the other players', the discards and the current ring).  The model draws them
uniformly from the unseen cards: ``FUTURE_SAMPLES`` completions per decision, each a partial
Fisher-Yates shuffle of the unseen cards (ascending) driven by a splitmix64 stream (:mod:`ricochet_math.random_streams`).  For each
completion and each legal pair the 18 cards are arranged strongest first (the exact solver of
:mod:`.arrange`, the arrangement the showdown uses) and the arrangement is scored by an opponent
model: the number of sampled opponent slot keys not above each slot's key (``model`` rows, the
:meth:`~.arrange.OpponentModel.samples_array` form).  A pair's value is that count summed over the
slots and the completions: an integer, proportional to the estimated expected slot points against
a random opponent, so the kernel and the readable twin agree exactly.

Choices of ours, where the issue leaves the model open:

* the future is *random* pairs from the unseen cards: it does not model that the seat will choose
  its future pairs (so it undervalues flexible holdings a little) nor what the opponents take;
* **common random numbers**: the same completions value every legal pair of the decision (the
  future cards are face down, never one of the ring's), so the comparison between pairs is paired;
* **a fixed seed per decision**: a hash of what the seat sees (the mask of cards turned up so far
  and the mask of its own cards), so ``greedy`` is a deterministic function of the seat's
  information and two runs give the same moves;
* in the last round (no future cards) one exact evaluation;
* the opponent model is :func:`value_model` (2,000 random 18-card holdings arranged strongest first,
  seed 0, per joker rule).

**Cost.**  ``FUTURE_SAMPLES`` x (legal pairs) arrangements per decision.  The 18 cards are laid out
as the 16 held-or-future cards, then the pair, so the keys of the 4,368 subsets that do not touch
the pair are valued once per completion and only the other 4,200 per candidate pair (colex order of
:data:`~.arrange.SUBSETS`).
"""
from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.games.ring.arrangement import (
    arrange,
    opponent_model,
    solve_keys,
    subset_keys_range,
)
from ricochet_math.games.ring.rules import Joker, RingRules
from ricochet_math.random_streams import SPLITMIX_GAMMA, mix64, py_mix64, py_splitmix_next, splitmix_next

__all__ = [
    "FUTURE_SAMPLES",
    "VALUE_MODEL_SAMPLES",
    "decision_seed",
    "future_values",
    "reference_future_values",
    "value_model",
]

#: completions of the future sampled per decision (the cost is linear in it)
FUTURE_SAMPLES = 4
#: opponent holdings in the default value model
VALUE_MODEL_SAMPLES = 2000
_SHARED = 4368  # C(16, 5): the subsets within positions 0..15
_ALL = 8568  # C(18, 5)
_GOLDEN = np.uint64(SPLITMIX_GAMMA)


# ------------------------------------------------------------------------------------ kernel
@njit
def decision_seed(seen, mine):
    """The stream's start for a decision: a hash of the masks (bit c = card c) of the cards turned up
    so far and of the seat's own cards (both ``int64``, 54 bits)."""
    return mix64(mix64(np.uint64(seen) ^ _GOLDEN) ^ np.uint64(mine))


@njit
def future_values(ring, held, m, seen, rule, model, samples, values):
    """``values[p]`` (int64[6], zeroed here; -1 for an illegal pair) = the pair (p, p+1)'s summed
    opponent-model counts over ``samples`` completions (module docstring).  ``held[:m]``: the seat's
    cards (m <= 16); ``seen``: mask of the cards turned up so far, the ring included."""
    mine = np.int64(0)
    for i in range(m):
        mine |= np.int64(1) << held[i]
    unseen = np.empty(54, dtype=np.int64)
    u = 0
    for c in range(54):
        if not (seen >> c) & 1:
            unseen[u] = c
            u += 1
    f = 16 - m
    k_eff = samples if f > 0 else 1
    state = decision_seed(seen, mine)
    pool = np.empty(54, dtype=np.int64)
    cards = np.empty(18, dtype=np.int64)
    keys = np.empty(_ALL, dtype=np.int64)
    out = np.empty(3, dtype=np.int64)
    exclude = np.full(3, -1, dtype=np.int64)
    dummy = np.zeros((3, 2), dtype=np.int64)
    for p in range(6):
        values[p] = 0 if ring[p] >= 0 and ring[(p + 1) % 6] >= 0 else -1
    for _ in range(k_eff):
        pool[:u] = unseen[:u]
        for i in range(f):
            state, r = splitmix_next(state)
            j = i + np.int64(r % np.uint64(u - i))
            pool[i], pool[j] = pool[j], pool[i]
        cards[:m] = held[:m]
        cards[m:16] = pool[:f]
        subset_keys_range(cards, rule, keys, 0, _SHARED)
        for p in range(6):
            if values[p] < 0:
                continue
            cards[16] = ring[p]
            cards[17] = ring[(p + 1) % 6]
            subset_keys_range(cards, rule, keys, _SHARED, _ALL)
            solve_keys(keys, 18, 3, 0, dummy, exclude, out)
            for s in range(3):
                values[p] += np.searchsorted(model[s, 1:], keys[out[s]], side="right")


# ------------------------------------------------------------------------------------ readable twin
def reference_future_values(ring, holding, seen_cards, rules: RingRules, model,
                            samples: int = FUTURE_SAMPLES) -> dict[int, int]:
    """Readable twin of :func:`future_values`: {legal pair position: value}, each completion arranged
    by the public :func:`~.arrange.arrange` and counted with :func:`bisect.bisect_right`."""
    seen = {int(c) for c in seen_cards}
    mine = sum(1 << int(c) for c in holding)
    state = py_mix64(py_mix64(sum(1 << c for c in seen) ^ SPLITMIX_GAMMA) ^ mine)
    unseen = [c for c in range(54) if c not in seen]
    f = 16 - len(holding)
    rows = [list(np.asarray(model)[s, 1:]) for s in range(3)]
    values = {p: 0 for p in range(6) if ring[p] >= 0 and ring[(p + 1) % 6] >= 0}
    for _ in range(samples if f > 0 else 1):
        pool = list(unseen)
        for i in range(f):
            state, r = py_splitmix_next(state)
            j = i + r % (len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        for p in values:
            a = arrange([*holding, *pool[:f], ring[p], ring[(p + 1) % 6]], rules=rules)
            values[p] += sum(bisect_right(rows[s], k) for s, k in enumerate(a.keys))
    return values


@lru_cache(maxsize=8)
def _value_model(joker: int) -> np.ndarray:
    m = opponent_model(RingRules(joker=Joker(joker)), samples=VALUE_MODEL_SAMPLES, seed=0).samples_array()
    m.setflags(write=False)
    return m


def value_model(rules: RingRules | None = None) -> np.ndarray:
    """The ``greedy`` value's opponent model for the rules' joker rule (cached): ``int64[3, 1 + 2000]``,
    the slot keys of 2,000 random 18-card holdings arranged strongest first (seed 0), sorted per slot."""
    return _value_model(int((rules or RingRules()).joker))
