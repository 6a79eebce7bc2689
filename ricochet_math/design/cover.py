"""Cover, exact: the side bet on the dealer's five cards alone, and a progressive Cover jackpot.

Amounts are per unit staked on the bet; RTP, hit frequency and standard
deviation are as defined in :mod:`ricochet_math.design.sidebets` ("Units and
conventions").

Cover
-----
Pays on the dealer's five cards alone; the exact distribution is
:func:`ricochet_math.evaluator.evaluation.value_counts_5` over the 2,598,960 hands.  A
paytable line pays when the dealer's value is at or above its threshold and
below the next higher line (:meth:`ricochet_math.rules.ruleset.Paytable.payout`).  A
line paying ``0`` loses like a hand below every line (as the game engine
settles it).  See :func:`cover`.

The shipped default (``paytables/publisher.toml``)::

    pair of fives or better 1, two pair 2, three of a kind 3, straight 5,
    flush 7, full house 10, four of a kind 50, straight flush 200,
    royal flush 2000

has RTP 95.0463% (house edge 4.9537%), hit frequency 40.1307% (1,042,980 of
2,598,960 hands), standard deviation 2.9918 per unit staked.  The ladder
roughly doubles the pay for each step up in rarity through the full house,
then jumps for the rare hands; the royal flush's 2000 to 1 is the "large
jackpot" (it adds 0.31% to the RTP and most of the variance).

Progressive Cover
-----------------
:func:`cover_progressive`: the royal line pays the jackpot meter ``M`` to 1;
the meter restarts at ``reset`` after a hit and grows by ``meter_rate`` of
every wager.  RTP(M) = RTP of the other lines + P(royal) (1 + M); the
break-even meter solves RTP(M) = 1; the long-run RTP counts the meter's growth
as paid back to players: other lines + P(royal)(1 + reset) + meter_rate.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from ricochet_math.design.bet import ExactBet
from ricochet_math.errors import RuleError, quote
from ricochet_math.evaluator.evaluation import NUM_VALUES, ROYAL_FLUSH_VALUE, value_counts_5
from ricochet_math.evaluator.names import describe
from ricochet_math.rules.ruleset import Paytable, RuleSet, load_rules

__all__ = [
    "DEALS_COVER", "CoverLine", "CoverResult", "cover", "cover_lines", "cover_paytable",
    "ProgressiveResult", "cover_progressive",
]

DEALS_COVER = math.comb(52, 5)  # 2,598,960


# =========================================================================
# Cover
# =========================================================================

@dataclass(frozen=True)
class CoverLine:
    """One Cover line's share of the 2,598,960 dealer hands."""

    key: str
    hand_pattern: str
    threshold: int
    pays: float
    combinations: int


def cover_paytable(source: RuleSet | Paytable | str | None = None) -> Paytable:
    """The Cover paytable of ``source``: a paytable as it is, else the ``[cover]`` of the rule set
    (or rule-set name; default ``publisher``)."""
    if isinstance(source, Paytable):
        return source
    return load_rules(source).cover


def cover_lines(paytable: Paytable) -> np.ndarray:
    """``int64[7462]``: index of the line paying each dealer value (-1 for none).

    The line with the highest threshold at or below the value; between lines
    sharing a threshold, the later one (as :meth:`Paytable.payout`).
    """
    out = np.full(NUM_VALUES, -1, dtype=np.int64)
    best = np.full(NUM_VALUES, -1, dtype=np.int64)
    for i, line in enumerate(paytable.lines):
        t = line.value()
        take = np.arange(NUM_VALUES) >= t
        take &= best <= t
        out[take] = i
        best[take] = t
    return out


@lru_cache(maxsize=1)
def _value_counts() -> np.ndarray:
    counts = value_counts_5()
    counts.setflags(write=False)
    return counts


