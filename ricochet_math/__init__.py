"""ricochet_math: the mathematics of the casino table game Ricochet Poker.

``import ricochet_math as rm`` gives the names a notebook uses: rule loading and
editing, cards and hand values, the readable round and the Monte Carlo driver,
the exact solo analysis, advice, the side bets, the kickout finder, paytable
tuning and the report.  The other games are one namespace each, ``rm.home``,
``rm.ring``, ``rm.rococo`` and ``rm.freeride``, with the same verbs where they do
the same thing (``simulate``, ``play_game``, ``build_report``, ...).
``rm.__all__`` lists the names section by section, in the order of the layers
they come from (``docs/architecture.md``); code inside the package imports each
name from the module that defines it, never from here.
"""
from __future__ import annotations

import ricochet_math.environment  # noqa: F401  (first: bad settings would break numpy and numba at import)
from ricochet_math._version import __version__
from ricochet_math.errors import CardError, PatternError, RicochetError, RuleError, StrategyError, TableStateError
from ricochet_math.evaluator.cards import format_cards, parse_cards
from ricochet_math.evaluator.evaluation import evaluate, hand_value
from ricochet_math.evaluator.names import category_name, describe, pattern_of, pattern_value
from ricochet_math.evaluator.classes import player_classes
from ricochet_math.rules.files import paytables_dir, shipped_rule_sets
from ricochet_math.rules.ruleset import (
    KickoutTable, PayLine, Paytable, QuickdrawRules, RuleOptions, RuleSet, load_rules, rules_from_toml,
)
from ricochet_math.strategies.registry import get_strategy, strategy_names
from ricochet_math.engine.deal import FaceUpTable, deal_deck, face_up_table
from ricochet_math.engine.records import RoundRecord, format_history
from ricochet_math.engine.round import Round, play_round
from ricochet_math.solvers.stats import Estimate
from ricochet_math.solvers.montecarlo import SimulationResult, rtp_table, simulate
from ricochet_math.solvers.solo import SoloAnalysis, SoloDeal, solo_analysis, solo_deal
from ricochet_math.solvers.exact_row import exact_rtp_row
from ricochet_math.solvers.advise import Advice, advise
from ricochet_math.solvers.timing import bench
from ricochet_math.design.cover import cover, cover_progressive
from ricochet_math.design.quickdraw import quickdraw, quickdraw_both, quickdraw_table
from ricochet_math.design.sidebets import sidebets_summary
from ricochet_math.design.kickout import find_kickout, kickout_curve, kickout_table
from ricochet_math.design.optimiser import tune_paytable
from ricochet_math.design.tuning import tune_bonus, tune_cover
from ricochet_math.design.rule_set import RuleSetDesign, design_rule_set
from ricochet_math.reports.published import best_response, published_figures
from ricochet_math.reports.build import build_report
from ricochet_math.reports.reading_search import search_readings
from ricochet_math.games import freeride, home, ring, rococo

__all__ = [
    "__version__",
    # errors
    "RicochetError", "CardError", "PatternError", "RuleError", "StrategyError", "TableStateError",
    # cards and hand values
    "parse_cards", "format_cards", "hand_value", "evaluate", "describe", "category_name", "pattern_value",
    "pattern_of", "player_classes",
    # rule sets: loading, the shipped files, editing
    "paytables_dir", "shipped_rule_sets",
    "load_rules", "rules_from_toml", "RuleSet", "KickoutTable", "Paytable", "PayLine", "QuickdrawRules",
    "RuleOptions",
    # strategies and one round
    "get_strategy", "strategy_names",
    "FaceUpTable", "face_up_table", "deal_deck", "RoundRecord", "format_history", "Round", "play_round",
    # Monte Carlo
    "Estimate",
    "SimulationResult", "simulate", "rtp_table",
    # exact solo analysis, advice, timings
    "SoloAnalysis", "SoloDeal", "solo_analysis", "solo_deal",
    # the exact N = 1 row of an RTP-by-players table (issue 11, notebooks)
    "exact_rtp_row",
    "Advice", "advise",
    "bench",
    # design: side bets, kickout thresholds, paytable tuning
    "cover", "cover_progressive", "quickdraw", "quickdraw_both", "quickdraw_table", "sidebets_summary",
    "kickout_curve", "find_kickout", "kickout_table",
    "tune_paytable", "tune_cover", "tune_bonus",
    "design_rule_set", "RuleSetDesign",
    # reports
    "published_figures", "best_response",
    "build_report", "search_readings",
    # the other games, one namespace each with the same verbs (rm.home.simulate, rm.ring.arrange,
    # rm.rococo.solve_draws, rm.freeride.play_game, ...; each package's __all__ lists its names)
    "home", "ring", "rococo", "freeride",
]
