"""The exact N = 1 row of the RTP-by-players table, from the exact solo analysis.

:func:`~ricochet_math.solvers.montecarlo.rtp_table` estimates every player
count by Monte Carlo; with one player under perfect play the exact figure is
known (:func:`~ricochet_math.solvers.solo.solo_analysis`), so a table of
N = 1..7 takes its first row from here: the same columns as
:meth:`SimulationResult.to_frame <ricochet_math.solvers.montecarlo.SimulationResult.to_frame>`,
intervals of no width (``_low`` = ``_high`` = the value) and ``method`` saying
how much of the game the analysis covered.
"""
from __future__ import annotations

import pandas as pd

from ricochet_math.errors import StrategyError, quote
from ricochet_math.rules.ruleset import load_rules
from ricochet_math.solvers.solo import SoloAnalysis, solo_analysis

__all__ = ["EXACT_READINGS", "exact_figures", "exact_method", "exact_rtp_row"]

#: the strategy readings whose one-player game the exact solo analysis solves (name -> decides with the bonus)
EXACT_READINGS = {"perfect": True, "perfect-no-bonus": False}

# rtp_table column -> SoloAnalysis.at_threshold key
_COLUMNS = (("rtp_initial", "rtp_per_initial_bet"), ("rtp_wagered", "rtp_per_wagered"),
            ("house_edge", "house_edge_per_ante"), ("element_of_risk", "element_of_risk"),
            ("fold_frequency", "fold_frequency"), ("win_frequency", "win_frequency"),
            ("hit_frequency", "hit_frequency"), ("bonus_frequency", "bonus_frequency"),
            ("average_wagered", "average_bet"), ("kickout_rate", "kickout_rate"))


def exact_figures(solo: SoloAnalysis) -> dict:
    """The exact one-player figures at the rule set's threshold (:meth:`SoloAnalysis.at_threshold`) with
    ``hit_frequency`` = P(net > 0) added (fractions; amounts in antes)."""
    figures = dict(solo.at_threshold())
    table = solo.return_table()
    figures["hit_frequency"] = float(table.loc[table["net"] > 0, "probability"].sum())
    return figures


def exact_method(solo: SoloAnalysis) -> str:
    """``exact``, or ``exact over K of 169 classes`` for a sampled analysis."""
    return "exact" if solo.complete else f"exact over {int(solo.classes_done.sum())} of 169 classes"


def exact_rtp_row(rules=None, solo: SoloAnalysis | None = None, *, reading: str = "perfect", classes=None,
                  progress: bool = False) -> pd.DataFrame:
    """One row (pandas) with the exact one-player figures in the columns of :func:`rtp_table`.

    ``rules``: a rule set or its name (default ``publisher``).  ``solo``: an exact analysis already run
    (its decisions must be the reading's: with the bonus for ``perfect``, without it for
    ``perfect-no-bonus``); otherwise it is run here (``classes``, ``progress`` as
    :func:`~ricochet_math.solvers.solo.solo_analysis`; cached on disk after the first run).  RTPs and
    frequencies are fractions (0.969 = 96.9%); ``sd_net`` is in antes; ``hit_frequency`` = P(net > 0).
    ``method`` is ``exact``, or ``exact over K of 169 classes`` for a sampled analysis.
    """
    if reading not in EXACT_READINGS:
        raise StrategyError(f"the exact one-player row needs reading perfect or perfect-no-bonus, not {quote(reading)}")
    rules = load_rules(rules)
    if solo is None:
        solo = solo_analysis(rules, classes=classes, use_bonus=EXACT_READINGS[reading], progress=progress)
    elif solo.use_bonus != EXACT_READINGS[reading]:
        raise StrategyError(f"the solo analysis given {'uses' if solo.use_bonus else 'ignores'} the bonus when "
                            f"deciding; reading {quote(reading)} needs one that "
                            f"{'uses' if EXACT_READINGS[reading] else 'ignores'} it")
    figures = exact_figures(solo)
    row: dict[str, object] = {"rules": rules.name, "players": 1, "strategy": reading, "rounds": None}
    for column, key in _COLUMNS:
        row[column] = row[f"{column}_low"] = row[f"{column}_high"] = float(figures[key])
    row["sd_net"] = float(figures["std_net"])
    row["rules_sha256"] = rules.sha256
    row["run_time_s"] = round(solo.seconds, 3)
    row["method"] = exact_method(solo)
    return pd.DataFrame([row])
