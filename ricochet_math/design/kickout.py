"""The kickout finder: RTP against the dealer's kickout threshold, and the
threshold that hits a target RTP.

* N = 1 is exact: one pass of :func:`ricochet_math.solvers.solo.solo_analysis` keeps
  its counts per dealer value, and the decision while the dealer is in does
  not depend on the threshold, so every threshold is read off the same counts.
* N >= 2 is Monte Carlo with common random numbers: every threshold is run on
  the same seeded deals and deck orders (the same ``seed``), so neighbouring
  thresholds differ only where the kickout changes the round, and their
  difference is far more precise than either RTP alone.  The RTP columns are
  the controlled estimates (control variates with exact means, as in
  ``simulate`` and the report); the plain estimate and the variance ratio stand
  beside them as a check (``rtp_per_initial_bet_plain``, ``rtp_plain_ci_low`` /
  ``_high``, ``variance_ratio``).

A threshold is a hand pattern (``99``, ``KKQ``, ``TTxx``, ``222``, ``A2345``,
``flush``); the dealer folds at or above it (spec, "Kickout thresholds").
"""
from __future__ import annotations

import re

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ricochet_math.arguments import check_seed, check_whole
from ricochet_math.engine.deal import check_players
from ricochet_math.errors import PatternError, RuleError, quote
from ricochet_math.evaluator.names import describe, pattern_value
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.executors import executor_for_run
from ricochet_math.solvers.montecarlo import MAX_ROUNDS, simulate
from ricochet_math.solvers.solo import solo_analysis

__all__ = ["DEFAULT_GRID", "KickoutCurve", "kickout_curve", "find_kickout", "kickout_table"]

# From about a pair of nines up to a flush, in increasing strength.
DEFAULT_GRID = (
    "99", "TT", "JJ", "QQ", "KK", "KKQ", "AA", "AAQ", "33xx", "66xx", "TTxx", "QQxx", "AAxx",
    "222", "777", "QQQ", "AAA", "A2345", "TJQKA", "flush",
)


def parse_grid(grid) -> list[tuple[str, int]]:
    """``[(pattern, value)]`` sorted by value; bad patterns raise one line naming the pattern."""
    if isinstance(grid, str) and grid.strip():  # split at commas or spaces; an empty pattern is refused
        text, grid = grid, re.split(r"\s*,\s*|\s+", grid.strip())
        if "" in grid:
            raise PatternError(f"threshold grid {quote(text)} has an empty pattern (two commas, or one at an end)")
    elif isinstance(grid, str):
        grid = []
    out = []
    for g in grid:
        try:
            out.append((str(g), pattern_value(str(g))))
        except PatternError as exc:
            raise PatternError(f"threshold grid: {exc}") from None
    if not out:
        raise PatternError("threshold grid is empty")
    return sorted(set(out), key=lambda t: t[1])


@dataclass(frozen=True)
class KickoutCurve:
    """RTP and frequencies at each threshold for one player count."""

    players: int
    method: str            # "exact" or "monte carlo (rounds, seed)"
    frame: "object"        # pandas DataFrame, one row per threshold

    def to_frame(self):
        return self.frame.copy()

    def summary(self) -> str:
        cols = ["pattern", "hand", "rtp_per_initial_bet", "rtp_ci_low", "rtp_ci_high", "kickout_rate",
                "fold_frequency"]
        return f"Kickout curve, {self.players} player(s), {self.method}\n" + self.frame[cols].to_string(index=False)


