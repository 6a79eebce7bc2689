"""The public names of ``import ricochet_math as rm``, for type checkers and for the lazy loader.

``ricochet_math/__init__.py`` reads this stub when the package is imported (``lazy_loader.attach_stub``):
each ``from .module import name`` below says where ``rm.name`` is loaded from on first use, and
``__all__`` is the list of public names in its order (section by section, up the layers of
``docs/architecture.md``; ``tests/test_api.py`` checks the two agree).  Type checkers and editors read the
same lines, so they see every name with its real type although nothing is imported until it is used.
The package's parts (``rm.games``, ``rm.solvers``, ...) load on first use too, as the last line says;
they are not public names (not in ``__all__``): code names the module it imports from.
"""
from ._version import __version__
from .errors import CardError, PatternError, RicochetError, RuleError, StrategyError, TableStateError
from . import equilibrium
from .evaluator.cards import format_cards, parse_cards
from .evaluator.evaluation import evaluate, hand_value
from .evaluator.names import category_name, describe, pattern_of, pattern_value
from .evaluator.classes import player_classes
from .rules.files import paytables_dir, shipped_rule_sets
from .rules.ruleset import (
    KickoutTable, PayLine, Paytable, QuickdrawRules, RuleOptions, RuleSet, load_rules, rules_from_toml,
)
from .strategies.registry import get_strategy, strategy_names
from .engine.deal import FaceUpTable, deal_deck, face_up_table
from .engine.records import RoundRecord, format_history
from .engine.round import Round, play_round
from .solvers.stats import Estimate
from .solvers.montecarlo import SimulationResult, rtp_table, simulate
from .solvers.solo import SoloAnalysis, SoloDeal, solo_analysis, solo_deal
from .solvers.exact_row import exact_rtp_row
from .solvers.advise import Advice, advise
from .solvers.timing import bench
from .design.cover import cover, cover_progressive
from .design.quickdraw import quickdraw, quickdraw_both, quickdraw_table
from .design.sidebets import sidebets_summary
from .design.kickout import find_kickout, kickout_curve, kickout_table
from .design.optimiser import tune_paytable
from .design.tuning import tune_bonus, tune_cover
from .design.rule_set import RuleSetDesign, design_rule_set
from .reports.published import best_response, published_figures
from .reports.build import build_report
from .reports.reading_search import search_readings
from .games import freeride, home, ring, rococo
from . import arguments, design, engine, errors, evaluator, game_rules, games, random_streams, reports, rules
from . import solvers, storage, strategies

__all__ = [
    "__version__",
    # errors
    "RicochetError", "CardError", "PatternError", "RuleError", "StrategyError", "TableStateError",
    # the equilibrium layer, one namespace (rm.equilibrium.solve, rm.equilibrium.LeducPoker, ...; issue 33)
    "equilibrium",
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
