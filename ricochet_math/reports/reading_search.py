"""Which "perfect play" did the publisher compute?  A resumable search over the publisher-like readings.

For every reading (default: the family of :mod:`ricochet_math.strategies.readings`) the
published figures (:data:`FIGURES`) are computed on both kickout pages (``publisher``,
``publisher-4p-tens``: they differ at four players only) and under both RTP conventions, and
compared with the page by a goodness-of-fit statistic.

How a figure is computed
------------------------
* N = 1: exact (:func:`ricochet_math.solvers.solo.solo_analysis`): every member of the family is
  the same rule there (no later seat, nothing standing but the dealer), with or without the bonus.
* N >= 2: Monte Carlo **cells** (reading, rules, N) of fixed chunks of :data:`CHUNK_ROUNDS` rounds.
  Chunk ``i`` of a cell is dealt from ``SeedSequence(cell_seed(seed, N), spawn_key=(i,))``, the
  seeding of :func:`~ricochet_math.solvers.montecarlo.simulate`: every reading sees the **same
  deals** (common random numbers), and ``simulate(rules, N, reading, rounds=chunks * 256,
  seed=cell_seed(seed, N), chunk_size=256)`` reproduces a cell's kernel sums digit for digit.
* RTP: the engine's control variates (:mod:`ricochet_math.solvers.variance`), both conventions.
* Fold and win frequencies: deal-level control variates of exactly known mean, cross-fitted on
  even/odd chunks as the RTP's (:func:`controlled_mean`): the dealer-value buckets, the seats'
  reach ``q`` summed and squared, and the count of seats whose ``q`` lies below each of
  :data:`Q_THRESHOLDS` (a seat that can hardly reach the dealer folds under every pot-odds
  reading).  Their means come from the exact joint law of (two-card class, dealer value)
  (:mod:`ricochet_math.engine.controls`).  The plain estimate is kept beside it, with the
  measured variance ratio.

The store
---------
One ``.npz`` per cell under ``store/<rules>/<reading>/N<n>.npz`` (written atomically by
:func:`ricochet_math.storage.save_arrays`): the kernel sums, the frequency sums per half, the
chunks done and the seed.  A run stopped at any point resumes where the store stands; asking
for more chunks extends a cell; a store made with another seed or chunk size is refused.

Goodness of fit
---------------
``z = (computed - published) / sqrt(se_mc^2 + se_round^2)`` per figure, where ``se_round`` is the
publisher's rounding error (a uniform error of one unit in the last printed digit: ``10^-d / sqrt 12``);
``chi2`` is the sum of ``z^2`` over the five figures and ``max_abs_z`` the largest ``|z|``.  A figure
is **resolved** when its 95% half-width meets :data:`TARGET_HALF_WIDTH`; a ranking is only as firm
as its rows' resolution, which the table says.
"""
from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.engine import controls as cv
from ricochet_math.engine.chunks import run_chunk_records
from ricochet_math.engine.kernel import Status, prepare
from ricochet_math.engine.sums import ChunkSums, SeatSum
from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.classes import class_index_table, player_classes
from ricochet_math.evaluator.tables import cache_dir
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.executors import chunk_seed
from ricochet_math.solvers.solo import solo_analysis
from ricochet_math.solvers.stats import z_value
from ricochet_math.solvers.variance import controlled_estimate, controlled_ratio
from ricochet_math.storage import DamagedFileError, atomic_write_text, load_arrays, save_arrays
from ricochet_math.strategies.readings import FAMILY_NAMES

__all__ = ["FIGURES", "TARGET_HALF_WIDTH", "PAGES", "CHUNK_ROUNDS", "Q_THRESHOLDS", "cell_seed", "Cell",
           "extend_cell", "load_cell", "cell_figures", "controlled_mean", "reading_figures", "fit_table",
           "search_readings", "SearchResult", "default_store", "extend_to_precision"]

