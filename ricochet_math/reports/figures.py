"""The report's figures, derived from the raw results of :mod:`~ricochet_math.reports.compute`.

Every function returns a ``pandas.DataFrame`` at full precision (it becomes a
CSV under ``tables/``); :mod:`~ricochet_math.reports.sections` only formats
them.  RTP is per initial bet (1 + E[net] per ante) unless a name says
``wagered`` (E[returned] / E[wagered]); all amounts are in antes.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from ricochet_math.engine.kernel import SEAT_FIELDS
from ricochet_math.evaluator.names import BONUS_CATEGORY_NAMES
from ricochet_math.evaluator.names import bonus_category, describe
from ricochet_math.evaluator.tables import NUM_VALUES
from ricochet_math.reports.compute import ReportData
from ricochet_math.reports.published import WEAK_PROFILES, figure_key
from ricochet_math.reports.sizes import PUBLISHER_LIKE
from ricochet_math.solvers.exact_row import exact_figures, exact_rtp_row
from ricochet_math.solvers.stats import rate_ci, z_value
from ricochet_math.strategies.perfect import READING_NAMES

__all__ = [
    "LEVEL", "VOLATILITY_LEVELS", "BAND_ROUNDS", "seat_sums",
    "main_rows", "kickout_table", "mc_return_table", "bonus_table", "bonus_summary",
    "quickdraw_table", "volatility", "strategy_rtps", "rtp_range", "reconciliation", "best_response_table",
    "closest_published", "bet_summary",
]

#: the confidence level of every interval in the report (the simulations' default)
LEVEL = 0.95
#: the levels of the volatility index and of the RTP band
VOLATILITY_LEVELS = (0.90, 0.95, 0.99)
#: the rounds played at which the RTP band is tabulated
BAND_ROUNDS = tuple(10 ** k for k in range(3, 9))


def seat_sums(row) -> dict[str, float]:
    """One row of the engine's per-seat sums by field name (:data:`ricochet_math.engine.kernel.SEAT_FIELDS`)."""
    return dict(zip(SEAT_FIELDS, row))


def _est(summary: dict, name: str) -> tuple[float, float, float, float]:
    """(estimate, low, high, standard error) of one figure of a simulation summary."""
    e = summary[name]
    return float(e.estimate), float(e.low), float(e.high), float(e.std_error)


#: the main-game figures that have a control-variate estimate (``summary()[name + "_cv"]``), and the
#: figure that is one minus each (the same estimate read the other way)
CONTROLLED = {"rtp_initial": "house_edge", "rtp_wagered": "element_of_risk"}


def main_rows(d: ReportData):
    """Perfect play by player count: RTP both ways, house edge, element of risk, fold / win / kickout / hit
    frequency with intervals, standard deviation, average bet.

    One estimator throughout (issue 11): ``rtp_initial`` and ``rtp_wagered`` are the figures of the report,
    exact for N = 1, the control-variate estimate for a Monte Carlo run that kept the controls (``estimator``
    says which); ``house_edge`` and ``element_of_risk`` are one minus them, the same estimate.  The plain
    sample means stay beside them as a check (``rtp_initial_plain``, ``rtp_wagered_plain``, with intervals).
    Frequencies, the standard deviation and the average bet have no controlled estimate: plain sample means.
    """
    rows = []
    for n in d.players:
        if n == 1:
            exact = exact_rtp_row(d.rules, d.solo, reading="perfect" if d.solo.use_bonus else "perfect-no-bonus")
            e = exact.iloc[0]
            row = {"players": 1, "method": e["method"], "estimator": "exact", "rounds": None}
            for name in ("rtp_initial", "rtp_wagered", "house_edge", "element_of_risk", "fold_frequency",
                         "win_frequency", "kickout_rate", "hit_frequency"):
                for col in (name, f"{name}_low", f"{name}_high"):
                    row[col] = float(e[col])
            row["sd_net"] = float(e["sd_net"])
            row["average_wagered"] = float(e["average_wagered"])
            plain = {name: (row[name], row[f"{name}_low"], row[f"{name}_high"]) for name in CONTROLLED}
        else:
            r = d.perfect[n]
            m = r.summary()
            controlled = "rtp_initial_cv" in m
            row = {"players": n, "method": "monte carlo, control variates" if controlled else "monte carlo",
                   "estimator": "control variates" if controlled else "plain", "rounds": r.rounds}
            plain = {name: _est(m, name)[:3] for name in CONTROLLED}
            for name, other in CONTROLLED.items():
                est, lo, hi = _est(m, f"{name}_cv")[:3] if controlled else plain[name]
                row[name], row[f"{name}_low"], row[f"{name}_high"] = est, lo, hi
                row[other], row[f"{other}_low"], row[f"{other}_high"] = 1.0 - est, 1.0 - hi, 1.0 - lo
            for name in ("fold_frequency", "win_frequency", "kickout_rate", "hit_frequency"):
                row[name], row[f"{name}_low"], row[f"{name}_high"], _ = _est(m, name)
            row["sd_net"] = float(m["sd_net"])
            row["average_wagered"] = float(m["average_wagered"].estimate)
        row["kickout_rate_exact"] = d.exact_kickout[n]
        row["kickout_threshold"] = d.rules.kickout[n]
        for name, (est, lo, hi) in plain.items():  # the plain sample mean beside the figure, as a check
            row[f"{name}_plain"], row[f"{name}_plain_low"], row[f"{name}_plain_high"] = est, lo, hi
        rows.append(row)
    out = pd.DataFrame(rows)
    out["rounds"] = out["rounds"].astype("Int64")
    return out


