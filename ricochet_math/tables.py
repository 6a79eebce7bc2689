"""Lookup tables for hand evaluation, built from the ranking rules.

How a five-card hand becomes a number
-------------------------------------
Every five-card hand has a *dense value* ``0..7461`` (higher is better): the
7,462 distinct hands of standard poker (``shared/seeds/003``: straight flush,
four of a kind, full house, flush, straight, three of a kind, two pair, pair,
high card; the ace plays high or low in a straight).  The builder below lists
them category by category, weakest first, and sorts by the standard tie-break.

How the kernels look a value up
-------------------------------
* **Flushes.**  A 13-bit mask of the ranks in the flush suit indexes
  ``FLUSH`` (8,192 entries): the best straight flush or flush from those ranks.
  With 5 to 7 cards a flush, when present, always beats the best non-flush
  five (a 7-card hand cannot hold a flush and a full house), so one lookup
  settles it.
* **Everything else** depends only on the multiset of ranks.  Each rank gets
  an integer key (``RANK_KEYS``) such that, for a fixed number of cards (5, 6
  or 7, at most four of a rank), different rank multisets have different key
  sums; the builder checks this.  The sum is then squeezed through a
  row-displacement perfect hash (``index = offset[sum >> SHIFT] + (sum & MASK)``)
  into a value table of a few tens of thousands of entries, small enough to
  stay in the L2 cache.
* **Suits** are counted with ``SUIT_KEYS`` (3 bits per suit); ``FLUSH_SUIT``
  maps the packed counts of a 6- or 7-card hand to the suit holding five or
  more cards (or -1).

The whole build takes a fraction of a second; the arrays total about
:data:`TABLE_BYTES` bytes (see :func:`table_sizes`).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ._numba import njit

__all__ = [
    "CATEGORY_NAMES",
    "HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH_CAT",
    "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH",
    "NUM_VALUES", "ROYAL_FLUSH_VALUE",
    "HandClass", "hand_classes", "Tables", "build_tables", "load_tables", "table_sizes", "classify",
]

# Category codes, weakest first.  Royal flush is the top straight flush, not a category.
HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH_CAT, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "High card", "Pair", "Two pair", "Three of a kind", "Straight", "Flush",
    "Full house", "Four of a kind", "Straight flush",
)
NUM_VALUES = 7462
ROYAL_FLUSH_VALUE = NUM_VALUES - 1

# Rank keys whose sums are distinct for any 5, 6 or 7 cards with at most four
# of a rank (a Sidon-like sequence; the same property as SKPokerEval's keys).
# The builder verifies the property, so a typo here fails loudly.
RANK_KEYS = np.array(
    [0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181], dtype=np.int64
)
# One suit's count in 3 bits: 7 cards never overflow a field.
SUIT_KEYS = np.array([1, 8, 64, 512], dtype=np.int64)
HASH_SHIFT = 9
HASH_MASK = (1 << HASH_SHIFT) - 1

# A-2-3-4-5 plays as a five-high straight.
_WHEEL = (12, 3, 2, 1, 0)


@dataclass(frozen=True)
class HandClass:
    """One of the 7,462 five-card hand classes.

    ``groups`` lists ``(count, rank)`` pairs, most cards first and then the
    higher rank first: pair of kings with Q-3-2 is ``((2, 11), (1, 10), (1, 1),
    (1, 0))``.  ``ranked`` is the tie-break sequence the ranking rules compare
    (for straights only the top card, with the wheel's top card a five).
    """

    value: int
    category: int
    groups: tuple[tuple[int, int], ...]
    ranked: tuple[int, ...]
    flush: bool


def _straight_top(distinct_desc: tuple[int, ...]) -> int:
    """Top rank of a five-distinct-rank straight, or -1."""
    if distinct_desc == _WHEEL:
        return 3  # the five
    if distinct_desc[0] - distinct_desc[4] == 4:
        return distinct_desc[0]
    return -1


def classify(ranks: tuple[int, ...], flush: bool) -> tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Category, tie-break sequence and groups of a five-card hand, by the ranking rules.

    This is the readable definition every table and kernel is checked against.
    ``ranks`` are five ranks 0..12 in any order; ``flush`` says all five share a suit.
    """
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = tuple(sorted(((c, r) for r, c in counts.items()), reverse=True))
    shape = tuple(c for c, _ in groups)
    ranked = tuple(r for _, r in groups)
    if shape == (1, 1, 1, 1, 1):
        top = _straight_top(ranked)
        if top >= 0:
            return (STRAIGHT_FLUSH if flush else STRAIGHT), (top,), groups
        return (FLUSH_CAT if flush else HIGH_CARD), ranked, groups
    category = {
        (4, 1): FOUR_OF_A_KIND,
        (3, 2): FULL_HOUSE,
        (3, 1, 1): THREE_OF_A_KIND,
        (2, 2, 1): TWO_PAIR,
        (2, 1, 1, 1): PAIR,
    }[shape]
    return category, ranked, groups


@lru_cache(maxsize=1)
def hand_classes() -> tuple[HandClass, ...]:
    """All 7,462 hand classes in value order (index = dense value)."""
    found = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in set(ranks)) > 4:
            continue
        desc = tuple(sorted(ranks, reverse=True))
        cat, ranked, groups = classify(desc, False)
        found.append((cat, ranked, groups, False))
        if len(set(ranks)) == 5:
            cat, ranked, groups = classify(desc, True)
            found.append((cat, ranked, groups, True))
    found.sort(key=lambda t: (t[0], t[1]))
    classes = tuple(HandClass(i, c, g, r, f) for i, (c, r, g, f) in enumerate(found))
    assert len(classes) == NUM_VALUES
    return classes


