"""One pot of Rococo Poker played readably from a seed: the hand history a player can read.

The pot is played by the batch kernel (which records its games) and every game is replayed on the
readable engine, which writes the history; the two must agree (:class:`AssertionError` otherwise).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ricochet_math.arguments import check_instance, check_seed
from ricochet_math.errors import StrategyError, quote
from ricochet_math.games.rococo.betting import keep_tables, policy, policy_rows
from ricochet_math.games.rococo.engine import OUTCOMES, GameRecord, play_dealt
from ricochet_math.games.rococo.kernel import batch_player
from ricochet_math.games.rococo.rules import MAX_PLAYERS, RococoRules

__all__ = ["PotHistory", "play_pot"]


@dataclass(frozen=True)
class PotHistory:
    """The games of one pot, each with its readable history, and each seat's net result."""

    games: tuple
    net: tuple
    seed: int

    def text(self) -> str:
        parts = []
        for i, g in enumerate(self.games, 1):
            parts.append(f"--- game {i} ({OUTCOMES[g.outcome]})")
            parts.append(g.text())
        parts.append("net: " + ", ".join(f"seat {s + 1} {v:+g}" for s, v in enumerate(self.net)))
        return "\n".join(parts)

    def summary(self) -> str:
        return self.text()

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame({"seat": range(1, len(self.net) + 1), "net": self.net})


def play_pot(policies=("standard", "standard"), seed: int = 2026, *, rules: RococoRules | None = None) -> PotHistory:
    """Play one pot (until a game is won) with one policy per seat and return its history."""
    seed = check_seed(seed, allow_none=False)
    if isinstance(policies, (str, bytes)) or not hasattr(policies, "__iter__"):
        raise StrategyError(f"policies must be a list of one policy per seat, got {quote(policies)}")
    ps = [policy(p) for p in policies]
    if not 2 <= len(ps) <= MAX_PLAYERS:
        raise StrategyError(f"a Rococo table seats 2 to {MAX_PLAYERS} players, got {len(ps)} policies")
    rules = replace(check_instance(rules, RococoRules, "rules", allow_none=True) or RococoRules(), players=len(ps))
    out = batch_player(rules, ps, record=rules.carry_limit + 2)(np.random.SeedSequence(seed), 1)
    rows, rates = policy_rows(ps, rules)
    tables = keep_tables(rules.players)
    P = rules.players
    games: list[GameRecord] = []
    net = np.zeros(P)
    for r in out["records"]:
        deck = r[30: 30 + 8 * P].astype(np.int64)
        g = play_dealt(rules, rows, rates, tables, deck, float(r[3]), int(r[0]), float(r[1]), bool(r[2]))
        stakes = [r[6 + 4 * s] for s in range(P)]
        pays = [r[7 + 4 * s] for s in range(P)]
        if g.contributions != stakes or not np.allclose(g.payouts, pays) or g.outcome != int(r[5]):
            raise AssertionError("the readable engine and the kernel disagree on a game")
        games.append(g)
        net += np.array(g.payouts) - np.array(g.contributions)
    if not np.allclose(net, out["net"]):
        raise AssertionError("the readable engine and the kernel disagree on the pot")
    return PotHistory(tuple(games), tuple(float(x) for x in net), seed)
