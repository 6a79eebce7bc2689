"""The full-tree solvers as schedules: how regrets are discounted and iterations weighted in the average.

Every full-tree solver of the layer is one loop (:mod:`~ricochet_math.equilibrium.cfr` reads it,
:mod:`~ricochet_math.equilibrium.cfr_kernel` runs it): iteration ``t = 1, 2, ...`` updates each player in
turn (*alternating updates*: player 1 already sees player 0's new strategy), and after player ``p``'s
traversal her accumulated regrets are multiplied by ``positive(t)`` where positive and by ``negative(t)``
where negative, then clipped at 0 when ``clip`` (regret matching+); her strategy at iteration ``t``
enters the average with weight ``weight(t)`` times her own reach probability.

* **CFR** (Zinkevich et al. 2007): no discount, every iteration weight 1.
* **CFR+** (Tammelin 2014; Tammelin, Burch, Johanson and Bowling 2015): regrets clipped at 0, the
  average weighted by ``max(t - delay, 0)`` (linear averaging; the paper's averaging delay ``d``).
  ``delay=0`` is OpenSpiel's ``CFRPlusSolver`` (C++ and Python): the same schedule step for step, so the
  same exploitability after the same iterations.
* **Discounted CFR** (Brown and Sandholm 2019): positive regrets times ``t**alpha / (t**alpha + 1)``,
  negative ones times ``t**beta / (t**beta + 1)``, the average weighted by ``t**gamma``; the published
  defaults alpha = 1.5, beta = 0, gamma = 2 (OpenSpiel's ``DCFRSolver``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ricochet_math.arguments import check_finite, check_whole
from ricochet_math.errors import RicochetError

__all__ = ["Schedule", "vanilla_cfr", "cfr_plus", "dcfr", "schedule_named", "SOLVERS"]


@dataclass(frozen=True)
class Schedule:
    """One full-tree solver: ``name``, its parameters, and the per-iteration factors."""

    name: str
    clip: bool = False
    delay: int = 0
    alpha: float | None = None
    beta: float | None = None
    gamma: float | None = None
    linear: bool = False

    def factors(self, t0: int, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(positive, negative, weight)`` for iterations ``t0 + 1 .. t0 + count``."""
        t = np.arange(t0 + 1, t0 + count + 1, dtype=np.float64)
        if self.alpha is not None:  # discounted
            ta, tb = t ** self.alpha, t ** self.beta
            return ta / (ta + 1.0), tb / (tb + 1.0), t ** self.gamma
        ones = np.ones_like(t)
        weight = np.maximum(t - self.delay, 0.0) if self.linear else ones
        return ones, ones, weight

    @property
    def parameters(self) -> dict:
        """The parameters that define the schedule (recorded in results and checkpoints)."""
        out = {"solver": self.name, "clip": self.clip, "linear": self.linear, "delay": self.delay}
        if self.alpha is not None:
            out.update(alpha=self.alpha, beta=self.beta, gamma=self.gamma)
        return out


def vanilla_cfr() -> Schedule:
    """Vanilla CFR with alternating updates (regret matching, uniform average)."""
    return Schedule("cfr")


def cfr_plus(delay: int = 0) -> Schedule:
    """CFR+: regret matching+, linear averaging after ``delay`` iterations (0: OpenSpiel's schedule)."""
    return Schedule("cfr+", clip=True, linear=True, delay=check_whole(delay, "delay", low=0))


def dcfr(alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0) -> Schedule:
    """Discounted CFR(alpha, beta, gamma); the defaults are the published 1.5, 0, 2."""
    return Schedule("dcfr", alpha=check_finite(alpha, "alpha", low=0.0, high=100.0),
                    beta=check_finite(beta, "beta", low=-100.0, high=100.0),
                    gamma=check_finite(gamma, "gamma", low=0.0, high=100.0))


#: the full-tree solvers by name
SOLVERS = {"cfr": vanilla_cfr, "cfr+": cfr_plus, "dcfr": dcfr}


def schedule_named(name: str) -> Schedule:
    """The schedule of a solver name with its default parameters."""
    if name not in SOLVERS:
        raise RicochetError(f"unknown full-tree solver {name!r}; choose one of {', '.join(SOLVERS)}")
    return SOLVERS[name]()
