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
* **One key per card.**  ``card_keys[c]`` packs the card's rank key (above bit
  :data:`KEY_SHIFT`) and a one in its suit's 4-bit counter (bits ``4*suit``).
  A hand's key is :data:`FLUSH_INIT` plus the sum of its cards' keys: one load
  and one add per card give both the rank-key sum and the four suit counts.
* **Flushes.**  Every suit counter starts at 3, so it reaches 8 (bit 3 of its
  nibble) exactly at the fifth card of that suit: ``key & FLUSH_TEST`` is
  non-zero iff the hand holds a flush, and the set bit names the suit.  (At most
  seven cards: a counter never passes 10, so nothing carries.)  Then the
  ranks of that suit, ``card_bits`` OR-ed (16 bits per suit), index ``flush``
  (8,192 entries): the best straight flush or flush from those ranks.  With 5
  to 7 cards a flush, when present, always beats the best non-flush five (a
  7-card hand cannot hold a flush and a full house), so one lookup settles it.
* **Everything else** depends only on the multiset of ranks.  Each rank has an
  integer key (``RANK_KEYS``) such that, for a fixed number of cards (5, 6 or
  7, at most four of a rank), different rank multisets have different key sums;
  the builder checks this.  The sum is squeezed through a row-displacement
  perfect hash (``index = offset[sum >> HASH_SHIFT] + (sum & HASH_MASK)``) into
  a value table of a few tens of thousands of entries, small enough to stay in
  the L2 cache.

The build is vectorised numpy plus one small numba loop (the perfect-hash row
placement) and takes a fraction of a second; :func:`load_tables` also caches
the arrays on disk.  The arrays total about 490 kB (see :func:`table_sizes`),
of which a seven-card lookup touches about 240 kB.
"""
from __future__ import annotations

import hashlib
import itertools
import os
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ricochet_math.progress import status
from ricochet_math._numba import njit
from ricochet_math.errors import RicochetError, quote, shorten

__all__ = [
    "CATEGORY_NAMES",
    "HIGH_CARD", "PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH_CAT",
    "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH",
    "NUM_VALUES", "ROYAL_FLUSH_VALUE",
    "HandClass", "hand_classes", "class_values", "Tables", "build_tables", "load_tables", "table_sizes",
    "classify", "cache_dir", "cache_problem", "usable_cache_dir", "require_cache_dir", "check_tables",
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
# Per-card keys: rank key above KEY_SHIFT, a 4-bit counter per suit below it.
KEY_SHIFT = 16
FLUSH_INIT = 0x3333  # every suit counter starts at 3 ...
FLUSH_TEST = 0x8888  # ... and has bit 3 set once it has counted five cards
SUIT_LANE = 16       # card_bits: one 16-bit lane of rank bits per suit
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


@lru_cache(maxsize=1)
def class_values() -> dict[tuple[int, tuple[int, ...], bool], int]:
    """Dense value of each hand class keyed by ``(category, ranked, flush)``: :func:`hand_classes` inverted."""
    return {(hc.category, hc.ranked, hc.flush): hc.value for hc in hand_classes()}


def _rank_counts(groups) -> list[int]:
    """Rank-count vector (13 entries) of a hand class's ``(count, rank)`` groups."""
    counts = [0] * 13
    for c, r in groups:
        counts[r] += c
    return counts


_BASE5 = 5 ** np.arange(13, dtype=np.int64)  # a rank-count vector as one base-5 number