def _rank_multisets(size: int):
    """Yield every rank-count vector with ``size`` cards and at most four of a rank."""
    def rec(i, left, counts):
        if i == 12:
            if left <= 4:
                yield counts + [left]
            return
        for c in range(min(4, left) + 1):
            yield from rec(i + 1, left - c, counts + [c])
    yield from rec(0, size, [])


def _perfect_hash(keys: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Row-displacement perfect hash of distinct non-negative ``keys``.

    Rows are ``key >> HASH_SHIFT``; each row gets the smallest offset at which
    its occupied columns land on free slots (densest rows placed first).
    Returns ``(offsets, table)`` with ``table[offsets[k >> S] + (k & M)] == val``.
    """
    rows = keys >> HASH_SHIFT
    cols = keys & HASH_MASK
    n_rows = int(rows.max()) + 1
    order = np.argsort(rows, kind="stable")
    rows, cols, vals = rows[order], cols[order], vals[order]
    starts = np.searchsorted(rows, np.arange(n_rows + 1)).astype(np.int64)
    lengths = np.diff(starts)
    by_size = np.argsort(-lengths, kind="stable").astype(np.int64)
    offsets, table, top = _place_rows(starts, cols, vals.astype(np.int16), by_size, 4 * len(keys) + (1 << HASH_SHIFT))
    return offsets, table[:top].copy()


@njit
def _place_rows(starts, cols, vals, by_size, size):
    """First-fit placement for :func:`_perfect_hash` (a loop numba runs in milliseconds)."""
    used = np.zeros(size, dtype=np.bool_)
    table = np.zeros(size, dtype=np.int16)
    offsets = np.zeros(starts.size - 1, dtype=np.int32)
    lowest_free = 0
    top = 0
    for r in by_size:
        a, b = starts[r], starts[r + 1]
        if a == b:
            break
        while used[lowest_free]:
            lowest_free += 1
        cmin = cols[a:b].min()
        off = max(lowest_free - cmin, 0)
        while True:
            ok = True
            for i in range(a, b):
                if used[off + cols[i]]:
                    ok = False
                    break
            if ok:
                break
            off += 1
        for i in range(a, b):
            used[off + cols[i]] = True
            table[off + cols[i]] = vals[i]
            top = max(top, off + cols[i] + 1)
        offsets[r] = off
    return offsets, table, top


@dataclass(frozen=True)
class Tables:
    """Every array the numba kernels read (see the module docstring)."""

    rank_keys: np.ndarray      # int64[13]
    suit_keys: np.ndarray      # int64[4]
    flush: np.ndarray          # int16[8192]: rank mask -> best flush / straight flush value (-1: <5 ranks)
    flush_suit: np.ndarray     # int8[4096]: packed suit counts -> suit with >= 5 cards, or -1
    offsets5: np.ndarray       # int32 rows of the 5-card perfect hash
    values5: np.ndarray        # int16 values of the 5-card perfect hash
    offsets6: np.ndarray
    values6: np.ndarray
    offsets7: np.ndarray
    values7: np.ndarray
    category: np.ndarray       # int8[7462]: value -> category code

    def nbytes(self) -> int:
        return sum(getattr(self, f).nbytes for f in self.__dataclass_fields__)


def build_tables() -> Tables:
    """Build every lookup table from :func:`hand_classes` (about 0.3 s)."""
    classes = hand_classes()
    by_key = {}
    for hc in classes:
        by_key[(hc.category, hc.ranked, hc.flush)] = hc.value

    # Non-flush five-card multisets.
    val5: dict[int, int] = {}
    for counts in _rank_multisets(5):
        ranks = tuple(r for r in range(12, -1, -1) for _ in range(counts[r]))
        cat, ranked, _ = classify(ranks, False)
        s = int(np.dot(counts, RANK_KEYS))
        if s in val5:
            raise AssertionError("RANK_KEYS collide on five cards")
        val5[s] = by_key[(cat, ranked, False)]
    # Six and seven cards: best five = best over dropping one card of each rank held.
    levels = {5: val5}
    for size in (6, 7):
        prev, cur = levels[size - 1], {}
        for counts in _rank_multisets(size):
            s = int(np.dot(counts, RANK_KEYS))
            if s in cur:
                raise AssertionError(f"RANK_KEYS collide on {size} cards")
            cur[s] = max(prev[s - int(RANK_KEYS[r])] for r in range(13) if counts[r])
        levels[size] = cur

    hashed = {}
    for size, d in levels.items():
        keys = np.fromiter(d.keys(), dtype=np.int64, count=len(d))
        vals = np.fromiter(d.values(), dtype=np.int64, count=len(d))
        hashed[size] = _perfect_hash(keys, vals)

    flush = np.full(1 << 13, -1, dtype=np.int16)
    for mask in range(1 << 13):
        ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
        if len(ranks) < 5:
            continue
        best = -1
        # A straight flush anywhere among the ranks beats any plain flush.
        for top in range(12, 2, -1):
            run = [(top - i) if top - i >= 0 else 12 for i in range(5)]
            if top == 3:
                run = [3, 2, 1, 0, 12]
            if all(mask >> r & 1 for r in run):
                best = by_key[(STRAIGHT_FLUSH, (top,), True)]
                break
        if best < 0:
            best = by_key[(FLUSH_CAT, tuple(ranks[:5]), True)]
        flush[mask] = best

    flush_suit = np.full(4096, -1, dtype=np.int8)
    for packed in range(4096):
        for s in range(4):
            if (packed >> (3 * s)) & 7 >= 5:
                flush_suit[packed] = s

    category = np.array([hc.category for hc in classes], dtype=np.int8)
    return Tables(
        RANK_KEYS.copy(), SUIT_KEYS.copy(), flush, flush_suit,
        *hashed[5], *hashed[6], *hashed[7], category,
    )


def table_sizes(t: Tables | None = None) -> dict[str, int]:
    """Bytes per table (and ``total``) for the docs and the benchmark."""
    t = t or build_tables()
    sizes = {f: getattr(t, f).nbytes for f in t.__dataclass_fields__}
    sizes["total"] = sum(sizes.values())
    return sizes


def _cache_path():
    import hashlib
    import os
    from pathlib import Path

    root = os.environ.get("RICOCHET_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache"), "ricochet_math"
    )
    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    return Path(root) / f"tables-{digest}.npz"


@lru_cache(maxsize=1)
def load_tables() -> Tables:
    """The tables, from the on-disk cache when present (keyed by this file's hash), else built.

    The cache lives in ``$RICOCHET_CACHE_DIR`` or ``~/.cache/ricochet_math``; a
    cache that cannot be read or written is ignored (the tables are rebuilt).
    """
    path = _cache_path()
    try:
        with np.load(path) as z:
            return Tables(**{f: z[f] for f in Tables.__dataclass_fields__})
    except (OSError, KeyError, ValueError):
        pass
    t = build_tables()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, **{f: getattr(t, f) for f in Tables.__dataclass_fields__})
        tmp.replace(path)
    except OSError:
        pass
    return t
