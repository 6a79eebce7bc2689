"""The stored, seeded Monte Carlo cells of the published-figures search (one idea: a cell and its store).

A cell is (reading, rules, N): fixed chunks of :data:`CHUNK_ROUNDS` rounds, chunk ``i`` dealt from
``SeedSequence(cell_seed(seed, N), spawn_key=(i,))`` as :func:`~ricochet_math.solvers.montecarlo.simulate`
deals it, so every reading sees the same deals and ``simulate(..., chunk_size=256)`` reproduces a cell's
kernel sums digit for digit.  Each cell keeps the kernel sums and the fold/win frequency sums with their
deal-level controls (exact means from :mod:`ricochet_math.engine.controls`), cross-fitted on even/odd
chunks (:func:`controlled_mean`).  One ``.npz`` per cell under ``store/<rules>/<reading>/N<n>.npz``,
written atomically, locked (``flock``) while a process extends it; :func:`extend_to_precision` sizes a
cell from its own standard errors.  The search and its fit table are in
:mod:`ricochet_math.reports.reading_search`.
"""
from __future__ import annotations

import contextlib
import functools
import math
import time
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np

try:
    import fcntl
except ImportError:  # not on Windows: the store is then not locked
    fcntl = None

from ricochet_math.engine import controls as cv
from ricochet_math.engine.chunks import run_chunk_records
from ricochet_math.engine.kernel import Status, prepare
from ricochet_math.engine.sums import ChunkSums, SeatSum
from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.classes import class_index_table, player_classes
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.executors import chunk_seed
from ricochet_math.solvers.linear import dot, gram
from ricochet_math.solvers.stats import z_value
from ricochet_math.solvers.variance import controlled_estimate, controlled_ratio, fit_coefficients, residual_variance
from ricochet_math.storage import DamagedFileError, load_arrays, save_arrays

__all__ = ["Z95", "cell_path", "chunks_needed", "is_locked", "TARGET_HALF_WIDTH", "STORE_ALIASES", "CHUNK_ROUNDS", "Q_THRESHOLDS", "cell_seed", "Cell",
           "extend_cell", "load_cell", "cell_figures", "controlled_mean", "extend_to_precision"]

#: the 95% half-widths the issue asks for (fractions): 0.03 points on frequencies, 0.05 on RTP
TARGET_HALF_WIDTH = {"rtp": 0.0005, "fold": 0.0003, "win": 0.0003}
#: rounds per chunk (the look-ahead's chunk size in :func:`~ricochet_math.solvers.montecarlo.simulate`)
CHUNK_ROUNDS = 256
#: reach thresholds of the frequency controls (count of seats with q below each)
Q_THRESHOLDS = (0.03, 0.05, 0.065, 0.08, 0.1, 0.125, 0.15, 0.2, 0.3, 0.45)
_SCHEMA = "ricochet_math.reading_search.cell/1"
Z95 = z_value(0.95)
#: the spec's dealer-only pot-odds readings are members of the family (the same rule: the tests check the
#: decisions agree deal for deal), so their cells are the members' cells: one simulation, stored once
STORE_ALIASES = {"pot-odds-now": "pub-now-dealer", "pot-odds-now-no-bonus": "pub-now-dealer-no-bonus",
                 "pot-odds-final": "pub-final-dealer", "pot-odds-final-no-bonus": "pub-final-dealer-no-bonus"}

# the frequency vector per round: [1, folds, wins, controls...]
_F_ONE, _F_FOLD, _F_WIN = 0, 1, 2
_F_CTL0 = 3
_N_F = _F_CTL0 + cv.N_BUCKETS + 2 + len(Q_THRESHOLDS)


def cell_seed(seed: int, players: int) -> int:
    """The seed of every cell at ``players`` seats (one per N, shared by the readings and pages)."""
    return int(seed) * 16 + int(players)


@functools.lru_cache(maxsize=32)
def _frequency_means(players: int, kick_value: int) -> np.ndarray:
    """Exact means of the frequency controls (the entries ``_F_CTL0:``), from the joint law of
    (two-card class, dealer value) and the control setup's bucket and reach means."""
    setup = cv.control_setup(players, kick_value)
    out = np.zeros(_N_F)
    out[_F_ONE] = 1.0
    k = _F_CTL0
    out[k:k + cv.N_BUCKETS] = setup.means[cv.U.bucket_0:cv.U.bucket_0 + cv.N_BUCKETS]
    k += cv.N_BUCKETS
    out[k], out[k + 1] = setup.means[cv.U.s_reach], setup.means[cv.U.s_reach2]
    k += 2
    _, weights, _ = player_classes()
    kept = np.arange(setup.reach.shape[1]) < kick_value
    joint = cv.dealer_value_counts_by_class() * (weights[:, None] / 1326.0 / comb(50, 5))
    q = setup.reach
    for j, c in enumerate(Q_THRESHOLDS):
        out[k + j] = players * float((joint[:, kept] * (q[:, kept] < c)).sum())
    return out


