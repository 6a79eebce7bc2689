"""Paytable tuning for the game's bets: which lines are free and how their RTP is computed.

The search itself is generic (:mod:`ricochet_math.design.optimiser`:
:func:`tune_paytable` takes any RTP function of a ``{line: pays}`` paytable
and a target, and knows nothing of the bets).  This module plugs in the bets:

* **Cover** (:func:`tune_cover`): the exact Cover RTP, linear in the pays
  (each line adds P(line) x (1 + pays), :func:`cover_rtp_function`), so the
  integer program is solved exactly.
* **The main game's high-hand bonus** (:func:`tune_bonus`): the RTP per
  initial bet, linear in the bonus pays with the players' decisions held
  fixed: exact at one player (:func:`bonus_rtp_function`, from the exact
  solo analysis), from one Monte Carlo run at several
  (:func:`bonus_rtp_function_mc`).  ``resolve=True`` re-solves the best
  candidate with its own decisions to measure what holding them fixed missed.

Amounts are pays to 1 (ante units for the bonus) and RTPs fractions per unit
staked (per initial bet for the main game).  The generic names
(:func:`tune_paytable`, :func:`enumerate_paytables`, :class:`TuningResult`,
:class:`Candidate`, :class:`LinearRTP`, :func:`override_toml`) are importable
from here too.

>>> from ricochet_math.design.tuning import tune_cover
>>> result = tune_cover(target=0.96, free_lines=["four_of_a_kind", "straight_flush", "royal_flush"],
...                     step={"straight_flush": 50, "royal_flush": 500}, n_best=3)
>>> result.to_frame()[["rank", "rtp", "changes", "four_of_a_kind", "straight_flush", "royal_flush"]].round(6)
   rank       rtp  changes  four_of_a_kind  straight_flush  royal_flush
0     1  0.960006     13.0              50             500         5500
1     2  0.959938     13.0              51             200         8000
2     3  0.959929     13.0              50             550         5000
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from ricochet_math.design.cover import cover, cover_paytable
from ricochet_math.design.optimiser import enumerate_paytables, tune_paytable
from ricochet_math.design.optimiser_problem import LinearRTP, plain_number
from ricochet_math.design.optimiser_result import Candidate, TuningResult, override_toml
from ricochet_math.errors import RuleError, quote
from ricochet_math.evaluator.names import BONUS_CATEGORY_NAMES
from ricochet_math.rules.ruleset import MAX_PLAYERS, Paytable, RuleSet, load_rules
from ricochet_math.solvers.montecarlo import simulate
from ricochet_math.solvers.solo import solo_analysis

__all__ = [
    "LinearRTP",
    "Candidate",
    "TuningResult",
    "tune_paytable",
    "cover_rtp_function",
    "tune_cover",
    "enumerate_paytables",
    "override_toml",
    "bonus_rtp_function",
    "bonus_rtp_function_mc",
    "tune_bonus",
]


# =========================================================================
# Cover
# =========================================================================

def cover_rtp_function(source: RuleSet | Paytable | str | None = None) -> LinearRTP:
    """Cover's RTP as a :class:`LinearRTP` over its lines' pays (exact).

    RTP = sum over lines of P(line) (1 + pays): constant = P(some line),
    coefficient of a line = P(line), from the 2,598,960 dealer hands.  Exact
    while every line pays more than 0 (a line paying 0 loses like no line,
    which is not linear); :func:`tune_cover` keeps the pays above 0.
    """
    table = cover_paytable(source)
    result = cover(table)
    probs = {l.key: l.combinations / result.hands for l in result.lines}

    def metrics(pays: Mapping[str, float]) -> dict[str, float]:
        r = cover(table.with_pays(**{k: plain_number(v) for k, v in pays.items()}))
        return {"hit_frequency": r.hit_frequency, "std_dev": r.std_dev}

    return LinearRTP(constant=sum(probs.values()), coefficients=probs, metrics=metrics)


def tune_cover(
    rules: RuleSet | str | None = None,
    target: float | tuple[float, float] = 0.95,
    free_lines: Iterable[str] | None = None,
    **options: Any,
) -> TuningResult:
    """Tune a rule set's Cover paytable (default rule set ``publisher``) with the exact Cover RTP.

    ``options`` are :func:`tune_paytable`'s (``step``, ``bounds``,
    ``n_best``, ``tolerance``, ``monotonic``).  The result's
    :meth:`~TuningResult.write_toml` writes the tuned rule set.
    """
    rules = load_rules(rules)
    if not len(rules.cover):
        raise RuleError(f"rule set {rules.name} has no Cover lines to tune")
    for line in rules.cover:
        if line.pays <= 0:
            raise RuleError(f"Cover line {quote(line.key)} pays 0 (it loses like no line); "
                            "remove it or give it a payout before tuning")
    bounds = options.get("bounds")
    if bounds is not None:
        items = bounds.items() if isinstance(bounds, Mapping) else [("every line", bounds)]
        for key, b in items:
            if isinstance(b, (tuple, list)) and len(b) == 2 and isinstance(b[0], (int, float)) and b[0] <= 0:
                raise RuleError(f"bounds of {quote(key)} start at {b[0]:g}: Cover pays must stay above 0 "
                                "(a line paying 0 loses like no line)")
    return tune_paytable(cover_rtp_function(rules.cover), rules.cover, free_lines, target,
                         rules=rules, section="cover", **options)


# =========================================================================
# The main game's bonus table (one player, exact)
# =========================================================================

def bonus_rtp_function(rules: RuleSet | str | None = None, analysis=None) -> LinearRTP:
    """The one-player main-game RTP per initial bet as a :class:`LinearRTP` over the bonus pays.

    Exact for the perfect-play decisions of ``analysis`` (default: the exact
    solo analysis of ``rules``, cached on disk after its first run): every
    outcome's probability is fixed and the bonus adds ``pays x P(line)``.
    Changing the pays could change a few marginal decisions; :func:`tune_bonus`
    re-solves the best candidate to measure that.
    """
    rules = load_rules(rules)
    a = analysis if analysis is not None else solo_analysis(rules)
    df = a.return_table()
    p = df["probability"].to_numpy()
    names = list(a.line_names)
    line_idx = np.array([names.index(b) for b in df["bonus"]])
    paid = (df["outcome"] != "fold").to_numpy()
    if not a.bonus_on_automatic_win:
        paid &= (df["outcome"] != "automatic win").to_numpy()
    base_net = df["net"].to_numpy() - np.where(paid, a.pays[line_idx], 0.0)
    constant = 1.0 + float((p * base_net).sum())
    coefficients = {names[ln]: float(p[paid & (line_idx == ln)].sum()) for ln in range(1, len(names))}

    def metrics(pays: Mapping[str, float]) -> dict[str, float]:
        vec = np.array([0.0] + [float(pays[k]) for k in names[1:]])
        r = a.rtp_with_pays(vec)
        return {"hit_frequency": r["bonus_hit_frequency"], "std_dev": r["std_net"]}

    return LinearRTP(constant=constant, coefficients=coefficients, metrics=metrics)


def bonus_rtp_function_mc(rules: RuleSet | str | None = None, players: int = 2, *, rounds: int = 20_000,
                          seed: int = 2026, strategy: str = "perfect", result=None, executor=None) -> LinearRTP:
    """Main-game RTP per initial bet at ``players`` >= 2 as a :class:`LinearRTP` over the bonus
    pays, from one Monte Carlo run with its decisions held fixed.

    Each bonus line must be a named category (straight .. royal_flush); the
    coefficient of a line is its observed paid-hand frequency per player-round.
    Exact for those decisions and that sample: the estimate's own sampling error
    (in the run's confidence interval) still applies to the constant.  ``executor``: where the run's
    chunks go (see :func:`~ricochet_math.solvers.montecarlo.simulate`).
    """
    rules = load_rules(rules)
    r = result if result is not None else simulate(rules, players=players, strategy=strategy, rounds=rounds,
                                                   seed=seed, progress=False, executor=executor)
    s = r.summary()
    cats = {name.lower().replace(" ", "_"): i for i, name in enumerate(BONUS_CATEGORY_NAMES)}
    freq = {}
    for line in rules.bonus:
        key = str(line.hand_pattern).lower().replace(" ", "_")
        if key not in cats:
            raise RuleError(f"bonus line {quote(line.key)} ({line.hand_pattern}) is not a hand category: "
                            "tuning at several players needs category lines (straight .. royal_flush)")
        freq[line.key] = float(s[f"bonus_{key}"].estimate)
    constant = float(s["rtp_initial"].estimate) - sum(freq[ln.key] * float(ln.pays) for ln in rules.bonus)
    return LinearRTP(constant=constant, coefficients=freq)


def tune_bonus(
    rules: RuleSet | str | None = None,
    target: float | tuple[float, float] = 0.965,
    free_lines: Iterable[str] | None = None,
    *,
    players: int = 1,
    resolve: bool = False,
    analysis=None,
    rounds: int = 20_000,
    seed: int = 2026,
    strategy: str = "perfect",
    executor=None,
    **options: Any,
) -> TuningResult:
    """Tune the high-hand bonus table to a target RTP per initial bet at ``players`` seats.

    * One player: exact (:func:`bonus_rtp_function`), decisions of the current
      paytable held fixed.
    * Several players: one Monte Carlo run (``rounds``, ``seed``, ``strategy``)
      with its decisions held fixed (:func:`bonus_rtp_function_mc`).

    The search is a MILP on that linear RTP.  With ``resolve=True`` the best
    candidate is re-solved with its own perfect play (N = 1: a full exact
    analysis, minutes; N >= 2: a new run with the same seed, so common random
    numbers) and the re-solved RTP is added to the result's method text: the
    effect of players adapting to the new pays is measured, not assumed.  ``executor``: where the
    Monte Carlo chunks run (see :func:`~ricochet_math.solvers.montecarlo.simulate`).
    """
    rules = load_rules(rules)
    if not 1 <= int(players) <= MAX_PLAYERS:
        raise RuleError(f"players must be 1..{MAX_PLAYERS}, got {players}")
    if players == 1:
        f = bonus_rtp_function(rules, analysis)
    else:
        f = bonus_rtp_function_mc(rules, players, rounds=rounds, seed=seed, strategy=strategy, executor=executor)
    result = tune_paytable(f, rules.bonus, free_lines, target, rules=rules, section="bonus", **options)
    if players > 1:
        result = dataclasses.replace(result, method=result.method + (
            f"; {players} players: linear in the pays with the decisions of one {strategy} run held fixed "
            f"({rounds:,} rounds, seed {seed})"))
    if resolve and result.candidates:
        best = result.candidates[0]
        tuned = rules.with_bonus(**{k: plain_number(v) for k, v in best.pays_dict().items()})
        if players == 1:
            exact = solo_analysis(tuned).at_threshold()["rtp_per_initial_bet"]
            how = "re-solved with its own perfect play"
        else:
            exact = float(simulate(tuned, players=players, strategy=strategy, rounds=rounds, seed=seed,
                                   progress=False, executor=executor).summary()["rtp_initial"].estimate)
            how = "re-simulated with its own decisions (same seed)"
        note = (f"; candidate 1 {how}: RTP {exact:.6%} "
                f"(fixed-strategy {best.rtp:.6%}, difference {exact - best.rtp:+.6%})")
        result = dataclasses.replace(result, method=result.method + note)
    return result
