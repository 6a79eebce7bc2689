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

Two searches may run on one store at once: a cell is locked (``flock`` on ``NAME.npz.lock``) while a
process extends it, and the other takes another step.  The spec's dealer-only pot-odds readings are
stored as the family members they equal (:data:`STORE_ALIASES`).

Goodness of fit and the precision policy
----------------------------------------
``z = (computed - published) / sqrt(se_mc^2 + se_round^2)`` per figure, where ``se_round`` is the
publisher's rounding error (a uniform error of one unit in the last printed digit: ``10^-d / sqrt 12``);
for the lowest and highest RTP over N the z is one-sided (:func:`_extreme_figure`).  A row is
**rejected** when one figure has ``|z| >= REJECT_Z``; rows are ranked by ``S``, the chi-square at the
target precision (:func:`_row_statistic`: a wide interval does not lower it), and the policy
(:func:`fit_table`) asks every row to be at :data:`TARGET_HALF_WIDTH` or rejected and firmly outside the
top :data:`TOP`, the top rows and every row not rejected at the target.  :func:`search_readings` runs the
store to that policy.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

try:
    import fcntl
except ImportError:  # not on Windows: the store is then not locked
    fcntl = None

from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.tables import require_cache_dir
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.solo import solo_analysis
from ricochet_math.storage import atomic_write_text, exact_seed_columns
from ricochet_math.reports.reading_cells import (
    Z95, CHUNK_ROUNDS, STORE_ALIASES, TARGET_HALF_WIDTH, Cell, cell_path, chunks_needed, is_locked, cell_figures, cell_seed, controlled_mean, extend_cell, extend_to_precision, load_cell,
)
from ricochet_math.strategies.readings import FAMILY_NAMES