def kickout_curve(rules=None, *, players: int = 1, grid=DEFAULT_GRID, rounds: int = 200_000,
                  seed: int = 2026, strategy: str = "perfect", solo=None, progress: bool = False,
                  executor=None) -> KickoutCurve:
    """RTP (both conventions), kickout rate, fold and win frequency at each threshold.

    ``solo``: a finished :class:`~ricochet_math.solvers.solo.SoloAnalysis` to reuse for N = 1.
    ``executor``: where the Monte Carlo chunks run (None: local threads; a Dask client, scheduler address
    or executor: see :func:`~ricochet_math.solvers.montecarlo.simulate`); the figures do not depend on it.
    """

    rules = load_rules(rules)
    players = check_players(players)
    rounds = check_whole(rounds, "rounds", high=MAX_ROUNDS)
    seed = check_seed(seed, allow_none=False)  # one fixed seed: the thresholds compare on the same deals
    points = parse_grid(grid)
    rows = []
    if players == 1:
        a = solo if solo is not None else solo_analysis(rules, progress=progress)
        for pat, v in points:
            d = a.at_threshold(v)
            rows.append({"pattern": pat, "hand": describe(v), "value": v,
                         "rtp_per_initial_bet": d["rtp_per_initial_bet"], "rtp_ci_low": d["rtp_per_initial_bet"],
                         "rtp_ci_high": d["rtp_per_initial_bet"], "rtp_per_wagered": d["rtp_per_wagered"],
                         "kickout_rate": d["kickout_rate"], "fold_frequency": d["fold_frequency"],
                         "win_frequency": d["win_frequency"]})
        # the label says what was computed: a sampled analysis (tests, tiny notebooks) is not the game's figure
        method = ("exact (all 2,809,475,760 deals)" if a.complete else
                  f"exact over {int(a.classes_done.sum())} of the 169 starting-hand classes only (sampled: "
                  "not the game's figures)")
    else:
        with executor_for_run(executor) as runner:
            runs = [simulate(rules.with_kickout(players, pat), players=players, strategy=strategy, rounds=rounds,
                             seed=seed, progress=progress, executor=runner) for pat, _ in points]
        controlled = all("rtp_initial_cv" in r.to_frame().columns for r in runs)
        cv = "_cv" if controlled else ""   # a strategy without controls (e.g. always) has the plain one only
        for (pat, v), r in zip(points, runs):
            f = r.to_frame().iloc[0]
            rows.append({"pattern": pat, "hand": describe(v), "value": v,
                         "rtp_per_initial_bet": float(f[f"rtp_initial{cv}"]),
                         "rtp_ci_low": float(f[f"rtp_initial{cv}_low"]),
                         "rtp_ci_high": float(f[f"rtp_initial{cv}_high"]),
                         "rtp_per_wagered": float(f[f"rtp_wagered{cv}"]),
                         "kickout_rate": float(f["kickout_rate"]), "fold_frequency": float(f["fold_frequency"]),
                         "win_frequency": float(f["win_frequency"]),
                         "rtp_per_initial_bet_plain": float(f["rtp_initial"]),
                         "rtp_plain_ci_low": float(f["rtp_initial_low"]),
                         "rtp_plain_ci_high": float(f["rtp_initial_high"]),
                         "variance_ratio": float(f["variance_ratio"]) if controlled else 1.0})
        estimator = ("RTP controlled (control variates), plain beside" if controlled
                     else "RTP plain (this strategy keeps no controls)")
        method = (f"monte carlo, {rounds:,} rounds per threshold, seed {seed}, common random numbers, {strategy} "
                  f"play; {estimator}")
    return KickoutCurve(players, method, pd.DataFrame(rows))


def find_kickout(rules=None, *, players: int = 1, target_rtp: float = 0.965, curve: KickoutCurve | None = None,
                 **kw) -> dict:
    """The threshold whose RTP per initial bet is closest to ``target_rtp`` (a fraction),
    with the two thresholds that bracket the target.

    Raises :class:`RuleError` when no threshold in the grid reaches the target
    (rather than silently returning the nearest), or for a target outside (0, 2).
    """
    if not 0.0 < float(target_rtp) < 2.0:
        raise RuleError(f"target RTP must be a fraction in (0, 2) (e.g. 0.965 for 96.5%), got {target_rtp}")
    c = curve if curve is not None else kickout_curve(rules, players=players, **kw)
    df = c.frame.sort_values("value").reset_index(drop=True)
    rtp = df["rtp_per_initial_bet"].to_numpy()
    lo, hi = float(rtp.min()), float(rtp.max())
    if not lo <= target_rtp <= hi:
        raise RuleError(
            f"no threshold in the grid reaches RTP {target_rtp:.4%} for {c.players} player(s): "
            f"the grid spans {lo:.4%} ({df.loc[rtp.argmin(), 'pattern']}) to {hi:.4%} ({df.loc[rtp.argmax(), 'pattern']})"
        )
    best = int(np.abs(rtp - target_rtp).argmin())
    # RTP falls as the threshold rises: find the pair around the target
    above = df[rtp >= target_rtp].iloc[-1]
    below = df[rtp <= target_rtp].iloc[0]
    return {
        "players": c.players,
        "target_rtp": float(target_rtp),
        "closest": df.loc[best, "pattern"],
        "closest_rtp": float(rtp[best]),
        "closest_ci": (float(df.loc[best, "rtp_ci_low"]), float(df.loc[best, "rtp_ci_high"])),
        "bracket_low_threshold": above["pattern"],
        "bracket_low_rtp": float(above["rtp_per_initial_bet"]),
        "bracket_high_threshold": below["pattern"],
        "bracket_high_rtp": float(below["rtp_per_initial_bet"]),
        "method": c.method,
    }


def kickout_table(rules=None, *, target_rtp: float = 0.965, players=range(1, 8), **kw):
    """:func:`find_kickout` for every player count at once, as a DataFrame."""
    rows = []
    for n in players:
        try:
            rows.append(find_kickout(rules, players=n, target_rtp=target_rtp, **kw))
        except RuleError as exc:
            rows.append({"players": n, "target_rtp": target_rtp, "closest": None, "note": str(exc)})
    return pd.DataFrame(rows)
