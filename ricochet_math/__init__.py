"""ricochet_math: the mathematics of the casino table game Ricochet Poker.

``import ricochet_math as rm`` gives the names a notebook uses: rule loading,
the readable round and the Monte Carlo driver, the exact solo analysis,
advice, the side bets, the kickout finder, paytable tuning and the report.
"""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("ricochet_math")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.1.0"

from ricochet_math.errors import CardError, PatternError, RicochetError, RuleError, StrategyError, TableStateError  # noqa: E402
from ricochet_math.evaluator.cards import format_cards, parse_cards  # noqa: E402
from ricochet_math.evaluator.evaluation import describe, hand_value, pattern_value  # noqa: E402
from ricochet_math.rules.ruleset import RuleSet, load_rules  # noqa: E402
from ricochet_math.engine.round import Round, play_round  # noqa: E402
from ricochet_math.strategies.registry import get_strategy, strategy_names  # noqa: E402
from ricochet_math.solvers.montecarlo import SimulationResult, rtp_table, simulate  # noqa: E402
from ricochet_math.solvers.solo import SoloAnalysis, solo_analysis, solo_deal  # noqa: E402
from ricochet_math.solvers.advise import Advice, advise, table_state  # noqa: E402
from ricochet_math.design.sidebets import cover, cover_progressive, quickdraw, quickdraw_both, sidebets_summary  # noqa: E402
from ricochet_math.design.kickout import find_kickout, kickout_curve, kickout_table  # noqa: E402
from ricochet_math.design.tuning import tune_cover, tune_paytable  # noqa: E402
from ricochet_math.reports.published import best_response, published_figures  # noqa: E402
from ricochet_math.reports.build import build_report  # noqa: E402

__all__ = [
    "__version__",
    # errors
    "RicochetError", "CardError", "PatternError", "RuleError", "StrategyError", "TableStateError",
    # cards and hands
    "parse_cards", "format_cards", "hand_value", "describe", "pattern_value",
    # rules, rounds, strategies
    "RuleSet", "load_rules", "Round", "play_round", "get_strategy", "strategy_names",
    # Monte Carlo and exact analyses
    "SimulationResult", "simulate", "rtp_table", "SoloAnalysis", "solo_analysis", "solo_deal",
    "Advice", "advise", "table_state",
    # design
    "quickdraw", "quickdraw_both", "cover", "cover_progressive", "sidebets_summary",
    "kickout_curve", "find_kickout", "kickout_table", "tune_paytable", "tune_cover",
    # reports
    "published_figures", "best_response", "build_report",
]
