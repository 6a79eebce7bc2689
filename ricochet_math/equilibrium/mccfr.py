"""External-sampling Monte Carlo CFR (Lanctot, Waugh, Zinkevich and Bowling 2009), seeded, as a numba
kernel over the tree arrays and as a readable twin over the game's own methods.

Each iteration updates every player in turn (alternating).  The updated player ``p`` (the *traverser*)
tries every one of her actions; at chance nodes one outcome is drawn with its probability and at the
other players' nodes one action from their current strategy, and those players' current strategies are
added to their averages there ("simple" averaging, as OpenSpiel's ``ExternalSamplingSolver``).  Her
regret for an action grows by the sampled value of the action less that of her strategy (the sampling
probabilities cancel the counterfactual weights, so the update is unbiased).  An iteration visits a
sample of the tree, not all of it: the solver for trees too large to sweep whole.

**Seeds.** Iteration ``t`` draws from its own xoshiro256** stream, seeded by splitmix64 from
``mix64(key ^ mix64(t))``, ``key`` the first word of :func:`~ricochet_math.random_streams.seed_state` of
the run's seed: its draws depend on ``(seed, t)`` alone, so a run resumed from a checkpoint at
iteration ``t`` continues with the same digits as one that was never stopped, and the kernel is
sequential, so no thread count enters.  :class:`ReadableExternalSampling` draws the same numbers through
the pure-Python twins of the generators, and is tested equal to the kernel.
"""
from __future__ import annotations

import numpy as np

from ricochet_math._numba import njit
from ricochet_math.equilibrium.cfr import regret_matching
from ricochet_math.equilibrium.game import CHANCE, TERMINAL, Game
from ricochet_math.random_streams import (
    Xoshiro256, mix64, py_mix64, py_splitmix_next, seed_state, splitmix_next, xoshiro_uniform,
)

__all__ = ["seed_key", "external_sampling_iterations", "ReadableExternalSampling"]

_CHANCE = -1
_TERMINAL = -2


def seed_key(seed: int) -> int:
    """The 64-bit key of a run's seed (the first word of its xoshiro seed state)."""
    return int(seed_state(np.random.SeedSequence(seed))[0])


@njit
def _iteration_state(key, t, state):
    """xoshiro256** state of iteration ``t``: four splitmix64 outputs from ``mix64(key ^ mix64(t))``."""
    z = mix64(key ^ mix64(np.uint64(t)))
    for i in range(4):
        z, state[i] = splitmix_next(z)
    if state[0] == 0 and state[1] == 0 and state[2] == 0 and state[3] == 0:
        state[0] = np.uint64(1)


@njit
def _uniform(state):
    u, state[0], state[1], state[2], state[3] = xoshiro_uniform(state[0], state[1], state[2], state[3])
    return u


@njit
def _pick(probs, lo, hi, u):
    """The index ``j`` of ``probs[lo:hi]`` drawn by ``u`` in ``[0, 1)`` (the last one if rounding leaves ``u``
    above the cumulative sum)."""
    acc = 0.0
    for j in range(hi - lo - 1):
        acc += probs[lo + j]
        if u < acc:
            return j
    return hi - lo - 1


@njit
def _max_depth(first_child, num_children):
    """The length of the longest path from the root (nodes in breadth-first order)."""
    depth = np.zeros(len(first_child), np.int64)
    deepest = 0
    for n in range(len(first_child)):
        for j in range(num_children[n]):
            depth[first_child[n] + j] = depth[n] + 1
        if depth[n] > deepest:
            deepest = depth[n]
    return deepest