def kickout_table(d: ReportData):
    """The kickout threshold per player count, its weakest hand and the exact kickout rate."""
    rules = d.rules
    return pd.DataFrame([{"players": n, "threshold": rules.kickout[n], "hand": describe(rules.kickout_value(n)),
                          "kickout_rate_exact": d.exact_kickout[n]} for n in range(1, 8)])


def _category_pays(rules) -> dict[int, float] | None:
    """Bonus pays per final-hand category (0..9, 9 = royal flush), or None when a line splits a category."""
    pays: dict[int, set] = {}
    for v in range(NUM_VALUES):
        pays.setdefault(int(bonus_category(v)), set()).add(float(rules.bonus.payout(v)))
    if any(len(s) != 1 for s in pays.values()):
        return None
    return {c: next(iter(s)) for c, s in pays.items()}


def mc_return_table(rules, r):
    """Per-outcome frequencies and the return decomposition of one simulated player count.

    Per player-round: net = pot share + bonus - wagered, so the ``return``
    rows' contributions add up to the sample mean of the net (the plain
    estimate).  When the run kept the control variates, a ``subtotal`` row
    holds that sum, an ``adjustment`` row the control-variate correction, and
    the ``total`` row the report's figure, RTP per initial bet - 1 with the
    controls (:func:`main_rows`).
    """
    t = seat_sums(r.sums.total)
    t_sq = seat_sums(r.sums.total_sq)
    seat_rounds = float(r.rounds * r.players)
    rows = []

    def add(group, item, count, amount, contribution, field=None):
        p = count / seat_rounds if count is not None else math.nan
        low = high = math.nan
        if count is not None and (field is not None or count in (0, seat_rounds)):
            # a Monte Carlo frequency has an interval; one never (or always) seen the exact binomial one
            e = rate_ci(count, t_sq[field] if field else count, seat_rounds, float(r.rounds), r.level)
            low, high = e.low, e.high
        rows.append({"players": r.players, "group": group, "item": item, "count": count, "probability": p,
                     "probability_low": low, "probability_high": high, "amount": amount,
                     "contribution": contribution})

    won = t["win"] - t["auto_win"] - t["split_win"]
    add("outcome", "fold", t["fold"], -1.0, math.nan, "fold")
    add("outcome", "automatic win (dealer kicked out, everyone else folded)", t["auto_win"], math.nan, math.nan,
        "auto_win")
    add("outcome", "played and won the pot alone", won, math.nan, math.nan)
    add("outcome", "played and shared the pot", t["split_win"], math.nan, math.nan, "split_win")
    add("outcome", "played and was beaten", t["beaten"], math.nan, math.nan, "beaten")
    rows.append({"players": r.players, "group": "return", "item": "ante (every seat, every round)",
                 "count": seat_rounds, "probability": 1.0, "probability_low": 1.0, "probability_high": 1.0,
                 "amount": -1.0, "contribution": -1.0})  # certain by the rules, not an observation
    add("return", "play bet", t["play"], -1.0, -t["play"] / seat_rounds, "play")
    wins = t["win"]
    add("return", "pot won or shared (average share when won)", wins,
        (t["pot_share"] / wins) if wins else math.nan, t["pot_share"] / seat_rounds, "win")
    cat_pays = _category_pays(rules)
    if cat_pays is None:
        bonus_hands = np.array([t[f"bonus_{c}"] for c in range(len(BONUS_CATEGORY_NAMES))])
        add("return", "high-hand bonus (all lines)", float(bonus_hands.sum()), math.nan, t["bonus"] / seat_rounds)
    else:
        for c, name in enumerate(BONUS_CATEGORY_NAMES):
            pays = cat_pays.get(c, 0.0)
            if pays > 0:
                count = t[f"bonus_{c}"]
                add("return", f"bonus: {name.lower()}", count, pays, count * pays / seat_rounds, f"bonus_{c}")
    # the return rows add up to the sample mean of the net; it is written from the stored sum itself (one
    # division), not as the float sum of the rounded contributions
    total = float(t["net"]) / seat_rounds
    m = r.summary()
    if "rtp_initial_cv" in m:
        # The report's RTP is the control-variate estimate (issue 11: one estimator throughout); the return
        # rows are sample means and add up to the plain estimate, so the difference is its own row.
        add("subtotal", "sample mean of the net per player-round (plain estimate)", None, math.nan, total)
        adjustment = (float(m["rtp_initial_cv"].estimate) - 1.0) - total
        add("adjustment", "control-variate adjustment (Section 2)", None, math.nan, adjustment)
        total = float(m["rtp_initial_cv"].estimate) - 1.0
    add("total", "expected net per player-round (RTP per initial bet - 1)", None, math.nan, total)
    return pd.DataFrame(rows)