def _frequency_vectors(records, decks, players: int, kick_value: int) -> np.ndarray:
    """``float64[R, _N_F]`` per round: 1, folds, wins and the deal-level controls."""
    setup = cv.control_setup(players, kick_value)
    status = records.status
    r = status.shape[0]
    v = np.zeros((r, _N_F))
    v[:, _F_ONE] = 1.0
    v[:, _F_FOLD] = (status == Status.folded).sum(axis=1)
    v[:, _F_WIN] = ((status == Status.won) | (status == Status.auto_win)).sum(axis=1)
    dv = records.dealer_value
    v[np.arange(r), _F_CTL0 + setup.bucket[dv]] = 1.0
    klass = class_index_table()
    holes = decks[:, :2 * players].reshape(r, players, 2)
    q = setup.reach[klass[holes[:, :, 0] * 52 + holes[:, :, 1]], dv[:, None]]
    q[records.kicked] = 0.0
    k = _F_CTL0 + cv.N_BUCKETS
    v[:, k] = q.sum(axis=1)
    v[:, k + 1] = (q * q).sum(axis=1)
    alive = ~records.kicked
    for j, c in enumerate(Q_THRESHOLDS):
        v[:, k + 2 + j] = ((q < c) & alive[:, None]).sum(axis=1)
    return v


@dataclass(frozen=True, eq=False)
class Cell:
    """A cell's store: ``sums`` (:class:`~ricochet_math.engine.sums.ChunkSums`, controls by half),
    ``freq`` (``float64[2, k, k]``, the frequency vectors' ``v v^T`` by half), ``chunks`` done,
    the cell's ``seed`` and ``seconds`` of kernel time spent."""

    rules: str
    reading: str
    players: int
    seed: int
    chunks: int
    sums: ChunkSums
    freq: np.ndarray
    seconds: float

    @property
    def rounds(self) -> int:
        return self.chunks * CHUNK_ROUNDS


def _rules_key(rules) -> str:
    """The store's folder of a rule set: a shipped name as it is, any other rule set by name and hash."""
    if isinstance(rules, str):
        return rules
    from ricochet_math.rules.files import shipped_rule_sets
    shipped = rules.name in shipped_rule_sets() and load_rules(rules.name).sha256 == rules.sha256
    return rules.name if shipped else f"{rules.name}-{rules.sha256[:12]}"


def cell_path(store, rules, reading: str, players: int) -> Path:
    return Path(store) / _rules_key(rules) / STORE_ALIASES.get(reading, reading) / f"N{players}.npz"


@contextlib.contextmanager
def _cell_lock(path: Path, block: bool = True):
    """Hold the cell's lock file (``NAME.npz.lock``) while a process extends it; yields False when another
    process holds it and ``block`` is False.  The lock goes with the process (``flock``), so a run killed
    mid-cell leaves none behind; where ``fcntl`` is missing, no locking."""
    if fcntl is None:
        yield True
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a+") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | (0 if block else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def is_locked(path: Path) -> bool:
    """Whether another process is extending the cell at ``path`` now."""
    if fcntl is None or not path.with_name(path.name + ".lock").exists():
        return False
    with _cell_lock(path, block=False) as got:
        return not got


def load_cell(store, rules, reading: str, players: int, seed: int) -> Cell:
    """The stored cell (an empty one when none is stored); refuses a store of another seed."""
    path = cell_path(store, rules, reading, players)
    rules = _rules_key(rules)
    s = cell_seed(seed, players)
    if not path.exists():
        return Cell(rules, reading, players, s, 0, ChunkSums.zeros(players, controls=True),
                    np.zeros((2, _N_F, _N_F)), 0.0)
    try:
        head, arrays = load_arrays(path, _SCHEMA)
    except DamagedFileError as exc:
        raise DamagedFileError(f"reading store {exc}; remove the file to recompute the cell") from None
    if (head.get("seed"), head.get("chunk_rounds"), head.get("players")) != (s, CHUNK_ROUNDS, players):
        raise RicochetError(f"reading store {path} holds another seed or chunk size (seed {head.get('seed')}, "
                            f"{head.get('chunk_rounds')} rounds a chunk): use its seed or another store")
    sums = ChunkSums.from_arrays({k: arrays[k] for k in ChunkSums.KEYS})
    return Cell(rules, reading, players, s, int(head["chunks"]), sums, arrays["freq"], float(head["seconds"]))


