"""Exact solo analysis (one player against the dealer) under perfect play.

The game with N = 1 (spec, "A round"): the player antes 1, the dealer antes 1,
the player gets two cards and the dealer five, all face up.  If the dealer's
hand is at or above the kickout threshold she folds and (automatic-win rule)
the player wins the pot of 2 without a play bet, taking three free cards only
for the bonus.  Otherwise the player folds (net -1) or plays: pays 1 more,
draws exactly three cards from the 45 unseen, and wins the pot of 3 if the
final hand reaches the dealer's (the dealer loses ties).  The high-hand bonus
is paid on the final hand, win or lose.

Perfect play: play iff EV(play) > EV(fold), i.e. with ``W`` winning draws and
``B`` the bonus summed over the 14,190 draws,

    (3 W + B) / 14190 - 2 > -1   <=>   3 W + B > 14190.

How 2,809,475,760 deals are counted (the kernel: :mod:`ricochet_math.solvers.solo_kernel`)
------------------------------------------------------------------------------------------
* Suit symmetry: 169 two-card classes (pairs x6, suited x4, offsuit x12).
* For each class, the C(50,5) dealer hands are counted, one hand per class of
  the suit permutations that fix the player's two cards (weighted by the
  class's size: a third of the hands are visited), and their 14,190 draws are
  not visited: they are counted by inclusion-exclusion over the dealer's
  cards, from tables built once per class.
* The result is kept per dealer value, for both treatments of the dealer (in
  or kicked out).  The decision when she is in does not depend on the
  threshold, so one pass answers every kickout threshold exactly
  (:meth:`SoloAnalysis.at_threshold`), which the kickout finder uses.

Everything is an integer count of (deal, draw) combinations: the common
denominator is 2,809,475,760 x 14,190.
"""
from __future__ import annotations

import hashlib
import sys
import time
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from ricochet_math.errors import RicochetError
from ricochet_math.evaluator.cards import RANKS, parse_cards
from ricochet_math.evaluator.classes import player_classes
from ricochet_math.evaluator.evaluation import NUM_VALUES, evaluate
from ricochet_math.evaluator.names import describe, pattern_value
from ricochet_math.evaluator.tables import cache_dir, usable_cache_dir
from ricochet_math.progress import bar as progress_bar
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers import solo_kernel
from ricochet_math.storage import DamagedFileError, load_arrays, save_arrays
from ricochet_math.solvers.solo_kernel import (
    FOLD, N_DEALS, N_DRAWS, PLAY, bonus_lines, count_classes, count_columns,
)

__all__ = ["SoloAnalysis", "solo_analysis", "SoloDeal", "solo_deal"]

# A run with a progress bar keeps its finished classes on disk this often (seconds), so a stopped
# run resumes; each save writes the decisions of all 169 classes (about a second).
PARTIAL_SAVE_SECONDS = 30.0