@njit
def _traverse(p, player, infoset, first_child, num_children, chance_prob, utility, offset,
              regret, cumulative, sigma, child_value, stack_node, stack_next, state):
    """One traversal for ``p``: a depth-first walk with an explicit stack (numba cannot cache a recursive
    kernel).  ``stack_next[d]``: the next child to try at a traverser's node, -1 at a node passing one
    sampled child's value up.  A traverser's child values wait in ``child_value`` at her entries (with
    perfect recall no history of the same information set lies below, so nothing overwrites them)."""
    top = 0
    stack_node[0] = 0
    entering = True
    ret = 0.0
    while True:
        n = stack_node[top]
        who = player[n]
        if entering:
            if who == _TERMINAL:
                ret = utility[n, p]
                entering = False
                if top == 0:
                    return ret
                top -= 1
                continue
            c0 = first_child[n]
            if who == _CHANCE:
                j = _pick(chance_prob, c0, c0 + num_children[n], _uniform(state))
                stack_next[top] = -1
                top += 1
                stack_node[top] = c0 + j
                continue
            e0 = offset[infoset[n]]
            k = num_children[n]
            total = 0.0
            for j in range(k):
                if regret[e0 + j] > 0.0:
                    total += regret[e0 + j]
            for j in range(k):
                sigma[e0 + j] = (regret[e0 + j] / total if regret[e0 + j] > 0.0 else 0.0) if total > 0.0 else 1.0 / k
            if who != p:
                for j in range(k):
                    cumulative[e0 + j] += sigma[e0 + j]
                j = _pick(sigma, e0, e0 + k, _uniform(state))
                stack_next[top] = -1
                top += 1
                stack_node[top] = c0 + j
                continue
            stack_next[top] = 1
            top += 1
            stack_node[top] = c0
            continue
        # returning to node n with its child's value in ret
        if stack_next[top] >= 0:
            e0 = offset[infoset[n]]
            k = num_children[n]
            j = stack_next[top]
            child_value[e0 + j - 1] = ret
            if j < k:
                stack_next[top] = j + 1
                top += 1
                stack_node[top] = first_child[n] + j
                entering = True
                continue
            v = 0.0
            for j in range(k):
                v += sigma[e0 + j] * child_value[e0 + j]
            for j in range(k):
                regret[e0 + j] += child_value[e0 + j] - v
            ret = v
        if top == 0:
            return ret
        top -= 1


@njit
def external_sampling_iterations(player, infoset, first_child, num_children, chance_prob, utility, offset,
                                 regret, cumulative, key, t0, count):
    """Iterations ``t0 + 1 .. t0 + count`` of external sampling, in place on ``regret`` and ``cumulative``."""
    n_players = utility.shape[1]
    sigma = np.empty(len(regret))
    child_value = np.empty(len(regret))
    deepest = _max_depth(first_child, num_children)
    stack_node = np.empty(deepest + 1, np.int64)
    stack_next = np.empty(deepest + 1, np.int64)
    state = np.empty(4, np.uint64)
    for t in range(t0 + 1, t0 + count + 1):
        _iteration_state(np.uint64(key), t, state)
        for p in range(n_players):
            _traverse(p, player, infoset, first_child, num_children, chance_prob, utility, offset,
                      regret, cumulative, sigma, child_value, stack_node, stack_next, state)


class ReadableExternalSampling:
    """External sampling over the game's histories, regrets by information-set key (discovered as they are
    met: nothing is laid out), drawing the kernel's random numbers: the twin of
    :func:`external_sampling_iterations`."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game, self.key = game, seed_key(seed)
        self.iteration = 0
        self.regret: dict[str, list[float]] = {}
        self.cumulative: dict[str, list[float]] = {}

    def _generator(self, t: int) -> Xoshiro256:
        z = py_mix64(self.key ^ py_mix64(t))
        words = []
        for _ in range(4):
            z, out = py_splitmix_next(z)
            words.append(out)
        if not any(words):
            words[0] = 1
        return Xoshiro256(state=words)

    def iterate(self) -> None:
        self.iteration += 1
        rng = self._generator(self.iteration)
        for p in range(self.game.num_players):
            self._walk(self.game.initial(), p, rng)

    @staticmethod
    def _pick(probs, u: float) -> int:
        acc = 0.0
        for j, x in enumerate(probs[:-1]):
            acc += x
            if u < acc:
                return j
        return len(probs) - 1

    def _walk(self, history, p: int, rng: Xoshiro256) -> float:
        game = self.game
        who = game.player(history)
        if who == TERMINAL:
            return float(game.utilities(history)[p])
        if who == CHANCE:
            outcomes = game.chance_outcomes(history)
            j = self._pick([prob for _, prob in outcomes], rng.uniform())
            return self._walk(game.next(history, outcomes[j][0]), p, rng)
        key = game.infoset(history)
        actions = game.actions(history)
        regrets = self.regret.setdefault(key, [0.0] * len(actions))
        cumulative = self.cumulative.setdefault(key, [0.0] * len(actions))
        sigma = regret_matching(regrets)
        if who != p:
            for j, s in enumerate(sigma):
                cumulative[j] += s
            j = self._pick(sigma, rng.uniform())
            return self._walk(game.next(history, actions[j]), p, rng)
        values = [self._walk(game.next(history, a), p, rng) for a in actions]
        v = sum(s * x for s, x in zip(sigma, values))
        for j, x in enumerate(values):
            regrets[j] += x - v
        return v
