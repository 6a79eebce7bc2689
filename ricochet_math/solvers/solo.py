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

How 2,809,475,760 deals are counted
-----------------------------------
* Suit symmetry: 169 two-card classes (pairs x6, suited x4, offsuit x12).
* For each class, every one of the C(50,5) dealer hands is visited, but its
  14,190 draws are not.  The number of draws from ``deck \\ D`` whose final
  hand reaches ``x`` is found by inclusion-exclusion over the dealer's cards:

      #{T subset of deck\\D} = sum over S subset of D, |S| <= 3, of (-1)^|S| #{T contains S}

  with the terms read from tables built once per class: a cumulative count by
  value over all C(50,3) draws (|S| = 0), sorted value lists for the draws
  holding one given card (|S| = 1) or two (|S| = 2), and ten direct
  evaluations (|S| = 3).  Bonus-line counts use the same expansion.
* The result is kept per dealer value, for both treatments of the dealer (in
  or kicked out).  The decision when she is in does not depend on the
  threshold, so one pass answers every kickout threshold exactly
  (:meth:`SoloAnalysis.at_threshold`), which the kickout finder uses.

Everything is an integer count of (deal, draw) combinations: the common
denominator is 2,809,475,760 x 14,190.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb

import numpy as np

from ricochet_math.evaluator.classes import player_classes
from ricochet_math._numba import njit, pnjit, prange
from ricochet_math.evaluator.evaluation import NUM_VALUES, eval5

__all__ = ["SoloAnalysis", "solo_analysis", "solo_deal", "SoloDeal", "player_classes", "bonus_lines"]

N_DRAWS = comb(45, 3)             # 14,190 three-card draws after the deal
N_DEALER = comb(50, 5)            # 2,118,760 dealer hands per player hand
N_DEALS = comb(52, 2) * N_DEALER  # 2,809,475,760

# Columns of the per-(class, dealer value) count table.
FOLD, PLAY = 0, 1                 # deals (not draws)


def _cols(n_lines):
    """Column offsets: auto-win, win, lose blocks of (n_lines + 1) draw counts each."""
    k = n_lines + 1
    return 2, 2 + k, 2 + 2 * k, 2 + 3 * k