@dataclass(frozen=True)
class SoloAnalysis:
    """Exact counts of the solo game for every player class and dealer value.

    ``weighted[v, :]``: summed over the analysed player classes (with their
    suit weights), for dealer value ``v``: deals folded / played while the
    dealer is in, then draw counts by bonus line (0 = no bonus) for the
    automatic win, the played wins and the played losses.  ``decisions[k, v]``
    keeps each class's own fold / play deal counts for the strategy chart.
    Every figure is derived from these integers, for any kickout threshold
    (:meth:`at_threshold`).
    """

    weighted: np.ndarray
    decisions: np.ndarray
    weights: np.ndarray
    labels: tuple[str, ...]
    line_names: tuple[str, ...]
    pays: np.ndarray
    threshold: int
    rules_name: str
    automatic_win: bool
    bonus_on_automatic_win: bool
    use_bonus: bool
    classes_done: np.ndarray
    seconds: float

    @property
    def n_lines(self) -> int:
        return len(self.line_names) - 1

    @property
    def complete(self) -> bool:
        return bool(self.classes_done.all())

    def return_table(self, threshold: int | None = None):
        """Outcome rows with combinations (deal x draw), probability, net and contribution.

        Units: net in ante units per round; ``contribution`` = probability x net,
        summing to the expected net per round (house edge = -sum)."""
        t = self.threshold if threshold is None else int(threshold)
        w = self.weighted
        k = self.n_lines + 1
        c_auto, c_win, c_lose, _ = count_columns(self.n_lines)
        pays = self.pays.copy()
        auto_pays = pays if self.bonus_on_automatic_win else np.zeros_like(pays)
        rows = []
        fold = int(w[:t, FOLD].sum()) * N_DRAWS
        rows.append(("fold", "none", fold, -1.0, 1.0))
        for ln in range(k):
            name = self.line_names[ln]
            rows.append(("automatic win", name, int(w[t:, c_auto + ln].sum()), 1.0 + auto_pays[ln],
                         1.0 if self.automatic_win else 2.0))
        for ln in range(k):
            rows.append(("play, win", self.line_names[ln], int(w[:t, c_win + ln].sum()), 1.0 + pays[ln], 2.0))
        for ln in range(k):
            rows.append(("play, lose", self.line_names[ln], int(w[:t, c_lose + ln].sum()), -2.0 + pays[ln], 2.0))
        df = pd.DataFrame(rows, columns=["outcome", "bonus", "combinations", "net", "wagered"])
        total = N_DEALS * N_DRAWS if self.complete else int(df["combinations"].sum())
        df["probability"] = df["combinations"] / total
        df["contribution"] = df["probability"] * df["net"]
        return df

    def at_threshold(self, threshold: int | None = None) -> dict:
        """Summary figures for a kickout threshold (default: the rule set's)."""
        t = self.threshold if threshold is None else int(threshold)
        df = self.return_table(t)
        p = df["probability"].to_numpy()
        net = df["net"].to_numpy()
        wag = df["wagered"].to_numpy()
        mean = float((p * net).sum())
        var = float((p * net * net).sum()) - mean * mean
        w = self.weighted
        total_deals = float(df["combinations"].sum()) / N_DRAWS
        folds = float(w[:t, FOLD].sum())
        kicked = float(df.loc[df["outcome"] == "automatic win", "combinations"].sum()) / N_DRAWS
        wins = float(df.loc[df["outcome"].isin(["automatic win", "play, win"]), "combinations"].sum())
        paying = float(df.loc[(df["bonus"] != "none") & (df["outcome"] != "fold"), "combinations"].sum())
        e_wag = float((p * wag).sum())
        return {
            "threshold": t,
            "rtp_per_initial_bet": 1.0 + mean,
            "rtp_per_wagered": (e_wag + mean) / e_wag,
            "house_edge_per_ante": -mean,
            "element_of_risk": -mean / e_wag,
            "mean_net": mean,
            "std_net": var ** 0.5,
            "average_bet": e_wag,
            "fold_frequency": folds / total_deals,
            "kickout_rate": kicked / total_deals,
            "win_frequency": wins / float(df["combinations"].sum()),
            "bonus_frequency": paying / float(df["combinations"].sum()),
        }

    def rtp_with_pays(self, pays, threshold: int | None = None) -> dict:
        """RTP per initial bet and per total wagered, hit frequency and std dev with other
        bonus pays (``pays[line]`` in ante units, line 0 = no bonus), keeping this
        analysis's decisions fixed.

        Exact for the fixed strategy and linear in the pays, so a paytable search
        can call it thousands of times; re-run :func:`solo_analysis` with the new
        rule set to re-solve the strategy (the difference is small: the bonus
        changes only marginal decisions)."""
        pays = np.asarray(pays, dtype=np.float64)
        if pays.shape != self.pays.shape:
            raise ValueError(f"expected {self.pays.shape[0]} pays (line 0 = none), got {pays.shape[0]}")
        df = self.return_table(threshold)
        k = self.n_lines + 1
        base = df["net"].to_numpy().copy()
        old = np.concatenate([[0.0], np.tile(self.pays, 3)])
        new = np.concatenate([[0.0], np.tile(pays, 3)])
        if not self.bonus_on_automatic_win:
            old[1:1 + k] = 0.0
            new[1:1 + k] = 0.0
        net = base - old + new
        p = df["probability"].to_numpy()
        wag = df["wagered"].to_numpy()
        mean = float((p * net).sum())
        e_wag = float((p * wag).sum())
        var = float((p * net * net).sum()) - mean * mean
        hit = float(p[(df["bonus"] != "none").to_numpy() & (new > 0)].sum())
        return {"rtp_per_initial_bet": 1.0 + mean, "rtp_per_wagered": (e_wag + mean) / e_wag,
                "bonus_hit_frequency": hit, "std_net": var ** 0.5}

    def summary(self) -> str:
        s = self.at_threshold()
        return (
            f"Solo exact analysis ({self.rules_name}, kickout {describe(self.threshold)})\n"
            f"  RTP per initial bet {s['rtp_per_initial_bet']:.6%}, per total wagered {s['rtp_per_wagered']:.6%}\n"
            f"  fold frequency {s['fold_frequency']:.4%}, kickout rate {s['kickout_rate']:.4%}, "
            f"win frequency {s['win_frequency']:.4%}, std dev {s['std_net']:.4f} antes\n"
            f"  {int(self.classes_done.sum())}/169 player classes, {self.seconds:.1f} s"
        )

    def to_frame(self):
        """The figures at the rule set's threshold (:meth:`at_threshold`) as one row."""
        return pd.DataFrame([self.at_threshold()])

    def threshold_curve(self, thresholds) -> pd.DataFrame:
        """Figures for many kickout thresholds at once (exact; one pass answers all): patterns or
        dense hand values."""
        rows = []
        for t in thresholds:
            v = pattern_value(t) if isinstance(t, str) else int(t)
            d = self.at_threshold(v)
            d["pattern"] = t if isinstance(t, str) else str(v)
            rows.append(d)
        return pd.DataFrame(rows)

    def strategy_chart(self):
        """Per two-card class: the strongest dealer value still played against,
        card-removal exceptions (dealer hands below it that are folded), and the
        fold frequency when the dealer is in (below this rule set's threshold)."""
        t = self.threshold
        rows = []
        for k, label in enumerate(self.labels):
            c = self.decisions[k, :t]
            played = np.flatnonzero(c[:, PLAY] > 0)
            top = int(played.max()) if played.size else -1
            exceptions = int(c[:top + 1, FOLD].sum()) if top >= 0 else 0
            n_in = int(c[:, FOLD].sum() + c[:, PLAY].sum())
            rows.append({
                "hand": label,
                "weight": int(self.weights[k]),
                "plays_up_to": describe(top) if top >= 0 else "never plays",
                "plays_up_to_value": top,
                "folds_below_that": exceptions,
                "fold_frequency_dealer_in": float(c[:, FOLD].sum()) / n_in if n_in else float("nan"),
            })
        return pd.DataFrame(rows)

    def strategy_grid(self, column: str = "plays_up_to_value"):
        """A column of :meth:`strategy_chart` as the usual 13 x 13 starting-hand grid (pandas):
        rows and columns A..2, pairs on the diagonal, suited hands above it (row = high card),
        offsuit hands below it; NaN where a class was not analysed (``classes=`` runs) or never
        plays (``plays_up_to_value`` = -1)."""
        ranks = RANKS[::-1]
        grid = pd.DataFrame(np.nan, index=list(ranks), columns=list(ranks))
        for row in self.strategy_chart().itertuples():
            h = row.hand
            hi, lo = h[0], h[1]
            value = float(getattr(row, column))
            if column == "plays_up_to_value" and value < 0:
                continue
            if len(h) == 3 and h[2] == "o":
                grid.loc[lo, hi] = value
            else:
                grid.loc[hi, lo] = value
        return grid

    def plot_strategy(self, column: str = "plays_up_to_value", ax=None):
        """Heatmap of :meth:`strategy_grid` (matplotlib); returns the Axes.  The default colour is the
        strongest dealer hand value still played against; ``column="fold_frequency_dealer_in"``
        shows how often each hand folds while the dealer is in."""
        # Deferred: pyplot takes about 2 s to import here and picks a display backend; only
        # plotting needs it, so `import ricochet_math` and the CLI do not pay for it.
        import matplotlib.pyplot as plt
        grid = self.strategy_grid(column)
        if ax is None:
            _, ax = plt.subplots(figsize=(7, 6))
        im = ax.imshow(grid.to_numpy(dtype=float), cmap="viridis")
        ax.set_xticks(range(13), list(grid.columns))
        ax.set_yticks(range(13), list(grid.index))
        ax.set_xlabel("second card (suited above the diagonal, offsuit below)")
        label = ("dealer hand value played against (0 = worst, 7461 = royal flush)"
                 if column == "plays_up_to_value" else column.replace("_", " "))
        ax.figure.colorbar(im, ax=ax, shrink=0.8, label=label)
        ax.set_title(f"One player, rules {self.rules_name}: perfect play")
        return ax