#: (figure id, text, published value, decimals the page prints in percent)
FIGURES = (
    ("rtp_low", "RTP with perfect play, lowest over player counts 1-7", 0.9597, 2),
    ("rtp_high", "RTP with perfect play, highest over player counts 1-7", 0.9691, 2),
    ("fold_1", "Fold frequency, 1 player", 0.229, 1),
    ("fold_7", "Fold frequency, 7 players", 0.1094, 2),
    ("win_3", "Win frequency of one player, 3 players + dealer", 0.2579, 2),
)
#: the 95% half-widths the issue asks for (fractions): 0.03 points on frequencies, 0.05 on RTP
TARGET_HALF_WIDTH = {"rtp": 0.0005, "fold": 0.0003, "win": 0.0003}
#: the kickout pages (rule-set names); they differ at four players only
PAGES = ("publisher", "publisher-4p-tens")
#: rounds per chunk (the look-ahead's chunk size in :func:`~ricochet_math.solvers.montecarlo.simulate`)
CHUNK_ROUNDS = 256
#: reach thresholds of the frequency controls (count of seats with q below each)
Q_THRESHOLDS = (0.03, 0.05, 0.065, 0.08, 0.1, 0.125, 0.15, 0.2, 0.3, 0.45)
_SCHEMA = "ricochet_math.reading_search.cell/1"

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


def _cell_path(store, rules, reading: str, players: int) -> Path:
    return Path(store) / _rules_key(rules) / reading / f"N{players}.npz"


def load_cell(store, rules, reading: str, players: int, seed: int) -> Cell:
    """The stored cell (an empty one when none is stored); refuses a store of another seed."""
    path = _cell_path(store, rules, reading, players)
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
    path = _cell_path(store, cell.rules, cell.reading, cell.players)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_arrays(path, _SCHEMA, {**cell.sums.to_arrays(), "freq": cell.freq},
                {"rules": cell.rules, "reading": cell.reading, "players": cell.players, "seed": cell.seed,
                 "chunk_rounds": CHUNK_ROUNDS, "chunks": cell.chunks, "seconds": cell.seconds})


def _run_chunk(rules, players: int, reading: str, seed: int, i: int):
    """Chunk ``i`` of a cell: its kernel sums (controls recorded) and its frequency sums."""
    setup = prepare(rules, players, reading, control_variates=True)
    chunk = run_chunk_records(setup, chunk_seed(int(np.random.SeedSequence(seed).entropy), i), CHUNK_ROUNDS)
    v = _frequency_vectors(chunk.records, chunk.decks, players, setup.game.kick_value)
    return chunk.sums, v.T @ v


def extend_cell(store, rules, reading: str, players: int, seed: int, chunks: int, *,
                save_every_s: float = 20.0, deadline: float | None = None) -> Cell:
    """Run a cell's chunks up to ``chunks`` (in order, from where the store stands), saving the
    store every ``save_every_s`` seconds and at the end; stops early (saved) at ``deadline``
    (a ``time.monotonic()`` value)."""
    rules_set = load_rules(rules)
    rules = _rules_key(rules_set) if not isinstance(rules, str) else rules
    cell = load_cell(store, rules, reading, players, seed)
    sums, freq, done, spent = cell.sums, cell.freq.copy(), cell.chunks, cell.seconds
    last = time.monotonic()
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
        if done:
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

    def fit(cov):
        return np.linalg.lstsq(cov[np.ix_(ctl, ctl)], cov[ctl, target], rcond=1e-12)[0]

    crossed = len(halves) == 2 and min(n for n, _, _ in halves) >= max(1200, 50 * len(ctl))
    if crossed:
        betas = [fit(cov) for _, _, cov in halves]
    else:
        tot = cross.sum(axis=0)
        n = tot[0, 0]
        mean = tot[0] / n
        betas = [fit((tot - n * np.outer(mean, mean)) / max(n - 1.0, 1.0))] * 2
    n_all = sum(n for n, _, _ in halves)
    est = var = pm = pv = 0.0
    for i, (n, mean, cov) in enumerate(halves):
        beta = betas[1 - i] if len(halves) == 2 else betas[0]
        est += n * (mean[target] - beta @ (mean[ctl] - means[ctl]))
        var += n * max(cov[target, target] - 2 * beta @ cov[ctl, target] + beta @ cov[np.ix_(ctl, ctl)] @ beta, 0.0)
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
def _solo(rules_name: str, bonus: bool) -> dict:
    s = solo_analysis(load_rules(rules_name), use_bonus=bonus).at_threshold()
    return {"players": 1, "rounds": 0, "rtp_initial": s["rtp_per_initial_bet"], "rtp_initial_se": 0.0,
            "rtp_wagered": s["rtp_per_wagered"], "rtp_wagered_se": 0.0, "fold": s["fold_frequency"],
            "fold_se": 0.0, "win": s["win_frequency"], "win_se": 0.0}