def bonus_table(solo, rules):
    """The high-hand bonus paytable with N = 1 exact line probabilities (perfect play)."""
    rt = solo.return_table()
    rt = rt[rt["outcome"] != "fold"]
    total = float(solo.return_table()["combinations"].sum())
    rows = []
    lines = sorted(rules.bonus, key=lambda ln: ln.value())
    for ln in lines:
        comb = int(rt.loc[rt["bonus"] == ln.key, "combinations"].sum())
        p = comb / total
        rows.append({"line": ln.key, "hand": ln.hand_pattern, "pays": float(ln.pays), "combinations": comb,
                     "probability": p, "contribution": p * float(ln.pays)})
    return pd.DataFrame(rows)


def bonus_summary(bt) -> tuple[float, float, float]:
    """(RTP, hit frequency, standard deviation) of the bonus alone, per ante, from :func:`bonus_table`."""
    bonus_rtp = float(bt["contribution"].sum())
    hit = float(bt["probability"].sum())
    second = float((bt["probability"] * bt["pays"] ** 2).sum())
    return bonus_rtp, hit, math.sqrt(max(second - bonus_rtp ** 2, 0.0))


def quickdraw_table(d: ReportData):
    """Both readings of the Quickdraw comparison: paytable and exact figures per unit staked."""
    rows = []
    for comparison, q in d.quickdraw.items():
        rows.append({"comparison": comparison, "in_rules": comparison == d.rules.quickdraw.comparison,
                     "pays": float(q.pays), "win_combinations": q.win_combinations, "deals": q.deals,
                     "probability": q.win_probability, "rtp": q.rtp, "house_edge": q.house_edge,
                     "hit_frequency": q.hit_frequency, "std_dev": q.std_dev, "break_even_pays": q.break_even_pays})
    return pd.DataFrame(rows)


def volatility(main, levels=VOLATILITY_LEVELS, band=BAND_ROUNDS):
    """The volatility index VI = z x sd(net per round) per player count, and the band RTP +/- VI / sqrt(n)
    after ``n`` rounds (long format: players, rounds, level)."""
    vi, rows = [], []
    for _, r in main.iterrows():
        sd = float(r["sd_net"])
        vi.append({"players": int(r["players"]), "method": r["method"], "sd_net": sd,
                   **{f"vi_{int(round(100 * lv))}": z_value(lv) * sd for lv in levels}})
        for n in band:
            for lv in levels:
                h = z_value(lv) * sd / math.sqrt(n)
                rows.append({"players": int(r["players"]), "rounds": n, "level": lv,
                             "rtp_low": float(r["rtp_initial"]) - h, "rtp_high": float(r["rtp_initial"]) + h,
                             "half_width": h})
    return pd.DataFrame(vi), pd.DataFrame(rows)