__all__ = ["FIGURES", "TARGET_HALF_WIDTH", "REJECT_Z", "TOP", "STORE_ALIASES", "PAGES", "CHUNK_ROUNDS",
           "cell_seed", "Cell",
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
#: the kickout pages (rule-set names); they differ at four players only
PAGES = ("publisher", "publisher-4p-tens")


def _solo(rules_name: str, bonus: bool) -> dict:
    s = solo_analysis(load_rules(rules_name), use_bonus=bonus).at_threshold()
    return {"players": 1, "rounds": 0, "rtp_initial": s["rtp_per_initial_bet"], "rtp_initial_se": 0.0,
            "rtp_wagered": s["rtp_per_wagered"], "rtp_wagered_se": 0.0, "fold": s["fold_frequency"],
            "fold_se": 0.0, "win": s["win_frequency"], "win_se": 0.0}


_FIGURE_CACHE: dict = {}


def _stored_figures(store, rules: str, reading: str, n: int, seed: int) -> dict | None:
    """:func:`cell_figures` of a stored cell, cached by the file's size and time (None: no rounds stored)."""
    path = cell_path(store, rules, reading, n)
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    key = (str(path), seed, st.st_mtime_ns, st.st_size)
    if key not in _FIGURE_CACHE:
        cell = load_cell(store, rules, reading, n, seed)
        _FIGURE_CACHE[key] = None if not cell.chunks else {
            "rules": cell.rules, "seed": cell.seed, "chunk_rounds": CHUNK_ROUNDS, **cell_figures(cell)}
    return _FIGURE_CACHE[key]


def reading_figures(store, reading: str, seed: int, page: str = "publisher") -> pd.DataFrame:
    """Per N = 1..7 the figures of ``reading`` on kickout ``page`` from the store (N = 1 exact;
    a player count with no stored rounds is left out)."""
    # N = 1: both pages kick the dealer out at the same hand, so one exact analysis serves both
    rows = [{"reading": reading, "page": page, **_solo("publisher", not reading.endswith("-no-bonus"))}]
    for n in range(2, 8):
        rules = page if (n == 4 or page == "publisher") else "publisher"
        f = _stored_figures(store, rules, reading, n, seed)
        if f is not None:
            rows.append({"reading": reading, "page": page, **f})
    return pd.DataFrame(rows)


def _rounding_se(decimals: int) -> float:
    return 10.0 ** (-decimals - 2) / math.sqrt(12.0)


#: a row is rejected when one figure is this many standard errors (Monte Carlo and rounding) off the page
REJECT_Z = 5.0
#: the rows the ranking must settle: the top ``TOP`` rows and every row not rejected are run to the target
TOP = 5
_KIND = {"rtp_low": "rtp", "rtp_high": "rtp", "fold_1": "fold", "fold_7": "fold", "win_3": "win"}
_AT = {"fold_1": 1, "fold_7": 7, "win_3": 3}


def _point_figure(fid, per, published, r):
    """A figure read at one player count: value, se, half-width, the 95% interval and the rejection z."""
    n = _AT[fid]
    if n not in per.index:
        return None
    col = {"fold": "fold", "win": "win"}[_KIND[fid]]
    v, se = float(per.loc[n, col]), float(per.loc[n, f"{col}_se"])
    h = Z95 * se
    return {"value": v, "se": se, "half": h, "lo": v - h, "hi": v + h, "n": n, "complete": True,
            "z": (v - published) / math.hypot(se, r), "exact": se == 0.0}


def _extreme_figure(fid, per, col, published, r, all_n):
    """The lowest (``rtp_low``) or highest (``rtp_high``) RTP over N = 1..7 from the player counts present.

    The interval of a minimum is ``[min(v - h), min(v + h)]`` over N (of a maximum, ``[max(v - h), max(v + h)]``),
    its half-width at most the largest half-width among the counts that could hold the extreme.  With some
    counts missing only one side is known (a missing count can only lower a minimum).  The rejection z is
    honest for an extreme: the published value lies above the minimum when one count is z below it (a
    maximum symmetrically), and below it only when every count is z above it."""
    sign = 1.0 if fid == "rtp_low" else -1.0  # work with the minimum of sign * v
    v = sign * per[col].to_numpy(float)
    se = per[f"{col}_se"].to_numpy(float)
    h = Z95 * se
    s = np.hypot(se, r)
    p = sign * published
    complete = set(per.index) >= set(all_n)
    hi = float(np.min(v + h))  # the extreme (signed) is at most this ...
    lo = float(np.min(v - h)) if complete else -math.inf  # ... and at least this once every N is in
    z_below = float(np.max((p - v) / s))  # some count below the page: the extreme is below it
    z_above = float(np.min((v - p) / s)) if complete else -math.inf  # every count above it
    if complete:
        z = -z_below if z_below >= z_above else z_above  # signed in the sign * v space
    else:  # only "below" can be known: a missing count could still lower the extreme
        z = -z_below if z_below > 0 else math.nan
    i = int(np.argmin(v))
    out = {"complete": complete, "z": sign * z, "n": int(per.index[i]) if complete else -1}
    if complete:
        out.update(value=sign * v[i], se=float(se[i]), half=(hi - lo) / 2, exact=bool(hi == lo))
    else:
        out.update(value=math.nan, se=math.nan, half=math.inf, exact=False)
    out["lo"], out["hi"] = (lo, hi) if sign > 0 else (-hi, -lo)
    return out


def _row_statistic(figs, pubs, rounding):
    """``(S, S_lo, S_hi)``: the chi-square at the target precision (each Monte Carlo figure's error taken at
    the target half-width, an exact figure's as none; the page's rounding error always), at the point
    estimates and at the ends of the figures' 95% intervals.  The width of an interval does not lower S."""
    s = s_lo = s_hi = 0.0
    for fid, f in figs.items():
        den = math.hypot(0.0 if f["exact"] else TARGET_HALF_WIDTH[_KIND[fid]] / Z95, rounding[fid])
        d_lo, d_hi = f["lo"] - pubs[fid], f["hi"] - pubs[fid]
        near = 0.0 if d_lo <= 0.0 <= d_hi else min(abs(d_lo), abs(d_hi))
        far = max(abs(d_lo), abs(d_hi))
        if f["complete"]:
            s += ((f["value"] - pubs[fid]) / den) ** 2
        else:
            s += (near / den) ** 2  # a one-sided bound: what is known for sure
        s_lo += (near / den) ** 2
        s_hi += (far / den) ** 2 if math.isfinite(far) else math.inf
    return s, s_lo, s_hi


def _figure_name(fid) -> str:
    return {"rtp_low": "RTP low", "rtp_high": "RTP high", "fold_1": "fold N=1", "fold_7": "fold N=7",
            "win_3": "win N=3"}[fid]


def fit_table(store, readings, seed: int, *, pages=PAGES, conventions=("initial", "wagered"),
              top: int = TOP, reject_z: float = REJECT_Z) -> pd.DataFrame:
    """One row per reading, page and RTP convention, ranked, with the precision policy's verdict.

    Per figure: the value, its 95% half-width, ``z`` (computed - published over the Monte Carlo and the page's
    rounding error; for the RTP extremes the honest one-sided z of :func:`_extreme_figure`), whether it is at
    the target half-width (``_at_target``).  Per row:

    * ``stat``: chi-square at the target precision (:func:`_row_statistic`), the ranking key; ``stat_low`` and
      ``stat_high`` its range over the figures' 95% intervals;
    * ``at_target``: every figure present and at its target half-width;
    * ``rejected_by``, ``rejected_z``: the figure with the largest ``|z|`` when it is ``>= reject_z``;
    * ``rank`` (1 = best); ``firm``: the row's place relative to the top ``top`` cannot change with more rounds
      (a top row at target; a row below whose ``stat_low`` exceeds every top row's ``stat_high``);
    * ``status``: "at target", "rejected by FIGURE at z = Z" (both when both), or "open";
    * ``policy_ok``: at target, or rejected and firmly outside the top ``top``; a top row and a row not
      rejected must be at target.
    """
    rows = []
    pubs = {fid: published for fid, _, published, _ in FIGURES}
    rounding = {fid: _rounding_se(decimals) for fid, _, _, decimals in FIGURES}
    for reading in readings:
        for page in pages:
            per = reading_figures(store, reading, seed, page).set_index("players")
            for conv in conventions:
                row = {"reading": reading, "page": page, "rtp": f"per {conv if conv == 'wagered' else 'initial bet'}"}
                col = f"rtp_{conv}"
                figs = {}
                for fid, _, published, _ in FIGURES:
                    if fid in ("rtp_low", "rtp_high"):
                        f = _extreme_figure(fid, per, col, published, rounding[fid], range(1, 8))
                    else:
                        f = _point_figure(fid, per, published, rounding[fid])
                    if f is None:
                        row[fid] = row[f"{fid}_half"] = row[f"{fid}_z"] = math.nan
                        row[f"{fid}_n"], row[f"{fid}_at_target"] = -1, False
                        continue
                    figs[fid] = f
                    row[fid], row[f"{fid}_half"], row[f"{fid}_z"], row[f"{fid}_n"] = \
                        f["value"], f["half"], f["z"], f["n"]
                    row[f"{fid}_at_target"] = bool(f["complete"] and f["half"] <= TARGET_HALF_WIDTH[_KIND[fid]] + 1e-12)
                complete = {k: f for k, f in figs.items() if f["complete"]}
                row["figures"] = len(complete)
                row["chi2"] = sum(f["z"] ** 2 for f in complete.values())  # at the row's own precision
                row["max_abs_z"] = max((abs(f["z"]) for f in figs.values() if math.isfinite(f["z"])), default=0.0)
                row["stat"], row["stat_low"], row["stat_high"] = _row_statistic(figs, pubs, rounding)
                row["at_target"] = all(row[f"{fid}_at_target"] for fid, _, _, _ in FIGURES)
                worst = max(figs, key=lambda k: abs(figs[k]["z"]) if math.isfinite(figs[k]["z"]) else -1.0)
                rejected = abs(figs[worst]["z"]) >= reject_z
                row["rejected_by"] = worst if rejected else ""
                row["rejected_z"] = figs[worst]["z"] if rejected else math.nan
                # the page's "7 players" read as six players and the dealer (as its win figure counts
                # "3 players + dealer"): shown beside the ranking, not in it
                if 6 in per.index:
                    v6, se6 = per.loc[6, "fold"], per.loc[6, "fold_se"]
                    row["fold_6"], row["fold_6_half"] = v6, Z95 * se6
                    row["fold_6_z"] = (v6 - 0.1094) / math.hypot(se6, _rounding_se(2))
                row["rounds_n7"] = int(per.loc[7, "rounds"]) if 7 in per.index else 0
                rows.append(row)
    t = pd.DataFrame(rows).sort_values(["stat", "reading", "page", "rtp"], kind="stable").reset_index(drop=True)
    t.insert(0, "rank", np.arange(1, len(t) + 1))
    head = t.head(top)
    bar = float(head["stat_high"].max()) if len(head) else -math.inf  # no top rows: nothing to keep out
    t["firm"] = [bool(r.at_target) if r.rank <= top else bool(r.stat_low > bar) for r in t.itertuples()]
    t["status"] = [_status(r) for r in t.itertuples()]
    t["policy_ok"] = [bool(r.at_target or (r.rejected_by and r.rank > top and r.firm)) for r in t.itertuples()]
    return t


def _status(r) -> str:
    parts = ["at target"] if r.at_target else []
    if r.rejected_by:
        parts.append(f"rejected by {_figure_name(r.rejected_by)} at z = {r.rejected_z:+.1f}")
    return "; ".join(parts) if parts else "open"


@dataclass(frozen=True)
class SearchResult:
    """The ranked table (:func:`fit_table`), the per-N figures of every reading, and the run's facts."""

    table: pd.DataFrame
    by_players: pd.DataFrame
    seed: int
    seconds: float
    #: :func:`remaining_work` when the run ended (None: not computed)
    remaining: pd.DataFrame | None = None
    #: the policy's number of top rows (:data:`TOP` unless the search was given another)
    top: int = TOP

    def to_frame(self) -> pd.DataFrame:
        return self.table.copy()

    def summary(self) -> dict:
        top = self.table.iloc[0]
        return {"best": top["reading"], "page": top["page"], "rtp": top["rtp"], "status": top["status"],
                "stat": float(top["stat"]), "chi2": float(top["chi2"]), "max_abs_z": float(top["max_abs_z"]),
                "rows_at_target": int(self.table["at_target"].sum()),
                "rows_rejected": int((self.table["rejected_by"] != "").sum()),
                "policy_met": bool(self.table["policy_ok"].all()), "rows": len(self.table), "seed": self.seed}

    def to_markdown(self, top: int = 10) -> str:
        """The report's section: how the search was run, the precision policy and whether it is met, the
        ``top`` rows (and every row breaking the policy) with their status and half-widths, and what the
        best row reproduces (``|z| <= 2``), figure by figure."""
        return search_markdown(self.table, self.seed, top, self.remaining, self.top)

    def write(self, path="reports/publisher-readings.csv") -> Path:
        path = Path(path)
        atomic_write_text(path, exact_seed_columns(self.table).to_csv(index=False))
        atomic_write_text(path.with_name(path.stem + "-by-players.csv"),
                          exact_seed_columns(self.by_players).to_csv(index=False))
        return path

    def update_report(self, path="reports/published-figures.md", top: int = 10) -> Path:
        """Replace the search's section of a ``published-figures.md`` the toolkit wrote (the rest of the
        file, the main table included, is kept as it is); refuses any other file."""
        path = Path(path)
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        head = "## Which reading did the publisher compute?"
        if not text.startswith("# Published figures vs computed") or head not in text:
            raise RicochetError(f"{path}: not a published-figures report with the search's section; write the "
                                "whole report with `ricochet published --search --write DIR`")
        a = text.index(head)
        b = text.find("\n## ", a + len(head))
        b = len(text) if b < 0 else b + 1
        atomic_write_text(path, text[:a] + self.to_markdown(top) + "\n" + text[b:])
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
    """The store's default folder: ``reading-search`` in the toolkit's cache folder (a cache folder that is
    not usable is refused in one line: the search keeps its finished work there)."""
    return require_cache_dir("the reading search's store") / "reading-search"


def _page_cells(page: str, n_values=range(2, 8)):
    """(rules, N) of the cells a kickout page's figures read, the most telling first (:func:`_cells_for`)."""
    return [(rules, n) for rules, n in _cells_for(n_values) if rules == (page if n == 4 else "publisher")]


def search_readings(readings=FAMILY_NAMES, *, store=None, seed: int = 13, screen_chunks: int = 40,
                    top: int = TOP, seconds: float | None = None, players=range(2, 8),
                    reject_z: float = REJECT_Z, progress: bool = False, wait: bool = True) -> SearchResult:
    """Run the search to the precision policy of :func:`fit_table`: until every row is at the target
    half-widths or rejected (a figure ``reject_z`` standard errors off the page) and firmly outside the top
    ``top``; the top ``top`` rows and every row not rejected at the target half-widths.

    One step at a time, always for the best-ranked row that breaks the policy: a top or unrejected row gets
    its next cell run to the target (:func:`extend_to_precision`); a rejected row that could still enter the
    top gets its next unscreened cell screened (``screen_chunks`` chunks), else the chunks of its least
    precise cell doubled.  ``seconds``: start no new step after this long.  Cells are locked while they run,
    so two searches on one store share the work (``wait``: when every step left is another process's,
    wait for it); the store keeps every finished chunk, and a new run resumes from it."""
    seed = check_seed(seed, allow_none=False)
    store = default_store() if store is None else Path(store)
    screen_chunks = check_whole(screen_chunks, "screen_chunks", low=1)
    top = check_whole(top, "top", low=0)
    players = tuple(players)
    t0 = time.monotonic()
    deadline = None if seconds is None else t0 + float(seconds)
    while True:
        table = fit_table(store, readings, seed, top=top, reject_z=reject_z)
        todo = table[~table["policy_ok"]]
        if todo.empty or (deadline is not None and time.monotonic() > deadline):
            break
        moved = False
        for r in todo.itertuples():
            step = _next_step(store, r, seed, screen_chunks, top, players)
            if step is None:
                continue
            rules, n, want, what = step
            if progress:
                print(f"{time.strftime('%H:%M:%S')} {what} {r.reading} ({r.page}, rank {r.rank}, {r.status}): "
                      f"{rules} N={n} -> {'target' if want is None else want} chunks", flush=True)
            if want is None:
                cell = extend_to_precision(store, rules, r.reading, n, seed, pilot_chunks=screen_chunks,
                                           deadline=deadline, block=False)
            else:
                cell = extend_cell(store, rules, r.reading, n, seed, want, deadline=deadline, block=False)
            if cell is not None:
                moved = True
                break
        if not moved:
            busy = any(is_locked(cell_path(store, rules, r.reading, n))
                       for r in todo.itertuples() for rules, n in _page_cells(r.page, players))
            if not (wait and busy) or (deadline is not None and time.monotonic() > deadline):
                break  # nothing left this process can do (and, unless waiting, nothing another one is doing)
            time.sleep(15.0)  # every step left is running in another process
    by = pd.concat([reading_figures(store, r, seed, p) for r in readings for p in PAGES], ignore_index=True)
    return SearchResult(table, by, seed, time.monotonic() - t0, remaining_work(store, table, seed, players, top),
                        top)


def _next_step(store, r, seed: int, screen_chunks: int, top: int, players):
    """``(rules, N, chunks or None for the target, what)``: the next cell to run for a row breaking the
    policy, or None when each of its cells is locked by another process (or none is left)."""
    cells = _page_cells(r.page, players)
    def locked(rules, n):
        return is_locked(cell_path(store, rules, r.reading, n))

    for rules, n in cells:  # first screen what is not screened yet: cheap, and it rejects most rows
        if load_cell(store, rules, r.reading, n, seed).chunks < screen_chunks and not locked(rules, n):
            return rules, n, screen_chunks, "screen"
    if r.rank <= top or not r.rejected_by:
        for rules, n in cells:
            if locked(rules, n):
                continue
            cell = load_cell(store, rules, r.reading, n, seed)
            if cell.chunks < chunks_needed(cell):
                return rules, n, None, "to target"
    # every cell screened (or, for a top row, sized to the target): grow the cell of the figure widest against
    # its target, never past the chunks that target needs
    ratio = {}
    for fid, _, _, _ in FIGURES:
        n = getattr(r, f"{fid}_n")
        half = getattr(r, f"{fid}_half")
        if n >= 2 and math.isfinite(half) and not getattr(r, f"{fid}_at_target"):
            ratio[n] = max(ratio.get(n, 0.0), half / TARGET_HALF_WIDTH[_KIND[fid]])
    for n in sorted(ratio, key=ratio.get, reverse=True):
        rules = r.page if n == 4 else "publisher"
        if locked(rules, n):
            continue
        cell = load_cell(store, rules, r.reading, n, seed)
        cap = chunks_needed(cell)
        if cell.chunks >= cap:
            continue
        grow = 1.25 if r.rank <= top or not r.rejected_by else 2.0  # a top row is close to its target
        return rules, n, min(cap, max(cell.chunks + 1, math.ceil(grow * cell.chunks))), "refine"
    return None


def remaining_work(store, table: pd.DataFrame, seed: int, players=range(2, 8), top: int = TOP) -> pd.DataFrame:
    """What the policy still asks of the store: one row per cell of a row breaking it (each cell once), with
    the chunks it holds, the chunks its target needs (from its own errors; a cell with fewer than 4 chunks:
    the 40 of a screen, its seconds unknown) and the one-thread kernel seconds that takes at the cell's own
    measured speed (``NaN`` when it has none).  Rows are those breaking the policy that are in the top
    ``top``, not rejected, or rejected with an S low not above the top rows' S (the others are expected to
    be firmly out once the top rows are at the target); for a rejected row the target is an upper bound."""
    out = {}
    # once the top rows are at the target their S high is close to their S: a rejected row whose S low
    # is above every top row's S is expected to leave the policy's work list with no more rounds
    bar = float(table.head(top)["stat"].max()) if top else -math.inf
    open_rows = table[~table["policy_ok"] & ((table["rank"] <= top) | (table["rejected_by"] == "")
                                             | (table["stat_low"] <= bar))]
    for r in open_rows.itertuples():
        for rules, n in _page_cells(r.page, tuple(players)):
            key = (r.reading, rules, n)
            if key in out:
                continue
            cell = load_cell(store, rules, r.reading, n, seed)
            need = chunks_needed(cell) if cell.chunks >= 4 else max(40, cell.chunks)
            per_chunk = cell.seconds / cell.chunks if cell.chunks else math.nan
            out[key] = {"reading": r.reading, "rules": rules, "players": n, "chunks": cell.chunks,
                        "chunks_needed": max(need, cell.chunks),
                        "seconds_needed": max(need - cell.chunks, 0) * per_chunk}
    return pd.DataFrame(list(out.values()), columns=["reading", "rules", "players", "chunks", "chunks_needed",
                                                     "seconds_needed"])


def _pts(value: float, half: float) -> str:
    if not math.isfinite(value):
        return "n/a"
    return f"{100 * value:+.3f}" + (" exact" if half == 0 else f" ± {100 * half:.3f}")


def _claim(r, fid, pub) -> str:
    """One figure of a row, as the report's sentences quote it: deviation, half-width, z."""
    return f"{_pts(r[fid] - pub, r[f'{fid}_half'])} points, z = {r[f'{fid}_z']:+.1f}"


def search_markdown(table: pd.DataFrame, seed: int, top: int = 10, remaining: pd.DataFrame | None = None,
                    policy_top: int = TOP) -> str:
    """Markdown of a :func:`fit_table` (see :meth:`SearchResult.to_markdown`): the method, the policy and
    whether it is met, the ``top`` best rows with their status and half-widths, and what the best row
    reproduces, figure by figure."""
    n_read = table["reading"].nunique()
    ok = table["policy_ok"]
    at = table["at_target"]
    lines = [
        "## Which reading did the publisher compute? (`reports/publisher-readings.csv`)", "",
        f"{n_read} readings (the publisher-like family of `ricochet_math.strategies.readings`, documented in "
        "docs/rules.md, 'Publisher-like readings'), each on both kickout pages (`publisher`, `publisher-4p-tens`: "
        "they differ at N = 4 only, so every other cell is shared) and under both RTP conventions (two ratios "
        f"of the same cells): {len(table)} rows. N = 1 exact; N >= 2 Monte Carlo cells with common random "
        f"numbers (seed {seed}; cell seed 16 x seed + N; rounds per cell in "
        "`reports/publisher-readings-by-players.csv`), RTP with the engine's control variates, the fold and win "
        "frequencies with deal-level control variates. Per figure z = (computed - published) / sqrt(Monte "
        "Carlo error^2 + the page's rounding error^2), the rounding error a uniform error of one unit in the "
        "last printed digit; for the lowest and highest RTP over N = 1..7 the z is one-sided and honest about "
        "the extreme (the page's value is above the minimum as soon as one player count lies below it, and "
        "below it only when every count lies above).", "",
        "**Precision policy.** Target 95% half-widths: 0.05 points on RTP, 0.03 on the fold and win "
        f"frequencies. A row is *rejected* when one figure is |z| >= {REJECT_Z:g} off the page at the precision "
        "it has (the figure is named). Rows are ranked by *S*, the chi-square the row has at the target "
        "precision (each Monte Carlo figure's error taken at the target half-width, an exact figure's as "
        "none, the page's rounding always): a wide interval does not lower S. [S low, S high] is S over the "
        f"figures' 95% intervals. The top {policy_top} rows and every row not rejected must be at the target; every "
        f"other row must be rejected and *firmly* outside the top {policy_top} (its S low above every top row's S "
        "high: more rounds cannot bring it in). Ranks below the top are by the point S and are not claimed.",
        "",
        f"Rows at the target: {int(at.sum())} of {len(table)}; rejected: {int((table['rejected_by'] != '').sum())}; "
        f"meeting the policy: {int(ok.sum())} of {len(table)}"
        + (" (**policy met**)." if ok.all() else
           f" (**not met**: {int((~ok).sum())} rows still need rounds; the search resumes from its store)."), "",
    ]
    if remaining is not None and not ok.all():
        left = remaining[remaining["chunks_needed"] > remaining["chunks"]]
        known = left["seconds_needed"].notna()
        lines += [f"Left for the policy (`remaining_work`): {len(left)} cells, "
                  + ", ".join(f"{r.reading} {r.rules} N={r.players} ({r.chunks} -> {r.chunks_needed} chunks)"
                              for r in left.itertuples())
                  + f"; about {left.loc[known, 'seconds_needed'].sum() / 3600:.1f} one-thread hours at their "
                  "measured speed (kernel time as stored, on a shared machine)"
                  + (f", plus {int((~known).sum())} cells not yet screened" if (~known).any() else "")
                  + ". Rows whose S low already exceeds the top rows' S are expected to be firmly out once the "
                  "top rows are at the target.", ""]
    lines += [
        "Deviation = computed - published, percentage points, ± the 95% Monte Carlo half-width ('exact': no "
        "Monte Carlo error).", "",
        "| rank | reading | page | RTP | S [low, high] | status | RTP low | RTP high | fold N=1 | fold N=7 | win N=3 |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    shown = table[(table["rank"] <= top) | ~ok].head(max(top, 40))
    for r in shown.to_dict("records"):
        cells = [_pts(r[f] - pub, r[f"{f}_half"]) for f, _, pub, _ in FIGURES]
        s_rng = f"{r['stat']:,.0f} [{r['stat_low']:,.0f}, " + (
            f"{r['stat_high']:,.0f}]" if math.isfinite(r["stat_high"]) else "inf]")
        lines.append(f"| {r['rank']} | {r['reading']} | {r['page']} | {r['rtp']} | {s_rng} | {r['status']} | "
                     + " | ".join(cells) + " |")
    if len(table) > len(shown):
        lines.append(f"| ... | {len(table) - len(shown)} more rows in the CSV, each meeting the policy | | | | | | | | | |")
    loose = table[(table["rank"] > policy_top) & ~table["firm"]]
    if len(loose):
        lines += ["", f"Not firmly outside the top {policy_top} (their S interval overlaps the top rows'; at the target "
                      "precision, so the policy holds, but their order against the top rows is not settled): "
                  + "; ".join(f"rank {r.rank} `{r.reading}` ({r.page}, {r.rtp}) S {r.stat:,.0f} "
                              f"[{r.stat_low:,.0f}, {r.stat_high:,.0f}]" for r in loose.itertuples()) + "."]
    best = table.iloc[0]
    good = [f"{text} ({_claim(best, f, pub)})" for f, text, pub, _ in FIGURES if abs(best[f"{f}_z"]) <= 2.0]
    bad = [f"{text} ({_claim(best, f, pub)})" for f, text, pub, _ in FIGURES if not abs(best[f"{f}_z"]) <= 2.0]
    lines += ["", f"**Best row** (rank 1): `{best['reading']}`, page `{best['page']}`, RTP {best['rtp']}: "
              f"{best['status']}; S {best['stat']:,.0f}, chi-square at its own precision {best['chi2']:,.1f} on "
              f"{int(best['figures'])} figures.", "",
              "* Reproduced within |z| <= 2: " + ("; ".join(good) if good else "none") + ".",
              "* Not reproduced: " + ("; ".join(bad) if bad else "none") + "."]
    every = table[(table["figures"] == len(FIGURES)) & (table["max_abs_z"] <= 2.0)]
    lines += ["", ("No row reproduces every figure within |z| <= 2." if every.empty else
                   f"{len(every)} rows reproduce every figure within |z| <= 2: "
                   + ", ".join(sorted(set(every["reading"] + " (" + every["page"] + ", " + every["rtp"] + ")"))) + ".")]
    lines += ["", "Figure by figure, the rows within |z| <= 2 of it (any precision; a row rejected by one figure "
                  "may match another):"]
    for f, text, _, _ in FIGURES:
        m = table[table[f"{f}_z"].abs() <= 2.0]
        names = sorted(set(m["reading"] + " (" + m["page"] + ", " + m["rtp"] + ")"))
        lines.append(f"* {text}: {len(names)} rows" + (f", e.g. {', '.join(names[:4])}" if names else ""))
    if "fold_6_z" in table:
        six = table[table["fold_6_z"].abs() <= 2.0].drop_duplicates("reading")
        lines += ["", "*Seven players counting the dealer.* The page's win figure says '3 players + dealer'; "
                      "if its '7 players' also counts the dealer, the fold figure is the six-player one. Not "
                      "in the ranking (a reading of the page chosen after seeing the data). Six-player fold "
                      "frequency within |z| <= 2 of 10.94%: "
                  + ("; ".join(f"`{r.reading}` {100 * r.fold_6:.3f} ± {100 * r.fold_6_half:.3f}%"
                               for r in six.itertuples()) if len(six) else "none") + "."]
    return "\n".join(lines) + "\n"