@dataclass(frozen=True, eq=False)
class CoverResult(ExactBet):
    """Exact Cover figures for one paytable, over the dealer's 2,598,960 hands.

    ``lines`` are in ascending threshold order (file order between equal
    thresholds), each with the number of hands it pays; ``losing`` hands reach
    no line.  A line pays ``pays`` to 1 (returns ``1 + pays``); a line paying 0
    loses like no line.
    """

    paytable: Paytable
    lines: tuple[CoverLine, ...]
    losing: int
    hands: int = DEALS_COVER
    method: str = "exact"

    @property
    def rtp_fraction(self) -> Fraction:
        """RTP as an exact fraction: sum over paying lines of P(line) (1 + pays)."""
        total = sum(Fraction(l.combinations) * (1 + Fraction(l.pays)) for l in self.lines if l.pays > 0)
        return total / self.hands

    @property
    def hit_frequency(self) -> float:
        """P(the dealer's hand reaches a line paying more than 0)."""
        return sum(l.combinations for l in self.lines if l.pays > 0) / self.hands

    @property
    def std_dev(self) -> float:
        """Standard deviation of the return per unit staked."""
        p = np.array([l.combinations for l in self.lines], dtype=np.float64) / self.hands
        ret = np.array([1.0 + l.pays if l.pays > 0 else 0.0 for l in self.lines])
        mean = float(p @ ret)
        second = float(p @ ret**2)
        return math.sqrt(max(second - mean * mean, 0.0))

    def to_frame(self):
        """The return table: one row per line plus a ``(no line)`` row.

        Columns: ``key``, ``hand`` (threshold pattern), ``from`` (its hand,
        described), ``combinations`` (of 2,598,960), ``probability``, ``pays``
        (to 1), ``return`` (``1 + pays``; 0 for no line or a line paying 0), ``rtp_contribution``
        (``probability * return``; sums to the RTP).
        """

        rows = [("(no line)", "", "", self.losing, 0.0, 0.0)]
        rows += [(l.key, l.hand_pattern, describe(l.threshold), l.combinations, float(l.pays),
                  1.0 + l.pays if l.pays > 0 else 0.0) for l in self.lines]
        frame = pd.DataFrame(rows, columns=["key", "hand", "from", "combinations", "pays", "return"])
        frame.insert(4, "probability", frame["combinations"] / self.hands)
        frame["rtp_contribution"] = frame["probability"] * frame["return"]
        return frame

    def summary(self) -> str:
        table = ", ".join(f"{l.key} {l.pays:g}" for l in self.lines)
        return (
            f"Cover ({self.method}, {self.hands:,} dealer hands): {table}\n"
            f"  RTP {self.rtp:.4%} per unit staked (house edge {self.house_edge:.4%}); "
            f"hit frequency {self.hit_frequency:.4%}; std dev {self.std_dev:.4f}"
        )


def cover(source: RuleSet | Paytable | str | None = None, **pays: float) -> CoverResult:
    """Exact Cover return table for a rule set's (or any) paytable.

    ``source``: a rule set, rule-set name (default ``publisher``) or a
    :class:`~ricochet_math.rules.ruleset.Paytable`; keyword arguments change line
    payouts (``cover(royal_flush=5000)``).

    >>> r = cover()
    >>> r.rtp_fraction, round(r.rtp, 6), round(r.hit_frequency, 6)
    (Fraction(44111, 46410), 0.950463, 0.401307)
    """
    table = cover_paytable(source)
    if pays:
        table = table.with_pays(**pays)
    if not len(table):
        raise RuleError("the Cover paytable has no lines")
    counts = _value_counts()
    line_of = cover_lines(table)
    per_line = np.bincount(line_of + 1, weights=counts, minlength=len(table) + 1).astype(np.int64)
    order = sorted(range(len(table)), key=lambda i: (table.lines[i].value(), i))
    lines = tuple(
        CoverLine(table.lines[i].key, table.lines[i].hand_pattern, table.lines[i].value(),
                  table.lines[i].pays, int(per_line[i + 1]))
        for i in order
    )
    return CoverResult(paytable=table, lines=lines, losing=int(per_line[0]))


# =========================================================================
# Progressive Cover
# =========================================================================