def _rank_multiset_values() -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """For 5, 6 and 7 cards: ``(key sums, values)`` of every rank multiset (no flush).

    Five cards: one multiset per non-flush hand class.  Six and seven cards:
    every multiset of one card fewer plus one more rank (at most four of a
    rank); its value is the best over dropping one card of a rank it holds
    (the best five of six or seven).  Raises if two multisets share a key sum.
    """
    classes = [hc for hc in hand_classes() if not hc.flush]
    counts = np.array([_rank_counts(hc.groups) for hc in classes], dtype=np.int64)
    values = np.array([hc.value for hc in classes], dtype=np.int64)
    keys = counts @ RANK_KEYS
    order = np.argsort(keys)
    counts, values, keys = counts[order], values[order], keys[order]
    if np.unique(keys).size != keys.size:
        raise AssertionError("RANK_KEYS collide on five cards")
    levels = {5: (keys, values)}
    for size in (6, 7):
        grown = (counts[:, None, :] + np.eye(13, dtype=np.int64)[None, :, :]).reshape(-1, 13)
        grown = grown[grown.max(axis=1) <= 4]
        _, first = np.unique(grown @ _BASE5, return_index=True)  # distinct multisets
        grown = grown[first]
        grown_keys = grown @ RANK_KEYS
        uniq, first = np.unique(grown_keys, return_index=True)
        if uniq.size != grown_keys.size:
            raise AssertionError(f"RANK_KEYS collide on {size} cards")
        grown = grown[first]
        # drop one card of each held rank; the smaller hand's key is key - RANK_KEYS[r]
        smaller = uniq[:, None] - RANK_KEYS[None, :]
        pos = np.minimum(np.searchsorted(keys, smaller), keys.size - 1)
        held = grown > 0
        if not (keys[pos] == smaller)[held].all():
            raise AssertionError(f"a {size}-card multiset lost a smaller hand")
        best = np.where(held, values[pos], -1).max(axis=1)
        counts, values, keys = grown, best, uniq
        levels[size] = (keys, values)
    return levels


def _flush_table(classes) -> np.ndarray:
    """``int16[8192]``: 13-bit rank mask of one suit -> best (straight) flush value, -1 below five ranks."""
    masks = np.arange(1 << 13, dtype=np.int64)
    n_ranks = sum((masks >> r) & 1 for r in range(13))
    # Plain flush: the five highest ranks (clear the lowest bit until five remain).
    top5, left = masks.copy(), n_ranks.copy()
    for _ in range(8):
        extra = left > 5
        top5[extra] &= top5[extra] - 1
        left[extra] -= 1
    flush_of_mask = np.full(1 << 13, -1, dtype=np.int64)
    for hc in classes:
        if hc.category == FLUSH_CAT:
            flush_of_mask[sum(1 << r for r in hc.ranked)] = hc.value
    table = np.where(n_ranks >= 5, flush_of_mask[top5], -1)
    # A straight flush anywhere among the ranks beats any plain flush; the
    # highest one wins (tops in increasing order, so later ones overwrite).
    for hc in classes:
        if hc.category == STRAIGHT_FLUSH:
            top = hc.ranked[0]
            run = sum(1 << r for r in (_WHEEL if top == 3 else range(top - 4, top + 1)))
            table[(masks & run) == run] = hc.value
    assert (table[n_ranks >= 5] >= 0).all()
    return table.astype(np.int16)


def _perfect_hash(keys: np.ndarray, vals: np.ndarray, max_key: int) -> tuple[np.ndarray, np.ndarray]:
    """Row-displacement perfect hash of distinct non-negative ``keys``.

    Rows are ``key >> HASH_SHIFT``; each row gets the smallest offset at which
    its occupied columns land on free slots (densest rows placed first).
    Returns ``(offsets, table)`` with ``table[offsets[k >> S] + (k & M)] == val``.

    Both arrays are padded so that *any* key up to ``max_key`` indexes inside
    them: a hand with repeated cards (which the batch kernels do not check
    for) then reads some value instead of memory outside the tables.
    """
    order = np.argsort(keys, kind="stable")
    keys, vals = keys[order], vals[order]
    rows = keys >> HASH_SHIFT
    cols = keys & HASH_MASK
    n_rows = int(rows.max()) + 1
    starts = np.searchsorted(rows, np.arange(n_rows + 1)).astype(np.int64)
    lengths = np.diff(starts)
    by_size = np.argsort(-lengths, kind="stable").astype(np.int64)
    offsets, table, top = _place_rows(starts, cols, vals.astype(np.int16), by_size, 4 * len(keys) + (1 << HASH_SHIFT))
    offsets = np.concatenate([offsets, np.zeros((max_key >> HASH_SHIFT) + 1 - n_rows, dtype=np.int32)])
    table = np.concatenate([table[:top], np.zeros(max(int(offsets.max()) + HASH_MASK + 1 - top, 0), dtype=np.int16)])
    return offsets, table