# --------------------------------------------------------------------------- classes
def bonus_lines(paytable) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Bonus paytable as arrays: ``line_of_value`` int64[7462] (0 = no bonus,
    1..L = paying lines from the lowest), ``pays`` float64[L+1] (ante units),
    and the line names (``"none"`` first)."""
    lines = sorted(((ln.value(), float(ln.pays), ln.key) for ln in paytable), key=lambda t: t[0])
    lo = np.array([t[0] for t in lines], dtype=np.int64)
    line_of_value = np.searchsorted(lo, np.arange(NUM_VALUES), side="right").astype(np.int64)
    pays = np.array([0.0] + [t[1] for t in lines])
    return line_of_value, pays, ["none"] + [t[2] for t in lines]


# --------------------------------------------------------------------------- kernels
@njit(inline="always")
def _count_ge(arr, start, n, x):
    """How many of the ``n`` sorted values ``arr[start:start+n]`` are >= x (binary search)."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) >> 1
        if arr[start + mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return n - lo


@njit
def _build_levels(p0, p1, line_of_value, n_lines):
    """Inclusion-exclusion tables for one player hand (see the module docstring).

    Returns deck50 (int64[50]), pair index (int64[50,50]), ge0 (int64[7463]:
    draws reaching each value), sorted1 (int16[50*1176]), sorted2
    (int16[1225*48]), line0 (int64[L+1]), line1 (int64[50, L+1]), line2
    (int64[1225, L+1]).  Positions refer to deck50.
    """
    deck = np.empty(50, dtype=np.int64)
    k = 0
    for c in range(52):
        if c != p0 and c != p1:
            deck[k] = c
            k += 1
    pidx = np.full((50, 50), -1, dtype=np.int64)
    k = 0
    for i in range(50):
        for j in range(i + 1, 50):
            pidx[i, j] = k
            pidx[j, i] = k
            k += 1
    L1 = n_lines + 1
    hist0 = np.zeros(NUM_VALUES + 1, dtype=np.int64)
    line0 = np.zeros(L1, dtype=np.int64)
    line1 = np.zeros((50, L1), dtype=np.int64)
    line2 = np.zeros((1225, L1), dtype=np.int64)
    vals1 = np.empty(50 * 1176, dtype=np.int16)
    fill1 = np.zeros(50, dtype=np.int64)
    vals2 = np.empty(1225 * 48, dtype=np.int16)
    fill2 = np.zeros(1225, dtype=np.int64)
    for i in range(50):
        for j in range(i + 1, 50):
            pij = pidx[i, j]
            for m in range(j + 1, 50):
                v = eval5(p0, p1, deck[i], deck[j], deck[m])
                ln = line_of_value[v]
                hist0[v] += 1
                line0[ln] += 1
                for a in (i, j, m):
                    vals1[a * 1176 + fill1[a]] = v
                    fill1[a] += 1
                    line1[a, ln] += 1
                for q in (pij, pidx[i, m], pidx[j, m]):
                    vals2[q * 48 + fill2[q]] = v
                    fill2[q] += 1
                    line2[q, ln] += 1
    for a in range(50):
        vals1[a * 1176:(a + 1) * 1176].sort()
    for q in range(1225):
        vals2[q * 48:(q + 1) * 48].sort()
    ge0 = np.zeros(NUM_VALUES + 1, dtype=np.int64)
    acc = 0
    for v in range(NUM_VALUES - 1, -1, -1):
        acc += hist0[v]
        ge0[v] = acc
    return deck, pidx, ge0, vals1, vals2, line0, line1, line2


@njit(inline="always")
def _draws_ge(x, pos, tvals, ge0, vals1, vals2, pidx):
    """Draws from deck50 minus the dealer's five positions ``pos`` whose final value >= x."""
    if x > NUM_VALUES - 1:
        return np.int64(0)
    w = ge0[x]
    for a in range(5):
        w -= _count_ge(vals1, pos[a] * 1176, 1176, x)
    for a in range(5):
        for b in range(a + 1, 5):
            w += _count_ge(vals2, pidx[pos[a], pos[b]] * 48, 48, x)
    for t in range(10):
        if tvals[t] >= x:
            w -= 1
    return w


@njit
def _deal_counts(p0, p1, pos, levels, line_of_value, n_lines):
    """For testing: (draws reaching the dealer's value, per-line draw counts, dealer value)."""
    deck, pidx, ge0, vals1, vals2, line0, line1, line2 = levels
    tvals = np.empty(10, dtype=np.int64)
    t = 0
    for a in range(5):
        for b in range(a + 1, 5):
            for c in range(b + 1, 5):
                tvals[t] = eval5(p0, p1, deck[pos[a]], deck[pos[b]], deck[pos[c]])
                t += 1
    cnt = line0.copy()
    for a in range(5):
        cnt -= line1[pos[a]]
    for a in range(5):
        for b in range(a + 1, 5):
            cnt += line2[pidx[pos[a], pos[b]]]
    for t in range(10):
        cnt[line_of_value[tvals[t]]] -= 1
    v = eval5(deck[pos[0]], deck[pos[1]], deck[pos[2]], deck[pos[3]], deck[pos[4]])
    return _draws_ge(v, pos, tvals, ge0, vals1, vals2, pidx), cnt, v


@njit
def _solo_class(p0, p1, line_of_value, line_lo, pays, n_lines, ties_to_player, use_bonus, out):
    """Fill ``out[v, :]`` (int64[7462, 2 + 3(L+1)]) for one player hand.

    Per dealer value v: FOLD and PLAY deal counts when the dealer is in; then
    draw counts by bonus line for the kicked-out treatment (automatic win), and
    for played draws that win / lose when she is in.
    """
    deck, pidx, ge0, vals1, vals2, line0, line1, line2 = _build_levels(p0, p1, line_of_value, n_lines)
    L1 = n_lines + 1
    c_auto, c_win, c_lose = 2, 2 + L1, 2 + 2 * L1
    pos = np.empty(5, dtype=np.int64)
    tvals = np.empty(10, dtype=np.int64)
    cnt = np.empty(L1, dtype=np.int64)
    lowest_paying = line_lo[1] if n_lines >= 1 else NUM_VALUES
    for a in range(46):
        pos[0] = a
        for b in range(a + 1, 47):
            pos[1] = b
            for c in range(b + 1, 48):
                pos[2] = c
                for d in range(c + 1, 49):
                    pos[3] = d
                    for e in range(d + 1, 50):
                        pos[4] = e
                        v = eval5(deck[a], deck[b], deck[c], deck[d], deck[e])
                        t = 0
                        for i in range(5):
                            for j in range(i + 1, 5):
                                for m in range(j + 1, 5):
                                    tvals[t] = eval5(p0, p1, deck[pos[i]], deck[pos[j]], deck[pos[m]])
                                    t += 1
                        for ln in range(L1):
                            cnt[ln] = line0[ln]
                        for i in range(5):
                            for ln in range(L1):
                                cnt[ln] -= line1[pos[i], ln]
                        for i in range(5):
                            for j in range(i + 1, 5):
                                q = pidx[pos[i], pos[j]]
                                for ln in range(L1):
                                    cnt[ln] += line2[q, ln]
                        for t in range(10):
                            cnt[line_of_value[tvals[t]]] -= 1
                        # Kicked out: automatic win, three free cards for the bonus.
                        for ln in range(L1):
                            out[v, c_auto + ln] += cnt[ln]
                        # Dealer in: play or fold.
                        x = v if ties_to_player else v + 1
                        w = _draws_ge(x, pos, tvals, ge0, vals1, vals2, pidx)
                        bsum = 0.0
                        if use_bonus:
                            for ln in range(1, L1):
                                bsum += pays[ln] * cnt[ln]
                        if 3.0 * w + bsum > 14190.0:
                            out[v, PLAY] += 1
                            if x <= lowest_paying:
                                # every paying final hand reaches the dealer's
                                paying = 0
                                for ln in range(1, L1):
                                    out[v, c_win + ln] += cnt[ln]
                                    paying += cnt[ln]
                                out[v, c_win] += w - paying
                                out[v, c_lose] += cnt[0] - (w - paying)
                            else:
                                # high threshold: split each line at the dealer's value
                                for ln in range(L1):
                                    lo = line_lo[ln]
                                    hi = line_lo[ln + 1] if ln + 1 < L1 else NUM_VALUES
                                    if hi <= x:
                                        wl = 0
                                    else:
                                        wl = (_draws_ge(max(x, lo), pos, tvals, ge0, vals1, vals2, pidx)
                                              - _draws_ge(hi, pos, tvals, ge0, vals1, vals2, pidx))
                                    out[v, c_win + ln] += wl
                                    out[v, c_lose + ln] += cnt[ln] - wl
                        else:
                            out[v, FOLD] += 1


@pnjit
def _solo_all(reps, line_of_value, line_lo, pays, n_lines, ties_to_player, use_bonus, out):
    for k in prange(reps.shape[0]):
        _solo_class(reps[k, 0], reps[k, 1], line_of_value, line_lo, pays, n_lines,
                    ties_to_player, use_bonus, out[k])


# --------------------------------------------------------------------------- results
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
        import pandas as pd
        t = self.threshold if threshold is None else int(threshold)
        w = self.weighted
        k = self.n_lines + 1
        c_auto, c_win, c_lose, _ = _cols(self.n_lines)
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
        from ricochet_math.evaluator.evaluation import describe
        return (
            f"Solo exact analysis ({self.rules_name}, kickout {describe(self.threshold)})\n"
            f"  RTP per initial bet {s['rtp_per_initial_bet']:.6%}, per total wagered {s['rtp_per_wagered']:.6%}\n"
            f"  fold frequency {s['fold_frequency']:.4%}, kickout rate {s['kickout_rate']:.4%}, "
            f"win frequency {s['win_frequency']:.4%}, std dev {s['std_net']:.4f} antes\n"
            f"  {int(self.classes_done.sum())}/169 player classes, {self.seconds:.1f} s"
        )

    def to_frame(self):
        import pandas as pd
        return pd.DataFrame([self.at_threshold()])

    def threshold_curve(self, thresholds) -> "pd.DataFrame":  # noqa: F821
        """Figures for many kickout thresholds at once (exact; one pass answers all)."""
        import pandas as pd
        from ricochet_math.evaluator.evaluation import pattern_value
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
        import pandas as pd
        from ricochet_math.evaluator.evaluation import describe
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
        import pandas as pd
        from ricochet_math.evaluator.cards import RANKS
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


def solo_analysis(rules=None, *, classes=None, use_bonus: bool = True, progress: bool = False) -> SoloAnalysis:
    """Exact solo analysis of a rule set under perfect play (spec "Perfect play").

    ``classes``: optional indices into :func:`player_classes` to analyse only
    some starting hands (the ``--sample`` mode for tests); figures then cover
    those classes only.  ``use_bonus=False`` is the reading "perfect play that
    ignores the bonus when deciding" (the bonus is still paid).
    """
    from ricochet_math.rules.ruleset import load_rules
    rules = load_rules(rules)
    reps, weights, labels = player_classes()
    line_of_value, pays, names = bonus_lines(rules.bonus)
    n_lines = len(names) - 1
    line_lo = np.zeros(n_lines + 1, dtype=np.int64)
    for ln in range(1, n_lines + 1):
        line_lo[ln] = int(np.flatnonzero(line_of_value == ln).min())
    idx = np.arange(169) if classes is None else np.asarray(classes, dtype=np.int64)
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
    chunk = 8 if progress else max(len(idx), 1)
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=int((~done).sum()) if classes is None else len(idx), desc="solo classes", unit="class")
    for s in range(0, len(idx), chunk):
        part = idx[s:s + chunk]
        out = np.zeros((len(part), NUM_VALUES, ncol), dtype=np.int64)
        _solo_all(reps[part], line_of_value, line_lo, pays, n_lines, ties, use_bonus, out)
        weighted += np.tensordot(weights[part], out, axes=(0, 0))
        decisions[part] = out[:, :, :2]
        done[part] = True
        if progress and len(idx) > chunk:
            _save_cached(key + "-partial", weighted, decisions, done, time.perf_counter() - t0)
        if bar is not None:
            bar.update(len(part))
    if bar is not None:
        bar.close()
    seconds = time.perf_counter() - t0
    _save_cached(key, weighted, decisions, done, seconds)
    try:
        (_cache_dir() / f"solo-{key}-partial.npz").unlink()
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
    the classes analysed, and this module's source (threshold and payout options are
    applied afterwards, so they are not part of the key)."""
    import hashlib
    from pathlib import Path
    h = hashlib.sha256()
    h.update(Path(__file__).read_bytes())
    for ln in rules.bonus:
        h.update(f"{ln.key}|{ln.value()}|{float(ln.pays)!r};".encode())
    h.update(f"ties={rules.options.dealer_loses_ties};bonus={use_bonus};".encode())
    h.update(np.asarray(idx, dtype=np.int64).tobytes())
    return h.hexdigest()[:20]


def _cache_dir():
    from ricochet_math.evaluator.tables import cache_dir
    return cache_dir()


def _load_cached(key):
    path = _cache_dir() / f"solo-{key}.npz"
    try:
        with np.load(path) as z:
            return z["weighted"], z["decisions"], z["done"], float(z["seconds"])
    except (OSError, KeyError, ValueError):
        return None


def _save_cached(key, weighted, decisions, done, seconds):
    """Finished analyses are kept on disk, so reports and notebooks reuse them in
    a second; a cache that cannot be written is skipped."""
    path = _cache_dir() / f"solo-{key}.npz"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        np.savez_compressed(tmp, weighted=weighted, decisions=decisions, done=done, seconds=seconds)
        tmp.replace(path)
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
    from ricochet_math.evaluator.cards import parse_cards
    from ricochet_math.evaluator.evaluation import evaluate
    from ricochet_math.rules.ruleset import load_rules
    rules = load_rules(rules)
    p = parse_cards(player, count=2, where="player cards")
    d = parse_cards(dealer, count=5, where="dealer cards", dead=p)
    rest = np.setdiff1d(np.arange(52), np.concatenate([p, d]))
    tri = np.array(list(__import__("itertools").combinations(rest, 3)), dtype=np.int64)
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