def _class_indices(classes) -> np.ndarray:
    """``classes`` as distinct indices 0..168 into :func:`player_classes` (one RicochetError line otherwise)."""
    try:
        idx = np.asarray(classes)
    except (TypeError, ValueError):
        idx = None
    if idx is None or idx.ndim != 1 or idx.size == 0 or idx.dtype.kind not in "iu" \
            or idx.min() < 0 or idx.max() >= 169 or len(np.unique(idx)) != idx.size:
        raise RicochetError(f"classes must be distinct whole numbers 0..168 (indices of the 169 starting-hand "
                            f"classes), got {str(classes)[:60]}")
    return idx.astype(np.int64)


def solo_analysis(rules=None, *, classes=None, use_bonus: bool = True, progress: bool = False) -> SoloAnalysis:
    """Exact solo analysis of a rule set under perfect play (spec "Perfect play").

    ``classes``: optional indices into :func:`player_classes` to analyse only
    some starting hands (the ``--sample`` mode for tests); figures then cover
    those classes only.  ``use_bonus=False`` is the reading "perfect play that
    ignores the bonus when deciding" (the bonus is still paid).
    """
    rules = load_rules(rules)
    reps, weights, labels = player_classes()
    line_of_value, pays, names = bonus_lines(rules.bonus)
    n_lines = len(names) - 1
    line_lo = np.zeros(n_lines + 1, dtype=np.int64)
    for ln in range(1, n_lines + 1):
        line_lo[ln] = int(np.flatnonzero(line_of_value == ln).min())
    idx = np.arange(169) if classes is None else _class_indices(classes)
    ncol = 2 + 3 * (n_lines + 1)
    key = _cache_key(rules, idx, use_bonus)
    cached = _load_cached(key)
    if cached is not None:
        weighted, decisions, done, seconds = cached
        return _result(rules, weighted, decisions, done, seconds, weights, labels, names, pays, use_bonus)
    weighted = np.zeros((NUM_VALUES, ncol), dtype=np.int64)
    decisions = np.zeros((169, NUM_VALUES, 2), dtype=np.int64)
    done = np.zeros(169, dtype=bool)
    partial = _load_cached(key + "-partial")  # a stopped run resumes from its finished classes
    if partial is not None:
        weighted, decisions, done, _ = partial
        idx = idx[~done[idx]]
    t0 = time.perf_counter()
    ties = bool(rules.options.dealer_loses_ties)
    # A class's work is about proportional to its weight (the suit symmetry the kernel uses leaves
    # about 91,000 dealer hands per hand of the class to visit), so the heaviest go first and each
    # thread takes the next class when it is free (chunk size 1): the threads finish within about
    # one light class of each other.  Several classes per thread per call, into one output block
    # reused (all 169 at once was a 232 MB array to allocate and sum).
    idx = idx[np.argsort(-weights[idx], kind="stable")]
    chunk = 8 * numba.get_num_threads()
    out = np.empty((chunk, NUM_VALUES, ncol), dtype=np.int64)
    # the first chunk also compiles (or loads) the kernel: the bar's elapsed time ticks meanwhile
    bar = progress_bar(int((~done).sum()) if classes is None else len(idx),
                       "N = 1 exact: starting-hand classes (computed once, then cached)",
                       unit=" classes", progress=progress)
    saved = t0
    for s in range(0, len(idx), chunk):
        part = idx[s:s + chunk]
        block = out[:len(part)]
        with numba.parallel_chunksize(1):
            count_classes(reps[part], line_of_value, line_lo, pays, n_lines, ties, use_bonus, block)
        weighted += np.tensordot(weights[part], block, axes=(0, 0))
        decisions[part] = block[:, :, :2]
        done[part] = True
        if progress and s + chunk < len(idx) and time.perf_counter() - saved > PARTIAL_SAVE_SECONDS:
            _save_cached(key + "-partial", weighted, decisions, done, time.perf_counter() - t0)
            saved = time.perf_counter()
        bar.update(len(part))
    bar.close()
    seconds = time.perf_counter() - t0
    _save_cached(key, weighted, decisions, done, seconds)
    try:
        _cache_path(key + "-partial").unlink()
    except OSError:
        pass
    return _result(rules, weighted, decisions, done, seconds, weights, labels, names, pays, use_bonus)


