"""What every exactly counted side bet reports from its exact RTP (per unit staked)."""
from __future__ import annotations

__all__ = ["ExactBet"]


class ExactBet:
    """Mixin for a result with an exact ``rtp_fraction`` (a :class:`fractions.Fraction`, per unit staked):
    the same figure as a float and the house edge."""

    @property
    def rtp(self) -> float:
        """Expected return per unit staked (stake included), from :attr:`rtp_fraction`."""
        return float(self.rtp_fraction)

    @property
    def house_edge(self) -> float:
        """1 - RTP, per unit staked."""
        return 1.0 - self.rtp
