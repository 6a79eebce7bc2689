"""The equilibrium layer: extensive-form games with chance, their equilibria and how far a strategy is from one.

A sub-package in the foundation's reach (it imports only ``errors``, ``arguments``, ``_numba``,
``storage``, ``random_streams`` and ``progress``; nothing of any game), so any game of the package can lay
out its tree and use it.  ``import ricochet_math as rm``; ``rm.equilibrium.solve(rm.equilibrium.LeducPoker(),
"cfr+", 1000, every=100)``.

Modules: :mod:`~ricochet_math.equilibrium.game`, :mod:`~ricochet_math.equilibrium.tree`, :mod:`~ricochet_math.equilibrium.kuhn`, :mod:`~ricochet_math.equilibrium.leduc`, :mod:`~ricochet_math.equilibrium.schedules`, :mod:`~ricochet_math.equilibrium.cfr`, :mod:`~ricochet_math.equilibrium.cfr_kernel`, :mod:`~ricochet_math.equilibrium.mccfr`, :mod:`~ricochet_math.equilibrium.best_response`, :mod:`~ricochet_math.equilibrium.sequence_lp`, :mod:`~ricochet_math.equilibrium.checkpoint`, :mod:`~ricochet_math.equilibrium.results`, :mod:`~ricochet_math.equilibrium.solving`.  The game's readable
interface (``game``) is laid out once as flat arrays (``tree``); the reference games with known answers are
Kuhn poker (any player count) and Leduc hold'em; CFR, CFR+ and Discounted CFR are schedules (``schedules``)
run by the numba kernels (``cfr_kernel``) and their readable twin (``cfr``); external-sampling MCCFR
(``mccfr``); exact best responses and NashConv (``best_response``); the sequence-form LP
(``sequence_lp``); checkpoints, results and the :func:`~ricochet_math.equilibrium.solving.solve` driver.  The method:
``docs/methods/equilibrium.md``.
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