@njit
def _place_rows(starts, cols, vals, by_size, size):
    """First-fit placement for :func:`_perfect_hash`; columns ascend within a row.

    Occupied slots are a bitset of uint64 words, so one pass over a row's
    columns tests 64 consecutive offsets at once (numba: a few milliseconds)."""
    one = np.uint64(1)
    full = ~np.uint64(0)
    used = np.zeros(size // 64 + 2 * (HASH_MASK + 1) // 64 + 2, dtype=np.uint64)
    table = np.zeros(size, dtype=np.int16)
    offsets = np.zeros(starts.size - 1, dtype=np.int32)
    top = 0
    lowest = 0  # every word below this one is full
    for r in by_size:
        a, b = starts[r], starts[r + 1]
        if a == b:
            break
        while used[lowest] == full:
            lowest += 1
        base = max(lowest * 64 - cols[a], 0) & ~63
        while True:
            ok = full  # bit j: offset base + j still fits
            for i in range(a, b):
                p = base + cols[i]
                s = np.uint64(p & 63)
                bits = used[p >> 6] >> s
                if s:
                    bits |= used[(p >> 6) + 1] << (np.uint64(64) - s)
                ok &= ~bits
                if ok == 0:
                    break
            if ok:
                break
            base += 64
        off = base
        while not (ok & one):
            ok >>= one
            off += 1
        for i in range(a, b):
            slot = off + cols[i]
            used[slot >> 6] |= one << np.uint64(slot & 63)
            table[slot] = vals[i]
            top = max(top, slot + 1)
        offsets[r] = off
    return offsets, table, top


@dataclass(frozen=True)
class Tables:
    """Every array the numba kernels read (see the module docstring)."""

    rank_keys: np.ndarray      # int64[13]: RANK_KEYS
    card_keys: np.ndarray      # int64[52]: rank key << KEY_SHIFT | 1 << 4*suit
    card_bits: np.ndarray      # int64[52]: 1 << (SUIT_LANE*suit + rank)
    flush: np.ndarray          # int16[8192]: rank mask -> best flush / straight flush value (-1: <5 ranks)
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
    """Build every lookup table from :func:`hand_classes` (a few tenths of a second)."""
    classes = hand_classes()
    cards = np.arange(52, dtype=np.int64)
    card_keys = (RANK_KEYS[cards >> 2] << KEY_SHIFT) | (1 << (4 * (cards & 3)))
    card_bits = np.left_shift(1, SUIT_LANE * (cards & 3) + (cards >> 2))
    levels = _rank_multiset_values()
    # padded for any key of `size` cards, even repeated ones (size aces is the largest)
    hashed = {size: _perfect_hash(keys, vals, size * int(RANK_KEYS[-1])) for size, (keys, vals) in levels.items()}
    category = np.array([hc.category for hc in classes], dtype=np.int8)
    return Tables(
        RANK_KEYS.copy(), card_keys, card_bits, _flush_table(classes),
        *hashed[5], *hashed[6], *hashed[7], category,
    )


def table_sizes(t: Tables | None = None) -> dict[str, int]:
    """Bytes per table (and ``total``) for the docs and the benchmark."""
    t = t or load_tables()
    sizes = {f: getattr(t, f).nbytes for f in t.__dataclass_fields__}
    sizes["total"] = sum(sizes.values())
    return sizes


def cache_dir() -> Path:
    """Where ricochet_math keeps derived data (tables, finished exact analyses):
    ``$RICOCHET_CACHE_DIR``, else ``$XDG_CACHE_HOME/ricochet_math``, else ``~/.cache/ricochet_math``."""
    return Path(os.environ.get("RICOCHET_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache"), "ricochet_math"))


