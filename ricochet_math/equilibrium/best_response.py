"""Exact best responses and exploitability (NashConv) of any strategy profile, and profiles from a mapping.

A *profile* is one entry array (:mod:`~ricochet_math.equilibrium.tree`): the probability of each action
at each information set, every player's together.  Player ``p``'s best response maximises, information
set by information set, her counterfactual value: the sum over the set's histories of the probability
that chance and the others reach it times her value after the action.  With perfect recall her
information sets below one of depth ``d`` (``d`` actions of hers before it) all have depth ``> d``, so
the kernel decides the deepest first: one backward sweep per depth, then one for the value.

**Exploitability** here is NashConv, the sum over players of what a best response gains over the
profile, ``sum_p (BR_p - u_p)``, in the game's unit (chips).  In a two-player zero-sum game the ``u_p``
cancel and it is the sum of the two best-response values; it is 0 exactly at an equilibrium.  OpenSpiel's
``exploitability`` is NashConv divided by the number of players (half of ours for two players); both
are reported (:class:`Exploitability`).

:func:`readable_best_response` is the twin: the textbook recursion over the game's histories with the
best action of each information set found on first need.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.errors import RicochetError
from ricochet_math.equilibrium.cfr_kernel import chance_value, expected_values, mixed_value
from ricochet_math.equilibrium.game import CHANCE, TERMINAL, Game
from ricochet_math.equilibrium.tree import GameTree

__all__ = ["best_response", "exploitability", "Exploitability", "profile_from_mapping", "profile_to_mapping",
           "uniform_profile", "readable_best_response"]

_CHANCE = -1
_TERMINAL = -2
#: a mapped strategy's probabilities at an information set must sum to 1 within this
_SUM_TOLERANCE = 1e-9


@njit
def _best_response(p, player, infoset, first_child, num_children, chance_prob, utility, offset,
                   infoset_player, infoset_depth, sigma, response):
    """Player ``p``'s best-response value against ``sigma``; her pure best response written into
    ``response`` (her entries only; the others' entries are copied from ``sigma``)."""
    n_nodes = len(player)
    other = np.empty(n_nodes)
    value = np.empty(n_nodes)
    q = np.zeros(len(sigma))
    choice = np.full(len(offset) - 1, -1, np.int64)
    other[0] = 1.0
    for n in range(n_nodes):
        who = player[n]
        if who == _TERMINAL:
            continue
        c0 = first_child[n]
        for j in range(num_children[n]):
            if who == _CHANCE:
                other[c0 + j] = other[n] * chance_prob[c0 + j]
            elif who == p:
                other[c0 + j] = other[n]
            else:
                other[c0 + j] = other[n] * sigma[offset[infoset[n]] + j]
    deepest = -1
    for i in range(len(offset) - 1):
        if infoset_player[i] == p and infoset_depth[i] > deepest:
            deepest = infoset_depth[i]
    for d in range(deepest, -2, -1):  # d = -1: the last sweep, every choice made
        for n in range(n_nodes - 1, -1, -1):
            who = player[n]
            if who == _TERMINAL:
                value[n] = utility[n, p]
                continue
            c0 = first_child[n]
            v = 0.0
            if who == _CHANCE:
                v = chance_value(n, first_child, num_children, chance_prob, value)
            elif who != p:
                v = mixed_value(n, first_child, num_children, offset[infoset[n]], sigma, value)
            else:
                i = infoset[n]
                if infoset_depth[i] > d:
                    v = value[c0 + choice[i]]
                elif infoset_depth[i] == d:
                    for j in range(num_children[n]):
                        q[offset[i] + j] += other[n] * value[c0 + j]
            value[n] = v
        if d >= 0:
            for i in range(len(offset) - 1):
                if infoset_player[i] == p and infoset_depth[i] == d:
                    best = 0
                    for j in range(1, offset[i + 1] - offset[i]):
                        if q[offset[i] + j] > q[offset[i] + best]:
                            best = j
                    choice[i] = best
    for i in range(len(offset) - 1):
        for e in range(offset[i], offset[i + 1]):
            if infoset_player[i] == p:
                response[e] = 1.0 if e - offset[i] == choice[i] else 0.0
            else:
                response[e] = sigma[e]
    return value[0]


def _check_profile(tree: GameTree, sigma) -> np.ndarray:
    sigma = np.ascontiguousarray(sigma, dtype=np.float64)
    if sigma.shape != (tree.num_entries,):
        raise RicochetError(f"a strategy profile of {tree.game} has {tree.num_entries:,} entries, got shape "
                            f"{sigma.shape}")
    return sigma


def best_response(tree: GameTree, sigma, p: int) -> tuple[float, np.ndarray]:
    """``(value, profile)``: player ``p``'s best-response value against ``sigma`` (the others' part of the
    entry array), and ``sigma`` with her part replaced by a pure best response."""
    sigma = _check_profile(tree, sigma)
    response = np.empty_like(sigma)
    value = _best_response(p, *tree.kernel_arrays(), tree.infoset_player, tree.infoset_depth, sigma, response)
    return float(value), response


@dataclass(frozen=True)
class Exploitability:
    """How far a profile is from an equilibrium, in the game's unit (chips).

    ``values[p]``: player ``p``'s expected utility under the profile; ``best[p]``: her best-response value
    against the others; ``gains = best - values``; ``nash_conv``: their sum, the exploitability of the
    issue (two players, zero-sum: the sum of both best-response values); ``openspiel``: NashConv divided by
    the number of players, OpenSpiel's ``exploitability``."""

    game: str
    values: tuple[float, ...]
    best: tuple[float, ...]

    @property
    def gains(self) -> tuple[float, ...]:
        return tuple(b - v for b, v in zip(self.best, self.values))

    @property
    def nash_conv(self) -> float:
        return float(sum(self.gains))

    @property
    def openspiel(self) -> float:
        return self.nash_conv / len(self.values)

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame({"player": range(len(self.values)), "value": self.values, "best_response": self.best,
                             "gain": self.gains})

    def summary(self) -> str:
        return (f"{self.game}: exploitability (NashConv) {self.nash_conv:.6g} chips (OpenSpiel's, per player: "
                f"{self.openspiel:.6g}); values {', '.join(f'{v:.6g}' for v in self.values)}")


def exploitability(tree: GameTree, sigma) -> Exploitability:
    """NashConv of the profile ``sigma`` (an entry array; :func:`profile_from_mapping` makes one from a
    hand-written strategy), with every player's value and best-response value."""
    sigma = _check_profile(tree, sigma)
    values = expected_values(*tree.kernel_arrays(), sigma)
    best = tuple(best_response(tree, sigma, p)[0] for p in range(tree.num_players))
    return Exploitability(tree.game, tuple(float(v) for v in values), best)


def uniform_profile(tree: GameTree) -> np.ndarray:
    """Every action of every information set equally likely."""
    return np.repeat(1.0 / np.diff(tree.offset), np.diff(tree.offset)).astype(np.float64)


def profile_from_mapping(tree: GameTree, mapping: Mapping[str, Mapping[str, float] | Sequence[float]],
                         players: Sequence[int] | None = None, base=None) -> np.ndarray:
    """An entry array from ``{information-set key: probabilities}``, the probabilities a mapping
    ``{action: probability}`` (actions not named: 0) or a sequence in the order of the set's actions.

    ``players``: the players the mapping must cover (default all); the other players' entries come from
    ``base`` (default uniform).  Refused with one line naming it: an information set of those players the
    mapping does not cover, a key that is no information set of the game, an unknown action,
    probabilities negative, not finite or not summing to 1.
    """
    players = range(tree.num_players) if players is None else tuple(players)
    sigma = uniform_profile(tree) if base is None else _check_profile(tree, base).copy()
    for key in mapping:
        if key not in tree.index:
            raise RicochetError(f"strategy names information set {key!r}, which {tree.game} does not have")
    for i, key in enumerate(tree.keys):
        who = int(tree.infoset_player[i])
        if who not in players:
            continue
        if key not in mapping:
            raise RicochetError(f"strategy does not cover information set {key!r} of player {who} in {tree.game}")
        probs = mapping[key]
        actions = tree.actions[i]
        if isinstance(probs, Mapping):
            unknown = [a for a in probs if a not in actions]
            if unknown:
                raise RicochetError(f"strategy at information set {key!r}: unknown action {unknown[0]!r} "
                                    f"(legal: {', '.join(actions)})")
            row = [float(probs.get(a, 0.0)) for a in actions]
        else:
            row = [float(x) for x in probs]
            if len(row) != len(actions):
                raise RicochetError(f"strategy at information set {key!r} gives {len(row)} probabilities for "
                                    f"{len(actions)} actions ({', '.join(actions)})")
        if not all(math.isfinite(x) and x >= 0.0 for x in row) or abs(sum(row) - 1.0) > _SUM_TOLERANCE:
            raise RicochetError(f"strategy at information set {key!r}: probabilities must be non-negative and "
                                f"sum to 1, got {row}")
        sigma[tree.offset[i]:tree.offset[i + 1]] = row
    return sigma


def profile_to_mapping(tree: GameTree, sigma) -> dict[str, dict[str, float]]:
    """``{information-set key: {action: probability}}`` of an entry array."""
    sigma = _check_profile(tree, sigma)
    return {key: {a: float(sigma[tree.offset[i] + j]) for j, a in enumerate(tree.actions[i])}
            for i, key in enumerate(tree.keys)}


def readable_best_response(game: Game, strategy: Mapping[str, Sequence[float]], p: int) -> float:
    """Player ``p``'s best-response value against ``strategy`` (``{key: probabilities}`` in the order of
    the actions) by recursion over the game's histories: the twin of :func:`best_response`."""
    nodes: dict[str, list] = {}

    def collect(history, reach: float) -> None:
        who = game.player(history)
        if who == TERMINAL:
            return
        if who == CHANCE:
            for outcome, prob in game.chance_outcomes(history):
                collect(game.next(history, outcome), reach * prob)
            return
        key = game.infoset(history)
        if who == p:
            nodes.setdefault(key, []).append((history, reach))
        for a, s in zip(game.actions(history), strategy[key]):
            collect(game.next(history, a), reach if who == p else reach * s)

    best: dict[str, str] = {}

    def value(history) -> float:
        who = game.player(history)
        if who == TERMINAL:
            return float(game.utilities(history)[p])
        if who == CHANCE:
            return sum(prob * value(game.next(history, outcome)) for outcome, prob in game.chance_outcomes(history))
        key = game.infoset(history)
        if who != p:
            return sum(s * value(game.next(history, a)) for a, s in zip(game.actions(history), strategy[key]))
        if key not in best:
            actions = game.actions(history)
            scores = [sum(r * value(game.next(h, a)) for h, r in nodes[key]) for a in actions]
            best[key] = actions[int(np.argmax(scores))]
        return value(game.next(history, best[key]))

    collect(game.initial(), 1.0)
    return value(game.initial())
