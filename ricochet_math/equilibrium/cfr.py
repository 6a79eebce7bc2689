"""The readable CFR family: counterfactual regret minimisation walking the game's own methods.

This is the twin of :mod:`~ricochet_math.equilibrium.cfr_kernel`: the same schedule
(:mod:`~ricochet_math.equilibrium.schedules`) written as the textbook recursion over histories, with
regrets in a dictionary by information-set key, as OpenSpiel's Python ``CFRSolver`` does it.  It is slow
(a Python call per history) and is there to be read and to check the kernel, which runs the same
iterations over the flat tree arrays (tested equal to 1e-12).

At a history of the updated player ``p`` with actions ``a``, her regret for ``a`` grows by the
counterfactual reach (chance and the other players' probability of reaching the history) times the value
of ``a`` less the value of her current strategy; her strategy enters the average weighted by her own
reach probability and the schedule's weight.  The current strategy is regret matching: each action in
proportion to its positive regret, uniform when none is positive.
"""
from __future__ import annotations

from ricochet_math.equilibrium.game import CHANCE, TERMINAL, Game
from ricochet_math.equilibrium.schedules import Schedule

__all__ = ["ReadableCFR", "regret_matching"]


def regret_matching(regrets: list[float]) -> list[float]:
    """Each action in proportion to its positive regret; uniform when no regret is positive."""
    positive = [r if r > 0.0 else 0.0 for r in regrets]
    total = sum(positive)
    if total > 0.0:
        return [r / total for r in positive]
    return [1.0 / len(regrets)] * len(regrets)


def _times(reach: list[float], q: int, prob: float) -> list[float]:
    out = list(reach)
    out[q] *= prob
    return out


def _product(values: list[float]) -> float:
    """The product in order (1 for none)."""
    out = 1.0
    for i, x in enumerate(values):
        out = x if i == 0 else out * x
    return out


class ReadableCFR:
    """CFR, CFR+ or DCFR on ``game`` under ``schedule``, one :meth:`iterate` at a time."""

    def __init__(self, game: Game, schedule: Schedule) -> None:
        self.game, self.schedule = game, schedule
        self.iteration = 0
        self.regret: dict[str, list[float]] = {}
        self.cumulative: dict[str, list[float]] = {}
        self.owner: dict[str, int] = {}
        self._strategy: dict[str, list[float]] = {}
        self._discover(game.initial())

    def _discover(self, history) -> None:
        who = self.game.player(history)
        if who == TERMINAL:
            return
        if who == CHANCE:
            for outcome, _ in self.game.chance_outcomes(history):
                self._discover(self.game.next(history, outcome))
            return
        key = self.game.infoset(history)
        actions = self.game.actions(history)
        if key not in self.regret:
            self.regret[key] = [0.0] * len(actions)
            self.cumulative[key] = [0.0] * len(actions)
            self.owner[key] = who
        for a in actions:
            self._discover(self.game.next(history, a))

    def iterate(self) -> None:
        """One iteration: each player in turn traverses the tree and updates her regrets and average."""
        self.iteration += 1
        t = self.iteration
        positive, negative, weight = (float(x[0]) for x in self.schedule.factors(t - 1, 1))
        for p in range(self.game.num_players):
            self._strategy = {key: regret_matching(r) for key, r in self.regret.items()}
            self._walk(self.game.initial(), p, [1.0] * (self.game.num_players + 1), weight)
            for key, regrets in self.regret.items():
                if self.owner[key] != p:
                    continue
                for a, r in enumerate(regrets):
                    r *= positive if r > 0.0 else negative if r < 0.0 else 1.0
                    regrets[a] = max(r, 0.0) if self.schedule.clip else r

    def _walk(self, history, p: int, reach: list[float], weight: float) -> float:
        """Player ``p``'s value at ``history`` under the current strategies; ``reach[q]`` is player ``q``'s
        probability of reaching it, ``reach[-1]`` chance's."""
        game = self.game
        who = game.player(history)
        if who == TERMINAL:
            return float(game.utilities(history)[p])
        if who == CHANCE:
            value = 0.0
            for outcome, prob in game.chance_outcomes(history):
                value += prob * self._walk(game.next(history, outcome), p, _times(reach, -1, prob), weight)
            return value
        key = game.infoset(history)
        sigma = self._strategy[key]
        actions = game.actions(history)
        values = [self._walk(game.next(history, a), p, _times(reach, who, s), weight) for a, s in zip(actions, sigma)]
        value = 0.0
        for s, v in zip(sigma, values):
            value += s * v
        if who != p:
            return value
        counterfactual = _product(reach[:p]) * _product(reach[p + 1:])  # chance and the other players
        regrets, cumulative = self.regret[key], self.cumulative[key]
        for a, (s, v) in enumerate(zip(sigma, values)):
            regrets[a] += counterfactual * (v - value)
            cumulative[a] += weight * reach[p] * s
        return value

    def average_strategy(self) -> dict[str, list[float]]:
        """The average strategy by information-set key (uniform where it was never reached)."""
        out = {}
        for key, c in self.cumulative.items():
            total = sum(c)
            out[key] = [x / total for x in c] if total > 0.0 else [1.0 / len(c)] * len(c)
        return out
