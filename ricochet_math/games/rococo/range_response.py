"""Best responses to a bucketed Rococo strategy computed range against range over the betting histories:
the exploitability with every raise size without laying out the tree with every raise size.

The betting tree of :mod:`~ricochet_math.games.rococo.betting_game` repeats the same betting histories
under every deal; with every raise size 1..10 it has 6,663 betting histories a deal, so at the ``default``
abstraction (2,601 deals) the tree would have about 17 million nodes.  A best response does not need it:
under the draw model's independence the opponent's bucket does not depend on the responder's cards, so
for each public pair of discard counts the responder's problem is one walk over the betting histories
against the opponent's bucket mixture, with every private row of the responder at once as vectors (as
:mod:`~ricochet_math.games.rococo.exact_cards` does in the abstract tree):

* the responder's *rows* are her buckets (``cards="buckets"``: the best response of the abstract card
  game, equal to the layer's exact best response in the tree, a test) or her exact final values
  (``cards="exact"``: the card abstraction's cost too);
* ``V(h, r, b)``: her value after the betting history ``h`` with row ``r`` against opponent bucket ``b``;
  a terminal pays the fold, the showdown at the exact pot share of ``r`` against ``b``, or the carry's
  continuation value;
* at the opponent's move her abstract strategy is read at the *translated* history: each of the
  responder's raises read as an abstract size by a :class:`~ricochet_math.games.rococo.translation.Translation`
  (the nearest size, as :func:`~ricochet_math.games.rococo.betting_game.translate_history`, or a
  randomised mapping); the opponent never makes an off-tree raise;
* a randomised translation makes the reading a hidden state of the opponent: each *reading* (an abstract
  history) carries its own opponent reach ``rho(b)`` times its probability, and the responder, who does
  not see it, takes per row the action with the highest ``sum over readings and b`` of ``rho V``.

The value is the sum over the discard pairs and rows of their probabilities times the root's
``sum_b rho(b) V``.  The carried pot's levels come backward as in
:func:`~ricochet_math.games.rococo.equilibrium.pot_best_responses`.  Cost: a walk of a few thousand
histories per discard pair and level, not a 17-million-node tree (seconds per level at ``default`` with
bucket rows; the exact-value rows are arrays of 7,462 rows, some tens of times slower).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ricochet_math.errors import RicochetError
from ricochet_math.games.rococo.betting_game import BettingTree, RococoBettingGame
from ricochet_math.games.rococo.range_cfr import RangeProfile
from ricochet_math.games.rococo.translation import NEAREST, Translation

__all__ = ["range_best_response", "pot_range_best_responses", "CARDS"]

#: what the responder knows of her own cards: her bucket, or her exact final value
CARDS = ("buckets", "exact")


def _rows(bt: BettingTree, cards: str, d_own: int, d_opp: int) -> tuple[np.ndarray, np.ndarray]:
    """``(probability of each row, float[rows, opponent buckets] pot share of the row against each)``."""
    bk, model = bt.game.buckets, bt.game.model
    dist = bk.dist[d_opp]  # [buckets, 7462]
    against = np.cumsum(dist, axis=1) - 0.5 * dist  # P(vB < v) + P(vB = v) / 2
    if cards == "exact":
        values = np.flatnonzero(model.final[d_own] > 0)
        return model.final[d_own][values], against[:, values].T
    return np.asarray(bk.prob[d_own], float), bk.dist[d_own] @ against.T


@lru_cache(maxsize=4)
def _betting(game: RococoBettingGame, every: bool) -> RococoBettingGame:
    """The game whose moves the responder may make: the abstract one, or the same cards with every size."""
    if not every:
        return game
    return RococoBettingGame(game.rules, game.model, game.spec.unabstracted_betting())


def range_best_response(bt: BettingTree, sigma: np.ndarray, p: int, level: int, carry: float | None, *,
                        cards: str = "buckets", every_raise_size: bool = True,
                        translation: Translation = NEAREST) -> float:
    """Player ``p``'s best-response value (antes per pot, from this level on) at ``level`` against the
    opponent's part of ``sigma`` (an entry array of ``bt.tree``, the abstract tree; or a
    :class:`~.range_cfr.RangeProfile` of the range solver, ``bt`` then its public tree), the responder raising
    any size ``min_bet..max_bet`` (``every_raise_size``) or only the abstract sizes, her raises read by the
    opponent through ``translation``; she knows her bucket or her exact final value (``cards``); a carry is
    worth ``carry`` to her (None: the last level, shown down)."""
    if cards not in CARDS:
        raise RicochetError(f"cards must be one of {', '.join(CARDS)}, got {cards!r:.40}")
    tree = None if isinstance(sigma, RangeProfile) else bt.tree
    abstract = bt.game
    game = _betting(abstract, every_raise_size)
    sizes = abstract.sizes
    carried = 2.0 * level * game.rules.ante
    model = game.model
    q = 1 - p
    total = 0.0
    for da in range(4):
        for db in range(4):
            weight = model.discard_prob[da] * model.discard_prob[db]
            if weight <= 0:
                continue
            d_own, d_opp = (da, db) if p == 0 else (db, da)
            prob_rows, share = _rows(bt, cards, d_own, d_opp)
            n_rows, n_b = share.shape
            prefix = f"{'AB'[q]}{da}.{db}:"
            cache: dict = {}

            def opponent(amoves):
                """``(actions, float[buckets, actions])``: the opponent's abstract strategy at ``amoves``."""
                got = cache.get(amoves)
                if got is None and isinstance(sigma, RangeProfile):  # the range solver's layout
                    got = sigma.at(q, da, db, amoves)
                    cache[amoves] = got
                elif got is None:
                    tail = "|" + ".".join(amoves)
                    idx = [tree.index[f"{prefix}{b}{tail}"] for b in range(n_b)]
                    acts = tree.actions[idx[0]]
                    got = (acts, np.stack([sigma[tree.offset[i]:tree.offset[i + 1]] for i in idx]))
                    cache[amoves] = got
                return got

            def value(moves, readings):
                """One ``float[rows, buckets]`` per reading ``(abstract moves, rho)``: V(h, r, b) below ``moves``."""
                history = ("0.0.0.0", *moves)  # any deal: the moves decide who acts and what is legal
                who = game.player(history)
                if who < 0:  # terminal
                    s = game.stakes(moves)
                    pot = carried + s[0] + s[1]
                    if tuple(moves) == ("c", "c") and carry is not None:
                        v = np.full((n_rows, n_b), float(carry))
                    elif moves[-1] == "f":
                        won = 0.0 if (len(moves) - 1) % 2 == p else 1.0
                        v = np.full((n_rows, n_b), won * pot - s[p] - carried / 2)
                    else:
                        v = share * pot - s[p] - carried / 2
                    return [v] * len(readings)
                actions = game.actions(history)
                if who == q:
                    strategies = [opponent(am) for am, _ in readings]
                    out = [np.zeros((n_rows, n_b)) for _ in readings]
                    for a in actions:
                        probs = [st[:, acts.index(a)] if a in acts else None for acts, st in strategies]
                        if all(pr is None or not pr.any() for pr in probs):
                            continue  # the opponent never makes this move (an off-tree raise)
                        zero = np.zeros(n_b)
                        child = [(am + (a,), rho * (zero if pr is None else pr))
                                 for (am, rho), pr in zip(readings, probs)]
                        below = value((*moves, a), child)
                        for o, pr, v in zip(out, probs, below):
                            if pr is not None:
                                o += pr[None, :] * v
                    return out
                pot = carried + 2 * max(game.stakes(moves))  # the pot once she has called: what a raise is a fraction of
                per_action, scores = [], []
                for a in actions:
                    if a.startswith("r"):
                        reads = translation.read(int(a[1:]), sizes, pot)
                    else:
                        reads = ((None, 1.0),)
                    child, parent = [], []
                    for r, (am, rho) in enumerate(readings):
                        for size, w in reads:
                            if w > 0:
                                child.append((am + (a if size is None else f"r{size}",), rho * w))
                                parent.append((r, w))
                    below = value((*moves, a), child)
                    mine = [np.zeros((n_rows, n_b)) for _ in readings]
                    score = np.zeros(n_rows)
                    for (r, w), (_, rho), v in zip(parent, child, below):
                        mine[r] += w * v
                        score += v @ rho
                    per_action.append(mine)
                    scores.append(score)
                best = np.argmax(np.stack(scores), axis=0)  # the first best action on ties
                rows = np.arange(n_rows)
                return [np.stack([m[r] for m in per_action])[best, rows] for r in range(len(readings))]

            rho0 = np.asarray(bt.game.buckets.prob[d_opp], float)
            root = value((), [((), rho0)])[0]
            total += weight * float(prob_rows @ (root @ rho0))
    return total


def pot_range_best_responses(bt: BettingTree, profiles, **options) -> tuple[np.ndarray, np.ndarray]:
    """``(BRF, BRS)`` per level against ``profiles`` (one entry array of ``bt.tree`` per level), backward
    over the levels as :func:`~ricochet_math.games.rococo.equilibrium.pot_best_responses`; ``options`` as
    :func:`range_best_response`."""
    levels = bt.carry_limit + 1
    brf, brs = np.zeros(levels), np.zeros(levels)
    for k in range(levels - 1, -1, -1):
        last = k == levels - 1
        brf[k] = range_best_response(bt, profiles[k], 0, k, None if last else brs[k + 1], **options)
        brs[k] = range_best_response(bt, profiles[k], 1, k, None if last else brf[k + 1], **options)
    return brf, brs

