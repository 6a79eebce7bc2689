"""The equilibrium layer: extensive-form games with chance, their equilibria and how far a strategy is from one.

A sub-package in the foundation's reach (it imports only ``errors``, ``arguments``, ``_numba``,
``storage``, ``random_streams`` and ``progress``; nothing of any game), so any game of the package can lay
out its tree and use it.  ``import ricochet_math as rm``; ``rm.equilibrium.solve(rm.equilibrium.LeducPoker(),
"cfr+", 1000, every=100)``.

Modules
-------
``game``            the readable interface of a game (:class:`Game`: players, information-set keys, actions,
                    chance outcomes, utilities)
``tree``            the game laid out once as flat arrays (:func:`build_tree`, :class:`GameTree`)
``kuhn``, ``leduc`` the reference games with known answers (Kuhn poker, any player count; Leduc hold'em)
``schedules``       CFR, CFR+ and Discounted CFR as schedules of discounts and weights
``cfr``             the readable CFR twin over the game's histories
``cfr_kernel``      the numba kernels over the arrays (tested equal to the twin)
``mccfr``           external-sampling Monte Carlo CFR, seeded, kernel and readable twin
``best_response``   exact best responses, exploitability (NashConv), strategies from a mapping
``sequence_lp``     the sequence-form linear program (HiGHS): the exact value of a two-player zero-sum game
``checkpoint``      checkpoints of a long solve and their checks
``results``         :class:`SolveResult`
``solving``         :func:`solve`: iterations, measurements, progress, checkpoint and resume
"""
from __future__ import annotations

from ricochet_math.equilibrium.best_response import (
    Exploitability, best_response, exploitability, profile_from_mapping, profile_to_mapping, uniform_profile,
)
from ricochet_math.equilibrium.game import CHANCE, TERMINAL, Game
from ricochet_math.equilibrium.kuhn import KUHN_VALUE, KuhnPoker
from ricochet_math.equilibrium.leduc import LeducPoker
from ricochet_math.equilibrium.results import SolveResult
from ricochet_math.equilibrium.schedules import Schedule, cfr_plus, dcfr, vanilla_cfr
from ricochet_math.equilibrium.sequence_lp import SequenceFormSolution, solve_sequence_form
from ricochet_math.equilibrium.solving import reference_game, solve
from ricochet_math.equilibrium.tree import GameTree, build_tree

__all__ = [
    "Game", "CHANCE", "TERMINAL", "GameTree", "build_tree",
    "KuhnPoker", "KUHN_VALUE", "LeducPoker", "reference_game",
    "Schedule", "vanilla_cfr", "cfr_plus", "dcfr", "solve", "SolveResult",
    "best_response", "exploitability", "Exploitability", "profile_from_mapping", "profile_to_mapping",
    "uniform_profile", "solve_sequence_form", "SequenceFormSolution",
]
