"""What every game's simulation result offers: one shape for the four further games (the casino's
:class:`~ricochet_math.solvers.montecarlo.SimulationResult` is the model).

A game's result is a frozen dataclass (``@dataclass(frozen=True, repr=False)``) holding its rules,
strategies, seed, run time, the count of what it played (``COUNT``: ``games``, ``rounds`` or ``pots``)
and its raw ``sums`` (named numpy arrays that add up over runs).  It writes ``summary() -> dict``
(every figure by name), ``describe() -> str`` (the same for people) and ``to_frame()`` (tidy: one row
per seat or per figure).  Mixing in :class:`GameResult` gives it:

* ``merge(other)``: the pooled result of two independent runs (same rules and strategies, different
  seeds): the sums added name by name, the counts and run times added, the seeds kept (``seeds``);
* ``__repr__`` (the description) and ``_repr_html_`` (the description and the frame, for notebooks).
"""
from __future__ import annotations

import html
from dataclasses import replace
from typing import ClassVar

from ricochet_math.errors import RicochetError

__all__ = ["GameResult"]


class GameResult:
    """Mixin for a game's simulation result (see the module docstring)."""

    COUNT: ClassVar[str] = "games"
    #: fields that must agree for two runs to be pooled (besides the rules' digest)
    SAME: ClassVar[tuple[str, ...]] = ("strategies",)

    # provided by the dataclass: rules, seed, run_time, sums, merged_seeds (a tuple, default ())

    @property
    def seeds(self) -> tuple[int, ...]:
        """The seeds of the runs this result pools (one unless merged)."""
        return (int(self.seed), *self.merged_seeds)

    def merge(self, other):
        """The pooled result of this run and an independent ``other`` (same rules and strategies)."""
        if type(other) is not type(self):
            raise RicochetError(f"can only merge a {type(self).__name__} with another, got {type(other).__name__}")
        if self.rules != other.rules or any(getattr(self, f) != getattr(other, f) for f in self.SAME):
            raise RicochetError(f"can only merge runs of the same rules and {', '.join(self.SAME)}")
        shared = set(self.seeds) & set(other.seeds)
        if shared:
            raise RicochetError(f"runs with the same seed ({sorted(shared)}) repeat the same deals and cannot be merged")
        if set(self.sums) != set(other.sums):
            raise RicochetError("can only merge runs that recorded the same sums")
        sums = {k: self.sums[k] + other.sums[k] for k in self.sums}
        count = getattr(self, self.COUNT) + getattr(other, self.COUNT)
        return replace(self, sums=sums, run_time=self.run_time + other.run_time,
                       merged_seeds=(*self.merged_seeds, *other.seeds), **{self.COUNT: count})

    def __repr__(self) -> str:
        return self.describe()

    def _repr_html_(self) -> str:
        lines = self.describe().splitlines()
        head = f"<p><b>{html.escape(lines[0])}</b></p>" if lines else ""
        rest = "".join(f"{html.escape(x)}<br>" for x in lines[1:])
        return head + (f"<p>{rest}</p>" if rest else "") + self.to_frame().to_html(index=False)