def strategy_rtps(d: ReportData, main):
    """Every strategy analysed, per player count: RTP per initial bet with its interval (long format).

    Perfect play from ``main`` (:func:`main_rows`), the other solver readings
    from the published-figures runs, the weak profiles from their own runs; every
    RTP is the control-variate estimate where the run kept the controls.
    """
    rows = []
    for _, r in main.iterrows():
        rows.append({"players": int(r["players"]), "strategy": "perfect", "source": r["method"],
                     "rtp_initial": r["rtp_initial"], "rtp_initial_low": r["rtp_initial_low"],
                     "rtp_initial_high": r["rtp_initial_high"], "fold_frequency": r["fold_frequency"],
                     "win_frequency": r["win_frequency"]})
    by = d.published.by_players
    for _, r in by.iterrows():
        if r["reading"] == "perfect" or int(r["players"]) not in d.players:
            continue
        rows.append({"players": int(r["players"]), "strategy": r["reading"], "source": r["method"],
                     "rtp_initial": r["rtp_initial"], "rtp_initial_low": r["rtp_initial_low"],
                     "rtp_initial_high": r["rtp_initial_high"], "fold_frequency": r["fold_frequency"],
                     "win_frequency": r["win_frequency"]})
    for (profile, n), res in sorted(d.weak.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        m = res.summary()
        rtp = m.get("rtp_initial_cv", m["rtp_initial"])  # the controlled estimate where the run kept it
        source = f"monte carlo {res.rounds:,} rounds" + (", control variates" if "rtp_initial_cv" in m else "")
        rows.append({"players": n, "strategy": profile, "source": source,
                     "rtp_initial": rtp.estimate, "rtp_initial_low": rtp.low,
                     "rtp_initial_high": rtp.high, "fold_frequency": m["fold_frequency"].estimate,
                     "win_frequency": m["win_frequency"].estimate})
    out = pd.DataFrame(rows)
    order = {s: i for i, s in enumerate(("perfect",) + READING_NAMES[1:] + WEAK_PROFILES)}
    out["_o"] = [order.get(s, 99) for s in out["strategy"]]
    return out.sort_values(["players", "_o"], kind="stable").drop(columns="_o").reset_index(drop=True)


def rtp_range(strat):
    """Per player count, the strategies of :func:`strategy_rtps` with the lowest and the highest RTP."""
    rows = []
    for n, g in strat.groupby("players", sort=True):
        lo, hi = g.loc[g["rtp_initial"].idxmin()], g.loc[g["rtp_initial"].idxmax()]
        rows.append({"players": int(n), "strategies": len(g), "min_strategy": lo["strategy"],
                     "min_rtp": lo["rtp_initial"], "min_low": lo["rtp_initial_low"],
                     "min_high": lo["rtp_initial_high"], "max_strategy": hi["strategy"],
                     "max_rtp": hi["rtp_initial"], "max_low": hi["rtp_initial_low"],
                     "max_high": hi["rtp_initial_high"]})
    return pd.DataFrame(rows)


def reconciliation(d: ReportData):
    """Exact figures next to Monte Carlo estimates of the same quantity, with z = (estimate - exact) / se."""
    rows = []

    def add(quantity, n, exact, est, note=""):
        mean, lo, hi, se = est
        z = (mean - exact) / se if se and se > 0 else math.nan
        rows.append({"quantity": quantity, "players": n, "exact": exact, "monte_carlo": mean, "ci_low": lo,
                     "ci_high": hi, "difference": mean - exact, "z": z,
                     "within_95_ci": bool(lo <= exact <= hi), "note": note})

    if 1 in d.perfect:
        r = d.perfect[1]
        m = r.summary()
        s = exact_figures(d.solo)
        note = "" if d.solo.complete else "exact side covers sampled classes only: not comparable"
        for name, key in (("RTP per initial bet", ("rtp_initial", "rtp_per_initial_bet")),
                          ("RTP per total wagered", ("rtp_wagered", "rtp_per_wagered")),
                          ("fold frequency", ("fold_frequency", "fold_frequency")),
                          ("win frequency", ("win_frequency", "win_frequency")),
                          ("hit frequency", ("hit_frequency", "hit_frequency"))):
            if key[0] in CONTROLLED and f"{key[0]}_cv" in m:  # the report's estimator first, the plain check after
                add(f"{name} (perfect play, control variates)", 1, float(s[key[1]]), _est(m, f"{key[0]}_cv"), note)
                add(f"{name} (perfect play, plain)", 1, float(s[key[1]]), _est(m, key[0]), note)
            else:
                add(f"{name} (perfect play)", 1, float(s[key[1]]), _est(m, key[0]), note)
    qd = d.quickdraw[d.rules.quickdraw.comparison]
    for n in sorted(d.perfect):
        m = d.perfect[n].summary()
        add("kickout rate", n, d.exact_kickout[n], _est(m, "kickout_rate"))
        add(f"Quickdraw RTP ({d.rules.quickdraw.comparison})", n, qd.rtp, _est(m, "quickdraw_rtp"))
        add("Cover RTP", n, d.cover.rtp, _est(m, "cover_rtp"))
    return pd.DataFrame(rows)


def best_response_table(d: ReportData, strat):
    """One perfect seat (``perfect-vs-`` the publisher-like reading) among publisher-like players, per N >= 2:
    its RTP with interval, the other seats' mean RTP, and the RTP when every seat plays the reading."""
    rows = []
    for n in (n for n in d.players if n >= 2):
        sf = d.response[n].seat_frame()
        key = "rtp_initial_cv" if "rtp_initial_cv" in sf.columns else "rtp_initial"  # controlled if kept
        me, others = sf.iloc[0], sf.iloc[1:]
        g = strat[strat.players == n].set_index("strategy")
        table_rtp = g.loc[PUBLISHER_LIKE, "rtp_initial"] if PUBLISHER_LIKE in g.index else math.nan
        rows.append({"players": n, "rounds": d.response[n].rounds, "seat_rtp": me[key],
                     "seat_rtp_low": me[f"{key}_low"], "seat_rtp_high": me[f"{key}_high"],
                     "others_rtp": float(others[key].mean()),
                     "all_publisher_like_rtp": table_rtp})
    return pd.DataFrame(rows)


def closest_published(pub):
    """For each published figure, the reading (or weak profile) whose computed value is closest to it."""
    rows = []
    # the weak-player rows are one figure ("closer to 90%") whatever the profile: the closest profile wins
    # the other rows are labelled by their reading (issue 11): one figure whatever the reading
    group = [re.sub(r" \(.*\)$", " (closest profile)", f) if f.startswith("RTP of weak players") else
             (figure_key(f) or f) for f in pub["figure"]]
    for fig_name, g in pub.groupby(group, sort=False):
        b = g.loc[g["difference"].abs().idxmin()]
        label = fig_name if fig_name.startswith("RTP of weak players") else b.figure  # the closest row's own label
        rows.append({"figure": label, "published": b.published, "closest_reading": b.reading,
                     "computed": b.computed, "ci_low": b.ci_low, "ci_high": b.ci_high,
                     "difference": b.difference})
    return pd.DataFrame(rows)


def bet_summary(d: ReportData, main):
    """Every bet in one table (a lab's summary page): RTP with its interval, house edge, hit frequency and
    standard deviation per unit staked; the main game per player count (perfect play, per ante, the figures
    of :func:`main_rows`), then Quickdraw (the rule set's reading) and Cover (exact)."""
    rows = []
    for r in main.itertuples():
        rows.append({"bet": "main game", "players": int(r.players), "method": r.method, "unit": "ante",
                     "rtp": r.rtp_initial, "rtp_low": r.rtp_initial_low, "rtp_high": r.rtp_initial_high,
                     "house_edge": r.house_edge, "hit_frequency": r.hit_frequency,
                     "hit_frequency_low": r.hit_frequency_low, "hit_frequency_high": r.hit_frequency_high,
                     "std_dev": r.sd_net})
    q = d.quickdraw[d.rules.quickdraw.comparison]
    c = d.cover
    for bet, x in ((f"Quickdraw ({d.rules.quickdraw.comparison})", q), ("Cover", c)):
        rtp, hit = float(x.rtp), float(x.hit_frequency)
        rows.append({"bet": bet, "players": None, "method": "exact", "unit": "unit staked", "rtp": rtp,
                     "rtp_low": rtp, "rtp_high": rtp, "house_edge": float(x.house_edge), "hit_frequency": hit,
                     "hit_frequency_low": hit, "hit_frequency_high": hit, "std_dev": float(x.std_dev)})
    out = pd.DataFrame(rows)
    out["players"] = out["players"].astype("Int64")
    return out