def _result(rules, weighted, decisions, done, seconds, weights, labels, names, pays, use_bonus):
    return SoloAnalysis(
        weighted=weighted, decisions=decisions, weights=weights, labels=tuple(labels), line_names=tuple(names),
        pays=pays, threshold=rules.kickout_value(1), rules_name=rules.name,
        automatic_win=bool(rules.options.automatic_win),
        bonus_on_automatic_win=bool(rules.options.bonus_on_automatic_win),
        use_bonus=use_bonus, classes_done=done, seconds=seconds,
    )


def _cache_key(rules, idx, use_bonus) -> str:
    """What the counts depend on: bonus lines and pays, the tie rule, the decision reading,
    the classes analysed, and the source of the kernel and of this module (threshold and payout options are
    applied afterwards, so they are not part of the key)."""
    h = hashlib.sha256()
    h.update(Path(solo_kernel.__file__).read_bytes())
    h.update(Path(__file__).read_bytes())
    for ln in rules.bonus:
        h.update(f"{ln.key}|{ln.value()}|{float(ln.pays)!r};".encode())
    h.update(f"ties={rules.options.dealer_loses_ties};bonus={use_bonus};".encode())
    h.update(np.asarray(idx, dtype=np.int64).tobytes())
    return h.hexdigest()[:20]