@dataclass(frozen=True, eq=False)
class ProgressiveResult:
    """Cover with a progressive jackpot line paying the meter ``M`` to 1.

    ``base_rtp`` is the RTP of every other line (including their stake
    return); ``p_jackpot`` the probability of the jackpot line.  Meter values
    are in units of the (fixed) wager.
    """

    cover: CoverResult
    line: str
    reset: float
    meter_rate: float
    base_rtp: float
    p_jackpot: float

    def rtp_at(self, meter) -> float | np.ndarray:
        """RTP of a bet settled while the meter stands at ``meter``: base + P(jackpot)(1 + meter)."""
        m = np.asarray(meter, dtype=np.float64)
        out = self.base_rtp + self.p_jackpot * (1.0 + m)
        return float(out) if out.ndim == 0 else out

    @property
    def break_even_meter(self) -> float:
        """The meter at which a bet has RTP 1 (negative: every meter is above break-even)."""
        return (1.0 - self.base_rtp) / self.p_jackpot - 1.0

    @property
    def rtp_at_reset(self) -> float:
        return self.rtp_at(self.reset)

    @property
    def mean_meter_at_hit(self) -> float:
        """Expected meter when the jackpot hits: reset + meter_rate / P(jackpot)."""
        return self.reset + self.meter_rate / self.p_jackpot

    @property
    def long_run_rtp(self) -> float:
        """RTP over the jackpot cycle: base + P(jackpot)(1 + reset) + meter_rate.

        The meter's growth (``meter_rate`` of every wager) is all paid back to
        a player at the next hit; the house funds each reset.
        """
        return self.base_rtp + self.p_jackpot * (1.0 + self.reset) + self.meter_rate

    def to_frame(self, meters: Sequence[float] | None = None):
        """RTP at a range of meters (default: reset to twice the break-even meter)."""

        if meters is None:
            top = max(self.reset, self.break_even_meter, 1.0) * 2.0
            grain = 10.0 ** max(math.floor(math.log10(top)) - 2, 0)
            meters = np.unique(np.round(np.linspace(self.reset, top, 11) / grain) * grain)
        meters = np.asarray(meters, dtype=np.float64)
        return pd.DataFrame({"meter": meters, "rtp": self.rtp_at(meters) * np.ones_like(meters)})

    def summary(self) -> str:
        return (
            f"Progressive Cover: {self.line} pays the meter (reset {self.reset:g}, "
            f"meter rate {self.meter_rate:.2%} of each wager)\n"
            f"  RTP at reset {self.rtp_at_reset:.4%}; break-even meter {self.break_even_meter:,.0f}; "
            f"mean meter at a hit {self.mean_meter_at_hit:,.0f}; long-run RTP {self.long_run_rtp:.4%}"
        )


def cover_progressive(source: RuleSet | Paytable | str | None = None, *, reset: float, meter_rate: float,
                      line: str | None = None) -> ProgressiveResult:
    """Progressive Cover: the jackpot line (default the royal flush line) pays the meter.

    ``reset``: the meter after a hit (wager units, >= 0); ``meter_rate``: the
    fraction of each wager added to the meter, in [0, 1).  Raises
    :class:`~ricochet_math.errors.RuleError` when the paytable has no such line.

    >>> p = cover_progressive(reset=2000, meter_rate=0.02)
    >>> round(p.break_even_meter), round(p.long_run_rtp, 6)
    (34186, 0.970463)
    """
    table = cover_paytable(source)
    if not (isinstance(reset, (int, float)) and math.isfinite(reset) and reset >= 0):
        raise RuleError(f"progressive reset must be a finite number >= 0, got {quote(reset)}")
    if not (isinstance(meter_rate, (int, float)) and 0 <= meter_rate < 1):
        raise RuleError(f"progressive meter rate must be a fraction in [0, 1), got {quote(meter_rate)}")
    if line is None:
        royal = [l.key for l in table.lines if l.value() == ROYAL_FLUSH_VALUE]
        if not royal:
            raise RuleError("the Cover paytable has no royal flush line for the progressive jackpot")
        line = royal[-1]
    if line not in table:
        raise RuleError(f"the Cover paytable has no line {quote(line)}; lines: {', '.join(table.keys())}")
    result = cover(table)
    (jackpot,) = [l for l in result.lines if l.key == line]
    if jackpot.combinations == 0:
        raise RuleError(f"Cover line {quote(line)} pays no hand (a later line shares its threshold)")
    p_jack = jackpot.combinations / result.hands
    base = sum(l.combinations * (1.0 + l.pays) for l in result.lines if l.key != line and l.pays > 0) / result.hands
    return ProgressiveResult(result, line, float(reset), float(meter_rate), base, p_jack)