#: the verdict of :func:`cache_problem` by folder (probed once a process; the warning is printed once)
_CACHE_VERDICTS: dict[str, str | None] = {}


def _cache_variable() -> str:
    """The setting the cache folder comes from, as a warning names it."""
    for name in ("RICOCHET_CACHE_DIR", "XDG_CACHE_HOME"):
        if os.environ.get(name):
            return f"{name}={quote(os.environ[name])}"
    return "the default ~/.cache"


def cache_problem(folder: Path | None = None) -> str | None:
    """Why the cache folder (``folder``, default :func:`cache_dir`) cannot be used, or None when it can: it
    is a regular file, lies under one, or cannot be created or written (probed by creating and removing a
    temporary file in it, which also holds for root, for whom permission bits do not).  Probed once a
    process per folder."""
    try:
        folder = cache_dir() if folder is None else Path(folder)
    except (OSError, RuntimeError) as exc:  # no home directory
        return f"no cache folder can be found ({exc})"
    key = str(folder)
    if key not in _CACHE_VERDICTS:
        _CACHE_VERDICTS[key] = _probe_folder(folder)
    return _CACHE_VERDICTS[key]


def _probe_folder(folder: Path) -> str | None:
    name = shorten(str(folder), 200)
    try:
        if folder.exists() and not folder.is_dir():
            return f"{name} is not a folder"
        above = next((p for p in folder.parents if p.exists()), None)
        if not folder.exists() and above is not None and not above.is_dir():
            return f"{name} lies under {shorten(str(above), 200)}, which is not a folder"
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:  # not writable, or a name the system refuses to look at (too long)
        return f"{name} cannot be written ({exc.strerror or exc})"
    return None


_WARNED: set[str] = set()


def usable_cache_dir() -> Path | None:
    """:func:`cache_dir` when it is a folder that can be written, else None after one warning line on stderr
    (once a process per folder): the toolkit then runs without its cache (tables rebuilt, exact analyses
    recomputed), never silently.  A command that needs a store there refuses instead
    (:func:`require_cache_dir`)."""
    problem = cache_problem()
    if problem is None:
        return cache_dir()
    if problem not in _WARNED:
        _WARNED.add(problem)
        print(f"ricochet_math: warning: the cache folder ({_cache_variable()}) is not usable: {problem}; running "
              "without the cache", file=sys.stderr)
    return None


def require_cache_dir(what: str) -> Path:
    """:func:`cache_dir` for ``what`` needs it (a store of finished work), or one :class:`RicochetError` line."""
    problem = cache_problem()
    if problem is not None:
        raise RicochetError(f"{what} needs the cache folder ({_cache_variable()}), which is not usable: {problem}; "
                            "set RICOCHET_CACHE_DIR to a folder that can be written")
    return cache_dir()


def _cache_path() -> Path:
    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    return cache_dir() / f"tables-{digest}.npz"


_DTYPES = {"rank_keys": np.int64, "card_keys": np.int64, "card_bits": np.int64, "flush": np.int16,
           "offsets5": np.int32, "values5": np.int16, "offsets6": np.int32, "values6": np.int16,
           "offsets7": np.int32, "values7": np.int16, "category": np.int8}