def reading_figures(store, reading: str, seed: int, page: str = "publisher") -> pd.DataFrame:
    """Per N = 1..7 the figures of ``reading`` on kickout ``page`` from the store (N = 1 exact;
    a player count with no stored rounds is left out)."""
    # N = 1: both pages kick the dealer out at the same hand, so one exact analysis serves both
    rows = [{"reading": reading, "page": page, **_solo("publisher", not reading.endswith("-no-bonus"))}]
    for n in range(2, 8):
        rules = page if (n == 4 or page == "publisher") else "publisher"
        cell = load_cell(store, rules, reading, n, seed)
        if cell.chunks:
            rows.append({"reading": reading, "page": page, "rules": cell.rules, "seed": cell.seed,
                         "chunk_rounds": CHUNK_ROUNDS, **cell_figures(cell)})
    return pd.DataFrame(rows)


def _rounding_se(decimals: int) -> float:
    return 10.0 ** (-decimals - 2) / math.sqrt(12.0)


def fit_table(store, readings, seed: int, *, pages=PAGES, conventions=("initial", "wagered")) -> pd.DataFrame:
    """One row per reading, page and RTP convention: every figure, its standard error, half-width,
    z and whether it is resolved; chi2 and max ``|z|`` over the figures present; ranked by the number of
    figures present, then chi2."""
    z95 = z_value(0.95)
    rows = []
    for reading in readings:
        for page in pages:
            per = reading_figures(store, reading, seed, page).set_index("players")
            for conv in conventions:
                row = {"reading": reading, "page": page, "rtp": f"per {conv if conv == 'wagered' else 'initial bet'}"}
                figs = {}
                col = f"rtp_{conv}"
                if len(per) == 7:
                    lo, hi = per[col].idxmin(), per[col].idxmax()
                    figs["rtp_low"] = (per.loc[lo, col], per.loc[lo, f"{col}_se"], "rtp", lo)
                    figs["rtp_high"] = (per.loc[hi, col], per.loc[hi, f"{col}_se"], "rtp", hi)
                figs["fold_1"] = (per.loc[1, "fold"], 0.0, "fold", 1)
                if 7 in per.index:
                    figs["fold_7"] = (per.loc[7, "fold"], per.loc[7, "fold_se"], "fold", 7)
                if 3 in per.index:
                    figs["win_3"] = (per.loc[3, "win"], per.loc[3, "win_se"], "win", 3)
                # the RTP extremes are only as firm as every player count that could still take their place
                close = {}
                for fid, sign in (("rtp_low", 1.0), ("rtp_high", -1.0)):
                    if fid in figs:
                        v0, se0 = figs[fid][0], figs[fid][1]
                        close[fid] = all(per.loc[m, f"{col}_se"] * z95 <= TARGET_HALF_WIDTH["rtp"] + 1e-12
                                         for m in per.index
                                         if sign * (per.loc[m, col] - v0) < 2 * z95 * (per.loc[m, f"{col}_se"] + se0))
                chi2, zmax, resolved = 0.0, 0.0, True
                for fid, _, published, decimals in FIGURES:
                    if fid not in figs:
                        row[fid] = row[f"{fid}_half"] = row[f"{fid}_z"] = math.nan
                        resolved = False
                        continue
                    value, se, kind, n_at = figs[fid]
                    z = (value - published) / math.hypot(se, _rounding_se(decimals))
                    half = z95 * se
                    row[fid], row[f"{fid}_half"], row[f"{fid}_z"], row[f"{fid}_n"] = value, half, z, int(n_at)
                    chi2 += z * z
                    zmax = max(zmax, abs(z))
                    resolved &= half <= TARGET_HALF_WIDTH[kind] + 1e-12 and close.get(fid, True)
                    row[f"{fid}_resolved"] = bool(half <= TARGET_HALF_WIDTH[kind] + 1e-12 and close.get(fid, True))
                # the page's "7 players" read as six players and the dealer (as its win figure counts
                # "3 players + dealer"): shown beside the ranking, not in it
                if 6 in per.index:
                    v6, se6 = per.loc[6, "fold"], per.loc[6, "fold_se"]
                    row["fold_6"], row["fold_6_half"] = v6, z95 * se6
                    row["fold_6_z"] = (v6 - 0.1094) / math.hypot(se6, _rounding_se(2))
                row["figures"] = len(figs)
                row["chi2"], row["max_abs_z"], row["resolved"] = chi2, zmax, bool(resolved)
                row["rounds_n7"] = int(per.loc[7, "rounds"]) if 7 in per.index else 0
                rows.append(row)
    t = pd.DataFrame(rows)
    return t.sort_values(["figures", "chi2"], ascending=[False, True], kind="stable").reset_index(drop=True)


