"""Rococo Poker: five-card draw with an ante, a blind option, one exchange of 0-3 cards, one betting
round and split pots (the publisher's rules: ``shared/seeds/003_266d472255d5a8cb.txt``; our reading in
``docs/rules.md``, section "Rococo Poker"; the guide in ``docs/rococo-poker.md``).

Modules: ``rules`` (options), ``draw`` (the 26 keeps, enumeration and counting kernels, suit classes),
``holds`` (every hold of 0-5 discards under any paytable: exact hold values, optimal-play return),
``solver`` (the draw fixed point against N optimal drawers), ``strategy`` (the strategy table, the naive
rule), ``betting`` (policies), ``engine`` (one readable game with its history), ``kernel`` (the numba
pot kernel), ``play`` (one pot's history), ``analysis`` (simulations, blind value, best response,
card removal), ``removal`` (its kernel), ``report`` (the short report), ``betting_game`` (heads-up Rococo
as a game of the equilibrium layer: buckets, raise sizes, the carried-pot levels), ``equilibrium``
(``solve_equilibrium``: its equilibrium, exploitability, the named policies against it).

The names below are the package's public entry points, the same verbs as the other games'
(``import ricochet_math as rm``: ``rm.rococo.solve_draws``, ``rm.rococo.simulate``, ...).
``build_report`` (``report.build_rococo_report``) is loaded on first use (the report machinery
would slow the start-up of code that needs only the solver).
"""
from __future__ import annotations

from ricochet_math.games.rococo.analysis import (
    BestResponse, BestResponseConfirmation, BlindValue, RococoResult, best_response, blind_value, removal_check,
    simulate,
)
from ricochet_math.games.rococo.betting import POLICIES, BettingPolicy
from ricochet_math.games.rococo.draw import KEEPS, DrawDistribution, draw_distribution, keep_text
from ricochet_math.games.rococo.engine import GameRecord, RococoGame, play_game
from ricochet_math.games.rococo.holds import (
    JACKS_OR_BETTER_9_6, DrawPaytable, DrawReturn, HoldValues, hold_values, optimal_return,
)
from ricochet_math.games.rococo.play import PotHistory, play_pot
from ricochet_math.games.rococo.rules import RococoRules
from ricochet_math.games.rococo.solver import DrawSolution, share_by_value, solve_draws
from ricochet_math.games.rococo.strategy import StrategyTable, naive_keep, strategy_table

#: the game contract's name for the rules class (docs/adding-a-game.md)
Rules = RococoRules

__all__ = [
    "Rules", "RococoRules", "BettingPolicy", "POLICIES",
    "KEEPS", "keep_text", "DrawDistribution", "draw_distribution",
    "DrawSolution", "solve_draws", "share_by_value", "StrategyTable", "strategy_table", "naive_keep",
    "RococoGame", "GameRecord", "play_game", "PotHistory", "play_pot",
    "RococoResult", "simulate", "BlindValue", "blind_value", "BestResponse", "BestResponseConfirmation",
    "best_response", "removal_check",
    "DrawPaytable", "JACKS_OR_BETTER_9_6", "HoldValues", "hold_values", "DrawReturn", "optimal_return",
    "build_report", "solve_equilibrium", "RococoEquilibrium", "ABSTRACTIONS", "dealt_law", "BlindAnswer",
    "measure_every_raise_size", "TRANSLATIONS", "report_comparison",
]

#: names loaded on first use (the equilibrium layer's kernels are needed only by a solve)
_DEFERRED = {"solve_equilibrium": "equilibrium", "RococoEquilibrium": "equilibrium", "ABSTRACTIONS": "betting_game",
             "dealt_law": "blind_game", "BlindAnswer": "blind_equilibrium",
             "measure_every_raise_size": "every_raise_size", "TRANSLATIONS": "translation",
             "report_comparison": "equilibrium_section"}


def __getattr__(name: str):
    if name == "build_report":  # deferred (see the module docstring)
        from ricochet_math.games.rococo.report import build_report
        return build_report
    if name in _DEFERRED:
        import importlib

        return getattr(importlib.import_module(f"{__name__}.{_DEFERRED[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
