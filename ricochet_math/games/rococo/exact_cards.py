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
:func:`~ricochet_math.games.rococo.equilibrium.pot_best_responses`.
"""
from __future__ import annotations

import numpy as np

from ricochet_math.games.rococo.betting_game import BettingTree

__all__ = ["exact_card_best_response", "pot_exact_card_best_responses"]


def _shares(bt: BettingTree, d_own: int, d_opp: int, values: np.ndarray) -> np.ndarray:
    """``float[len(values), buckets of d_opp]``: the pot share of each own value against each opponent
    bucket of discard count ``d_opp``."""
    dist = bt.game.buckets.dist[d_opp]  # [buckets, 7462]
    below = np.cumsum(dist, axis=1) - dist  # P(vB < v)
    return (below[:, values] + 0.5 * dist[:, values]).T


def exact_card_best_response(bt: BettingTree, sigma: np.ndarray, p: int, level: int,
                             carry: float | None) -> float:
    """Player ``p``'s best-response value (antes per pot, from this level on) at ``level`` knowing her exact
    final value, against the opponent's part of ``sigma`` (an entry array of ``bt.tree``); a carry is
    worth ``carry`` to her (None: the last level, shown down)."""
    game, tree = bt.game, bt.tree
    rules = game.rules
    model = game.model
    carried = 2.0 * level * rules.ante
    total = 0.0
    q = 1 - p
    for da in range(4):
        for db in range(4):
            weight = model.discard_prob[da] * model.discard_prob[db]
            if weight <= 0:
                continue
            d_own, d_opp = (da, db) if p == 0 else (db, da)
            values = np.flatnonzero(model.final[d_own] > 0)
            prob_v = model.final[d_own][values]
            share = _shares(bt, d_own, d_opp, values)
            n_b = share.shape[1]
            prefix = f"{'AB'[q]}{da}.{db}:"

            def opponent_strategy(moves, j):
                """``float[buckets]``: the opponent's probability of her ``j``-th action after ``moves``."""
                out = np.empty(n_b)
                for b in range(n_b):
                    i = tree.index[f"{prefix}{b}|{'.'.join(moves)}"]
                    out[b] = sigma[tree.offset[i] + j]
                return out

            def value(moves, rho):
                """``float[values, buckets]``: V(h, v, b) below ``moves``."""
                history = ("0.0.0.0", *moves)  # any deal: the moves decide who acts and what is legal
                who = game.player(history)
                if who < 0:  # terminal
                    s = game.stakes(moves)
                    pot = carried + s[0] + s[1]
                    if tuple(moves) == ("c", "c") and carry is not None:
                        return np.full((len(values), n_b), float(carry))
                    if moves[-1] == "f":
                        folder = (len(moves) - 1) % 2
                        won = 0.0 if folder == p else 1.0
                        return np.full((len(values), n_b), won * pot - s[p] - carried / 2)
                    return share * pot - s[p] - carried / 2
                actions = game.actions(history)
                if who == q:
                    out = np.zeros((len(values), n_b))
                    for j, a in enumerate(actions):
                        probs = opponent_strategy(moves, j)
                        out += probs[None, :] * value((*moves, a), rho * probs)
                    return out
                children = [value((*moves, a), rho) for a in actions]
                scores = np.stack([c @ rho for c in children])  # [actions, values]
                best = np.argmax(scores, axis=0)  # the first best action on ties
                return np.stack(children)[best, np.arange(len(values))]

            rho0 = np.asarray(game.buckets.prob[d_opp], float)
            root = value((), rho0)
            total += weight * float(prob_v @ (root @ rho0))
    return total


def pot_exact_card_best_responses(bt: BettingTree, profiles) -> tuple[np.ndarray, np.ndarray]:
    """``(BRF, BRS)`` per level for a responder who knows her exact final value, against ``profiles``
    (one entry array per level), backward over the levels as
    :func:`~ricochet_math.games.rococo.equilibrium.pot_best_responses`."""
    levels = bt.carry_limit + 1
    brf, brs = np.zeros(levels), np.zeros(levels)
    for k in range(levels - 1, -1, -1):
        last = k == levels - 1
        brf[k] = exact_card_best_response(bt, profiles[k], 0, k, None if last else brs[k + 1])
        brs[k] = exact_card_best_response(bt, profiles[k], 1, k, None if last else brf[k + 1])
    return brf, brs