def _save_cell(store, cell: Cell) -> None:
    path = cell_path(store, cell.rules, cell.reading, cell.players)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_arrays(path, _SCHEMA, {**cell.sums.to_arrays(), "freq": cell.freq},
                {"rules": cell.rules, "reading": cell.reading, "players": cell.players, "seed": cell.seed,
                 "chunk_rounds": CHUNK_ROUNDS, "chunks": cell.chunks, "seconds": cell.seconds})


def _run_chunk(rules, players: int, reading: str, seed: int, i: int):
    """Chunk ``i`` of a cell: its kernel sums (controls recorded) and its frequency sums."""
    setup = prepare(rules, players, reading, control_variates=True)
    chunk = run_chunk_records(setup, chunk_seed(int(np.random.SeedSequence(seed).entropy), i), CHUNK_ROUNDS)
    v = _frequency_vectors(chunk.records, chunk.decks, players, setup.game.kick_value)
    return chunk.sums, gram(v)  # fixed order (a BLAS product adds in an order of the CPU's own)


def extend_cell(store, rules, reading: str, players: int, seed: int, chunks: int, *,
                save_every_s: float = 20.0, deadline: float | None = None, block: bool = True) -> Cell | None:
    """Run a cell's chunks up to ``chunks`` (in order, from where the store stands), saving the
    store every ``save_every_s`` seconds and at the end; stops early (saved) at ``deadline``
    (a ``time.monotonic()`` value).  The cell is locked meanwhile: another process extending it is
    waited for, or with ``block=False`` the call returns None at once."""
    rules_set = load_rules(rules)
    rules = _rules_key(rules_set) if not isinstance(rules, str) else rules
    reading = STORE_ALIASES.get(reading, reading)  # a stored cell is always the family member's simulation
    with _cell_lock(cell_path(store, rules, reading, players), block) as got:
        if not got:
            return None
        return _extend_locked(store, rules, rules_set, reading, players, seed, chunks, save_every_s, deadline)


def _extend_locked(store, rules, rules_set, reading, players, seed, chunks, save_every_s, deadline) -> Cell:
    cell = load_cell(store, rules, reading, players, seed)
    sums, freq, done, spent = cell.sums, cell.freq.copy(), cell.chunks, cell.seconds
    start, last = done, time.monotonic()
    try:
        while done < chunks:
            if deadline is not None and time.monotonic() > deadline:
                break
            t0 = time.perf_counter()
            s, f = _run_chunk(rules_set, players, reading, cell.seed, done)
            spent += time.perf_counter() - t0
            sums = sums + s.in_half(done % 2)
            freq[done % 2] += f
            done += 1
            if time.monotonic() - last > save_every_s:
                _save_cell(store, Cell(rules, reading, players, cell.seed, done, sums, freq, spent))
                last = time.monotonic()
    finally:
        cell = Cell(rules, reading, players, cell.seed, done, sums, freq, spent)
        if done > start:
            _save_cell(store, cell)
    return cell


# --------------------------------------------------------------------------- estimates
def controlled_mean(cross, means, target: int, controls, level: float = 0.95):
    """Cross-fitted control-variate estimate of ``E[v[target]]`` from per-half sums ``cross``
    (``float64[2, k, k]`` of ``v v^T``, entry 0 the constant 1) and the exact ``means`` of the
    ``controls`` entries: ``(estimate, std_error, plain_estimate, plain_std_error)``.  The same
    estimator as :func:`ricochet_math.solvers.variance.controlled_estimate`, for any vector layout
    (each half corrected with the coefficients fitted on the other; pooled when a half is small)."""
    ctl = np.asarray(controls, dtype=np.int64)
    halves = []
    for h in (0, 1):
        n = cross[h, 0, 0]
        if n > 1:
            mean = cross[h, 0] / n
            cov = (cross[h] - n * np.outer(mean, mean)) / (n - 1.0)
            halves.append((n, mean, cov))
    if not halves:
        return (math.nan,) * 4

    crossed = len(halves) == 2 and min(n for n, _, _ in halves) >= max(1200, 50 * len(ctl))
    if crossed:
        betas = [fit_coefficients(cov, target, ctl) for _, _, cov in halves]
    else:
        tot = cross.sum(axis=0)
        n = tot[0, 0]
        mean = tot[0] / n
        betas = [fit_coefficients((tot - n * np.outer(mean, mean)) / max(n - 1.0, 1.0), target, ctl)] * 2
    n_all = sum(n for n, _, _ in halves)
    est = var = pm = pv = 0.0
    for i, (n, mean, cov) in enumerate(halves):
        beta = betas[1 - i] if len(halves) == 2 else betas[0]
        est += n * (mean[target] - dot(beta, mean[ctl] - means[ctl]))
        var += n * max(residual_variance(cov, target, ctl, beta), 0.0)
        pm += n * mean[target]
        pv += n * cov[target, target]
    return est / n_all, math.sqrt(var) / n_all, pm / n_all, math.sqrt(pv) / n_all