def check_tables(t: Tables) -> str | None:
    """Why ``t`` cannot be the tables the kernels read (``None`` when it can).

    A cache file passes only if every array has its dtype and shape, the small tables equal the ones
    built from :func:`hand_classes` (card keys, flush table, categories), every hash row stays inside
    its value table (the kernels index without bounds checks), every value is a hand value, and the
    5-card hash gives every non-flush class its value.  This is what a damaged or forged cache breaks."""
    for name, dtype in _DTYPES.items():
        a = getattr(t, name)
        if not isinstance(a, np.ndarray) or a.dtype != dtype or a.ndim != 1:
            return f"array {name!r} is not 1-d {np.dtype(dtype).name}"
    classes = hand_classes()
    cards = np.arange(52, dtype=np.int64)
    expected = {
        "rank_keys": RANK_KEYS,
        "card_keys": (RANK_KEYS[cards >> 2] << KEY_SHIFT) | (1 << (4 * (cards & 3))),
        "card_bits": np.left_shift(1, SUIT_LANE * (cards & 3) + (cards >> 2)),
        "flush": _flush_table(classes),
        "category": np.array([hc.category for hc in classes], dtype=np.int8),
    }
    for name, want in expected.items():
        if not np.array_equal(getattr(t, name), want):
            return f"array {name!r} differs from the tables' definition"
    for size in (5, 6, 7):
        offsets, values = getattr(t, f"offsets{size}"), getattr(t, f"values{size}")
        rows = (size * int(RANK_KEYS[-1]) >> HASH_SHIFT) + 1  # any key of `size` cards has its row
        if len(offsets) < rows or len(values) == 0:
            return f"array 'offsets{size}' has {len(offsets)} rows, fewer than the {rows} its keys need"
        if offsets.min() < 0 or int(offsets.max()) + HASH_MASK >= len(values):
            return f"array 'offsets{size}' points outside 'values{size}'"
        if values.min() < -1 or values.max() >= NUM_VALUES:
            return f"array 'values{size}' holds a value outside -1..{NUM_VALUES - 1}"
    plain = [hc for hc in classes if not hc.flush]
    rank_keys = RANK_KEYS.tolist()
    keys = np.array([sum(c * rank_keys[r] for c, r in hc.groups) for hc in plain], dtype=np.int64)
    got = t.values5[t.offsets5[keys >> HASH_SHIFT] + (keys & HASH_MASK)]
    if not np.array_equal(got, np.array([hc.value for hc in plain], dtype=np.int16)):
        return "the 5-card table does not give the hand classes their values"
    return None


@lru_cache(maxsize=1)
def load_tables() -> Tables:
    """The tables, from the on-disk cache when present (keyed by this file's hash), else built.

    The cache lives in ``$RICOCHET_CACHE_DIR`` or ``~/.cache/ricochet_math``; a
    cache folder that is not usable (a file, under a file, not writable) is one warning line on
    stderr (:func:`usable_cache_dir`) and the tables are built; a cache file that cannot be read or
    written (missing, corrupt, being written by another process) is ignored and the tables are rebuilt.  A cache
    that reads but fails :func:`check_tables` (damaged or forged content) is
    refused with one line on stderr naming the file, and rebuilt over it.
    Writers go through a private temporary file and an atomic rename, so
    concurrent test workers never see a half-written cache.
    """
    if usable_cache_dir() is None:  # a file, under a file, not writable: one warning line, then no cache
        return build_tables()
    try:
        path = _cache_path()
    except (OSError, RuntimeError):  # no home directory
        return build_tables()
    try:
        with np.load(path, allow_pickle=False) as z:
            loaded = Tables(**{f: z[f] for f in Tables.__dataclass_fields__})
    except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
        loaded = None
    if loaded is not None:
        reason = check_tables(loaded)
        if reason is None:
            return loaded
        print(f"ricochet_math: note: the hand-value tables cache {path} is not valid ({reason}); "
              "rebuilding it (delete that file if this note repeats)", file=sys.stderr)
    with status("ricochet_math: building the hand-value tables (once: they are cached)"):
        t = build_tables()
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.stem + ".", suffix=".tmp.npz", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **{name: getattr(t, name) for name in Tables.__dataclass_fields__})
        os.replace(tmp, path)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return t