@dataclass(frozen=True)
class SearchResult:
    """The ranked table (:func:`fit_table`), the per-N figures of every reading, and the run's facts."""

    table: pd.DataFrame
    by_players: pd.DataFrame
    seed: int
    seconds: float

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> dict:
        top = self.table.iloc[0]
        return {"best": top["reading"], "page": top["page"], "rtp": top["rtp"], "chi2": float(top["chi2"]),
                "max_abs_z": float(top["max_abs_z"]), "resolved_rows": int(self.table["resolved"].sum()),
                "rows": len(self.table), "seed": self.seed}

    def to_markdown(self, top: int = 10) -> str:
        """The report's section: how the search was run, the ``top`` rows ranked by chi2, and what the
        best row reproduces (``|z| <= 2``), figure by figure, with the resolution of each claim."""
        return search_markdown(self.table, self.seed, top)

    def write(self, path="reports/publisher-readings.csv") -> Path:
        path = Path(path)
        atomic_write_text(path, self.table.to_csv(index=False))
        atomic_write_text(path.with_name(path.stem + "-by-players.csv"), self.by_players.to_csv(index=False))
        return path


def _cells_for(n_values=range(2, 8)):
    """(rules, N) of a reading's Monte Carlo cells, the most telling first: N = 7 (fold), 3 (win), 4 on both
    pages (the lowest RTP), then 5, 6 and 2."""
    order = [n for n in (7, 3, 4, 5, 6, 2) if n in n_values]
    cells = []
    for n in order:
        cells.append(("publisher", n))
        if n == 4:
            cells.append(("publisher-4p-tens", 4))
    return cells


def default_store() -> Path:
    """The store's default folder: ``reading-search`` in the toolkit's cache folder."""
    return cache_dir() / "reading-search"


def _worst_z(store, reading: str, seed: int) -> float:
    """The largest ``|z|`` of the figures a reading has so far (exact N = 1, and the stored N = 7 and 3 cells)."""
    t = fit_table(store, [reading], seed, pages=("publisher",), conventions=("initial",))
    zs = [abs(t.iloc[0][f"{f}_z"]) for f, _, _, _ in FIGURES if f"{f}_z" in t and not math.isnan(t.iloc[0][f"{f}_z"])]
    return max(zs) if zs else 0.0


