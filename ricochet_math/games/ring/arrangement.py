"""The exact arrangement solver: the best three five-card hands from a player's cards.

A player holds 18 cards and builds three five-card hands (three spares count for
nothing).  There are C(18,5)·C(13,5)·C(8,5)/3! = 102,918,816 ways to do it.  The solver

1. values the 8,568 five-card subsets once (:func:`subset_keys`, a numba kernel over
   :func:`~ricochet_math.games.ring.hands.hand_key`), each with an 18-bit card mask;
2. sorts them strongest first and searches **top hand T, then middle hand M, then
   weakest hand L**, each later in that order than the one before (so every arrangement
   is met once, its hands in slot order);
3. prunes: *dominance* - given T and M, the best L is the first subset after M that is
   disjoint from both (any other choice of L is weakly worse in every slot, and every
   objective here rises with each slot's hand), so L is never enumerated; *upper bounds* -
   every hand after T is no stronger than T, so (T, M) can score at most
   ``value(T, M, M)`` and T at most ``value(T, T, T)``; both loops stop at the first bound
   that cannot beat the best arrangement found.

Objectives (both exact):

* ``"strongest"``: lexicographically strongest (strongest hand, then middle, then
  weakest), compared by hand keys;
* ``"points"``: the largest expected slot points against an :class:`OpponentModel` (the
  distribution of an opponent's slot keys; by linearity of expectation a seat's expected
  points are (players - 1) x the sum over slots of P(opponent's hand in that slot is not
  stronger), since tied hands share their place).

It also takes fewer cards and two hands (``hands=2``, from 10 cards up), which is how the
tests check it against brute force (:func:`reference_best`).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations
from math import comb

import numpy as np
import pandas as pd

from ricochet_math._numba import njit
from ricochet_math.arguments import check_instance, check_seed, check_whole
from ricochet_math.errors import CardError, RicochetError, quote
from ricochet_math.evaluator.evaluation import PARTIAL_BASE
from ricochet_math.evaluator.jokers import FIVE_OF_A_KIND
from ricochet_math.evaluator.tables import CATEGORY_NAMES
from ricochet_math.games.ring.hands import (
    N_CARDS,
    cards_text,
    hand_key,
    parse_ring_cards,
)
from ricochet_math.games.ring.rules import Joker, RingRules

__all__ = [
    "arrange_kernel",
    "MAX_CARDS",
    "OBJECTIVES",
    "SUBSETS",
    "SUBSET_MASKS",
    "Arrangement",
    "OpponentModel",
    "arrange",
    "key_category",
    "opponent_model",
    "reference_best",
    "solve_indices",
    "solve_keys",
    "subset_keys",
    "subset_keys_range",
]

#: the objectives :func:`arrange` knows
OBJECTIVES = ("strongest", "points")
#: the most cards the solver takes
MAX_CARDS = 18


def _subset_tables() -> tuple[np.ndarray, np.ndarray]:
    """Every five-card subset of positions 0..17 in **colex** order (by mask), so the subsets of
    the first n positions are the first C(n, 5) rows: ``int64[8568, 5]`` positions and masks."""
    combos = sorted(combinations(range(MAX_CARDS), 5), key=lambda c: sum(1 << i for i in c))
    idx = np.array(combos, dtype=np.int64)
    masks = np.array([sum(1 << i for i in c) for c in combos], dtype=np.int64)
    return idx, masks


SUBSETS, SUBSET_MASKS = _subset_tables()
#: ``_BINOM[n, k]`` = C(n, k) for n < 18, k <= 5: the colex rank of positions c0 < .. < c4 is
#: sum C(c_i, i + 1), which is the subset's row in :data:`SUBSETS`
_BINOM = np.array([[comb(n, k) for k in range(6)] for n in range(MAX_CARDS)], dtype=np.int64)
#: the 56 ways to choose five of eight (positions into a list of at most eight free cards)
_FIVE_OF_EIGHT = np.array(list(combinations(range(8), 5)), dtype=np.int64)


@njit
def subset_keys(cards, n, rule, keys):
    """``keys[i]`` = hand key of subset ``SUBSETS[i]`` of ``cards[:n]`` for the first C(n,5) subsets."""
    subset_keys_range(cards, rule, keys, 0, keys.shape[0])


@njit
def subset_keys_range(cards, rule, keys, start, stop):
    """``keys[i]`` for ``start <= i < stop`` only.  In colex order the subsets within the first 16
    positions are rows 0..4367 and the rest touch position 16 or 17, so a caller that changes only
    the last two cards recomputes rows 4368..8567 (the greedy's candidate pairs, :mod:`.future`)."""
    for i in range(start, stop):
        s = SUBSETS[i]
        keys[i] = hand_key(cards[s[0]], cards[s[1]], cards[s[2]], cards[s[3]], cards[s[4]], rule)


@njit(inline="always")
def _lex_better(a0, a1, a2, b0, b1, b2):
    if a0 != b0:
        return a0 > b0
    if a1 != b1:
        return a1 > b1
    return a2 > b2


_BUCKET = PARTIAL_BASE ** 4  # a key's bucket: its category and first ranked card (keys // 15**4)


@njit
def _bucket_order(keys, order, bounds):
    """Counting sort of the subsets into buckets of ``keys // 15**4``, strongest bucket first:
    ``order[bounds[g]:bounds[g+1]]`` is bucket group g (unsorted inside); returns the number of groups."""
    count = keys.shape[0]
    top = 0
    for i in range(count):
        top = max(top, keys[i] // _BUCKET)
    counts = np.zeros(top + 2, dtype=np.int64)
    for i in range(count):
        counts[top - keys[i] // _BUCKET + 1] += 1
    groups = 0
    bounds[0] = 0
    for j in range(1, top + 2):
        if counts[j]:
            groups += 1
            bounds[groups] = bounds[groups - 1] + counts[j]
        counts[j] += counts[j - 1]
    for i in range(count):
        j = top - keys[i] // _BUCKET
        order[counts[j]] = i
        counts[j] += 1
    return groups


@njit
def _ensure(keys, order, bounds, state, i):
    """Sort bucket groups (by key, strongest first, ties by subset index) until ``order[:i+1]`` is sorted.
    ``state`` = [sorted prefix length, next group]: the search reads ``order`` front to back, so most
    buckets of weak hands are never sorted."""
    while state[0] <= i:
        g = state[1]
        lo, hi = bounds[g], bounds[g + 1]
        packed = np.empty(hi - lo, dtype=np.int64)
        for j in range(lo, hi):
            packed[j - lo] = (-keys[order[j]] << 14) | order[j]
        packed.sort()
        for j in range(lo, hi):
            order[j] = packed[j - lo] & 16383
        state[0] = hi
        state[1] = g + 1


@njit
def _best_of_free(keys, free):
    """Row of the strongest five-card subset within the positions of mask ``free`` (at most eight set,
    at least five), read through the colex rank: the weakest hand once the other two are chosen."""
    pos = np.empty(8, dtype=np.int64)
    k = 0
    for b in range(MAX_CARDS):
        if free >> b & 1:
            pos[k] = b
            k += 1
    best, best_i = np.int64(-1), -1
    for x in range(_FIVE_OF_EIGHT.shape[0]):
        c = _FIVE_OF_EIGHT[x]
        if c[4] >= k:
            continue
        i = (_BINOM[pos[c[0]], 1] + _BINOM[pos[c[1]], 2] + _BINOM[pos[c[2]], 3] + _BINOM[pos[c[3]], 4]
             + _BINOM[pos[c[4]], 5])
        if keys[i] > best:
            best, best_i = keys[i], i
    return best_i


@njit(inline="always")
def _rest_upto(keys, order, bounds, state, rest, fill, mt, j):
    """Extend ``rest`` (the subsets disjoint from the top hand's mask ``mt``, strongest first) until it
    holds entry ``j``; ``fill`` = [entries held, next position of ``order`` to read].  False when there
    are fewer.  The middle and weakest hands are searched in this list (a hand within the other 13
    cards), so the weakest-hand scan meets a disjoint subset about every 23 entries, not every 150."""
    count = order.shape[0]
    while fill[0] <= j:
        g = fill[1]
        if g >= count:
            return False
        if g >= state[0]:
            _ensure(keys, order, bounds, state, g)
        idx = order[g]
        fill[1] = g + 1
        if SUBSET_MASKS[idx] & mt == 0:
            rest[fill[0]] = idx
            fill[0] += 1
    return True


@njit
def _solve_strongest(keys, order, bounds, hands, n, out):
    """Lexicographic branch and bound over ``order`` (subset indices strongest first, sorted lazily)."""
    count = order.shape[0]
    full = (np.int64(1) << n) - 1
    masks = SUBSET_MASKS
    state = np.zeros(2, dtype=np.int64)
    fill = np.zeros(2, dtype=np.int64)
    rest = np.empty(count, dtype=np.int64)
    b0 = b1 = b2 = np.int64(-1)
    for a in range(count):
        if a >= state[0]:
            _ensure(keys, order, bounds, state, a)
        ti = order[a]
        t = keys[ti]
        if not _lex_better(t, t, t, b0, b1, b2):
            break
        mt = masks[ti]
        fill[0], fill[1] = 0, a + 1
        b = 0
        while _rest_upto(keys, order, bounds, state, rest, fill, mt, b):
            mi = rest[b]
            m = keys[mi]
            if not _lex_better(t, m, m if hands == 3 else -1, b0, b1, b2):
                break
            if hands == 2:
                b0, b1, b2 = t, m, np.int64(-1)
                out[0], out[1], out[2] = ti, mi, -1
                break
            # dominance: the best weakest hand is the best five of the cards left, found, not searched
            li = _best_of_free(keys, full ^ mt ^ masks[mi])
            l = keys[li]
            x1, x2, i1, i2 = (m, l, mi, li) if m >= l else (l, m, li, mi)
            if _lex_better(t, x1, x2, b0, b1, b2):
                b0, b1, b2 = t, x1, x2
                out[0], out[1], out[2] = ti, i1, i2
            b += 1
    return b0, b1, b2


@njit(inline="always")
def _w(weights, samples, keys, s, i):
    """``weights[s, i]``, computed on first use: (players - 1) x the share of sampled opponent slot-s keys
    not above subset i's key (most subsets are never reached by the search, so most never are)."""
    v = weights[s, i]
    if v < 0.0:
        row = samples[s, 1:]
        v = np.searchsorted(row, keys[i], side="right") * samples[s, 0] / row.shape[0]
        weights[s, i] = v
    return v


@njit(inline="always")
def _dominated(k0, k1, k2, exclude):
    """True when keys (k0 >= k1 >= k2) are slot by slot no stronger than ``exclude`` (-1s: never)."""
    return k0 <= exclude[0] and k1 <= exclude[1] and k2 <= exclude[2]


@njit
def _solve_points(keys, order, bounds, samples, exclude, hands, n, out):
    """Branch and bound for the largest sum over slots of the opponent-model weights (each rises with the key).

    ``exclude`` (int64[3], slot keys strongest first; -1s for none): skip every arrangement whose keys are
    slot by slot no stronger than it.  Run with the best arrangement's keys, this finds the **runner-up**:
    the best arrangement that some opponent model could prefer (a dominated one never can, whatever the
    model, so the sampling error of the model can only swap the best with an undominated one).  The
    dominance step stays exact under the exclusion: if (T, M, best L) is dominated, so is every (T, M, L')."""
    count = order.shape[0]
    full = (np.int64(1) << n) - 1
    masks = SUBSET_MASKS
    state = np.zeros(2, dtype=np.int64)
    fill = np.zeros(2, dtype=np.int64)
    rest = np.empty(count, dtype=np.int64)
    weights = np.full((3, count), -1.0)
    if hands == 2:
        weights[2, :] = 0.0
    best = -1.0
    for a in range(count):
        if a >= state[0]:
            _ensure(keys, order, bounds, state, a)
        ti = order[a]
        t0 = _w(weights, samples, keys, 0, ti)
        if t0 + _w(weights, samples, keys, 1, ti) + _w(weights, samples, keys, 2, ti) <= best:
            break
        mt = masks[ti]
        fill[0], fill[1] = 0, a + 1
        b = 0
        while _rest_upto(keys, order, bounds, state, rest, fill, mt, b):
            mi = rest[b]
            m1 = _w(weights, samples, keys, 1, mi)
            if hands == 2:
                if t0 + m1 > best and not _dominated(keys[ti], keys[mi], -1, exclude):
                    best = t0 + m1
                    out[0], out[1], out[2] = ti, mi, -1
                break
            if t0 + m1 + _w(weights, samples, keys, 2, mi) <= best:
                break
            # dominance: the best weakest hand is the best five of the cards left, found, not searched
            li = _best_of_free(keys, full ^ mt ^ masks[mi])
            # slots by strength: the free cards' best five can be stronger than M, and (rarely) than T
            i0, i1, i2 = ti, mi, li
            if keys[i2] > keys[i1]:
                i1, i2 = i2, i1
            if keys[i1] > keys[i0]:
                i0, i1 = i1, i0
            if not _dominated(keys[i0], keys[i1], keys[i2], exclude):
                v = (_w(weights, samples, keys, 0, i0) + _w(weights, samples, keys, 1, i1)
                     + _w(weights, samples, keys, 2, i2))
                if v > best:
                    best = v
                    out[0], out[1], out[2] = i0, i1, i2
            b += 1
    return best


@njit
def solve_keys(keys, n, hands, objective, samples, exclude, out):
    """The best arrangement from the subsets' ``keys`` (already valued): ``out`` = subset indices of the
    hands strongest first (-1 where absent); returns the objective value (points) or -1."""
    count = keys.shape[0]
    order = np.empty(count, dtype=np.int64)
    bounds = np.empty(count + 1, dtype=np.int64)
    _bucket_order(keys, order, bounds)
    if objective == 0:
        _solve_strongest(keys, order, bounds, hands, n, out)
        return -1.0
    return _solve_points(keys, order, bounds, samples, exclude, hands, n, out)


_NO_EXCLUDE = np.full(3, -1, dtype=np.int64)


@njit
def arrange_kernel(cards, n, hands, rule, objective, samples, keys, out):
    """Keys of the subsets, their order, and the best arrangement (see :func:`solve_keys`)."""
    subset_keys(cards, n, rule, keys)
    return solve_keys(keys, n, hands, objective, samples, _NO_EXCLUDE, out)


def solve_indices(cards: np.ndarray, hands: int, rule: int, objective: int = 0,
                  samples: np.ndarray | None = None, exclude=None) -> tuple[np.ndarray, np.ndarray, float]:
    """Low-level: (keys of every subset, the best hands' subset indices, value) for checked ``cards``;
    ``exclude`` (points only): slot keys whose dominated arrangements are skipped (the runner-up search)."""
    n = cards.shape[0]
    keys = np.empty(comb(n, 5), dtype=np.int64)
    out = np.full(3, -1, dtype=np.int64)
    if samples is None:
        samples = np.zeros((3, 2), dtype=np.int64)
    ex = _NO_EXCLUDE if exclude is None else np.asarray(exclude, dtype=np.int64)
    subset_keys(cards.astype(np.int64), n, int(rule), keys)
    value = solve_keys(keys, n, hands, objective, samples, ex, out)
    return keys, out, value


# ----------------------------------------------------------------------------------- categories
_CATEGORY_BASE = PARTIAL_BASE ** 5


def key_category(key: int) -> str:
    """Category name of a hand key (five of a kind, category 9, above the straight flush)."""
    cat = int(key) // _CATEGORY_BASE
    return "Five of a kind" if cat >= FIVE_OF_A_KIND else CATEGORY_NAMES[cat]


# ----------------------------------------------------------------------------------- opponents
@dataclass(frozen=True)
class OpponentModel:
    """An opponent's slot keys, as the solver's objective ``"points"`` reads them.

    ``slot_keys``: ``int64[samples, 3]``, one row per sampled opponent holding (its hands'
    keys, strongest first, as the opponent arranges them); ``players``: 2 or 3; ``source``:
    how the rows were drawn (text).  A seat's expected points from hand keys (t, m, l) are
    (players - 1) x sum over slots of the share of rows whose slot key is not above it.
    """

    slot_keys: np.ndarray
    players: int
    source: str

    def __post_init__(self) -> None:
        keys = self.slot_keys
        if not isinstance(keys, np.ndarray) or keys.dtype != np.int64 or keys.ndim != 2 or keys.shape[1] != 3 \
                or keys.shape[0] < 1:
            raise RicochetError("an opponent model's slot_keys must be an int64 array of shape (samples >= 1, 3), "
                                f"got {getattr(keys, 'dtype', type(keys).__name__)} {getattr(keys, 'shape', '')}")
        if self.players not in (2, 3) or isinstance(self.players, bool):
            raise RicochetError(f"an opponent model's players must be 2 or 3, got {quote(self.players)}")

    def samples_array(self) -> np.ndarray:
        """The kernel's form: ``int64[3, 1 + samples]``, row s = [players - 1, sorted slot-s keys...]."""
        k = np.sort(self.slot_keys, axis=0).T
        return np.ascontiguousarray(np.hstack([np.full((3, 1), self.players - 1, dtype=np.int64), k]))

    def expected_points(self, keys) -> float:
        """Expected slot points of hands with keys ``keys`` (strongest first) against this model."""
        tot = 0.0
        for s, k in enumerate(keys):
            tot += np.count_nonzero(self.slot_keys[:, s] <= k) / self.slot_keys.shape[0]
        return (self.players - 1) * tot


def opponent_model(rules: RingRules | None = None, *, dead=(), samples: int = 1000,
                   seed: int | None = 0) -> OpponentModel:
    """Opponents' slot keys: ``samples`` holdings of 18 cards drawn from the deck less ``dead``
    (a player's own cards), each arranged ``"strongest"``.  ``seed`` makes it reproducible."""
    samples = check_whole(samples, "samples", high=10**6)
    rules = check_instance(rules, RingRules, "rules", allow_none=True) or RingRules()
    rng = np.random.default_rng(check_seed(seed))
    no_dead = dead is None or (hasattr(dead, "__len__") and not isinstance(dead, str) and not len(dead))
    dead = np.zeros(0, dtype=np.int64) if no_dead else parse_ring_cards(dead, where="the dead cards")
    pool = np.setdiff1d(np.arange(N_CARDS), dead)
    if pool.size < 18:
        raise CardError(f"only {pool.size} cards left to deal an opponent 18")
    out = np.empty((samples, 3), dtype=np.int64)
    for i in range(samples):
        hold = rng.choice(pool, 18, replace=False)
        keys, idx, _ = solve_indices(hold, 3, int(rules.joker))
        out[i] = keys[idx]
    src = f"{samples} holdings of 18 from {pool.size} cards, arranged strongest, seed {seed}"
    return OpponentModel(out, rules.players, src)


# ----------------------------------------------------------------------------------- public
@dataclass(frozen=True)
class Arrangement:
    """The best hands from a holding (strongest first), the spares, and how they were found.

    ``keys``: each hand's key (the evaluator's partial-key space: higher is stronger);
    ``value``: expected slot points for objective ``"points"`` (NaN for ``"strongest"``);
    ``seconds``: solver time (values, order and search) for this holding (a process's first call also
    loads the compiled kernels).

    For ``"points"`` (the opponent model is a sample of ``opponents`` holdings, so the value is an
    estimate of the expectation against the true distribution): ``std_error`` is the value's standard
    error over the sampled opponents; ``runner_up_keys`` the slot keys of the **runner-up**, the best
    arrangement not dominated slot by slot by the chosen one (only such an arrangement can be better
    against the true distribution; empty when the chosen one dominates every other, so it is best
    against any opponent model); ``advantage`` the chosen one's expected points less the runner-up's on
    the same sampled opponents, and ``advantage_se`` its paired standard error.
    """

    cards: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    keys: tuple[int, ...]
    spares: tuple[int, ...]
    objective: str
    joker: Joker
    value: float
    seconds: float
    std_error: float = float("nan")
    runner_up_keys: tuple[int, ...] = ()
    advantage: float = float("nan")
    advantage_se: float = float("nan")
    opponents: int = 0

    @property
    def advantage_z(self) -> float:
        """``advantage / advantage_se`` (points): inf when the chosen arrangement dominates every other or
        beats the runner-up against every sampled opponent by the same margin; 0 when they tie on every one."""
        if self.objective != "points":
            return float("nan")
        if not self.runner_up_keys:
            return float("inf")
        if self.advantage_se > 0:
            return self.advantage / self.advantage_se
        return float("inf") if self.advantage > 0 else 0.0

    def to_frame(self) -> pd.DataFrame:
        names = ["strongest", "middle", "weakest"][:len(self.hands)]
        return pd.DataFrame({"slot": names + ["spares"],
                             "cards": [cards_text(h) for h in self.hands] + [cards_text(self.spares)],
                             "category": [key_category(k) for k in self.keys] + [""],
                             "key": pd.array(list(self.keys) + [None], dtype="Int64")})

    def summary(self) -> str:
        parts = [f"{cards_text(h)} ({key_category(k)})" for h, k in zip(self.hands, self.keys)]
        text = " | ".join(parts) + f"; spares {cards_text(self.spares)}"
        if self.objective == "points":
            text += (f"; expected slot points {self.value:.4f} ± {self.std_error:.4f} (s.e., "
                     f"{self.opponents:,} sampled opponents)")
            if not self.runner_up_keys:
                text += "; it dominates every other arrangement (best against any opponent model)"
            else:
                z = self.advantage_z
                text += (f"; ahead of the runner-up ({', '.join(key_category(k) for k in self.runner_up_keys)}) "
                         f"by {self.advantage:.4f} ± {self.advantage_se:.4f} (paired s.e., z = {z:.1f})")
        return text


def arrange(cards, *, rules: RingRules | None = None, objective: str = "strongest",
            opponent: OpponentModel | None = None, hands: int = 3, samples: int = 1000,
            seed: int | None = 0) -> Arrangement:
    """The best ``hands`` five-card hands from ``cards`` (text such as ``"As Ks Jk ..."`` or numbers 0..53).

    ``objective``: ``"strongest"`` (lexicographic: strongest hand, then middle, then weakest) or
    ``"points"`` (largest expected slot points against ``opponent``; by default an
    :func:`opponent_model` of ``samples`` opponents dealt from the cards not held, ``seed``).
    Exact for the objective given; ``seconds`` on the result is the solver's own time.
    """
    cs = parse_ring_cards(cards, where="the cards to arrange")
    rules = check_instance(rules, RingRules, "rules", allow_none=True) or RingRules()
    check_instance(opponent, OpponentModel, "opponent", allow_none=True)
    hands = check_whole(hands, "hands", low=2, high=3)
    samples = check_whole(samples, "samples", high=10**6)
    seed = check_seed(seed)
    if not isinstance(objective, str):
        raise RicochetError(f"objective must be one of {', '.join(OBJECTIVES)}, got {quote(objective, 40)}")
    if hands not in (2, 3):
        raise RicochetError(f"hands must be 2 or 3, got {quote(hands)}")
    if not 5 * hands <= cs.size <= MAX_CARDS:
        raise CardError(f"{hands} hands need {5 * hands} to {MAX_CARDS} cards, got {cs.size}")
    if objective not in OBJECTIVES:
        raise RicochetError(f"unknown objective {quote(objective)}: choose {' or '.join(OBJECTIVES)}")
    samples_arr = None
    if objective == "points":
        if opponent is None:
            opponent = opponent_model(rules, dead=cs, samples=samples, seed=seed)
        samples_arr = opponent.samples_array()
    start = time.perf_counter()
    keys, idx, value = solve_indices(cs, hands, int(rules.joker), OBJECTIVES.index(objective), samples_arr)
    seconds = time.perf_counter() - start
    chosen = [tuple(sorted((int(cs[j]) for j in SUBSETS[i]), reverse=True)) for i in idx[:hands]]
    used = set().union(*chosen)
    spares = tuple(int(c) for c in cs if int(c) not in used)
    best_keys = tuple(int(keys[i]) for i in idx[:hands])
    extra = {}
    if objective == "points":
        extra = _sampling_check(cs, hands, rules, samples_arr, opponent, best_keys)
    return Arrangement(tuple(int(c) for c in cs), tuple(chosen), best_keys,
                       spares, objective, rules.joker, float(value) if objective == "points" else float("nan"),
                       seconds, **extra)


def _points_per_opponent(opponent: OpponentModel, keys) -> np.ndarray:
    """Slot points of hands ``keys`` against each sampled opponent: (players - 1) x slots not beaten."""
    k = np.asarray(keys, dtype=np.int64)
    return (opponent.players - 1) * (opponent.slot_keys[:, :k.size] <= k).sum(axis=1).astype(float)


def _sampling_check(cs, hands, rules, samples_arr, opponent: OpponentModel, best_keys) -> dict:
    """The value's standard error and the paired comparison with the runner-up (see :class:`Arrangement`)."""
    s = opponent.slot_keys.shape[0]
    x = _points_per_opponent(opponent, best_keys)
    out = {"std_error": float(x.std(ddof=1) / np.sqrt(s)) if s > 1 else float("nan"), "opponents": s}
    exclude = np.full(3, -1, dtype=np.int64)
    exclude[:hands] = best_keys
    keys, idx, _ = solve_indices(cs, hands, int(rules.joker), 1, samples_arr, exclude=exclude)
    if idx[0] >= 0:
        ru = tuple(int(keys[i]) for i in idx[:hands])
        d = x - _points_per_opponent(opponent, ru)
        out.update(runner_up_keys=ru, advantage=float(d.mean()),
                   advantage_se=float(d.std(ddof=1) / np.sqrt(s)) if s > 1 else float("nan"))
    return out


# ----------------------------------------------------------------------------------- reference
def reference_best(cards, hands: int, rule: int, objective: str = "strongest", opponent: OpponentModel | None = None):
    """Brute force over every arrangement (readable, slow): the best objective value.

    ``"strongest"``: the best tuple of keys, strongest first; ``"points"``: the best expected points.
    """
    cards = [int(c) for c in cards]
    key = {c5: int(hand_key(*c5, int(rule))) for c5 in combinations(cards, 5)}
    best = None
    for t in combinations(cards, 5):
        rest = [c for c in cards if c not in t]
        for m in combinations(rest, 5):
            if hands == 2:
                ks = tuple(sorted((key[t], key[m]), reverse=True))
                best = _better(best, ks, objective, opponent)
                continue
            rest2 = [c for c in rest if c not in m]
            for l in combinations(rest2, 5):
                ks = tuple(sorted((key[t], key[m], key[l]), reverse=True))
                best = _better(best, ks, objective, opponent)
    return best


def _better(best, ks, objective, opponent):
    if objective == "strongest":
        return ks if best is None or ks > best else best
    v = opponent.expected_points(ks)
    return v if best is None or v > best else best
