"""Free Ride Poker (the publisher's home game for 1-6 players): rules as data, a readable engine with
hand histories, a numba kernel tested equal to it, parametrised strategies, simulations through the
game-neutral batch driver, the two-player round solved by backward induction, and a short report.

Modules: :mod:`~ricochet_math.games.freeride.rules`, :mod:`~ricochet_math.games.freeride.strategies`, :mod:`~ricochet_math.games.freeride.engine`, :mod:`~ricochet_math.games.freeride.kernel`, :mod:`~ricochet_math.games.freeride.analysis`,
:mod:`~ricochet_math.games.freeride.solver`, :mod:`~ricochet_math.games.freeride.report`.  The rules and our readings: ``docs/rules.md`` ("Free Ride Poker");
the analysis: ``docs/free-ride-poker.md``.

The names below are the package's public entry points, the same verbs as the other games'
(``import ricochet_math as rm``: ``rm.freeride.simulate``, ``rm.freeride.solve``, ...): ``simulate``
plays whole games (``simulate_rounds`` single rounds), ``solve`` is :func:`~ricochet_math.games.freeride.solver.solve_state` and
``build_report`` is :func:`~ricochet_math.games.freeride.report.build_report`, loaded on first use
like the other games' reports.
"""
from __future__ import annotations

from ricochet_math.games.freeride.analysis import (
    BestResponse, FreeRideValue, GameStats, RoundStats, best_response, free_ride_value, simulate, simulate_rounds,
)
from ricochet_math.games.freeride.engine import GameRecord, Round, play_game
from ricochet_math.games.freeride.rules import FreeRideRules
from ricochet_math.games.freeride.solver import Solution
from ricochet_math.games.freeride.solver import solve_state as solve

#: the game contract's name for the rules class (docs/adding-a-game.md)
Rules = FreeRideRules

__all__ = [
    "Rules", "FreeRideRules", "Round", "GameRecord", "play_game",
    "GameStats", "simulate", "RoundStats", "simulate_rounds",
    "BestResponse", "best_response", "FreeRideValue", "free_ride_value",
    "Solution", "solve",
    "build_report",
]


def __getattr__(name: str):
    if name == "build_report":  # deferred like the other games' reports
        from ricochet_math.games.freeride.report import build_report
        return build_report
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