def search_readings(readings=FAMILY_NAMES, *, store=None, seed: int = 13, screen_chunks: int = 40,
           deep: int = 0, deep_chunks: int | None = None, seconds: float | None = None,
           players=range(2, 8), reject_z: float = 10.0, progress: bool = False) -> SearchResult:
    """Screen every reading (``screen_chunks`` chunks per cell, the most telling cells first), rank them,
    then extend the ``deep`` best to ``deep_chunks`` per cell (default: the chunks each cell needs for the
    target half-widths, sized from its screen).  A reading with a figure already ``reject_z`` standard
    errors or more from the page (the exact one-player fold frequency counts) is not screened further:
    its row stays in the table with the figures it has.  ``seconds``: stop launching chunks after this
    long (the store keeps all finished work; run again to continue).  Stored cells are not recomputed."""
    seed = check_seed(seed, allow_none=False)
    store = default_store() if store is None else Path(store)
    screen_chunks = check_whole(screen_chunks, "screen_chunks", low=0)
    t0 = time.monotonic()
    deadline = None if seconds is None else t0 + float(seconds)
    cells = _cells_for(tuple(players))
    for reading in readings:
        for rules, n in cells:
            if deadline is not None and time.monotonic() > deadline:
                break
            worst = _worst_z(store, reading, seed)
            if worst > reject_z:  # already out by one figure: its other cells cannot bring it back
                if progress:
                    print(f"screen {reading}: rejected (|z| = {worst:.0f} > {reject_z:g}), "
                          f"cells left unrun", flush=True)
                break
            if progress:
                print(f"screen {reading} {rules} N={n}", flush=True)
            extend_cell(store, rules, reading, n, seed, screen_chunks, deadline=deadline)
    table = fit_table(store, readings, seed)
    if deep:
        best = list(dict.fromkeys(table["reading"]))[:deep]
        for reading in best:
            for rules, n in cells:
                cell = load_cell(store, rules, reading, n, seed)
                want = deep_chunks if deep_chunks is not None else _chunks_needed(cell)
                if deadline is not None and time.monotonic() > deadline:
                    break
                if progress:
                    print(f"deep {reading} {rules} N={n}: {cell.chunks} -> {want} chunks", flush=True)
                extend_cell(store, rules, reading, n, seed, want, deadline=deadline)
        table = fit_table(store, readings, seed)
    by = pd.concat([reading_figures(store, r, seed, p) for r in readings for p in PAGES], ignore_index=True)
    return SearchResult(table, by, seed, time.monotonic() - t0)


def _load_keyed(key: str):
    """The rule set of a store key (a shipped name, or NAME-HASH of a rule set run earlier in this process)."""
    return _KEYED.get(key) or load_rules(key)


_KEYED: dict = {}


def _chunks_needed(cell: Cell, targets=None, kick_value: int | None = None) -> int:
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
                        pilot_chunks: int = 16, max_chunks: int = 400_000, deadline: float | None = None) -> Cell:
    """Extend a cell until its figures reach the half-widths ``targets`` (fractions by kind: ``rtp``,
    ``fold``, ``win``; default :data:`TARGET_HALF_WIDTH`): a pilot of ``pilot_chunks`` chunks (or what
    the store holds) sizes the run from the cell's own standard errors with a 10% margin, then tops it
    up once if the final errors fall short.  The stopping rule reads the errors only, never the
    estimates; every chunk is kept, so the cell is reproducible from its seed and chunk count."""
    rules_set = load_rules(rules)
    key = _rules_key(rules_set)
    _KEYED[key] = rules_set
    kick = int(rules_set.kickout_value(players))
    cell = extend_cell(store, rules_set, reading, players, seed, pilot_chunks, deadline=deadline)
    for _ in range(2):
        want = min(_chunks_needed(cell, targets, kick), max_chunks)
        if want <= cell.chunks:
            break
        cell = extend_cell(store, rules_set, reading, players, seed, want, deadline=deadline)
    return cell


def _pts(value: float, half: float) -> str:
    return f"{100 * value:+.3f} ± {100 * half:.3f}"


