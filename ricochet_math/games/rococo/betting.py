"""Betting policies for Rococo Poker: hand-strength thresholds, a blind-game frequency, a draw rule.

A policy is a small frozen dataclass; thresholds are hand patterns (``"JJ"``, ``"two pair"``,
``"flush"``: the weakest hand of that pattern, :func:`~ricochet_math.evaluator.names.pattern_value`).

* Blind phase (the first player has not looked): the first player declares a blind of
  ``blind_amount`` with probability ``blind_rate``; a player facing a blind or a raise there, having
  seen his five dealt cards, raises by ``raise_amount`` with ``blind_raise`` or better (while raises
  remain), calls with ``blind_call`` or better, else folds; the blind player himself, still blind,
  calls a raise when ``blind_defend`` and folds otherwise.
* Exchange: ``draw = "optimal"`` keeps the fixed-point best keep against the players still in
  (:mod:`~ricochet_math.games.rococo.solver`); ``"naive"`` keeps the made hand (:func:`~ricochet_math.games.rococo.strategy.naive_keep`).
* Betting round, by the final hand: nobody has raised -> raise with ``open`` or better, else check;
  facing a raise -> re-raise with ``reraise`` or better (while raises remain), call with ``call`` or
  better, else fold.  ``None`` means never.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import lru_cache

import numpy as np

from ricochet_math.errors import PatternError, StrategyError, quote
from ricochet_math.evaluator.evaluation import NUM_VALUES
from ricochet_math.evaluator.names import pattern_value

__all__ = ["BettingPolicy", "POLICIES", "policy", "policy_rows", "keep_tables", "Slot", "NEVER"]

#: a threshold no hand reaches
NEVER = NUM_VALUES


class Slot:
    """Columns of a policy row in the kernel (int64)."""

    BLIND_AMOUNT, BLIND_CALL, BLIND_RAISE, BLIND_DEFEND, OPEN, CALL, RERAISE, RAISE_AMOUNT, NAIVE = range(9)
    WIDTH = 9


@dataclass(frozen=True)
class BettingPolicy:
    """One player's policy (see the module text); thresholds are hand patterns or ``None`` (never)."""

    name: str = "custom"
    blind_rate: float = 0.0
    blind_amount: int = 1
    blind_call: str | None = "99"
    blind_raise: str | None = None
    blind_defend: bool = True
    open: str | None = "two pair"
    call: str | None = "JJ"
    reraise: str | None = None
    raise_amount: int = 1
    draw: str = "optimal"

    def __post_init__(self) -> None:
        where = f"policy {self.name!r}"
        if isinstance(self.blind_rate, (bool, str)) or not isinstance(self.blind_rate, (int, float)) or \
                not 0.0 <= float(self.blind_rate) <= 1.0:
            raise StrategyError(f"{where}: blind_rate must be from 0 to 1, got {quote(self.blind_rate)}")
        if isinstance(self.blind_amount, bool) or not isinstance(self.blind_amount, int) or \
                not 1 <= self.blind_amount <= 10**6:
            raise StrategyError(f"{where}: blind_amount must be a whole number of chips from 1 to 1,000,000, "
                                f"got {quote(self.blind_amount)}")
        if self.draw not in ("optimal", "naive"):
            raise StrategyError(f"{where}: draw must be optimal or naive, got {quote(self.draw)}")
        for f in ("blind_call", "blind_raise", "open", "call", "reraise"):
            self.threshold(f)

    def threshold(self, field: str) -> int:
        """The hand value a threshold field stands for (``NEVER`` for ``None``)."""
        text = getattr(self, field)
        if text is None:
            return NEVER
        try:
            return int(pattern_value(text))
        except PatternError as exc:  # name the policy and the field
            raise StrategyError(f"policy {quote(self.name)}, {field}: {exc}") from None

    def row(self, rules) -> np.ndarray:
        """The kernel row of this policy (bet sizes clipped to the table's limits)."""
        clip = lambda x: min(max(int(x), rules.min_bet), rules.max_bet)  # noqa: E731
        out = np.zeros(Slot.WIDTH, dtype=np.int64)
        out[Slot.BLIND_AMOUNT] = clip(self.blind_amount)
        out[Slot.BLIND_CALL] = self.threshold("blind_call")
        out[Slot.BLIND_RAISE] = self.threshold("blind_raise")
        out[Slot.BLIND_DEFEND] = int(bool(self.blind_defend))
        out[Slot.OPEN] = self.threshold("open")
        out[Slot.CALL] = self.threshold("call")
        out[Slot.RERAISE] = self.threshold("reraise")
        out[Slot.RAISE_AMOUNT] = clip(self.raise_amount)
        out[Slot.NAIVE] = int(self.draw == "naive")
        return out

    def with_(self, **changes) -> BettingPolicy:
        return replace(self, **changes)

    def describe(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)}" for f in fields(self) if f.name != "name"]
        return f"{self.name}: " + ", ".join(parts)


#: the built-in policies (documented in docs/rococo-poker.md)
POLICIES = {
    "passive": BettingPolicy("passive", open=None, call="high card", blind_call="high card"),
    "tight": BettingPolicy("tight", open="three of a kind", call="two pair", blind_call="JJ", reraise="flush"),
    "standard": BettingPolicy("standard"),
    "loose": BettingPolicy("loose", open="99", call="77", blind_call="22", reraise="three of a kind",
                           raise_amount=3),
    "blinder": BettingPolicy("blinder", blind_rate=1.0, blind_amount=2),
    "naive": BettingPolicy("naive", draw="naive"),
}


def policy(spec) -> BettingPolicy:
    """A policy by name (``standard``) or the policy itself."""
    if isinstance(spec, BettingPolicy):
        return spec
    if isinstance(spec, str) and spec.strip() in POLICIES:  # a list is not a name (and unhashable)
        return POLICIES[spec.strip()]
    raise StrategyError(f"unknown Rococo policy {quote(spec)}; choose one of {', '.join(POLICIES)}")


def policy_rows(policies, rules) -> tuple[np.ndarray, np.ndarray]:
    """``(int64[players, WIDTH] rows, float64[players] blind rates)`` for the kernel."""
    ps = [policy(p) for p in policies]
    if len(ps) != rules.players:
        raise StrategyError(f"{len(ps)} policies for {rules.players} players")
    return (np.stack([p.row(rules) for p in ps]),
            np.array([float(p.blind_rate) if rules.blind else 0.0 for p in ps]))


@lru_cache(maxsize=8)
def keep_tables(players: int) -> np.ndarray:
    """``uint8[6, 2,598,960]``: row 0 the naive keep of every hand, row ``n`` (1..players-1) the optimal
    keep against ``n`` opponents (positions in :data:`~.draw.KEEPS`); other rows unused (zeros)."""
    from ricochet_math.games.rococo.solver import solve_draws
    from ricochet_math.games.rococo.strategy import naive_keeps_all

    from ricochet_math.games.rococo.draw import N_HANDS

    out = np.zeros((6, N_HANDS), dtype=np.uint8)
    out[0] = naive_keeps_all()
    for n in range(1, players):
        out[n] = solve_draws(n).hand_keep
    out.setflags(write=False)
    return out
