"""A best response that knows its exact final value: what the card abstraction costs.

In :mod:`~ricochet_math.games.rococo.betting_game` a player's information set names her *bucket*.  A
responder who knows her exact final value ``v`` (one of 7,462) instead, against a strategy that plays
by buckets, can do better; the gain is the card abstraction's cost.  Under the draw model's independence
the opponent's bucket does not depend on ``v``, so the responder's problem, for each public pair of
discard counts, is a one-player tree against the opponent's bucket mixture, solved for every ``v`` at
once as vectors (range against range):

* ``V(h, v, b)``: the responder's value after moves ``h`` when her value is ``v`` and the opponent's
  bucket is ``b``; at a terminal the pot paid by the exact showdown share of ``v`` against bucket
  ``b``'s values (``P(vB < v) + P(vB = v) / 2``), a fold or the carry's continuation value;
* at an opponent's move ``V(h, v, b) = sum_a sigma(b, h, a) V(h a, v, b)``;
* at the responder's move she takes, for each ``v``, the action with the highest
  ``sum_b rho(b, h) V(h a, v, b)``, ``rho(b, h)`` the probability of bucket ``b`` and of the opponent's
  moves in ``h`` (what the responder weighs when she decides).

The value is ``sum over the discard pairs and v`` of their probabilities times ``sum_b rho(b, root)
V(root, v, b)``.  With buckets of one value each it is the layer's exact best response in the abstract
tree (a test); it is never below it.  The carried pot's levels come backward as in
:func:`~ricochet_math.games.rococo.equilibrium.pot_best_responses`.  The walk itself is
:func:`~ricochet_math.games.rococo.range_response.range_best_response` with exact-value rows (which also
measures with every raise size without the larger tree).
"""
from __future__ import annotations

import numpy as np

from ricochet_math.games.rococo.betting_game import BettingTree
from ricochet_math.games.rococo.range_response import pot_range_best_responses, range_best_response

__all__ = ["exact_card_best_response", "pot_exact_card_best_responses"]


def exact_card_best_response(bt: BettingTree, sigma: np.ndarray, p: int, level: int,
                             carry: float | None) -> float:
    """Player ``p``'s best-response value (antes per pot, from this level on) at ``level`` knowing her exact
    final value, against the opponent's part of ``sigma`` (an entry array of ``bt.tree``); a carry is
    worth ``carry`` to her (None: the last level, shown down)."""
    return range_best_response(bt, sigma, p, level, carry, cards="exact", every_raise_size=False)


def pot_exact_card_best_responses(bt: BettingTree, profiles) -> tuple[np.ndarray, np.ndarray]:
    """``(BRF, BRS)`` per level for a responder who knows her exact final value, against ``profiles``
    (one entry array per level), backward over the levels as
    :func:`~ricochet_math.games.rococo.equilibrium.pot_best_responses`."""
    return pot_range_best_responses(bt, profiles, cards="exact", every_raise_size=False)