def search_markdown(table: pd.DataFrame, seed: int, top: int = 10) -> str:
    """Markdown of a :func:`fit_table` (see :meth:`SearchResult.to_markdown`)."""
    full = table[table["figures"] == len(FIGURES)]
    n_read = table["reading"].nunique()
    lines = [
        "## Which reading did the publisher compute? (`reports/publisher-readings.csv`)", "",
        f"{n_read} readings (the publisher-like family of `ricochet_math.strategies.readings`, documented in "
        "docs/rules.md, 'Publisher-like readings'), each on both kickout pages (`publisher`, `publisher-4p-tens`: "
        "they differ at N = 4 only) and under both RTP conventions: one row each. N = 1 exact; N >= 2 Monte "
        f"Carlo cells with common random numbers (seed {seed}; cell seed 16 x seed + N; rounds per cell in the "
        "CSV), RTP with the engine's control variates and the fold and win frequencies with deal-level "
        "control variates. z = (computed - published) / sqrt(MC error^2 + the page's rounding error^2), the "
        "rounding error being a uniform error of one unit in the last printed digit; chi2 = sum of z^2 over "
        "the five figures (RTP lowest and highest over N = 1..7, fold at N = 1 and 7, win at N = 3). A row is "
        "*resolved* when every figure's 95% half-width meets the target (0.05 points on RTP, 0.03 on fold "
        "and win); an unresolved row's z is honest but its ranking can still change with more rounds.", "",
        f"Rows resolved: {int(table['resolved'].sum())} of {len(table)}.", "",
        "Deviation = computed - published, in percentage points, ± the 95% Monte Carlo half-width.", "",
        "| rank | reading | page | RTP | chi2 | max abs z | resolved | RTP low | RTP high | fold N=1 | "
        "fold N=7 | win N=3 |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for i, r in enumerate(full.head(top).itertuples(), 1):
        r = r._asdict()
        cells = [_pts(r[f] - pub, r[f"{f}_half"]) for f, _, pub, _ in FIGURES]
        lines.append(f"| {i} | {r['reading']} | {r['page']} | {r['rtp']} | {r['chi2']:.1f} | "
                     f"{r['max_abs_z']:.1f} | {'yes' if r['resolved'] else 'no'} | " + " | ".join(cells) + " |")
    if full.empty:
        return "\n".join(lines + ["", "No reading has every figure computed yet."]) + "\n"
    best = full.iloc[0]
    good = [text for f, text, _, _ in FIGURES if abs(best[f"{f}_z"]) <= 2.0]
    bad = [f"{text} ({_pts(best[f] - pub, best[f'{f}_half'])} points, z = {best[f'{f}_z']:+.1f}"
           + ("" if best[f"{f}_resolved"] else "; not resolved at the target precision") + ")"
           for f, text, pub, _ in FIGURES if abs(best[f"{f}_z"]) > 2.0]
    lines += ["", f"**Best row**: `{best['reading']}`, page `{best['page']}`, RTP {best['rtp']} "
              f"(chi2 {best['chi2']:.1f} on 5 figures, max |z| {best['max_abs_z']:.1f}; "
              f"{'resolved at the target precision' if best['resolved'] else 'NOT resolved at the target precision'}).",
              "", "* Reproduced within |z| <= 2: " + ("; ".join(good) if good else "none") + ".",
              "* Not reproduced: " + ("; ".join(bad) if bad else "none") + "."]
    if "fold_6_z" in table:
        six = table[table["fold_6_z"].abs() <= 2.0].drop_duplicates("reading")
        lines += ["", "*Seven players counting the dealer.* The page's win figure says '3 players + dealer'; "
                      "if its '7 players' also counts the dealer, the fold figure is the six-player one. Not "
                      "in the ranking (a reading of the page chosen after seeing the data). Six-player fold "
                      "frequency within |z| <= 2 of 10.94%: "
                  + ("; ".join(f"`{r.reading}` {100 * r.fold_6:.3f} ± {100 * r.fold_6_half:.3f}%"
                               for r in six.itertuples()) if len(six) else "none") + "."]
    every = full[full["max_abs_z"] <= 2.0]
    if every.empty:
        lines += ["", "No row reproduces every figure within |z| <= 2. Figure by figure, the rows that do "
                      "reproduce it (rows with only some figures computed included: a reading rejected early "
                      "by one figure may still match another):"]
        for f, text, _, _ in FIGURES:
            ok = table[table[f"{f}_z"].abs() <= 2.0]
            names = sorted(set(ok["reading"] + " (" + ok["page"] + ", " + ok["rtp"] + ")"))
            lines.append(f"* {text}: {len(names)} rows" + (f", e.g. {', '.join(names[:4])}" if names else ""))
    else:
        lines += ["", f"{len(every)} rows reproduce every figure within |z| <= 2: "
                      + ", ".join(sorted(set(every["reading"] + " (" + every["page"] + ", " + every["rtp"] + ")")))[:2000]
                      + "."]
    return "\n".join(lines) + "\n"
