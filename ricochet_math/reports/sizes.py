"""How much a report computes: the sizes ``tiny``, ``small`` and ``full``.

A size fixes the Monte Carlo effort of every part of the report (all counts
are rounds per player count) and, for the tests only, a sampled N = 1
analysis.  ``build_report(rounds=...)`` overrides the solver-reading rounds.

How the full size's precision was chosen: every N >= 2 perfect-play run is sized to a
95% half-width of 0.05 percentage points on the RTP per initial bet (the published
perfect-play RTPs differ from each other by about one point and from ours by tenths, so
0.05 pp separates every comparison the report makes); each other solver reading in the
published-figures comparison to 0.1 pp (those rows rank readings, which differ by
tenths of a point to points).  A pilot run on its own seed measures the controlled
estimator's error and the main run plays the fixed number of rounds that reaches the
target (:func:`~ricochet_math.solvers.montecarlo.simulate_to_precision`), so the
figures come from the main run alone and ``simulate(rounds=..., seed=...)`` reproduces
each.  The table-free runs (weak players) stay at fixed counts: they cost seconds.
"""
from __future__ import annotations

from dataclasses import dataclass

from ricochet_math.reports.published import WEAK_PROFILES
from ricochet_math.strategies.perfect import READING_NAMES

__all__ = ["ReportSize", "SIZES", "PUBLISHER_LIKE"]

#: the reading the best-response table plays against (spec: "publisher-like")
PUBLISHER_LIKE = "pot-odds-final"


@dataclass(frozen=True)
class ReportSize:
    """How much Monte Carlo a report runs (every count is rounds per player count).

    ``rounds``: perfect play and each solver reading (the published-figures
    comparison) at N >= 2; ``solo_rounds``: a perfect-play simulation at N = 1
    to reconcile with the exact figures; weak profiles run ``max(rounds,
    50_000)`` rounds (as :func:`~ricochet_math.reports.published.published_figures`
    does); ``response_rounds``: one perfect seat among publisher-like
    players; ``distribution_rounds``: rounds recorded one by one for the
    distribution of a seat's net result; ``solo_classes``: ``None`` for the
    exact N = 1 analysis over all 169 starting-hand classes, or a few class
    indices (tests only: the N = 1 figures then cover those classes only);
    ``precision`` / ``reading_precision``: 95% half-widths in percentage points of the RTP per
    initial bet that size each N >= 2 perfect-play run and each other solver reading's run
    (None: ``rounds`` rounds each; a ``rounds`` given to the build also means fixed rounds).
    """

    name: str
    rounds: int
    solo_rounds: int
    response_rounds: int
    distribution_rounds: int
    solo_classes: tuple[int, ...] | None = None
    weak_profiles: tuple[str, ...] = WEAK_PROFILES
    readings: tuple[str, ...] = READING_NAMES
    note: str = ""
    precision: float | None = None
    reading_precision: float | None = None

    def sized(self, rounds: int) -> bool:
        """Whether a build with ``rounds`` sizes its runs to ``precision`` (a rounds count of its own
        means fixed rounds)."""
        return self.precision is not None and rounds == self.rounds

    def weak_rounds(self, rounds: int | None = None) -> int:
        return max(int(rounds if rounds is not None else self.rounds), 50_000)


SIZES: dict[str, ReportSize] = {
    "tiny": ReportSize(
        "tiny", rounds=200, solo_rounds=2_000, response_rounds=200, distribution_rounds=200,
        solo_classes=(0, 84), weak_profiles=("timid", "chaser"),
        readings=("perfect", "perfect-no-bonus", "pot-odds-final"),
        note="TEST SIZE: the N = 1 analysis covers 2 of the 169 starting-hand classes and the Monte Carlo "
             "runs are a few hundred rounds; no figure in this report means anything."),
    "small": ReportSize(
        "small", rounds=2_000, solo_rounds=20_000, response_rounds=1_000, distribution_rounds=1_000,
        note="SMALL SIZE: N = 1 is exact, but the perfect-play Monte Carlo runs at N >= 2 are 2,000 rounds per "
             "player count, so their 95% intervals on RTP are several percent wide: they show the shape, not a "
             "certifiable figure. Build with size 'full' for a lab."),
    "full": ReportSize(
        "full", rounds=200_000, solo_rounds=2_000_000, response_rounds=100_000, distribution_rounds=20_000,
        precision=0.05, reading_precision=0.1,
        note="FULL SIZE: N = 1 exact; every N >= 2 perfect-play run is sized by a pilot run (its own seed) to a "
             "95% half-width of 0.05 percentage points on the RTP per initial bet, and every other solver "
             "reading's run to 0.1 points (control variates of exactly known mean); each table row names the "
             "rounds its run played. The weak-player and best-response runs play fixed counts."),
}