def cell_figures(cell: Cell, kick_value: int | None = None) -> dict:
    """A cell's figures (fractions) and standard errors: RTP per initial bet and per total wagered
    (engine controls), fold and win frequency (frequency controls, with the plain estimates and the
    variance ratios)."""
    n = cell.players
    if kick_value is None:
        kick_value = int(_load_keyed(cell.rules).kickout_value(n))
    out = {"players": n, "rounds": cell.rounds, "seconds": cell.seconds}
    means = np.array(cv.control_setup(n, kick_value).means)
    c = controlled_estimate(cell.sums.controls, means)
    out["rtp_initial"] = 1.0 + c.controlled.estimate / n
    out["rtp_initial_se"] = c.controlled.std_error / n
    out["rtp_initial_ratio"] = c.variance_ratio
    w = controlled_ratio(cell.sums.controls, means)
    out["rtp_wagered"], out["rtp_wagered_se"] = w.estimate, w.std_error
    fmeans = _frequency_means(n, kick_value)
    ctl = np.arange(_F_CTL0, _N_F)
    for name, t in (("fold", _F_FOLD), ("win", _F_WIN)):
        est, se, plain, plain_se = controlled_mean(cell.freq, fmeans, t, ctl)
        out[name] = est / n
        out[f"{name}_se"] = se / n
        out[f"{name}_plain"] = plain / n
        out[f"{name}_plain_se"] = plain_se / n
        out[f"{name}_ratio"] = (plain_se / se) ** 2 if se > 0 else math.inf
    # the kernel's own fold count: the frequency sums must have seen the same rounds
    if cell.rounds and abs(cell.sums.total[SeatSum.fold] - cell.freq[:, _F_ONE, _F_FOLD].sum()) > 1e-6:
        raise DamagedFileError(f"reading store cell {cell.rules}/{cell.reading}/N{n}: the frequency sums and "
                               "the kernel sums disagree; remove the file to recompute the cell")
    return out


@functools.lru_cache(maxsize=4)
def _load_keyed(key: str):
    """The rule set of a store key (a shipped name, or NAME-HASH of a rule set run earlier in this process)."""
    return _KEYED.get(key) or load_rules(key)


_KEYED: dict = {}


def chunks_needed(cell: Cell, targets=None, kick_value: int | None = None) -> int:
    """Chunks a cell needs for the half-widths ``targets`` (default :data:`TARGET_HALF_WIDTH`) of the
    figures it serves (RTP at every N, fold at N = 7, win at N = 3), from its own errors."""
    targets = TARGET_HALF_WIDTH if targets is None else targets
    if cell.chunks < 4:
        return cell.chunks
    f = cell_figures(cell, kick_value)
    z95 = z_value(0.95)
    need = [(z95 * f["rtp_initial_se"] / targets["rtp"]) ** 2, (z95 * f["rtp_wagered_se"] / targets["rtp"]) ** 2]
    if cell.players == 7:
        need.append((z95 * f["fold_se"] / targets["fold"]) ** 2)
    if cell.players == 3:
        need.append((z95 * f["win_se"] / targets["win"]) ** 2)
    return max(cell.chunks, math.ceil(1.1 * cell.chunks * max(need)))


def extend_to_precision(store, rules, reading: str, players: int, seed: int, targets=None, *,
                        pilot_chunks: int = 16, max_chunks: int = 400_000, deadline: float | None = None,
                        block: bool = True) -> Cell | None:
    """Extend a cell until its figures reach the half-widths ``targets`` (fractions by kind: ``rtp``,
    ``fold``, ``win``; default :data:`TARGET_HALF_WIDTH`): a pilot of ``pilot_chunks`` chunks (or what
    the store holds) sizes the run from the cell's own standard errors with a 10% margin, then tops it
    up once if the final errors fall short.  The stopping rule reads the errors only, never the
    estimates; every chunk is kept, so the cell is reproducible from its seed and chunk count.
    ``block=False``: return None at once when another process is extending the cell."""
    rules_set = load_rules(rules)
    key = _rules_key(rules_set)
    _KEYED[key] = rules_set
    kick = int(rules_set.kickout_value(players))
    cell = extend_cell(store, rules_set, reading, players, seed, pilot_chunks, deadline=deadline, block=block)
    for _ in range(2):
        if cell is None:
            return None
        want = min(chunks_needed(cell, targets, kick), max_chunks)
        if want <= cell.chunks:
            break
        cell = extend_cell(store, rules_set, reading, players, seed, want, deadline=deadline, block=block)
    return cell
