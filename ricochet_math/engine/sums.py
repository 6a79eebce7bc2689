"""The sums a batch of rounds leaves: their layout, declared once, and :class:`ChunkSums`.

A Monte Carlo run keeps no round, only running sums: per seat and per acting
position the columns :data:`SEAT_FIELDS` (layout :data:`SeatSum`), per round
the columns :data:`ROUND_FIELDS` (layout :data:`RoundSum`).  The kernel writes
them by layout member; everything else reads them by name.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from ricochet_math.engine import controls as cv
from ricochet_math.rules.layout import layout

__all__ = ["N_CATEGORIES", "SEAT_FIELDS", "SeatSum", "N_SEAT_FIELDS", "ROUND_FIELDS", "RoundSum", "N_ROUND_FIELDS",
           "ChunkSums"]

#: final five-card categories counted: 0..8 as the evaluator, 9 = royal flush
N_CATEGORIES = 10

#: Per-seat sums (one row per seat, one per acting position, and the per-round
#: totals over seats): the column names, in order.
SEAT_FIELDS = (
    "wagered", "returned", "net", "net_sq", "pot_share", "bonus",
    "fold", "play", "win", "auto_win", "beaten", "hit", "bonus_hit", "split_win",
    "quickdraw", "quickdraw_win", "returned_sq", "wagered_sq", "returned_wagered",
) + tuple(f"hand_{c}" for c in range(N_CATEGORIES)) + tuple(f"bonus_{c}" for c in range(N_CATEGORIES))
SeatSum = layout("SeatSum", SEAT_FIELDS, module=__name__)
N_SEAT_FIELDS = len(SEAT_FIELDS)

#: Per-round sums: the column names, in order.
ROUND_FIELDS = (
    "rounds", "kicked", "pot", "pot_sq", "house_takes_pot", "house_net", "house_net_sq",
    "auto_win", "all_fold", "split", "cover", "cover_sq", "cover_win", "total_returned_wagered",
)
RoundSum = layout("RoundSum", ROUND_FIELDS, module=__name__)
N_ROUND_FIELDS = len(ROUND_FIELDS)


@dataclass(frozen=True, eq=False)
class ChunkSums:
    """Running sums of a block of rounds (see :data:`SEAT_FIELDS`, :data:`ROUND_FIELDS`).

    ``seat``/``position``: ``float64[N, len(SEAT_FIELDS)]`` by seat and by
    acting position; ``total``/``total_sq``: the per-round sum over seats and
    its square, summed over rounds (for confidence intervals of pooled rates);
    ``round``: ``float64[len(ROUND_FIELDS)]``.  Sums add exactly for counts;
    money sums are float64 and added in chunk order by :mod:`ricochet_math.solvers.montecarlo`.
    """

    seat: np.ndarray
    position: np.ndarray
    total: np.ndarray
    total_sq: np.ndarray
    round: np.ndarray
    controls: np.ndarray = field(default_factory=lambda: np.zeros((2, 0, 0)))

    KEYS = ("seat", "position", "total", "total_sq", "round", "controls")

    @classmethod
    def zeros(cls, players: int, controls: bool = False) -> ChunkSums:
        k = cv.n_u(players) if controls else 0
        return cls(np.zeros((players, N_SEAT_FIELDS)), np.zeros((players, N_SEAT_FIELDS)),
                   np.zeros(N_SEAT_FIELDS), np.zeros(N_SEAT_FIELDS), np.zeros(N_ROUND_FIELDS), np.zeros((2, k, k)))

    def __add__(self, other: ChunkSums) -> ChunkSums:
        if self.controls.shape != other.controls.shape:
            raise ValueError("cannot add sums recorded with and without control variates")
        return ChunkSums(self.seat + other.seat, self.position + other.position, self.total + other.total,
                         self.total_sq + other.total_sq, self.round + other.round, self.controls + other.controls)

    def in_half(self, half: int) -> ChunkSums:
        """The same sums with the control-variate sums moved to ``half`` (0: even chunks, 1: odd chunks)."""
        c = np.zeros_like(self.controls)
        c[half] = self.controls.sum(axis=0)
        return replace(self, controls=c)

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {k: getattr(self, k) for k in self.KEYS}

    @classmethod
    def from_arrays(cls, arrays) -> ChunkSums:
        return cls(*(np.array(arrays[k], dtype=np.float64) for k in cls.KEYS))
