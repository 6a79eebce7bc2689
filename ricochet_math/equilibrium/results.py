"""What a solve returns: the average strategy, the exploitability curve and the timings, as data."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ricochet_math.equilibrium.tree import GameTree

__all__ = ["SolveResult"]


@dataclass(frozen=True, eq=False)
class SolveResult:
    """A solve of ``game`` by ``solver`` for ``iterations`` iterations.

    ``average``: the average strategy (entry array of ``tree``; the profile that converges to an
    equilibrium); ``values``: each player's expected utility under it (chips); ``curve_iterations`` and
    ``curve_nash_conv``: the exploitability (NashConv, chips) measured after those iterations;
    ``solve_seconds``: time in the solver's iterations (this run, not before a resume), ``measure_seconds``:
    time in the measurements; ``resumed_from``: the iterations a checkpoint held when this run started.
    """

    game: str
    solver: str
    parameters: dict
    seed: int | None
    iterations: int
    average: np.ndarray
    values: tuple[float, ...]
    curve_iterations: np.ndarray
    curve_nash_conv: np.ndarray
    solve_seconds: float
    measure_seconds: float
    resumed_from: int
    tree: GameTree = field(repr=False)

    @property
    def exploitability(self) -> float:
        """NashConv of the average strategy after the last iteration (chips)."""
        return float(self.curve_nash_conv[-1])

    @property
    def iterations_per_second(self) -> float:
        """Iterations of this run per second of solver time."""
        done = self.iterations - self.resumed_from
        return done / self.solve_seconds if self.solve_seconds > 0 else float("nan")

    def strategy(self) -> dict[str, dict[str, float]]:
        """``{information-set key: {action: probability}}`` of the average strategy."""
        t = self.tree
        return {key: {a: float(self.average[t.offset[i] + j]) for j, a in enumerate(t.actions[i])}
                for i, key in enumerate(t.keys)}

    def to_frame(self):
        """The average strategy: one row per information set and action (``infoset``, ``player``,
        ``action``, ``probability``)."""
        import pandas as pd

        t = self.tree
        counts = np.diff(t.offset)
        return pd.DataFrame({
            "infoset": np.repeat(np.array(t.keys, dtype=object), counts),
            "player": t.entry_player.astype(int),
            "action": [a for acts in t.actions for a in acts],
            "probability": self.average,
        })

    def curve_frame(self):
        """The exploitability curve: ``iteration``, ``nash_conv`` (chips) and OpenSpiel's ``exploitability``
        (NashConv per player)."""
        import pandas as pd

        return pd.DataFrame({"iteration": self.curve_iterations.astype(int), "nash_conv": self.curve_nash_conv,
                             "openspiel_exploitability": self.curve_nash_conv / self.tree.num_players})

    def summary(self) -> str:
        seed = f", seed {self.seed}" if self.seed is not None else ""
        resumed = f", resumed at iteration {self.resumed_from:,}" if self.resumed_from else ""
        return (f"{self.game}, {self.solver}{seed}: {self.iterations:,} iterations{resumed}; exploitability "
                f"(NashConv) {self.exploitability:.6g} chips; values {', '.join(f'{v:+.6f}' for v in self.values)}; "
                f"{self.iterations_per_second:,.0f} iterations/s")