_CACHE_SCHEMA = "ricochet_math.solo.counts/1"


def _cache_path(key: str) -> Path:
    return cache_dir() / f"solo-{key}.npz"


def _load_cached(key):
    """The counts stored under ``key``, or None when there are none.  A damaged or foreign file (a
    crash or a full disk while writing with an older version, a bad copy) is noted on stderr and
    recomputed, never a traceback: the recomputed counts replace it."""
    if usable_cache_dir() is None:  # not a usable folder: one warning line, then computed without the cache
        return None
    path = _cache_path(key)
    if not path.exists():
        return None
    try:
        _, z = load_arrays(path, _CACHE_SCHEMA)
        return z["weighted"], z["decisions"], z["done"], float(z["seconds"])
    except (DamagedFileError, KeyError) as exc:
        reason = str(exc) if isinstance(exc, DamagedFileError) else f"{path}: missing array {exc}"
        print(f"ricochet_math: note: solo cache {reason}; recomputing", file=sys.stderr)
        return None


def _save_cached(key, weighted, decisions, done, seconds):
    """Finished analyses are kept on disk, so reports and notebooks reuse them in
    a second; a cache that cannot be written is skipped.  Writers use unique temporary
    names and an atomic rename (:func:`~ricochet_math.storage.save_arrays`), so two processes
    finishing the same analysis leave one whole file."""
    if usable_cache_dir() is None:
        return
    path = _cache_path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        save_arrays(path, _CACHE_SCHEMA, {"weighted": weighted, "decisions": decisions, "done": done,
                                          "seconds": np.float64(seconds)}, compressed=True)
    except OSError:
        pass


# --------------------------------------------------------------------------- one deal
@dataclass(frozen=True)
class SoloDeal:
    """Exact values of one solo deal, by enumerating its 14,190 draws (ante units)."""

    ev_play: float
    ev_fold: float
    p_win: float
    expected_bonus: float
    kicked_out: bool
    decision: str


def solo_deal(rules, player, dealer, *, use_bonus: bool = True) -> SoloDeal:
    """EV(play), EV(fold), P(win), expected bonus of one solo deal (direct enumeration).

    ``player`` / ``dealer``: card text or kernel cards (2 and 5 cards).  When
    the dealer is kicked out, ``ev_play`` is the automatic win's value.
    """
    rules = load_rules(rules)
    p = parse_cards(player, count=2, where="player cards")
    d = parse_cards(dealer, count=5, where="dealer cards", dead=p)
    rest = np.setdiff1d(np.arange(52), np.concatenate([p, d]))
    tri = np.array(list(combinations(rest, 3)), dtype=np.int64)
    hands = np.concatenate([np.broadcast_to(p.astype(np.int64), (len(tri), 2)), tri], axis=1)
    vals = evaluate(hands)
    line_of_value, pays, _ = bonus_lines(rules.bonus)
    bonus = pays[line_of_value[vals]].mean()
    dv = int(evaluate(d[None, :].astype(np.int64))[0])
    kicked = dv >= rules.kickout_value(1)
    if kicked:
        b = bonus if rules.options.bonus_on_automatic_win else 0.0
        return SoloDeal(1.0 + b, -1.0, 1.0, b, True, "automatic win")
    win = (vals >= dv) if rules.options.dealer_loses_ties else (vals > dv)
    pw = float(win.mean())
    ev_play = 3.0 * pw - 2.0 + bonus
    decide = ev_play if use_bonus else 3.0 * pw - 2.0
    return SoloDeal(ev_play, -1.0, pw, float(bonus), False, "play" if decide > -1.0 else "fold")
