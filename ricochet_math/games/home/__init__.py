"""The home game and Ricochet Poker II (rulebook: first and last sections): rules, engine, kernel,
strategies, expectimax solver, fairness analysis and report.  See docs/home-game.md.

Modules: ``rules`` (the options, both variants), ``deal`` (seeded decks), ``hands`` (the hand keys),
``engine`` (one readable game and its history), ``strategies`` (the buying strategies, kernel and
readable), ``kernel`` (the numba batch kernel, tested equal to the engine), ``solver`` (the readable
expectimax), ``exact`` (its numba twin for two live hands: the whole two-player game where the tree fits),
``shortcuts`` (the shortcuts' regret against it), ``tree_size`` (the exact tree's size below a position,
counted or estimated without solving), ``deal_error`` (the optimal strategy scored against the exact solve
from a deal of two cards each), ``analysis`` (simulations and the fairness tests) and ``report`` (the short report).

The names below are the package's public entry points, the same verbs as the other games'
(``import ricochet_math as rm``: ``rm.home.simulate``, ``rm.home.solve``, ...).  ``build_report``
(``report.build_report``) is loaded on first use: the report pulls in the report machinery,
which every ``ricochet home`` command would otherwise pay for at start-up.
"""
from __future__ import annotations

from ricochet_math.games.home.analysis import HomeSimulation, simulate, simulate_games
from ricochet_math.games.home.deal_error import DealError, deal_error
from ricochet_math.games.home.engine import GameRecord, HomeGame, play_game
from ricochet_math.games.home.exact import ExactSolver, solve_deals, solve_exact
from ricochet_math.games.home.rules import HomeRules
from ricochet_math.games.home.shortcuts import game_positions, shortcut_error
from ricochet_math.games.home.solver import Position, Solution, position, solve
from ricochet_math.games.home.tree_size import TreeSize, count_positions, estimate_positions, knuth_tree

#: the game contract's name for the rules class (docs/adding-a-game.md)
Rules = HomeRules

__all__ = [
    "Rules", "HomeRules", "HomeGame", "GameRecord", "play_game",
    "HomeSimulation", "simulate", "simulate_games",
    "Position", "position", "Solution", "solve", "ExactSolver", "solve_exact", "solve_deals",
    "game_positions", "shortcut_error",
    "TreeSize", "count_positions", "estimate_positions", "knuth_tree", "DealError", "deal_error",
    "build_report",
]


def __getattr__(name: str):
    if name == "build_report":  # deferred (see the module docstring)
        from ricochet_math.games.home.report import build_report
        return build_report
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
