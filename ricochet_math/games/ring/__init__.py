"""Ring Poker (``shared/seeds/002``): pairs taken from a ring of six piles, three five-card hands
from 18 cards, scored slot by slot.

Modules, one idea each: ``rules`` (the options), ``hands`` (the one hand value, jokers included),
``engine`` (the readable game and its history), ``strategies`` (drafting: kernel and readable twin),
``future`` (the expected future pairs ``greedy`` values), ``scoring``, ``kernel`` (the batch kernel,
tested equal to the engine), ``arrangement`` (the exact arrangement solver), ``analysis`` (Monte
Carlo: seats, order, pairings, best responses confirmed on fresh seeds) and ``report``.  See ``docs/ring-poker.md``.

The names below are the package's public entry points, the same verbs as the other games'
(``import ricochet_math as rm``: ``rm.ring.simulate``, ``rm.ring.arrange``, ...).  ``ISSUE_STRATEGIES``
are the drafting strategies issue 16 names (``greedy`` among them: about 10 ms a decision),
``FAST_STRATEGIES`` the same with the fast heuristic ``greedy-fast`` in its place.  ``build_report`` (``report.build_report``) is loaded on
first use (the report machinery would slow every ``ricochet ring`` command's start-up).
"""
from __future__ import annotations

from ricochet_math.games.ring.analysis import (
    BestResponseConfirmation, PairingTable, RingSimulation, confirm_best_responses, pairings, simulate,
)
from ricochet_math.games.ring.arrangement import Arrangement, OpponentModel, arrange, opponent_model
from ricochet_math.games.ring.engine import GameRecord, RingGame, play_game
from ricochet_math.games.ring.rules import RingRules
from ricochet_math.games.ring.strategies import FAST_STRATEGIES, ISSUE_STRATEGIES

#: the game contract's name for the rules class (docs/adding-a-game.md)
Rules = RingRules

__all__ = [
    "Rules", "RingRules", "RingGame", "GameRecord", "play_game",
    "Arrangement", "OpponentModel", "arrange", "opponent_model",
    "RingSimulation", "simulate", "PairingTable", "pairings", "BestResponseConfirmation", "confirm_best_responses",
    "ISSUE_STRATEGIES", "FAST_STRATEGIES",
    "build_report",
]


def __getattr__(name: str):
    if name == "build_report":  # deferred (see the module docstring)
        from ricochet_math.games.ring.report import build_report
        return build_report
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
